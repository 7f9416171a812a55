/**
 * Reads a whole input with a byte bound: the hook's stdin, or the payload
 * file `gateguard explain` is pointed at. Endless sources (`/dev/zero`, a
 * pipe that never closes its write end after a flood) stop one byte past the
 * bound instead of growing without limit.
 *
 * Synchronous reads skip the streams machinery, which costs milliseconds at
 * start-up.
 *
 * @module
 */

/** Something that reads into a buffer and returns the bytes read, or null at the end. */
export interface SyncReader {
  readSync(p: Uint8Array): number | null;
}

/**
 * An input read to its end: its size in bytes and its bytes, which are null
 * when it was larger than the caller wanted kept; or `ok: false` once it is
 * past the bound.
 */
export type BoundedBytes = { ok: true; size: number; bytes: Uint8Array | null } | { ok: false };

/** The first chunk is small, so a typical payload costs one small read. */
const FIRST_CHUNK = 64 * 1024;
const CHUNK = 1024 * 1024;

/**
 * Reads `reader` to its end, stopping once it is past `max` bytes, and
 * keeps the bytes only of an input of at most `keep` bytes: a larger one is
 * still read, to tell its size, into one reused buffer. Bytes are kept in
 * chunks joined once at the end, and never decoded here: growing one
 * buffer, and decoding, each cost many times the reading itself, and a
 * caller that refuses an input by its size pays for neither.
 */
export function readBoundedBytes(reader: SyncReader, max: number, keep: number): BoundedBytes {
  const chunks: Uint8Array[] = [];
  let chunk = new Uint8Array(Math.min(FIRST_CHUNK, max + 1));
  let filled = 0;
  let total = 0;
  while (true) {
    if (filled === chunk.length) {
      // Past `keep` the chunk is reused: what it held is no longer wanted.
      if (total <= keep) chunks.push(chunk);
      else chunks.length = 0;
      chunk = total <= keep || chunk.length < CHUNK ? new Uint8Array(CHUNK) : chunk;
      filled = 0;
    }
    const n = reader.readSync(
      chunk.subarray(filled, Math.min(chunk.length, filled + max + 1 - total)),
    );
    if (n === null) break;
    filled += n;
    total += n;
    if (total > max) return { ok: false };
  }
  if (total > keep) return { ok: true, size: total, bytes: null };
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  bytes.set(chunk.subarray(0, filled), at);
  return { ok: true, size: total, bytes };
}
