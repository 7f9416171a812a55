/**
 * The current turn of a Codex CLI rollout file
 * (`~/.codex/sessions/…/rollout-<ts>-<session>.jsonl`), read into the same
 * `TurnScan` the Claude Code transcript gives, so prior-search credit runs
 * unchanged.
 *
 * Codex tags each `response_item` record with the turn it belongs to
 * (`internal_chat_message_metadata_passthrough.turn_id`) and each model
 * output item with the sampling it came from (`metadata.
 * sampled_through_sequence`): the turn is the records whose turn id is the
 * payload's `turn_id`, and the batch of a call is the calls of the same
 * sampling. Where either tag is missing, the log cannot tell turn or batch
 * apart and the scan gives nothing (no credit, never more).
 *
 * Only `exec_command` calls are kept, as `Bash` calls of their `cmd`; one
 * that names its own `workdir` is left out, since its search scope is not
 * the edit's. A call completed when exactly one output answers it and the
 * header Codex writes before the command's output says it exited with 0.
 *
 * The destructive-retry check (`denialSeen`) finds the pending call by its
 * call id and the earlier identical call: an `exec_command` of the same
 * command, or an `apply_patch` deleting the same file (a deletion is
 * decided as the command `deletionCommand` builds). That call's denial
 * could be seen when it came from an earlier sampling and its output was
 * written before the pending call.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import type { WorkBudget } from "../platform/budget.ts";
import {
  type LoggedAnswer,
  type LoggedUse,
  noteAnswer,
  pairShellCalls,
  type TurnScanInput,
  type TurnScanResult,
} from "./turn_scan.ts";
import {
  judgeRetry,
  keepTypes,
  type LoggedCall,
  type LogLines,
  type RetryCall,
  type RetryShape,
  type Seen,
  walkLog,
} from "./tail.ts";
import { deletionCommand } from "../tools/call.ts";
import { readPatch } from "./codex_patch.ts";
import { agentTool, TOOL } from "../tools/gated.ts";
import { isRecord, parseRecord } from "../platform/json.ts";

type Json = Record<string, unknown>;

/** How Codex words the output of a call a hook refused. */
const BLOCKED = "Command blocked by PreToolUse hook:";

const CALL_TYPES = new Set(["function_call", "custom_tool_call"]);
const OUTPUT_TYPES = new Set(["function_call_output", "custom_tool_call_output"]);

/** True when the header Codex puts before a command's output reports exit code 0. */
export function exitedCleanly(output: unknown): boolean {
  if (typeof output !== "string") return false;
  const cut = output.indexOf("\nOutput:");
  if (cut < 0) return false;
  return output.slice(0, cut).split("\n").some((line) =>
    line === "Process exited with code 0" || line === "Exit code: 0"
  );
}

interface CallRecord {
  id: string;
  name: string;
  args: unknown;
  sampling: number | null;
}

function turnOf(payload: Json): string | null {
  const meta = payload.internal_chat_message_metadata_passthrough;
  return isRecord(meta) && typeof meta.turn_id === "string" ? meta.turn_id : null;
}

function samplingOf(record: Json): number | null {
  const meta = record.metadata;
  return isRecord(meta) && typeof meta.sampled_through_sequence === "number"
    ? meta.sampled_through_sequence
    : null;
}

/** An `exec_command` call's arguments, recorded as JSON text; null when they hold no `cmd`. */
function execArgs(raw: unknown): { cmd: string; workdir: unknown } | null {
  try {
    const args = JSON.parse(String(raw));
    return isRecord(args) && typeof args.cmd === "string"
      ? { cmd: args.cmd, workdir: args.workdir }
      : null;
  } catch {
    return null;
  }
}

/** The command of a call the scan keeps: one in the session's directory, not its own `workdir`. */
function commandOf(args: unknown): string | null {
  if (typeof args !== "string") return null;
  const exec = execArgs(args);
  return exec !== null && exec.workdir === undefined ? exec.cmd : null;
}

/**
 * Scans the turn `input.promptId` (Codex's `turn_id`) of the rollout at
 * `input.transcriptPath`. Null when there is no turn id, no readable file,
 * or a call of the turn lacks its sampling tag.
 */
export function scanTurn(
  input: TurnScanInput,
  fs: FsPort,
  budget?: WorkBudget,
): TurnScanResult | null {
  const turnId = input.promptId;
  if (turnId === null) return null;
  const calls: CallRecord[] = [];
  const outputs = new Map<string, LoggedAnswer>();
  let untagged = false;
  const walk = walkLog(
    input.transcriptPath,
    fs,
    ROLLOUT,
    (read) => {
      const payload = read.item;
      const type = typeOf(payload);
      if (!CALL_TYPES.has(type) && !OUTPUT_TYPES.has(type)) return false;
      const turn = turnOf(payload);
      // The first item of another turn (or of none we can name) ends this one.
      if (turn !== turnId) return true;
      const id = typeof payload.call_id === "string" ? payload.call_id : null;
      if (id === null) return false;
      if (OUTPUT_TYPES.has(type)) {
        noteAnswer(outputs, id, {
          clean: exitedCleanly(payload.output),
          denied: typeof payload.output === "string" && payload.output.startsWith(BLOCKED),
        });
        return false;
      }
      const sampling = read.sampling;
      if (sampling === null) untagged = true;
      calls.push({
        id,
        name: typeof payload.name === "string" ? payload.name : "",
        args: payload.arguments,
        sampling,
      });
      return untagged;
    },
    budget,
  );
  if (walk === null || untagged || calls.length === 0) {
    return walk === null || untagged ? null : { turnId, calls: [], pendingFound: false };
  }
  const pending = input.toolUseId === null
    ? undefined
    : calls.find((c) => c.id === input.toolUseId);
  // Without the pending call's own record, the newest sampling counts as its
  // batch: that can only take credit away.
  const batch = pending?.sampling ?? Math.max(...calls.map((c) => c.sampling ?? 0));
  const uses: LoggedUse[] = calls.map((c) => ({
    id: c.id,
    // Every call is tagged here: an untagged one ended the scan above.
    batch: `sampling-${c.sampling}`,
    // Each exec_command starts a fresh shell in the session's directory.
    command: c.name === "exec_command" ? commandOf(c.args) : null,
  }));
  return {
    turnId,
    calls: pairShellCalls(uses, outputs, `sampling-${batch}`, TOOL.bash.name),
    pendingFound: pending !== undefined,
  };
}

/** A rollout record's response item, with the sampling it came from. */
interface ItemRecord {
  item: Json;
  sampling: number | null;
}

/** A rollout record's response item with its sampling, or null for any other line. */
function itemOf(line: string): ItemRecord | null {
  const record = parseRecord(line);
  if (record === null || record.type !== "response_item" || !isRecord(record.payload)) return null;
  return { item: record.payload, sampling: samplingOf(record) };
}

/** The rollout's lines: response items only. */
const ROLLOUT: LogLines<ItemRecord> = {
  keep: keepTypes("response_item"),
  parse: itemOf,
};

/** The destructive commands a call stands for: its shell command, or its patch's deletions. */
function commandsOf(item: Json): string[] {
  if (item.type === "function_call" && item.name === "exec_command") {
    const exec = execArgs(item.arguments);
    return exec === null ? [] : [exec.cmd];
  }
  if (item.type !== "custom_tool_call" || agentTool("codex", item.name)?.shape !== "patch") {
    return [];
  }
  const read = readPatch(typeof item.input === "string" ? item.input : "");
  return read.ok
    ? read.files.flatMap((f) => f.op === "delete" ? [deletionCommand(f.path)] : [])
    : [];
}

function typeOf(item: Json): string {
  return typeof item.type === "string" ? item.type : "";
}

/** A call of the rollout, for the retry check: its batch is its sampling. */
interface RetryItem extends LoggedCall {
  item: Json;
}

/** The rollout as the retry walk reads it: calls and outputs that name their call id. */
function codexShape(call: RetryCall, command: string): RetryShape<ItemRecord, RetryItem> {
  return {
    keep: ROLLOUT.keep,
    parse: (line) => {
      const read = itemOf(line);
      return read !== null && typeof read.item.call_id === "string" ? read : null;
    },
    calls: ({ item, sampling }) =>
      CALL_TYPES.has(typeOf(item)) ? [{ id: String(item.call_id), batch: sampling, item }] : [],
    results: ({ item }) => OUTPUT_TYPES.has(typeOf(item)) ? [String(item.call_id)] : [],
    isPending: (c) => c.id === call.toolUseId,
    repeats: (c) => c.id !== call.toolUseId && commandsOf(c.item).includes(command),
    apart: (earlier, pending) =>
      earlier.batch !== null && pending.batch !== null && earlier.batch !== pending.batch,
    unmatched: "unseen",
  };
}

/**
 * Whether the model could have read the denial of the earlier identical
 * call when it sent the pending one (`RetryCall.toolUseId`, Codex's call
 * id). `unknown` while the pending call is not in the rollout; `unseen`
 * when the earlier call shares its sampling, lacks a sampling tag, has no
 * output written before the pending call, or is not in reach (at worst one
 * more denial, after which the denied call is in the rollout).
 */
export function denialSeen(call: RetryCall, fs: FsPort, budget?: WorkBudget): Seen {
  if (call.toolUseId === null || call.command === undefined) return "unknown";
  return judgeRetry(call.transcriptPath, codexShape(call, call.command), fs, budget);
}
