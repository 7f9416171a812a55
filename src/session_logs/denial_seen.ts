/**
 * Could the model have read the denial it is now retrying past?
 *
 * A destructive command passes on its second run because the first was
 * denied and the model had the facts asked of it in front of it. A model
 * that sends the same command twice in one message has not read either
 * denial when the second call arrives, so that second call is no retry.
 * The session log tells the two apart: the retry's own reply must come
 * after the result of the earlier identical call.
 *
 * Each agent's reader answers it by one walk over its log as it is now
 * (`denialSeen`: `claude_log.ts` for Claude Code's transcript, and the
 * other readers beside it, all through `judgeRetry` in `tail.ts`), bounded
 * like the turn scan and paid from the call's work budget. A client writes
 * the pending call's own record a moment late, so `denialCouldBeSeen` asks
 * again while the file grows, whichever reader it is given. See
 * docs/architecture.md "Retries of destructive commands".
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";
import type { FsPort } from "../platform/fs_port.ts";
import { denialSeen } from "./claude_log.ts";
import { PENDING_RESCAN, type PendingRescan, type RetryCall, type SeenReader } from "./tail.ts";

export type { RetryCall, Seen, SeenReader } from "./tail.ts";

/**
 * `read` (Claude Code's transcript by default), waiting like the turn scan
 * (`rescan`) for the pending call's own record while the file grows (the
 * client writes it asynchronously). Only `seen` lets a retry pass.
 */
export async function denialCouldBeSeen(
  call: RetryCall,
  fs: FsPort,
  budget?: WorkBudget,
  read: SeenReader = denialSeen,
  rescan: PendingRescan = PENDING_RESCAN,
): Promise<boolean> {
  const sizeNow = (): number | null => {
    const info = fs.stat(call.transcriptPath);
    return info.ok ? info.size : null;
  };
  let size = sizeNow();
  let seen = read(call, fs, budget);
  for (let retries = rescan.retries; seen === "unknown" && retries > 0; retries--) {
    await new Promise((resolve) => setTimeout(resolve, rescan.delayMs));
    const grown = sizeNow();
    if (grown === size) continue;
    size = grown;
    seen = read(call, fs, budget);
  }
  return seen === "seen";
}
