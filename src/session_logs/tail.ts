/**
 * The log-reading skeleton every agent's session-log reader shares: the
 * bounded backward walk over a JSONL file, a cheap line check before any
 * parse, the parse itself (`LogLines`, filled in per agent), and the one
 * walk that judges whether a destructive retry could have seen its denial
 * (`judgeRetry`, with a `RetryShape` per agent). The readers keep only what
 * is their agent's: how a turn starts, how calls, results and batches look.
 *
 * The file is read from its end in chunks, and only lines that pass the
 * reader's check are handed on, newest first, until the reader has seen
 * enough or a bound runs out. Claude Code writes large records that are not
 * messages (prompt snapshots, request shapes, tool outputs twice), so a
 * fixed tail loses the start of a long turn; walking back until the turn
 * start keeps the cost in step with the turn instead of the file. See
 * docs/architecture.md "Transcript window" and "Session-log readers".
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";
import type { FsPort } from "../platform/fs_port.ts";

/** The bounds of one walk, in one table so they can be measured and tuned together. */
export interface TailWindow {
  /** Bytes read per step back from the end of the file. */
  chunkBytes: number;
  /** Most bytes one walk reads in all. */
  maxBytes: number;
  /** Most message records one walk hands to its caller. */
  maxRecords: number;
}

/** The bounds every transcript scan uses. */
export const TAIL_WINDOW: Readonly<TailWindow> = {
  chunkBytes: 64 * 1024,
  maxBytes: 8 * 1024 * 1024,
  maxRecords: 2000,
};

/** How often, and how long apart, a caller reads a log again for the pending call's own record. */
export interface PendingRescan {
  readonly retries: number;
  readonly delayMs: number;
}

/**
 * The wait for the pending call's record, unless a reader says its own: a
 * client appends its records asynchronously, so a hook may run before its
 * call is written. With Claude Code 2.1.332 the record was missing at about
 * 6 in 10 first-touch scans and landed 14-66 ms later (docs/e2e.md), so the
 * wait covers about twice the worst case seen.
 */
export const PENDING_RESCAN: PendingRescan = { retries: 3, delayMs: 40 };

/** How a walk ended. */
export interface TailWalk {
  /**
   * True when a bound ran out while the file still held earlier lines the
   * caller never saw; false when the caller stopped or the file start was
   * reached.
   */
  clipped: boolean;
}

const NEWLINE = 0x0a;
const TYPE_KEY = '"type"';
const MESSAGE_TYPES = ['"user"', '"assistant"'];
const COMPACT_MARKER = "compact_boundary";
/** JSON escapes of ASCII letters start like this (`\u0041`..`\u007a`). */
const ESCAPE = "\\u00";

const decoder = new TextDecoder();

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\r")) i++;
  return i;
}

/** True when the line spells a letter as a JSON escape, which could hide a record's type. */
function escapesALetter(line: string): boolean {
  for (let at = line.indexOf(ESCAPE); at >= 0; at = line.indexOf(ESCAPE, at + 1)) {
    const high = line[at + ESCAPE.length];
    if (high >= "4" && high <= "7") return true;
  }
  return false;
}

/**
 * A cheap check, made before any parse, that a line may be a user,
 * assistant or compaction record. It may accept other lines; it never
 * rejects a line whose parsed `type` is `user` or `assistant` or that is a
 * `compact_boundary` marker, whatever the spacing around the colon.
 */
export function mayBeMessageRecord(line: string): boolean {
  if (line.includes(COMPACT_MARKER)) return true;
  for (let at = line.indexOf(TYPE_KEY); at >= 0; at = line.indexOf(TYPE_KEY, at + 1)) {
    let i = skipSpace(line, at + TYPE_KEY.length);
    if (line[i] !== ":") continue;
    i = skipSpace(line, i + 1);
    if (MESSAGE_TYPES.some((type) => line.startsWith(type, i))) return true;
  }
  return escapesALetter(line);
}

function decodeLine(head: Uint8Array, rest: readonly Uint8Array[]): string {
  if (rest.length === 0) return decoder.decode(head);
  const parts = [head, ...rest];
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return decoder.decode(joined);
}

/**
 * Walks the lines of `path` from the end back, handing each line that may
 * be a message record to `visit` (newest first) until `visit` returns
 * true, the file start is reached, or a bound of `window` runs out. Bytes
 * appended while the walk runs are not seen. A line cut by the byte bound
 * is never handed over. Returns null when the file is missing, not a
 * regular file, unreadable, or shrank during the walk, and when `budget`
 * cannot pay for the next chunk (a unit per byte read) or the next line
 * handed over (a unit per character, for the parse that follows): a walk
 * cut short by the budget tells the caller nothing.
 */
export function walkTranscriptBack(
  path: string,
  fs: FsPort,
  visit: (line: string) => boolean,
  window: Readonly<TailWindow> = TAIL_WINDOW,
  budget?: WorkBudget,
  keep: (line: string) => boolean = mayBeMessageRecord,
): TailWalk | null {
  const info = fs.stat(path);
  if (!info.ok || !info.isFile) return null;
  let end = info.size;
  let bytesLeft = window.maxBytes;
  let records = 0;
  // The later pieces of the line whose start lies before `end`, oldest first.
  let carry: Uint8Array[] = [];

  let refused = false;
  /** Offers one complete line; a result ends the walk. */
  const offer = (line: string): TailWalk | null => {
    if (line === "" || !keep(line)) return null;
    if (records === window.maxRecords) return { clipped: true };
    records++;
    if (budget && !budget.spend(line.length, "transcript")) {
      refused = true;
      return { clipped: true };
    }
    return visit(line) ? { clipped: false } : null;
  };

  while (end > 0) {
    if (bytesLeft <= 0) return { clipped: true };
    const length = Math.min(window.chunkBytes, end, bytesLeft);
    if (budget && !budget.spend(length, "transcript")) return null;
    const chunk = fs.readRange(path, end - length, length);
    if (chunk === null || chunk.length !== length) return null;
    end -= length;
    bytesLeft -= length;
    let lineEnd = chunk.length;
    let nl = chunk.lastIndexOf(NEWLINE, lineEnd - 1);
    while (nl >= 0) {
      const done = offer(decodeLine(chunk.subarray(nl + 1, lineEnd), carry));
      if (done) return refused ? null : done;
      carry = [];
      lineEnd = nl;
      nl = nl === 0 ? -1 : chunk.lastIndexOf(NEWLINE, nl - 1);
    }
    if (lineEnd > 0) carry = [chunk.subarray(0, lineEnd), ...carry];
  }
  const last = offer(decodeLine(new Uint8Array(0), carry)) ?? { clipped: false };
  return refused ? null : last;
}

/**
 * How one agent's log is read line by line: which raw lines are worth a
 * parse, and what a parsed line is to the reader. Each agent's reader
 * fills one in; the walk around it is shared.
 */
export interface LogLines<R> {
  /** A cheap check on the raw line; it may let others through, never drop a record the reader needs. */
  keep(line: string): boolean;
  /** The line as a record of this log, or null for a line the reader skips. */
  parse(line: string): R | null;
}

/**
 * The line check of a log its client writes as compact JSON, as Codex,
 * Gemini CLI and Copilot CLI do: a line is kept when it holds
 * `"type":"<t>"` for one of `types`. A record spelled any other way is
 * skipped, which only costs credit.
 */
export function keepTypes(...types: readonly string[]): (line: string) => boolean {
  const markers = types.map((type) => `"type":"${type}"`);
  return (line) => markers.some((marker) => line.includes(marker));
}

/**
 * `walkTranscriptBack` over the records of a log: each kept line is parsed
 * by `lines`, and `visit` sees the records it accepts, newest first, with
 * their raw line, until it returns true. Same results and bounds as the
 * byte walk.
 */
export function walkLog<R>(
  path: string,
  fs: FsPort,
  lines: LogLines<R>,
  visit: (record: R, line: string) => boolean,
  budget?: WorkBudget,
): TailWalk | null {
  return walkTranscriptBack(
    path,
    fs,
    (line) => {
      const record = lines.parse(line);
      return record !== null && visit(record, line);
    },
    TAIL_WINDOW,
    budget,
    (line) => lines.keep(line),
  );
}

// The destructive-retry question, asked of any agent's log: could the
// model have read the denial of an earlier identical call before it sent
// the pending one? Every log answers it by one walk, newest record first:
// find the pending call, note which calls have a result written after that
// point (so before the pending call), then meet the newest earlier copy.
// Its denial was seen when its batch went out apart from the pending call's
// and its result was written in between. Only the record shapes differ per
// agent; each reader says them in a `RetryShape`. It lives here, with the
// walk, so a retry check loads no module more than the walk it needs.

/** The retry being judged. */
export interface RetryCall {
  transcriptPath: string;
  /** The pending call's id as the log knows it; null when the payload gave none. */
  toolUseId: string | null;
  /** The tool's name: `Bash` or `PowerShell`, or a file tool. */
  tool: string;
  /** The shell command the earlier call must repeat. */
  command?: string;
  /** For a file tool: the whole input the earlier call must repeat (keys in any order). */
  input?: Record<string, unknown>;
}

/**
 * `seen`: the earlier call's result came before the retry was sent, or
 * (where the reader says so) the earlier call lies beyond the walk.
 * `unseen`: it rode in the same batch, or its result came later or not at
 * all. `unknown`: the pending call is not in the log, or the walk could
 * not be made.
 */
export type Seen = "seen" | "unseen" | "unknown";

/** One look at a session log as it is now: whether the denial could be seen. */
export type SeenReader = (call: RetryCall, fs: FsPort, budget?: WorkBudget) => Seen;

/** A tool call as one agent's log records it. */
export interface LoggedCall {
  /** The call's id in the log (results name it). */
  id: string;
  /** The batch it was sent in (message, sampling, reply); null when the log does not say. */
  batch: string | number | null;
  /**
   * Whether the call's result was recorded, for a log that writes results
   * inside the call itself; left out where results are records of their own.
   */
  answered?: boolean;
}

/** How one agent's log holds what the retry check needs. */
export interface RetryShape<R, C extends LoggedCall> extends LogLines<R> {
  /** The calls a record holds, newest first. */
  calls(record: R): readonly C[];
  /** The ids of the calls whose results a record holds. */
  results(record: R): readonly string[];
  /**
   * True for the pending call. `answeredLater` holds the ids answered by
   * records written after this one: a call already answered is not pending.
   */
  isPending(call: C, answeredLater: ReadonlySet<string>): boolean;
  /** True for an earlier call that the pending call repeats. */
  repeats(call: C, pending: C): boolean;
  /** True when the two batches went out apart, so a denial could be read in between. */
  apart(earlier: C, pending: C): boolean;
  /** The answer when the pending call was found but no copy of it within the walk. */
  unmatched: Seen;
}

/**
 * Walks the log at `path` by `shape` and judges the retry. `unknown` when
 * the walk cannot be made (missing file, spent budget, a fault) or never
 * meets the pending call.
 */
export function judgeRetry<R, C extends LoggedCall>(
  path: string,
  shape: RetryShape<R, C>,
  fs: FsPort,
  budget?: WorkBudget,
): Seen {
  let pending: C | null = null;
  /** Results met before the pending call: written after it. */
  const answeredLater = new Set<string>();
  /** Results met after the pending call: written before it. */
  const answeredBefore = new Set<string>();
  let verdict: Seen | null = null;
  try {
    const walk = walkLog(path, fs, shape, (record) => {
      for (const id of shape.results(record)) {
        (pending === null ? answeredLater : answeredBefore).add(id);
      }
      for (const call of shape.calls(record)) {
        if (pending === null) {
          if (shape.isPending(call, answeredLater)) pending = call;
          continue;
        }
        if (!shape.repeats(call, pending)) continue;
        const answered = call.answered ?? answeredBefore.has(call.id);
        verdict = shape.apart(call, pending) && answered ? "seen" : "unseen";
        return true;
      }
      return false;
    }, budget);
    if (walk === null || pending === null) return "unknown";
    return verdict ?? shape.unmatched;
  } catch {
    return "unknown";
  }
}
