/**
 * Could the model have read the denial it is now retrying past?
 *
 * A destructive command passes on its second run because the first was
 * denied and the model had the facts asked of it in front of it. A model
 * that sends the same command twice in one message has not read either
 * denial when the second call arrives, so that second call is no retry.
 * The transcript tells the two apart: the retry's own assistant message
 * must come after the tool result of the earlier identical call.
 *
 * The walk goes back from the end of the transcript (bounded like the turn
 * scan, and paid from the call's work budget) to the pending call's
 * `tool_use` record, then on to the newest earlier call of the same tool
 * with the same command (for a file tool, the same input): the denied one. It was seen when its result lies
 * between the two, and never when it rode in the pending call's own
 * message. See docs/architecture.md "Retries of destructive commands".
 *
 * The walk itself is `judgeRetry` in `tail.ts`, shared with the other
 * agents' log readers beside it; this module says how Claude Code's
 * records hold calls, results and batches. `denialCouldBeSeen` waits for the
 * pending call's record whichever reader it is given.
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";
import type { FsPort } from "../platform/fs_port.ts";
import { CLAUDE_LINES, PENDING_RESCAN } from "./turn_scan.ts";
import {
  judgeRetry,
  type LoggedCall,
  type RetryCall,
  type RetryShape,
  type Seen,
  type SeenReader,
} from "./tail.ts";
import { canonicalJson, isRecord } from "../platform/json.ts";

export type { RetryCall, Seen, SeenReader } from "./tail.ts";

type Json = Record<string, unknown>;

/** A `tool_use` block of an assistant record; its batch is the record's message id. */
interface ToolUse extends LoggedCall {
  name: unknown;
  input: Json;
}

function blocksOf(record: Json): Json[] {
  const content = isRecord(record.message) ? record.message.content : undefined;
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

/** Claude Code's transcript as the retry walk reads it: main-thread user and assistant records. */
function claudeShape(call: RetryCall): RetryShape<Json, ToolUse> {
  const input = call.input === undefined ? null : canonicalJson(call.input);
  return {
    keep: CLAUDE_LINES.keep,
    parse: (line) => {
      const record = CLAUDE_LINES.parse(line);
      return record === null || record.isSidechain === true ? null : record;
    },
    calls: (record) => {
      if (record.type !== "assistant") return [];
      const message = isRecord(record.message) && typeof record.message.id === "string"
        ? record.message.id
        : null;
      return blocksOf(record).reverse().flatMap((block) =>
        block.type === "tool_use" && typeof block.id === "string"
          ? [{
            id: block.id,
            batch: message,
            name: block.name,
            input: isRecord(block.input) ? block.input : {},
          }]
          : []
      );
    },
    results: (record) =>
      record.type !== "user"
        ? []
        : blocksOf(record).flatMap((block) =>
          block.type === "tool_result" && typeof block.tool_use_id === "string"
            ? [block.tool_use_id]
            : []
        ),
    isPending: (use) => use.id === call.toolUseId,
    repeats: (use) =>
      use.id !== call.toolUseId && use.name === call.tool &&
      (input === null ? use.input.command === call.command : canonicalJson(use.input) === input),
    // A message without an id is taken for a batch of its own.
    apart: (earlier, pending) => earlier.batch === null || earlier.batch !== pending.batch,
    // An earlier copy beyond the walk was denied long ago.
    unmatched: "seen",
  };
}

/** One walk over a Claude Code transcript as it is now. */
export function denialSeen(call: RetryCall, fs: FsPort, budget?: WorkBudget): Seen {
  if (call.toolUseId === null) return "unknown";
  return judgeRetry(call.transcriptPath, claudeShape(call), fs, budget);
}

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
  rescan: { readonly retries: number; readonly delayMs: number } = PENDING_RESCAN,
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
