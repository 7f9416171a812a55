/**
 * The current turn of a Gemini CLI chat log
 * (`~/.gemini/tmp/<project>/chats/session-<ts>-<id>.jsonl`), read into the
 * `TurnScan` the Claude Code transcript gives, so prior-search credit runs
 * unchanged.
 *
 * The log holds `user` and `gemini` records; a record is appended again,
 * whole, when it changes (a `gemini` record gains its `toolCalls` once they
 * have run), so the newest line of an id wins. The turn starts at the
 * newest `user` record that carries text (function responses come back as
 * `user` records too, without text). Gemini CLI sends no call id with the
 * hook payload, so the pending call's batch is taken to be the newest
 * `gemini` record: the client writes the model's reply before it runs the
 * reply's tools. Were the reply not written yet, an older batch would be
 * taken for the pending one, which can only take credit away.
 *
 * Only `run_shell_command` calls are kept, as `Bash` calls; one with its
 * own `dir_path` is left out, since its search scope is not the edit's. A
 * call completed when its status is `success` and its result reports no
 * exit code but 0, no signal and no error: Gemini CLI marks a command that
 * exited non-zero as a success and says so only in the result.
 *
 * The destructive-retry check (`denialSeen`) takes the newest reply for
 * the pending call's, as the scan does. The earlier identical
 * `run_shell_command` was seen when it sits in an older reply with its
 * result recorded. Gemini CLI records a reply's calls only once the whole
 * reply has run, so a copy in the pending reply is not in the file yet:
 * when no identical call is found, it may be one, and the answer is
 * `unseen` (at worst one more denial, after which the denied call is in
 * the log).
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import type { WorkBudget } from "../platform/budget.ts";
import type { TurnCall, TurnScanInput, TurnScanResult } from "./turn_scan.ts";
import {
  judgeRetry,
  keepTypes,
  type LoggedCall,
  type RetryCall,
  type RetryShape,
  type Seen,
  walkLog,
} from "./tail.ts";
import { agentTool, TOOL } from "../tools/gated.ts";
import { isRecord, parseRecord } from "../platform/json.ts";

type Json = Record<string, unknown>;

/**
 * The newest version of a record: walking backwards, the first line of an
 * id is its newest version, and later (older) lines of it are skipped.
 */
function newest(line: string, seen: Set<string>): Json | null {
  const record = parseRecord(line);
  if (record === null || typeof record.id !== "string" || seen.has(record.id)) return null;
  seen.add(record.id);
  return record;
}

/** True for Gemini CLI's shell tool, by the gated-tools table. */
function isShell(name: unknown): boolean {
  return agentTool("gemini", name)?.gate === "shell";
}

/** The records the turn scan reads: prompts and function responses, and replies. */
const keepRecords = keepTypes("user", "gemini");

/** True when a shell result's text reports a clean exit: no non-zero code, signal or error. */
export function shellResultClean(text: string): boolean {
  return text.split("\n").every((line) =>
    !(line.startsWith("Exit Code:") && line !== "Exit Code: 0") &&
    !line.startsWith("Signal:") && !line.startsWith("Error:")
  );
}

/** The text of a tool call's result parts (`functionResponse.response.output`). */
function resultText(result: unknown): string | null {
  if (!Array.isArray(result)) return null;
  const parts: string[] = [];
  for (const part of result) {
    const response = isRecord(part) && isRecord(part.functionResponse)
      ? part.functionResponse.response
      : null;
    if (!isRecord(response) || typeof response.output !== "string") return null;
    parts.push(response.output);
  }
  return parts.join("\n");
}

function startsTurn(record: Json): boolean {
  if (typeof record.content === "string") return record.content.trim() !== "";
  return Array.isArray(record.content) &&
    record.content.some((part) => isRecord(part) && typeof part.text === "string");
}

/** A call of Gemini CLI's shell tool, with its arguments object. */
interface ShellCall {
  call: Json;
  args: Json;
}

/** The shell calls of a reply, newest first; the scan and the retry check read the same ones. */
function shellCallsOf(reply: Json): ShellCall[] {
  const toolCalls = Array.isArray(reply.toolCalls) ? reply.toolCalls : [];
  return [...toolCalls].reverse().flatMap((call) =>
    isRecord(call) && isShell(call.name) && isRecord(call.args) ? [{ call, args: call.args }] : []
  );
}

function shellCall({ call, args }: ShellCall, reply: string, sameBatch: boolean): TurnCall | null {
  const { command, dir_path: dir } = args;
  if (typeof command !== "string" || typeof call.id !== "string" || dir !== undefined) return null;
  const text = resultText(call.result);
  const ran = call.status === "success" && text !== null;
  return {
    id: call.id,
    tool: TOOL.bash.name,
    input: { command },
    completed: ran && shellResultClean(text),
    sameBatch,
    // The reply record is the batch: calls sharing it were sent together.
    messageId: reply,
    cwd: null,
    denied: call.status !== "success",
  };
}

/**
 * Scans the newest turn of the chat log at `input.transcriptPath`. Null
 * when the file cannot be read or holds no turn start within the bounds.
 */
export function scanTurn(
  input: TurnScanInput,
  fs: FsPort,
  budget?: WorkBudget,
): TurnScanResult | null {
  const seen = new Set<string>();
  const replies: Json[] = [];
  let start: string | null = null;
  const walk = walkLog(
    input.transcriptPath,
    fs,
    {
      keep: keepRecords,
      parse: (line) => newest(line, seen),
    },
    (record) => {
      if (record.type === "gemini") replies.push(record);
      if (record.type === "user" && startsTurn(record)) start = String(record.id);
      return start !== null;
    },
    budget,
  );
  if (walk === null || start === null) return null;
  const calls: TurnCall[] = [];
  replies.forEach((reply, index) => {
    for (const shell of shellCallsOf(reply)) {
      const scanned = shellCall(shell, String(reply.id), index === 0);
      if (scanned) calls.push(scanned);
    }
  });
  // The turn is named by the record that started it; the log has no prompt id.
  return { turnId: start, calls, pendingFound: true };
}

/**
 * A call of a reply, for the retry check. The log holds no call id for
 * the pending call, so each reply opens with a stand-in for it: the first
 * one the walk meets is the pending reply.
 */
interface ReplyCall extends LoggedCall {
  batch: string;
  standIn: boolean;
  command: unknown;
}

/** The chat log as the retry walk reads it: replies, each with its calls and their results. */
function geminiShape(command: string): RetryShape<Json, ReplyCall> {
  const seen = new Set<string>();
  return {
    keep: keepTypes("gemini"),
    parse: (line) => {
      const record = newest(line, seen);
      return record?.type === "gemini" ? record : null;
    },
    calls: (reply) => {
      const batch = String(reply.id);
      const shells: ReplyCall[] = shellCallsOf(reply).map(({ call, args }) => ({
        id: "",
        batch,
        standIn: false,
        command: args.command,
        answered: Array.isArray(call.result) && call.result.length > 0,
      }));
      return [{ id: "", batch, standIn: true, command: null }, ...shells];
    },
    // Results are written inside the calls.
    results: () => [],
    isPending: (c) => c.standIn,
    repeats: (c) => !c.standIn && c.command === command,
    apart: (earlier, pending) => earlier.batch !== pending.batch,
    unmatched: "unseen",
  };
}

/** Whether the model could have read the denial of the earlier identical shell call. */
export function denialSeen(call: RetryCall, fs: FsPort, budget?: WorkBudget): Seen {
  if (call.tool !== TOOL.bash.name || call.command === undefined) return "unknown";
  return judgeRetry(call.transcriptPath, geminiShape(call.command), fs, budget);
}
