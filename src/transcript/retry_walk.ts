/**
 * The destructive-retry question, asked of any agent's session log: could
 * the model have read the denial of an earlier identical call before it
 * sent the pending one?
 *
 * Every log answers it by the same walk, newest record first: find the
 * pending call, remember which calls have a result written after that
 * point (so before the pending call), then meet the newest earlier copy.
 * The copy's denial was seen when its batch was sent apart from the
 * pending call's and its result was written in between. What differs per
 * agent is only how records, calls, results and batches look; each reader
 * says that in a `RetryShape`, and `judgeRetry` walks it.
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";
import type { FsPort } from "../platform/fs_port.ts";
import { type LogLines, walkLog } from "./tail.ts";

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
