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

/** The text of an input, or `ok: false` once it is past `max` bytes. */
export type BoundedRead = { ok: true; text: string } | { ok: false };

/** The bytes of an input, or `ok: false` once it is past `max` bytes. */
export type BoundedBytes = { ok: true; bytes: Uint8Array } | { ok: false };

/** Reads `reader` to its end as text, stopping once it is past `max` bytes. */
export function readBounded(reader: SyncReader, max: number): BoundedRead {
  const read = readBoundedBytes(reader, max);
  return read.ok ? { ok: true, text: new TextDecoder().decode(read.bytes) } : read;
}

/**
 * Reads `reader` to its end, stopping once it is past `max` bytes. The
 * bytes are not decoded: decoding costs about as much as reading, and a
 * caller that refuses the input by its size never pays for it.
 */
export function readBoundedBytes(reader: SyncReader, max: number): BoundedBytes {
  let buf = new Uint8Array(Math.min(64 * 1024, max + 1));
  let total = 0;
  while (true) {
    if (total === buf.length) {
      if (buf.length > max) return { ok: false };
      const bigger = new Uint8Array(Math.min(buf.length * 4, max + 1));
      bigger.set(buf);
      buf = bigger;
    }
    const n = reader.readSync(buf.subarray(total));
    if (n === null) break;
    total += n;
    if (total > max) return { ok: false };
  }
  return { ok: true, bytes: buf.subarray(0, total) };
}

/**
 * Reads the file at `path` with the same bound. A FIFO is refused before it
 * is opened, since opening one waits for a writer that may never come.
 * Throws the file system's errors (missing, not allowed).
 */
export function readFileBounded(
  path: string,
  max: number,
): BoundedRead | { ok: false; fifo: true } {
  if (Deno.statSync(path).isFifo) return { ok: false, fifo: true };
  using file = Deno.openSync(path, { read: true });
  return readBounded(file, max);
}
