/**
 * File context of an edit: where the Edit tool applies it in the current
 * file, and the whole-line windows of the file around each replaced
 * occurrence, before and after.
 *
 * A window always starts at a line start, so whether it starts in plain
 * code can be read from the file's line states; the windows of one step are
 * disjoint and in file order.
 *
 * @module
 */

import type { LexResult } from "./lex_emitter.ts";

/** One replacement as the Edit tool (or one MultiEdit entry) states it. */
export interface EditStep {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/** Whole lines around one or more replaced occurrences, as offsets into the text before and after. */
export interface EditWindow {
  start: number;
  /** Where the window's last line ends: its line feed (or CRLF), or the text length. */
  end: number;
  newStart: number;
  newEnd: number;
}

/** A step applied to a text. */
export interface AppliedStep {
  /** Occurrences of `oldString` in the text (counted to 2 at most unless `replaceAll`). */
  occurrences: number;
  /** The text after the step. */
  after: string;
  /** The windows of the replaced occurrences, in order. */
  windows: EditWindow[];
}

function lineStartOf(text: string, at: number): number {
  return at === 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
}

/** Where the line holding `at` ends: its line feed, or the carriage return of a CRLF after `at`. */
function lineEndOf(text: string, at: number): number {
  const e = text.indexOf("\n", at);
  if (e < 0) return text.length;
  return e > at && text[e - 1] === "\r" ? e - 1 : e;
}

/**
 * Applies a step as the Edit tool does: every occurrence with `replaceAll`,
 * else the first. Null when `oldString` is empty or absent. Linear in the
 * text: each window boundary search covers new ground.
 */
export function applyStep(text: string, step: EditStep): AppliedStep | null {
  const { oldString, newString, replaceAll } = step;
  if (oldString === "") return null;
  const first = text.indexOf(oldString);
  if (first < 0) return null;
  const positions = [first];
  if (replaceAll) {
    for (
      let at = text.indexOf(oldString, first + oldString.length);
      at >= 0;
      at = text.indexOf(oldString, at + oldString.length)
    ) positions.push(at);
  }
  const occurrences = replaceAll
    ? positions.length
    : text.indexOf(oldString, first + oldString.length) >= 0
    ? 2
    : 1;
  const shift = newString.length - oldString.length;
  const parts: string[] = [];
  const windows: EditWindow[] = [];
  let copied = 0;
  let delta = 0;
  let current: { start: number; end: number; deltaBefore: number } | null = null;
  const close = (): void => {
    if (current === null) return;
    windows.push({
      start: current.start,
      end: current.end,
      newStart: current.start + current.deltaBefore,
      newEnd: current.end + delta,
    });
  };
  for (const at of positions) {
    parts.push(text.slice(copied, at), newString);
    copied = at + oldString.length;
    if (current !== null && at <= current.end) {
      if (copied > current.end) current.end = lineEndOf(text, copied);
    } else {
      close();
      current = { start: lineStartOf(text, at), end: lineEndOf(text, copied), deltaBefore: delta };
    }
    delta += shift;
  }
  close();
  parts.push(text.slice(copied));
  return { occurrences, after: parts.join(""), windows };
}

/**
 * The ways the Edit tool may apply a step. An empty replacement of text that
 * does not end in a line feed may also take the line feed after it (so a
 * deleted line leaves no blank line); both readings are returned then, the
 * one with the line feed first.
 */
export function toolReadings(text: string, step: EditStep): EditStep[] {
  const { oldString, newString } = step;
  if (newString === "" && !oldString.endsWith("\n") && text.includes(oldString + "\n")) {
    return [{ ...step, oldString: oldString + "\n" }, step];
  }
  return [step];
}

/** Maps text offsets to zero-based physical line numbers. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
      this.starts.push(at + 1);
    }
  }

  /** The line holding `offset` (a line feed belongs to the line it ends). */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** True when the window starting at `offset` (a line start) starts in plain code of `file`. */
export function startsPlain(file: LexResult, index: LineIndex, offset: number): boolean {
  return file.plainStarts !== null && file.plainStarts[index.lineOf(offset)] === 1;
}

/**
 * True when a lexed Go file imports `"C"` (cgo): its comments then hold C
 * code, so no edit of it is comment-only.
 */
export function importsC(goFile: LexResult): boolean {
  let inBlock = false;
  for (const { text } of goFile.lines) {
    const t = text.trim();
    if (inBlock) {
      if (t.includes('"C"')) return true;
      if (t.startsWith(")")) inBlock = false;
    } else if (t.startsWith("import")) {
      if (t.includes('"C"')) return true;
      inBlock = t.includes("(") && !t.includes(")");
    }
  }
  return false;
}
