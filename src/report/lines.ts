/**
 * Streams the lines of a file in fixed-size chunks, so the report's memory
 * does not grow with the file and one endless line cannot exhaust it.
 *
 * @module
 */

import { errorCode, type FsErrorCode } from "../platform/fs_port.ts";

/** How reading one file ended. */
export type ReadOutcome =
  | { kind: "read" }
  | { kind: "missing" }
  | { kind: "error"; reason: string };

const CHUNK_BYTES = 64 * 1024;

const REASONS: Record<FsErrorCode, string> = {
  ENOENT: "no such file",
  ENOTDIR: "a path component is not a directory",
  EACCES: "permission denied",
  ELOOP: "too many symbolic links",
  EOTHER: "read failed",
};

function failure(err: unknown): ReadOutcome {
  const code = errorCode(err);
  return code === "ENOENT" ? { kind: "missing" } : { kind: "error", reason: REASONS[code] };
}

/**
 * Calls `onLine` for every non-empty line of the regular file at `path`
 * (a trailing `\r` removed). A line longer than `maxChars` is passed as
 * null without being kept in memory. A missing file is `missing`; anything
 * else that stops the read (not a regular file, no permission, an I/O
 * error) is an `error` with a short reason.
 */
export function forEachLine(
  path: string,
  maxChars: number,
  onLine: (line: string | null) => void,
): ReadOutcome {
  let file: Deno.FsFile;
  try {
    // Opening a FIFO for reading would block until a writer appears.
    const info = Deno.statSync(path);
    if (!info.isFile && !info.isDirectory) return { kind: "error", reason: "not a regular file" };
    file = Deno.openSync(path, { read: true });
  } catch (err) {
    return failure(err);
  }
  try {
    const info = file.statSync();
    if (!info.isFile) {
      return { kind: "error", reason: info.isDirectory ? "is a directory" : "not a regular file" };
    }
    const decoder = new TextDecoder();
    const buf = new Uint8Array(CHUNK_BYTES);
    let pending = "";
    let overlong = false;
    const take = (piece: string, ended: boolean): void => {
      if (!overlong) pending += piece;
      if (pending.length > maxChars) {
        overlong = true;
        pending = "";
      }
      if (!ended) return;
      const line = pending.endsWith("\r") ? pending.slice(0, -1) : pending;
      if (overlong) onLine(null);
      else if (line !== "") onLine(line);
      pending = "";
      overlong = false;
    };
    const feed = (text: string): void => {
      let start = 0;
      for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
        take(text.slice(start, nl), true);
        start = nl + 1;
      }
      take(text.slice(start), false);
    };
    for (let n = file.readSync(buf); n !== null; n = file.readSync(buf)) {
      feed(decoder.decode(buf.subarray(0, n), { stream: true }));
    }
    feed(decoder.decode());
    if (overlong || pending !== "") take("", true);
    return { kind: "read" };
  } catch (err) {
    return failure(err);
  } finally {
    file.close();
  }
}
