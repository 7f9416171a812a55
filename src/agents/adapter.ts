/**
 * What an agent adapter is, and the helpers every adapter shares (gate
 * calls from a call's origin, merged outcomes, payload fields). The table
 * of adapters is `registry.ts`, which imports the adapters; they import
 * only this module, so the two never form a circle.
 *
 * Every agent sends its own payload and reads its own answer. An adapter
 * reads the payload into one or more `HookCall`s that carry GateGuard's own
 * typed call (`tools/call.ts`) and name, from the table of gated tools, the
 * tool each is decided and reported as; and it renders an outcome as what
 * its agent reads. The gates never learn which agent called.
 *
 * One agent call can become several gate calls: a Codex patch is decided
 * file by file, so that one denial can name every first touch, and a
 * deletion also goes through the destructive gate. Their outcomes are
 * merged by `mergeOutcomes`.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import type { Outcome } from "../hook/decision.ts";
import type { HookCall } from "../hook/call.ts";
import { deletionCommand, type FileChange, type ToolCall } from "../tools/call.ts";
import { type GatedTool, type OtherAgent, TOOL } from "../tools/gated.ts";
import { joinPath } from "../platform/path.ts";
import { isRecord } from "../platform/json.ts";

/** What an agent's payload asks GateGuard to decide. */
export type Translation =
  | { kind: "calls"; calls: HookCall[] }
  | { kind: "refuse"; text: string };

/** One agent's translation in both directions. */
export interface AgentAdapter {
  /**
   * The calls to decide for this payload; none when the tool is not gated.
   * `env` locates a session log the payload does not name.
   */
  translate(payload: Record<string, unknown>, env: EnvSnapshot): Translation;
  /** The stdout text that tells the agent the outcome ("" prints nothing). */
  render(outcome: Outcome): string;
}

/**
 * One outcome for several gate calls: any denial wins and every denial's
 * text is kept (a question for the user by its denial text), so the agent
 * learns all it must answer at once; questions alone stay one question;
 * otherwise the notes are joined; otherwise the call passes.
 */
export function mergeOutcomes(outcomes: readonly Outcome[]): Outcome {
  const denials = outcomes.flatMap((o) =>
    o.kind === "deny" ? [o.text] : o.kind === "ask" ? [o.denyText] : []
  );
  const asks = outcomes.flatMap((o) => o.kind === "ask" ? [o] : []);
  if (asks.length === denials.length && asks.length > 0) {
    return {
      kind: "ask",
      text: asks.map((o) => o.text).join("\n\n"),
      denyText: denials.join("\n\n"),
    };
  }
  if (denials.length > 0) return { kind: "deny", text: denials.join("\n\n") };
  const notes = outcomes.flatMap((o) => o.kind === "note" ? [o.text] : []);
  return notes.length > 0 ? { kind: "note", text: notes.join("\n") } : { kind: "pass" };
}

/** A non-empty string field of `obj`, or null. */
export function stringField(obj: Record<string, unknown>, name: string): string | null {
  const value = obj[name];
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * `path` made absolute against `base` when it is relative and `base` is
 * known; left as it is otherwise (the file gate resolves what is left).
 */
export function againstBase(path: string, base: string | null): string {
  if (base === null || path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return path;
  if (path.startsWith("\\\\")) return path;
  return joinPath(base, path);
}

/** Where a call comes from: the session, where it runs, and the log that tells its turn. */
export interface CallOrigin {
  sessionId: string | null;
  cwd: string | null;
  /** The agent's session log, for prior-search credit and the retry check. */
  transcriptPath?: string | null;
  /** The pending call's id as the session log knows it. */
  toolUseId?: string | null;
  /** The turn's id as the session log knows it. */
  promptId?: string | null;
  /** Whose log `transcriptPath` is (`session_logs/session_logs.ts`). */
  logKind?: OtherAgent;
}

/** One gate call: `typed`, decided and reported as `tool`, from `origin`. */
export function gateCall(origin: CallOrigin, tool: GatedTool, typed: ToolCall): HookCall {
  return {
    toolName: tool.name,
    toolInput: null,
    typed,
    sessionId: origin.sessionId,
    transcriptPath: origin.transcriptPath ?? null,
    cwd: origin.cwd,
    toolUseId: origin.toolUseId ?? null,
    promptId: origin.promptId ?? null,
    // Subagents are a Claude Code notion; no other agent marks its calls so.
    agentId: null,
    ...(origin.logKind ? { logKind: origin.logKind } : {}),
  };
}

/**
 * The call of a tool GateGuard does not read whose name says it may change
 * files (an MCP server's, `tools/gated.ts`): its input goes on as it came,
 * for the paths under its path-like keys; an input that is not an object
 * names none.
 */
export function foreignToolCall(origin: CallOrigin, toolName: string, input: unknown): HookCall {
  const { typed: _, ...call } = gateCall(origin, TOOL.write, { kind: "file", touches: [] });
  return { ...call, toolName, toolInput: isRecord(input) ? input : null };
}

/** A one-file gate call; no path makes it a call without targets, which the file gate denies. */
export function fileGateCall(
  origin: CallOrigin,
  tool: GatedTool,
  path: string | null,
  change: FileChange,
): HookCall {
  const verb = tool === TOOL.write ? "write" : "edit";
  return gateCall(origin, tool, { kind: "file", touches: path ? [{ path, verb, change }] : [] });
}

/**
 * The two gate calls of a deletion by tool: the destructive gate (see
 * `deletionCommand`) and the file gate, whose change it never reads. Both
 * are reported as the file tool, so a deletion never counts as a shell
 * command.
 */
export function deletionGateCalls(origin: CallOrigin, path: string): HookCall[] {
  return [
    gateCall(origin, TOOL.multiEdit, {
      kind: "shell",
      dialect: "bash",
      command: deletionCommand(path),
      deletion: path,
    }),
    fileGateCall(origin, TOOL.multiEdit, path, { kind: "opaque", removes: true }),
  ];
}
