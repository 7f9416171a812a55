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
 * The other agents' session logs answer the same question through their
 * own readers (`session_logs/session_logs.ts`); `denialCouldBeSeen` waits for
 * the pending call's record whichever reader it is given.
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";
import type { FsPort } from "../platform/fs_port.ts";
import { TAIL_WINDOW, walkTranscriptBack } from "./tail.ts";
import { PENDING_RESCAN } from "./turn_scan.ts";
import { canonicalJson, isRecord, parseRecord } from "../platform/json.ts";

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
 * the earlier call lies beyond the walk (long ago). `unseen`: it rode in
 * the same message, or its result came later or not at all. `unknown`: the
 * pending call is not in the transcript, or the walk could not be made.
 */
export type Seen = "seen" | "unseen" | "unknown";

type Json = Record<string, unknown>;

function blocksOf(record: Json): Json[] {
  const content = isRecord(record.message) ? record.message.content : undefined;
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

/** What the walk has learned so far, newest record first. */
class SeenWalk {
  /** The pending call's message id once its record was met (null: it had none). */
  pendingMessage: string | null | undefined = undefined;
  /** Results met after the pending record, so written before it. */
  readonly earlierResults = new Set<string>();
  verdict: Seen | null = null;

  private readonly input: string | null;

  constructor(private readonly call: RetryCall) {
    this.input = call.input === undefined ? null : canonicalJson(call.input);
  }

  private repeats(input: Json): boolean {
    return this.input === null
      ? input.command === this.call.command
      : canonicalJson(input) === this.input;
  }

  /** Takes one line; true once the verdict is known. */
  visit(line: string): boolean {
    const record = parseRecord(line);
    if (record === null || record.isSidechain === true) return false;
    if (record.type === "assistant") return this.assistant(record);
    if (record.type === "user" && this.pendingMessage !== undefined) {
      for (const block of blocksOf(record)) {
        if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
          this.earlierResults.add(block.tool_use_id);
        }
      }
    }
    return false;
  }

  private assistant(record: Json): boolean {
    const message = isRecord(record.message) && typeof record.message.id === "string"
      ? record.message.id
      : null;
    for (const block of blocksOf(record).reverse()) {
      if (block.type !== "tool_use" || typeof block.id !== "string") continue;
      if (this.pendingMessage === undefined) {
        if (block.id === this.call.toolUseId) this.pendingMessage = message;
        continue;
      }
      const input = isRecord(block.input) ? block.input : {};
      if (
        block.id === this.call.toolUseId || block.name !== this.call.tool ||
        !this.repeats(input)
      ) continue;
      const sameMessage = message !== null && message === this.pendingMessage;
      this.verdict = !sameMessage && this.earlierResults.has(block.id) ? "seen" : "unseen";
      return true;
    }
    return false;
  }
}

/** One look at a session log as it is now: whether the denial could be seen. */
export type SeenReader = (call: RetryCall, fs: FsPort, budget?: WorkBudget) => Seen;

/** One walk over a Claude Code transcript as it is now. */
export function denialSeen(call: RetryCall, fs: FsPort, budget?: WorkBudget): Seen {
  if (call.toolUseId === null) return "unknown";
  try {
    const walk = new SeenWalk(call);
    const ended = walkTranscriptBack(
      call.transcriptPath,
      fs,
      (line) => walk.visit(line),
      TAIL_WINDOW,
      budget,
    );
    if (ended === null || walk.pendingMessage === undefined) return "unknown";
    return walk.verdict ?? "seen";
  } catch {
    return "unknown";
  }
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
