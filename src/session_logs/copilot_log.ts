/**
 * A Copilot CLI session's event log
 * (`~/.copilot/session-state/<session>/events.jsonl`), read for the current
 * turn's shell calls and for the destructive-retry check.
 *
 * Each line is one event `{type, data, id, …}`. A `user.message` starts a
 * turn; each model reply is one `assistant.message` whose `toolRequests`
 * are one batch; `tool.execution_complete` answers a call by its id with
 * `success`, the shell's `exitCode` and, for a refused call, an error coded
 * `denied`. Events of a sub-agent carry its `agentId` (or a parent call id)
 * and are left out: they are not the main agent's turn.
 *
 * The hook payload carries no call id, so the pending call is the newest
 * request whose tool name and arguments give the payload's key
 * (`copilot_session.ts`) and that no completion answers yet. The client
 * writes the log a moment behind: a reply may not be in the file when its
 * hook runs. The gates then wait for the file to grow (`PENDING_RESCAN`);
 * should the call still be missing, the newest reply in the file is taken
 * for its batch (less credit), and the retry check answers `unknown`, which
 * denies.
 *
 * Only `bash` calls are kept, as `Bash` calls of their `command`; one with
 * arguments beyond the command and its description is left out, since it
 * may run elsewhere than a fresh shell in the session's directory. A call
 * completed when it succeeded and its shell exited with 0.
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
  type RetryCall,
  type RetryShape,
  type Seen,
  walkLog,
} from "./tail.ts";
import { copilotCallKey } from "./copilot_session.ts";
import { AGENT_TOOLS, shellToolName, TOOL } from "../tools/gated.ts";
import { isRecord, parseRecord } from "../platform/json.ts";

type Json = Record<string, unknown>;

/**
 * How often and how long to wait for the pending call's reply. Copilot CLI
 * 1.0.102 was seen to write a reply more than 50 ms after it ran the reply's
 * hook; the waits end early once the record is there.
 */
export const PENDING_RESCAN = { retries: 8, delayMs: 50 } as const;

/** The events the readers look at. */
const keepEvent = keepTypes("user.message", "assistant.message", "tool.execution_complete");

/** Copilot's shell tool whose calls GateGuard decides as `tool`, by the gated-tools table. */
function copilotShell(tool: string): string | null {
  const row = AGENT_TOOLS.copilot.find((t) =>
    t.dialect !== null && shellToolName(t.dialect) === tool
  );
  return row?.name ?? null;
}

/** The name Copilot gives the tool GateGuard decides as Bash. */
const COPILOT_BASH = copilotShell(TOOL.bash.name);

/** Argument fields of a `bash` call that leave its scope a fresh shell in the session's cwd. */
const PLAIN_SHELL_ARGS = new Set(["command", "description"]);

/** One tool request of a reply. */
interface Request extends LoggedCall {
  id: string;
  name: string;
  args: unknown;
  /** The reply it came in: the batch. */
  batch: string;
}

/** How a completion answered a call. */
interface Completion {
  clean: boolean;
  denied: boolean;
}

/** One event of the main agent. */
interface Event {
  type: string;
  data: Json;
  id: string;
}

/** One event of the main agent, or null for a line that is none. */
function eventOf(line: string): Event | null {
  const record = parseRecord(line);
  if (record === null || typeof record.type !== "string" || !isRecord(record.data)) return null;
  if (record.agentId !== undefined || record.data.parentToolCallId !== undefined) return null;
  return {
    type: record.type,
    data: record.data,
    id: typeof record.id === "string" ? record.id : "",
  };
}

function requestsOf(data: Json, fallbackBatch: string): Request[] {
  const batch = typeof data.messageId === "string" ? data.messageId : fallbackBatch;
  const list = Array.isArray(data.toolRequests) ? data.toolRequests : [];
  return list.flatMap((r) =>
    isRecord(r) && typeof r.toolCallId === "string" && typeof r.name === "string"
      ? [{ id: r.toolCallId, name: r.name, args: r.arguments, batch }]
      : []
  );
}

function completionOf(data: Json): [string, Completion] | null {
  if (typeof data.toolCallId !== "string") return null;
  const shell = isRecord(data.shellExecution) ? data.shellExecution : {};
  const error = isRecord(data.error) ? data.error : {};
  return [data.toolCallId, {
    clean: data.success === true && shell.exitCode === 0,
    denied: error.code === "denied",
  }];
}

/** The command of a plain `bash` call, or null. */
function plainCommand(request: Request): string | null {
  if (request.name !== COPILOT_BASH || !isRecord(request.args)) return null;
  const { command } = request.args;
  if (typeof command !== "string") return null;
  return Object.keys(request.args).every((k) => PLAIN_SHELL_ARGS.has(k)) ? command : null;
}

/**
 * Scans the newest turn of the event log at `input.transcriptPath`; the
 * pending call is known by `input.toolUseId` (its `copilotCallKey`). Null
 * when the file cannot be read or holds no turn start within the bounds.
 */
export function scanTurn(
  input: TurnScanInput,
  fs: FsPort,
  budget?: WorkBudget,
): TurnScanResult | null {
  const requests: Request[] = [];
  const completions = new Map<string, LoggedAnswer>();
  let start: string | null = null;
  const walk = walkLog(
    input.transcriptPath,
    fs,
    { keep: keepEvent, parse: eventOf },
    (event) => {
      if (event.type === "user.message") {
        start = event.id;
        return true;
      }
      if (event.type === "assistant.message") {
        requests.push(...requestsOf(event.data, event.id).reverse());
      } else if (event.type === "tool.execution_complete") {
        const done = completionOf(event.data);
        if (done) noteAnswer(completions, ...done);
      }
      return false;
    },
    budget,
  );
  if (walk === null || start === null) return null;
  const pending = requests.find((r) =>
    !completions.has(r.id) && copilotCallKey(r.name, r.args) === input.toolUseId
  );
  // Without the pending call's own request, the newest reply counts as its batch.
  const batch = pending?.batch ?? requests[0]?.batch ?? null;
  const uses: LoggedUse[] = requests.map((r) => ({
    id: r.id,
    batch: r.batch,
    command: plainCommand(r),
  }));
  const calls = pairShellCalls(uses, completions, batch, TOOL.bash.name);
  // The turn is named by the message that started it; the log has no prompt id.
  return { turnId: start, calls, pendingFound: pending !== undefined };
}

/**
 * Whether the model could have read the denial of the earlier identical
 * shell call when it sent the pending one: that call rode in an earlier
 * reply and its completion was written before the pending reply. `unknown`
 * while the pending call is not in the file; `unseen` when no earlier
 * identical call is in reach (at worst one more denial, after which the
 * denied call is in the log).
 */
export function denialSeen(call: RetryCall, fs: FsPort, budget?: WorkBudget): Seen {
  const name = copilotShell(call.tool);
  if (name === null || call.toolUseId === null || call.command === undefined) return "unknown";
  return judgeRetry(
    call.transcriptPath,
    copilotShape(call.toolUseId, name, call.command),
    fs,
    budget,
  );
}

/** The event log as the retry walk reads it: replies with their requests, and completions. */
function copilotShape(
  key: string,
  name: string,
  command: string,
): RetryShape<Event, Request> {
  return {
    keep: keepEvent,
    parse: (line) => {
      const event = eventOf(line);
      return event?.type === "tool.execution_complete" || event?.type === "assistant.message"
        ? event
        : null;
    },
    calls: (event) =>
      event.type === "assistant.message" ? requestsOf(event.data, event.id).reverse() : [],
    results: (event) =>
      event.type === "tool.execution_complete" && typeof event.data.toolCallId === "string"
        ? [event.data.toolCallId]
        : [],
    // The request no completion answers yet whose name and arguments give the payload's key.
    isPending: (r, answeredLater) =>
      !answeredLater.has(r.id) && copilotCallKey(r.name, r.args) === key,
    repeats: (r) => r.name === name && isRecord(r.args) && r.args.command === command,
    apart: (earlier, pending) => earlier.batch !== pending.batch,
    unmatched: "unseen",
  };
}
