/**
 * Claude Code's session log, its transcript: the current human turn read
 * into a `TurnScan` (`scanTurn`), and the destructive-retry check
 * (`denialSeen`), both by bounded backward walks over the JSONL file
 * through the skeleton in `tail.ts`.
 *
 * The turn scan gives the turn id, and the turn's search, shell and `Read`
 * calls with whether each one completed, unambiguously and without error,
 * outside the pending call's own batch. Its walk stops at the newest turn
 * start (a human prompt, a compaction marker or a compaction summary), so
 * the window is the turn itself unless a bound of `TAIL_WINDOW` cuts it
 * first. A transcript that is missing, unreadable, not a file, or has no
 * usable turn yields null, which gives no credit and no sibling window. See
 * docs/search-credit.md "Turn boundaries", "Turn identity", "Tool result
 * pairing", "Same-batch searches", and docs/architecture.md "Transcript
 * window".
 *
 * The retry check walks back to the pending call's `tool_use` record, then
 * on to the newest earlier call of the same tool with the same command (for
 * a file tool, the same input): the denied one. Its denial could be read
 * when its result lies between the two and it did not ride in the pending
 * call's own message (`denial_seen.ts` waits for the pending record).
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { TurnCall, TurnScanInput, TurnScanResult } from "./turn_scan.ts";
import {
  judgeRetry,
  type LoggedCall,
  type LogLines,
  mayBeMessageRecord,
  type RetryCall,
  type RetryShape,
  type Seen,
  walkLog,
} from "./tail.ts";
import { canonicalJson, isRecord, parseRecord } from "../platform/json.ts";

/** Claude Code's wait for the pending call's record: the skeleton's default, measured with it. */
export { PENDING_RESCAN } from "./tail.ts";

type Json = Record<string, unknown>;

interface ToolUse {
  id: string;
  name: string;
  input: Json;
  messageId: string | null;
  cwd: string | null;
}

interface ToolResult {
  id: string;
  error: boolean;
  promptId: string | null;
  denied: boolean;
}

/** One record of the turn, as the walk classified it. */
type Entry =
  | { kind: "uses"; uses: ToolUse[]; messageId: string | null }
  | { kind: "results"; results: ToolResult[] };

const ERROR_PREFIX = "<tool_use_error>";

function nonEmpty(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** 64-bit FNV-1a in two 32-bit lanes: a stable id for a record without one. */
function lineHash(line: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ line.length;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (a >>> 15);
  }
  return `line:${(a >>> 0).toString(16).padStart(8, "0")}${
    (b >>> 0).toString(16).padStart(8, "0")
  }`;
}

function contentOf(record: Json): unknown {
  return isRecord(record.message) ? record.message.content : undefined;
}

function isErrorResult(block: Json): boolean {
  if (block.is_error === true || block.is_error === "true") return true;
  const content = block.content;
  if (typeof content === "string") return content.trimStart().startsWith(ERROR_PREFIX);
  if (Array.isArray(content)) {
    return content.some((part) =>
      isRecord(part) && typeof part.text === "string" &&
      part.text.trimStart().startsWith(ERROR_PREFIX)
    );
  }
  return false;
}

/** The tool results of a user record, or null when it is not purely tool results. */
function toolResults(record: Json): ToolResult[] | null {
  const content = contentOf(record);
  if (!Array.isArray(content) || content.length === 0) return null;
  const promptId = nonEmpty(record.promptId);
  // The client, not the tool's output, writes this field when it refused the call.
  const denied = isRecord(record.permissionDecision) &&
    record.permissionDecision.decision === "reject";
  const results: ToolResult[] = [];
  for (const block of content) {
    if (!isRecord(block) || block.type !== "tool_result") return null;
    const id = nonEmpty(block.tool_use_id);
    if (id) results.push({ id, error: isErrorResult(block), promptId, denied });
  }
  return results;
}

function toolUses(record: Json): { uses: ToolUse[]; messageId: string | null } {
  const messageId = isRecord(record.message) ? nonEmpty(record.message.id) : null;
  const cwd = nonEmpty(record.cwd);
  const content = contentOf(record);
  const uses: ToolUse[] = [];
  if (Array.isArray(content)) {
    for (const block of content) {
      if (!isRecord(block) || block.type !== "tool_use") continue;
      const id = nonEmpty(block.id);
      if (!id) continue;
      uses.push({
        id,
        name: typeof block.name === "string" ? block.name : "",
        input: isRecord(block.input) ? block.input : {},
        messageId,
        cwd,
      });
    }
  }
  return { uses, messageId };
}

/** A user record that is neither a tool result nor marked as not human. */
function isTurnStart(record: Json): boolean {
  if (record.type === "system") return record.subtype === "compact_boundary";
  if (record.type !== "user") return false;
  if (record.isCompactSummary === true) return true;
  if (record.isSidechain === true || record.isMeta === true) return false;
  if (record.isVisibleInTranscriptOnly === true) return false;
  return toolResults(record) === null;
}

/** A turn start that is a human prompt, not a compaction marker or summary. */
function isHumanPrompt(record: Json): boolean {
  return record.type === "user" && record.isCompactSummary !== true;
}

function bump(counts: Map<string, number>, id: string): void {
  counts.set(id, (counts.get(id) ?? 0) + 1);
}

/** Counts every use and result id in a record, for the duplicate rule. */
function countIds(record: Json, uses: Map<string, number>, results: Map<string, number>): void {
  const content = contentOf(record);
  if (!Array.isArray(content)) return;
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (record.type === "assistant" && block.type === "tool_use") {
      const id = nonEmpty(block.id);
      if (id) bump(uses, id);
    } else if (record.type === "user" && block.type === "tool_result") {
      const id = nonEmpty(block.tool_use_id);
      if (id) bump(results, id);
    }
  }
}

/** The turn-start record found by the walk, with its raw line. */
interface Start {
  record: Json;
  line: string;
}

/**
 * Scans the current human turn of the transcript at `input.transcriptPath`.
 * Returns null when the file is missing, unreadable or not a regular file,
 * when no turn start is found in an unclipped file, when a clipped window's
 * `promptId`s disagree, or when the transcript's turn is not the payload's
 * prompt, or when `budget` cannot pay for the walk. Never throws.
 */
export function scanTurn(
  input: TurnScanInput,
  fs: FsPort,
  budget?: WorkBudget,
): TurnScanResult | null {
  try {
    return scan(input, fs, budget);
  } catch {
    return null;
  }
}

/** Claude Code's lines: message and compaction records, parsed as JSON objects. */
export const CLAUDE_LINES: LogLines<Json> = { keep: mayBeMessageRecord, parse: parseRecord };

/** What the walk gathers, newest record first, until it meets the turn start. */
class TurnWalk {
  readonly useCounts = new Map<string, number>();
  readonly resultCounts = new Map<string, number>();
  readonly promptIds = new Set<string>();
  readonly entries: Entry[] = [];
  start: Start | null = null;

  /** Takes one record and its line; true once it was the turn start. */
  visit(record: Json, line: string): boolean {
    countIds(record, this.useCounts, this.resultCounts);
    if (record.type === "user") {
      const promptId = nonEmpty(record.promptId);
      if (promptId) this.promptIds.add(promptId);
    }
    if (isTurnStart(record)) {
      this.start = { record, line };
      return true;
    }
    if (record.isSidechain === true) return false;
    if (record.type === "assistant") {
      this.entries.push({ kind: "uses", ...toolUses(record) });
    } else if (record.type === "user") {
      const results = toolResults(record);
      if (results) this.entries.push({ kind: "results", results });
    }
    return false;
  }
}

function scan(input: TurnScanInput, fs: FsPort, budget?: WorkBudget): TurnScanResult | null {
  const turn = new TurnWalk();
  const walk = walkLog(
    input.transcriptPath,
    fs,
    CLAUDE_LINES,
    (record, line) => turn.visit(record, line),
    budget,
  );
  if (walk === null) return null;
  const identity = turnIdentity(turn.start, walk.clipped, turn.promptIds, input.promptId);
  if (identity === null) return null;
  return {
    turnId: identity.turnId,
    calls: turnCalls(
      turn.entries,
      turn.useCounts,
      turn.resultCounts,
      identity.promptRef,
      input.toolUseId,
      input.tools,
    ),
    pendingFound: input.toolUseId !== null && turn.useCounts.has(input.toolUseId),
    batchMates: batchMates(turn.entries, input.toolUseId),
  };
}

/** The other tool uses of the message(s) holding the pending id, or null when none does. */
function batchMates(entries: readonly Entry[], pendingId: string | null): number | null {
  if (pendingId === null) return null;
  const messages = new Set<string>();
  for (const entry of entries) {
    if (entry.kind !== "uses") continue;
    for (const use of entry.uses) {
      if (use.id === pendingId && use.messageId !== null) messages.add(use.messageId);
    }
  }
  if (messages.size === 0) return null;
  let others = 0;
  for (const entry of entries) {
    if (entry.kind !== "uses") continue;
    for (const use of entry.uses) {
      if (use.id !== pendingId && use.messageId !== null && messages.has(use.messageId)) others++;
    }
  }
  return others;
}

/**
 * The turn id, and the prompt id the turn's results must not contradict.
 * Null when the window has no usable turn or belongs to another prompt.
 */
function turnIdentity(
  start: Start | null,
  clipped: boolean,
  promptIds: Set<string>,
  payloadPromptId: string | null,
): { turnId: string | null; promptRef: string | null } | null {
  let ownId: string | null;
  let promptRef: string | null;
  if (start !== null) {
    promptRef = nonEmpty(start.record.promptId);
    // A client that sends `prompt_id` stamps it on every prompt it writes, so
    // an unstamped prompt is an earlier one: the file has not caught up yet.
    if (promptRef === null && payloadPromptId !== null && isHumanPrompt(start.record)) return null;
    ownId = promptRef ?? nonEmpty(start.record.uuid) ?? lineHash(start.line);
  } else {
    if (!clipped || promptIds.size > 1) return null;
    promptRef = promptIds.size === 1 ? [...promptIds][0] : null;
    ownId = promptRef;
  }
  if (payloadPromptId === null) return { turnId: ownId, promptRef };
  if (promptRef !== null && promptRef !== payloadPromptId) return null;
  return { turnId: payloadPromptId, promptRef: payloadPromptId };
}

function turnCalls(
  entries: Entry[],
  useCounts: Map<string, number>,
  resultCounts: Map<string, number>,
  promptRef: string | null,
  pendingId: string | null,
  tools: ReadonlySet<string>,
): TurnCall[] {
  const results = new Map<string, ToolResult>();
  let newestMessage: string | null | undefined;
  // Every message that holds the pending id: a crafted transcript may repeat
  // the id, and then each of its messages could be the batch.
  const pendingMessages = new Set<string>();
  const uses: ToolUse[] = [];
  // `entries` runs newest first.
  for (const entry of entries) {
    if (entry.kind === "results") {
      for (const r of entry.results) results.set(r.id, r);
      continue;
    }
    if (newestMessage === undefined) newestMessage = entry.messageId;
    for (const use of entry.uses) {
      if (pendingId !== null && use.id === pendingId && use.messageId !== null) {
        pendingMessages.add(use.messageId);
      }
      uses.push(use);
    }
  }
  const batch = pendingMessages.size > 0
    ? pendingMessages
    : new Set(newestMessage ? [newestMessage] : []);
  const calls: TurnCall[] = [];
  for (const use of uses) {
    if (!tools.has(use.name)) continue;
    const result = results.get(use.id);
    const completed = result !== undefined && !result.error &&
      useCounts.get(use.id) === 1 && resultCounts.get(use.id) === 1 &&
      (promptRef === null || result.promptId === null || result.promptId === promptRef);
    calls.push({
      id: use.id,
      tool: use.name,
      input: use.input,
      completed,
      sameBatch: use.messageId !== null && batch.has(use.messageId),
      messageId: use.messageId,
      cwd: use.cwd,
      denied: result?.denied === true,
    });
  }
  return calls;
}

// The destructive-retry check: how Claude Code's records hold calls,
// results and batches, for `judgeRetry`.

/** A `tool_use` block of an assistant record; its batch is the record's message id. */
interface RetryUse extends LoggedCall {
  name: unknown;
  input: Json;
}

/** The content blocks of a record's message that are objects, in the order written. */
function blocksOf(record: Json): Json[] {
  const content = contentOf(record);
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

/** Claude Code's transcript as the retry walk reads it: main-thread user and assistant records. */
function claudeShape(call: RetryCall): RetryShape<Json, RetryUse> {
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
