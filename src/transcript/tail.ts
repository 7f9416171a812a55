/**
 * The bounded tail read of a transcript: the last lines of a JSONL file,
 * limited in bytes and in lines, so the cost of a scan does not grow with
 * the size of the session.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";

/**
 * How much of the transcript end is read. Kept in one table so the window
 * can be measured against real transcripts and tuned in one place.
 */
export const TAIL_WINDOW = {
  /** Bytes read from the end of the file. */
  maxBytes: 256 * 1024,
  /** Complete lines kept from the end of what was read. */
  maxLines: 2000,
} as const;

/** The complete lines at the end of a transcript, oldest first. */
export interface TranscriptTail {
  lines: string[];
  /** True when the file holds earlier lines that the window left out. */
  clipped: boolean;
}

/**
 * Reads the last lines of `path` within `TAIL_WINDOW`. A line cut by the
 * byte bound is dropped, since half a record is not a record. Returns null
 * when the file is missing, not a regular file or unreadable.
 */
export function readTranscriptTail(
  path: string,
  fs: FsPort,
  window: { maxBytes: number; maxLines: number } = TAIL_WINDOW,
): TranscriptTail | null {
  const read = fs.readTail(path, window.maxBytes);
  if (read === null) return null;
  let text = read.text;
  let clipped = read.clipped;
  if (clipped) {
    const firstBreak = text.indexOf("\n");
    text = firstBreak < 0 ? "" : text.slice(firstBreak + 1);
  }
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length > window.maxLines) {
    lines.splice(0, lines.length - window.maxLines);
    clipped = true;
  }
  return { lines, clipped };
}
