/**
 * SHA-256 (FIPS 180-4) as lowercase hex, in plain synchronous code.
 *
 * Why not only Web Crypto: the hook hashes a few short strings per call (a
 * destructive command's retry key, a session or project fingerprint), and
 * the runtime's first `crypto.subtle.digest` in a process costs about 1.5-2
 * ms, measured in process, against a few tens of microseconds here. Long
 * texts (a command of megabytes) still go to Web Crypto, which hashes them
 * about fifteen times faster once started. The tests hold this code to
 * `crypto.subtle` on many inputs.
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * Round constants: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes (FIPS 180-4, 4.2.2). Written out rather than
 * computed, since the module loads on every call and computing them there
 * took longer than the hash itself.
 */
const K = new Uint32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);

/** Initial hash value: the same bits of the square roots of the first 8 primes (5.3.3). */
const INITIAL = [
  0x6a09e667,
  0xbb67ae85,
  0x3c6ef372,
  0xa54ff53a,
  0x510e527f,
  0x9b05688c,
  0x1f83d9ab,
  0x5be0cd19,
];

/**
 * SHA-256 digest of `bytes`. Written for a process that hashes once: no
 * DataView, iterators or callbacks, which cost most when code runs for the
 * first time.
 */
export function sha256(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  // The message padded to whole 64-byte blocks, its bit length in the last 8 bytes.
  const length = Math.ceil((bytes.length + 9) / 64) * 64;
  const message = new Uint8Array(length);
  message.set(bytes);
  message[bytes.length] = 0x80;
  const bits = bytes.length * 8;
  const high = Math.floor(bits / 0x1_0000_0000);
  for (let i = 0; i < 4; i++) {
    message[length - 8 + i] = (high >>> (24 - 8 * i)) & 0xff;
    message[length - 4 + i] = (bits >>> (24 - 8 * i)) & 0xff;
  }
  const h = new Uint32Array(INITIAL);
  const w = new Uint32Array(64);
  for (let block = 0; block < length; block += 64) {
    for (let i = 0; i < 16; i++) {
      const at = block + i * 4;
      w[i] = (message[at] << 24) | (message[at + 1] << 16) | (message[at + 2] << 8) |
        message[at + 3];
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15], y = w[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const choose = (e & f) ^ (~e & g);
      const t1 = (hh + s1 + choose + K[i] + w[i]) >>> 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + majority) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = (h[i >> 2] >>> (24 - 8 * (i & 3))) & 0xff;
  return out;
}

const HEX_DIGITS = "0123456789abcdef";

/** Input bytes from which Web Crypto's start-up cost is worth paying. */
const WEB_CRYPTO_FROM = 16 * 1024;

/** Hex SHA-256 digest of `bytes`: short inputs in plain code, long ones on Web Crypto. */
export async function sha256BytesHex(bytes: Uint8Array): Promise<string> {
  const digest = bytes.length < WEB_CRYPTO_FROM
    ? sha256(bytes)
    : new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
  let hex = "";
  for (let i = 0; i < digest.length; i++) {
    hex += HEX_DIGITS[digest[i] >> 4] + HEX_DIGITS[digest[i] & 15];
  }
  return hex;
}

/** Hex SHA-256 digest of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): Promise<string> {
  return sha256BytesHex(encoder.encode(text));
}
