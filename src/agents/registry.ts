/**
 * The agents GateGuard answers and the table of their adapters, each loaded
 * only when its agent is named.
 *
 * @module
 */

import type { AgentAdapter } from "./adapter.ts";

/** The agents GateGuard answers, as `--agent` names them. */
export const AGENT_NAMES = ["claude", "codex", "gemini", "copilot", "cursor"] as const;

/** One agent name. */
export type AgentName = typeof AGENT_NAMES[number];

/** The agent a hook call is for when `--agent` is not given. */
export const DEFAULT_AGENT: AgentName = "claude";

/** True when `name` is an agent GateGuard knows. */
export function isAgentName(name: string): name is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(name);
}

/** The adapters, each loaded only when its agent is named. */
const ADAPTERS: Readonly<Record<AgentName, () => Promise<AgentAdapter>>> = {
  claude: async () =>
    (await (import(new URL("./claude.ts", import.meta.url).href) as Promise<
      typeof import("./claude.ts")
    >)).CLAUDE_ADAPTER,
  codex: async () =>
    (await (import(new URL("./codex.ts", import.meta.url).href) as Promise<
      typeof import("./codex.ts")
    >)).CODEX_ADAPTER,
  gemini: async () =>
    (await (import(new URL("./gemini.ts", import.meta.url).href) as Promise<
      typeof import("./gemini.ts")
    >)).GEMINI_ADAPTER,
  copilot: async () =>
    (await (import(new URL("./copilot.ts", import.meta.url).href) as Promise<
      typeof import("./copilot.ts")
    >)).COPILOT_ADAPTER,
  cursor: async () =>
    (await (import(new URL("./cursor.ts", import.meta.url).href) as Promise<
      typeof import("./cursor.ts")
    >)).CURSOR_ADAPTER,
};

/** Loads the adapter of `agent`. */
export function loadAdapter(agent: AgentName): Promise<AgentAdapter> {
  return ADAPTERS[agent]();
}
