/**
 * What an agent adapter is, and the table of adapters.
 *
 * Every agent sends its own payload and reads its own answer. An adapter
 * translates the payload into one or more calls in GateGuard's own input
 * dialect (the field names Claude Code uses, which the gates were written
 * for), and an outcome back into what its agent reads. The gates never
 * learn which agent called.
 *
 * One agent call can become several gate calls: a Codex patch is decided
 * file by file, so that one denial can name every first touch, and a
 * deletion also goes through the destructive gate. Their outcomes are
 * merged by `mergeOutcomes`.
 *
 * @module
 */

import type { Outcome } from "../hook/decision.ts";

/** The agents GateGuard answers, as `--agent` names them. */
export const AGENT_NAMES = ["claude", "codex", "gemini", "copilot", "cursor"] as const;

/** One agent name. */
export type AgentName = typeof AGENT_NAMES[number];

/** The agent a hook call is for when `--agent` is not given. */
export const DEFAULT_AGENT: AgentName = "claude";

/** A payload in GateGuard's input dialect (`tool_name`, `tool_input`, `session_id`, …). */
export type GateCall = Record<string, unknown>;

/** What an agent's payload asks GateGuard to decide. */
export type Translation =
  | { kind: "calls"; calls: GateCall[] }
  | { kind: "refuse"; text: string };

/** One agent's translation in both directions. */
export interface AgentAdapter {
  /** The calls to decide for this payload; none when the tool is not gated. */
  translate(payload: Record<string, unknown>): Translation;
  /** The stdout text that tells the agent the outcome ("" prints nothing). */
  render(outcome: Outcome): string;
}

/** True when `name` is an agent GateGuard knows. */
export function isAgentName(name: string): name is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(name);
}

/** The adapters, each loaded only when its agent is named. */
const ADAPTERS: Readonly<Record<AgentName, () => Promise<AgentAdapter>>> = {
  claude: async () => (await import("./claude.ts")).CLAUDE_ADAPTER,
  codex: async () => (await import("./codex.ts")).CODEX_ADAPTER,
  gemini: async () => (await import("./gemini.ts")).GEMINI_ADAPTER,
  copilot: async () => (await import("./copilot.ts")).COPILOT_ADAPTER,
  cursor: async () => (await import("./cursor.ts")).CURSOR_ADAPTER,
};

/** Loads the adapter of `agent`. */
export function loadAdapter(agent: AgentName): Promise<AgentAdapter> {
  return ADAPTERS[agent]();
}

/**
 * One outcome for several gate calls: any denial wins and every denial's
 * text is kept, so the agent learns all it must answer at once; otherwise
 * the notes are joined; otherwise the call passes.
 */
export function mergeOutcomes(outcomes: readonly Outcome[]): Outcome {
  const denials = outcomes.flatMap((o) => o.kind === "deny" ? [o.text] : []);
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
  return `${base.replace(/[\\/]+$/, "")}/${path}`;
}

/**
 * The shell command a file deletion is decided as: a forced removal of that
 * one path, quoted as one word so a retry matches. The shell gate does not
 * count a plain `rm` of one file as destructive; a deletion the agent asks
 * for by tool is, so it is denied on every new attempt until retried. The
 * destructive denial never quotes the command, so the agent never sees it.
 */
export function deletionCommand(path: string): string {
  return `rm -rf -- '${path.replaceAll("'", `'"'"'`)}'`;
}
