/**
 * Where and how GateGuard is registered for the agents other than Claude
 * Code, as one table: each agent's hook file (project and user level), the
 * layout of that file, the tools the registration must reach, and the trust
 * step without which the agent silently skips the hook.
 *
 * Three layouts occur:
 * - grouped (Codex, Gemini CLI): Claude Code's `hooks.<event>` list of
 *   `{matcher, hooks: [handler]}` entries, edited by `registration_edit.ts`;
 * - flat (Cursor): `hooks.preToolUse` is a list of handlers, each with its
 *   own matcher, edited by `flat_hooks_edit.ts`;
 * - owned (Copilot CLI): a file of its own (`gateguard.json`) in a folder of
 *   hook files, which GateGuard writes whole and removes whole.
 *
 * The registered command is the GateGuard command followed by
 * `hook --agent <name>`, so nothing about the agent is guessed at run time.
 *
 * @module
 */

import type { JsonValue } from "../config/jsonc.ts";
import { handlerKind, isGateGuardHandler, matcherCovers } from "./claude_settings.ts";
import type { HookFormat } from "./registration_edit.ts";
import {
  agentToolNames,
  GEMINI_MCP_CHANGE_EXAMPLES,
  GEMINI_MCP_CHANGE_MATCHER,
  type OtherAgent,
} from "../tools/gated.ts";
import { joinPath } from "../platform/path.ts";
import { isRecord } from "../platform/json.ts";

/** The agents registered through this table. */
export type SetupAgent = OtherAgent;

/** The agents of the table, in the order doctor reports them. */
export const SETUP_AGENTS: readonly SetupAgent[] = ["codex", "gemini", "copilot", "cursor"];

/** A flat layout: the event's list holds handlers, each carrying its own matcher. */
export interface FlatFormat {
  event: string;
  /** The handler that runs `command`, matcher included. */
  handler(command: string): { [key: string]: JsonValue };
  /** The tools its matcher must reach. */
  tools: readonly string[];
  covers(matcher: unknown, tool: string): boolean;
  isOurs(handler: unknown, ownCommand: string): boolean;
}

/** A file GateGuard owns whole. */
export interface OwnedFormat {
  /** The whole file's JSON for `command`. */
  file(command: string): JsonValue;
  /** The handlers of a parsed file, to tell whether it is ours and what it runs. */
  handlers(parsed: unknown): unknown[];
  /** Whether one handler is GateGuard's; `ownCommand` is this build's command. */
  isOurs(handler: unknown, ownCommand: string): boolean;
}

/** How an agent's hook file is laid out. */
export type AgentLayout =
  | { kind: "grouped"; format: HookFormat }
  | { kind: "flat"; format: FlatFormat }
  | { kind: "owned"; format: OwnedFormat };

/** One agent's registration. */
export interface AgentRegistration {
  agent: SetupAgent;
  /** The name the agent goes by in messages. */
  title: string;
  /** The project-level hook file. */
  projectFile(root: string): string;
  /** The user-level hook file. */
  userFile(home: string): string;
  layout: AgentLayout;
  /** The shell tools and the edit tools a registration must reach. */
  shellTools: readonly string[];
  editTools: readonly string[];
  /** What the user must do before the agent runs the hook at all. */
  trust: string;
  /**
   * Tools GateGuard does not read but looks at for its own files (an MCP
   * server's that may change files), when the agent lets a hook see them:
   * doctor warns when a registration reaches none of them.
   */
  foreignTools?: readonly string[];
  /**
   * How the agent itself reads a matcher, where that differs from the
   * editor's reading (`layout.format.covers`): doctor reports what the agent
   * will run.
   */
  reaches?: (matcher: unknown, tool: string) => boolean;
}

/**
 * Gemini CLI's reading of a BeforeTool matcher: empty or `*` reaches every
 * tool, anything else is an unanchored regular expression (a plain name
 * where it does not compile), so `write_file` also reaches
 * `mcp_fs_write_file`.
 */
export function geminiMatcherReaches(matcher: unknown, tool: string): boolean {
  if (matcher === undefined || matcher === null) return true;
  if (typeof matcher !== "string") return false;
  const trimmed = matcher.trim();
  if (trimmed === "" || trimmed === "*") return true;
  try {
    return new RegExp(trimmed).test(tool);
  } catch {
    return trimmed === tool;
  }
}

/** The command GateGuard registers for `agent`, given the GateGuard command. */
export function agentCommand(command: string, agent: SetupAgent): string {
  return `${command} hook --agent ${agent}`;
}

// Each agent's tools, by that agent's names, from the table of gated tools.
const CODEX_TOOLS = agentToolNames("codex");
const GEMINI_TOOLS = agentToolNames("gemini");
const CURSOR_TOOLS = agentToolNames("cursor");

/** Seconds an agent waits for the hook; a timed-out hook lets the call through, so keep room. */
const TIMEOUT_SECONDS = 30;

/** A Copilot handler runs GateGuard when its `bash` (or `powershell`) command does. */
export function isCopilotHandler(handler: unknown, ownCommand: string): boolean {
  if (!isRecord(handler)) return false;
  return ["bash", "powershell"].some((key) =>
    isGateGuardHandler({ command: handler[key] }, ownCommand)
  );
}

const COPILOT_FORMAT: OwnedFormat = {
  file: (command) => ({
    version: 1,
    hooks: {
      preToolUse: [{
        type: "command",
        bash: command,
        powershell: command,
        timeoutSec: TIMEOUT_SECONDS,
      }],
    },
  }),
  handlers: (parsed) => {
    if (!isRecord(parsed) || !isRecord(parsed.hooks)) return [];
    return Object.values(parsed.hooks).flatMap((list) => Array.isArray(list) ? list : []);
  },
  isOurs: isCopilotHandler,
};

/** The registrations, one per agent. */
export const AGENT_REGISTRATIONS: Readonly<Record<SetupAgent, AgentRegistration>> = {
  codex: {
    agent: "codex",
    title: "Codex CLI",
    projectFile: (root) => joinPath(root, ".codex/hooks.json"),
    userFile: (home) => joinPath(home, ".codex/hooks.json"),
    layout: {
      kind: "grouped",
      format: {
        event: "PreToolUse",
        entries: [{ matcher: CODEX_TOOLS.join("|"), tools: CODEX_TOOLS }],
        handler: (command) => ({ type: "command", command, timeout: TIMEOUT_SECONDS }),
        strippedKeys: ["args"],
        covers: matcherCovers,
        kindOf: handlerKind,
      },
    },
    shellTools: agentToolNames("codex", "shell"),
    editTools: agentToolNames("codex", "file"),
    trust: "Codex runs a hook only once it is approved and, for a project file, only in a " +
      "trusted project: start `codex` in this folder, trust it, then approve GateGuard in " +
      "`/hooks`. Until then Codex skips the hook without a word.",
  },
  gemini: {
    agent: "gemini",
    title: "Gemini CLI",
    projectFile: (root) => joinPath(root, ".gemini/settings.json"),
    userFile: (home) => joinPath(home, ".gemini/settings.json"),
    layout: {
      kind: "grouped",
      format: {
        event: "BeforeTool",
        entries: [
          { matcher: GEMINI_TOOLS.join("|"), tools: GEMINI_TOOLS },
          // MCP tools whose names say they change files: looked at for GateGuard's own files only.
          { matcher: GEMINI_MCP_CHANGE_MATCHER, tools: GEMINI_MCP_CHANGE_EXAMPLES },
        ],
        // Gemini CLI counts hook timeouts in milliseconds.
        handler: (command) => ({
          type: "command",
          name: "gateguard",
          command,
          timeout: TIMEOUT_SECONDS * 1000,
        }),
        strippedKeys: ["args"],
        covers: matcherCovers,
        kindOf: handlerKind,
      },
    },
    shellTools: agentToolNames("gemini", "shell"),
    editTools: agentToolNames("gemini", "file"),
    trust: "Gemini CLI runs project hooks only in a trusted folder: trust this folder when " +
      "Gemini CLI asks (or set GEMINI_CLI_TRUST_WORKSPACE=true for headless runs).",
    foreignTools: GEMINI_MCP_CHANGE_EXAMPLES,
    reaches: geminiMatcherReaches,
  },
  copilot: {
    agent: "copilot",
    title: "Copilot CLI",
    projectFile: (root) => joinPath(root, ".github/hooks/gateguard.json"),
    userFile: (home) => joinPath(home, ".copilot/hooks/gateguard.json"),
    layout: { kind: "owned", format: COPILOT_FORMAT },
    shellTools: agentToolNames("copilot", "shell"),
    editTools: agentToolNames("copilot", "file"),
    trust: "Copilot CLI runs repository hooks in prompt mode (-p) only for a trusted folder: " +
      "pass --trust-folder, or set GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true.",
  },
  cursor: {
    agent: "cursor",
    title: "Cursor",
    projectFile: (root) => joinPath(root, ".cursor/hooks.json"),
    userFile: (home) => joinPath(home, ".cursor/hooks.json"),
    layout: {
      kind: "flat",
      format: {
        event: "preToolUse",
        tools: CURSOR_TOOLS,
        // failClosed: a hook that crashes or times out blocks the call instead of passing it.
        handler: (command) => ({
          command,
          matcher: CURSOR_TOOLS.join("|"),
          timeout: TIMEOUT_SECONDS,
          failClosed: true,
        }),
        covers: matcherCovers,
        isOurs: isGateGuardHandler,
      },
    },
    shellTools: agentToolNames("cursor", "shell"),
    editTools: agentToolNames("cursor", "file"),
    trust: "Cursor reads hooks.json when it starts: restart Cursor, then check its Hooks " +
      "settings tab lists GateGuard.",
  },
};
