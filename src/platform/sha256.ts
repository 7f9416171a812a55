/**
 * SHA-256 as lowercase hex, on the runtime's built-in Web Crypto, so hashing
 * costs no import.
 *
 * @module
 */

const encoder = new TextEncoder();

/** Hex SHA-256 digest of the UTF-8 bytes of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
