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

/** The first 32 bits of the fractional part of `root(prime)`, as FIPS 180-4 defines them. */
function fractionBits(prime: number, root: (n: number) => number): number {
  const value = root(prime);
  return ((value - Math.floor(value)) * 0x1_0000_0000) >>> 0;
}

/** The first `count` primes. */
function primes(count: number): number[] {
  const out: number[] = [];
  for (let n = 2; out.length < count; n++) {
    let prime = true;
    for (let i = 0; prime && i < out.length; i++) prime = n % out[i] !== 0;
    if (prime) out.push(n);
  }
  return out;
}

const PRIMES = primes(64);

/** Round constants: cube roots of the first 64 primes. */
const K = new Uint32Array(64);
for (let i = 0; i < 64; i++) K[i] = fractionBits(PRIMES[i], Math.cbrt);

/** Initial hash value: square roots of the first 8 primes. */
const INITIAL = new Uint32Array(8);
for (let i = 0; i < 8; i++) INITIAL[i] = fractionBits(PRIMES[i], Math.sqrt);

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
  const h = Uint32Array.from(INITIAL);
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

/** Hex SHA-256 digest of the UTF-8 bytes of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  const bytes = encoder.encode(text);
  const digest = bytes.length < WEB_CRYPTO_FROM
    ? sha256(bytes)
    : new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (let i = 0; i < digest.length; i++) {
    hex += HEX_DIGITS[digest[i] >> 4] + HEX_DIGITS[digest[i] & 15];
  }
  return hex;
}
