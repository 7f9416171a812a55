/**
 * The hook payload, parsed and validated into a `HookCall`.
 *
 * Everything the agent sends is untrusted: a field of the wrong type is
 * treated as absent, never as an error, and parsing never throws.
 *
 * @module
 */

import { isRecord } from "../platform/json.ts";
import type { ToolCall } from "../tools/call.ts";

/** One PreToolUse call, with every field checked for its type. */
export interface HookCall {
  /** `tool_name`, or "" when missing. */
  toolName: string;
  /** `tool_input` when it is a plain object, else null. */
  toolInput: Record<string, unknown> | null;
  /** `session_id` when a non-empty string. */
  sessionId: string | null;
  /** `transcript_path` when a non-empty string. */
  transcriptPath: string | null;
  /** `cwd` (where the tool runs) when a non-empty string. */
  cwd: string | null;
  /** `tool_use_id` of the pending call when a non-empty string. */
  toolUseId: string | null;
  /** `prompt_id` of the current human prompt when a non-empty string. */
  promptId: string | null;
  /**
   * The first non-empty string among `agent_id`, `agentId`,
   * `parent_tool_use_id` and `parentToolUseId`: set for subagent calls.
   */
  agentId: string | null;
  /**
   * `permission_mode` when a non-empty string: whether a question put to
   * the user (`ask`) reaches one, or is answered by the mode.
   */
  permissionMode?: string | null;
  /**
   * Whose session log `transcriptPath` is, when an agent adapter names one
   * (`log_kind`, e.g. `codex`); absent for Claude Code's own transcript.
   */
  logKind?: string | null;
  /**
   * The call already read into GateGuard's typed call, by an agent adapter
   * that reads its own agent's tools; absent when `toolInput` is read
   * through the table of gated tools. `toolName` then names the tool the
   * call is decided and reported as.
   */
  typed?: ToolCall;
}

/** Result of parsing stdin: a call, or why the input is not one. */
export type ParseResult = { ok: true; call: HookCall } | { ok: false; reason: string };

function str(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

const SUBAGENT_FIELDS = ["agent_id", "agentId", "parent_tool_use_id", "parentToolUseId"];

/** Builds a `HookCall` from an already-parsed JSON object. */
export function callFromObject(obj: Record<string, unknown>): HookCall {
  let agentId: string | null = null;
  for (const field of SUBAGENT_FIELDS) {
    agentId = str(obj[field]);
    if (agentId) break;
  }
  return {
    toolName: typeof obj.tool_name === "string" ? obj.tool_name : "",
    toolInput: isRecord(obj.tool_input) ? obj.tool_input : null,
    sessionId: str(obj.session_id),
    transcriptPath: str(obj.transcript_path),
    cwd: str(obj.cwd),
    toolUseId: str(obj.tool_use_id),
    promptId: str(obj.prompt_id),
    agentId,
    permissionMode: str(obj.permission_mode),
    // Only an adapter's call names a log kind; a Claude Code call stays as it was.
    ...(str(obj.log_kind) ? { logKind: str(obj.log_kind) } : {}),
  };
}

/** Parses the raw stdin text of a hook call. Never throws. */
export function parseCall(text: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "stdin is not JSON" };
  }
  if (!isRecord(value)) return { ok: false, reason: "stdin is not a JSON object" };
  return { ok: true, call: callFromObject(value) };
}
