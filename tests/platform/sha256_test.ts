import { assertEquals } from "../helpers/assert.ts";
import { sha256, sha256Hex } from "../../src/platform/sha256.ts";

/** Web Crypto's answer, the oracle the pure code is held to. */
async function webCryptoHex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return hex(digest);
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("[metrics] sha256Hex gives the FIPS 180-4 digests of the standard test messages", async () => {
  assertEquals(
    await sha256Hex(""),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  assertEquals(
    await sha256Hex("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assertEquals(
    await sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

Deno.test("[metrics] the pure digest equals Web Crypto's at every length around the block edges", async () => {
  // 55/56 and 119/120 bytes are where the length field spills into another block.
  for (let length = 0; length <= 200; length++) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + length * 7) & 0xff);
    assertEquals(hex(sha256(bytes)), await webCryptoHex(bytes), `length ${length}`);
  }
});

Deno.test("[metrics] sha256Hex hashes the UTF-8 of any text, short or past the Web Crypto threshold", async () => {
  const texts = [
    "rm -rf build",
    "Bash\u0000rm -rf ~/'ünïcødé' \u{1F600}",
    'session\u0000"C:\\\\Users\\\\me\\\\transcript.jsonl"',
    "x".repeat(16 * 1024 - 1),
    "x".repeat(16 * 1024),
    "é".repeat(10 * 1024),
  ];
  for (const text of texts) {
    const expected = await webCryptoHex(new TextEncoder().encode(text));
    assertEquals(await sha256Hex(text), expected, `${text.length} characters`);
  }
});
