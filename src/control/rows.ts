/**
 * The rows of GateGuard's control surface, as data: every file or folder
 * whose change could switch GateGuard off, weaken it or forge what it
 * trusts, for every agent and level (the start-up rows in
 * `startup_rows.ts`, the types in `row_types.ts`). `surface.ts` resolves
 * the rows against a call and matches paths.
 *
 * @module
 */

import { onPathRows, type SurfaceRow } from "./row_types.ts";
import {
  AGENT_PROGRAM_ROWS,
  APPROVAL_ROWS,
  EDITOR_ENV_ROWS,
  envFileRows,
  ENVRC_SOURCED_ROW,
  MISE_CONFIG_ROWS,
  SHELL_STARTUP,
  STARTUP_SOURCED_ROW,
  startupRow,
} from "./startup_rows.ts";

export { DELETION_HARMLESS } from "./row_types.ts";
export type {
  SurfaceAgent,
  SurfaceBase,
  SurfaceKind,
  SurfaceLevel,
  SurfaceRow,
} from "./row_types.ts";
export { ENVRC_SOURCED_ROW, STARTUP_SOURCED_ROW } from "./startup_rows.ts";

/**
 * Claude Code's skills, commands and subagents, in the project and the
 * user's folder: their definitions can carry hooks, and a skill or command
 * runs commands as it loads, none of which a PreToolUse hook sees.
 */
function definitionRows(): SurfaceRow[] {
  const kinds: [string, string, string][] = [
    ["skills", "skills", "Claude Code's skills"],
    ["commands", "commands", "Claude Code's slash commands"],
    ["agents", "agents", "Claude Code's subagents"],
  ];
  return kinds.flatMap(([id, folder, what]): SurfaceRow[] => [
    {
      id: `claude-project-${id}`,
      agent: "claude",
      level: "project",
      base: "project",
      pattern: `.claude/${folder}/**`,
      kind: "definition",
      controls: `${what} for this project, whose hooks and load-time commands run ungated`,
      askable: false,
    },
    {
      id: `claude-user-${id}`,
      agent: "claude",
      level: "user",
      base: "claude-config",
      pattern: `${folder}/**`,
      kind: "definition",
      controls: `${what} for every project, whose hooks and load-time commands run ungated`,
      askable: false,
    },
  ]);
}

/**
 * The servers the agents start from lists outside their settings files:
 * MCP servers with the session, before any tool call, and language servers
 * when a file of their language is read; each a program of the file's
 * choosing, outside GateGuard's gates (Claude Code 2.1.332 in print mode
 * starts a project's `.mcp.json` servers unasked; Copilot CLI 1.0.102 its
 * user file's, a trusted project's, and the language servers of both its
 * files). Gemini CLI's live in its settings and Codex CLI's in its config
 * file, rows of their own.
 */
const SERVER_LIST_ROWS: readonly SurfaceRow[] = (
  [
    [
      "project-mcp",
      "claude",
      "project",
      "project",
      ".mcp.json",
      "MCP servers",
      "Claude Code and Copilot CLI",
    ],
    [
      "copilot-project-mcp",
      "copilot",
      "project",
      "project",
      ".github/mcp.json",
      "MCP servers",
      "Copilot CLI",
    ],
    [
      "copilot-user-mcp",
      "copilot",
      "user",
      "copilot-home",
      "mcp-config.json",
      "MCP servers",
      "Copilot CLI",
    ],
    [
      "copilot-project-lsp",
      "copilot",
      "project",
      "project",
      ".github/lsp.json",
      "language servers",
      "Copilot CLI",
    ],
    [
      "copilot-user-lsp",
      "copilot",
      "user",
      "copilot-home",
      "lsp-config.json",
      "language servers",
      "Copilot CLI",
    ],
    [
      "cursor-project-mcp",
      "cursor",
      "project",
      "project",
      ".cursor/mcp.json",
      "MCP servers",
      "Cursor",
    ],
    ["cursor-user-mcp", "cursor", "user", "home", ".cursor/mcp.json", "MCP servers", "Cursor"],
  ] as const
).map(([id, agent, level, base, pattern, servers, who]): SurfaceRow => ({
  id,
  agent,
  level,
  base,
  pattern,
  kind: "program",
  controls: `the ${servers} ${who} ${who.includes(" and ") ? "start" : "starts"}: programs ` +
    "that run outside GateGuard's gates",
  // As every Claude Code row: whether its question reaches a person is not known, so it is denied.
  askable: agent !== "claude",
  listsPrograms: "all",
}));

/**
 * The row of a script an agent's registered hook or server runs (found on
 * demand, `hook_scripts.ts`): it runs at the agent's calls, or with its
 * session, with no gate before it.
 */
export const HOOK_SCRIPT_ROW: SurfaceRow = {
  id: "agent-hook-script",
  agent: "shell",
  level: "user",
  base: "hook-sourced",
  pattern: "",
  kind: "program",
  controls:
    "a script an agent's registered hook or server runs, with no gate before it, which can switch GateGuard off or forge what it reads",
  askable: true,
};

/**
 * The row of a file of a Gemini CLI extension linked from a folder
 * elsewhere (found on demand, `hook_scripts.ts`): Gemini CLI loads its
 * config and hooks from that folder with every session, so its hooks and
 * MCP servers run beside GateGuard's, with no gate before them.
 */
export const LINKED_EXTENSION_ROW: SurfaceRow = {
  id: "gemini-linked-extension",
  agent: "gemini",
  level: "user",
  base: "extension-linked",
  pattern: "",
  kind: "program",
  controls: "a Gemini CLI extension linked from this folder, whose hooks and MCP servers run " +
    "with every session, beside GateGuard's",
  askable: true,
};

/** The control surface, most specific rows first: the first row that matches names a path. */
export const CONTROL_SURFACE: readonly SurfaceRow[] = [
  {
    id: "claude-project-settings",
    agent: "claude",
    level: "project",
    base: "project",
    pattern: ".claude/settings.json",
    kind: "settings",
    controls:
      "Claude Code's project settings: GateGuard's hook entries, and the hooks and environment every session of this project starts with",
    askable: false,
  },
  {
    id: "claude-local-settings",
    agent: "claude",
    level: "local",
    base: "project",
    pattern: ".claude/settings.local.json",
    kind: "settings",
    controls:
      "Claude Code's local project settings: hooks and environment that override the project's",
    askable: false,
  },
  {
    id: "claude-user-settings",
    agent: "claude",
    level: "user",
    base: "claude-config",
    pattern: "settings.json",
    kind: "settings",
    controls:
      "Claude Code's user settings: GateGuard's hook entries, and the hooks and environment of every session",
    askable: false,
  },
  {
    id: "claude-user-local-settings",
    agent: "claude",
    level: "user",
    base: "claude-config",
    pattern: "settings.local.json",
    kind: "settings",
    controls: "Claude Code's settings beside the user settings",
    askable: false,
  },
  {
    id: "claude-managed-settings",
    agent: "claude",
    level: "managed",
    base: "managed",
    pattern: "managed-settings.json",
    kind: "settings",
    controls: "Claude Code's managed settings, which override every other level",
    askable: false,
  },
  ...definitionRows(),
  // Claude Code's own config file: user- and local-scope MCP servers start with every session,
  // before any tool call, with no approval asked. It sits in the home, or in CLAUDE_CONFIG_DIR.
  // The scripts of its user servers and of this project's local ones are read as hook scripts.
  {
    id: "claude-user-config",
    agent: "claude",
    level: "user",
    base: "home",
    pattern: ".claude.json",
    kind: "program",
    controls:
      "Claude Code's own config file: the MCP servers every session starts, and the approvals it keeps",
    askable: false,
    listsPrograms: "by-project",
  },
  {
    id: "claude-config-dir-config",
    agent: "claude",
    level: "user",
    base: "claude-config",
    pattern: ".claude.json",
    kind: "program",
    controls:
      "Claude Code's own config file under CLAUDE_CONFIG_DIR: the MCP servers every session starts",
    askable: false,
    listsPrograms: "by-project",
  },
  // Claude Code's own program as its installers place it: the native install's versions (which
  // ~/.local/bin/claude links to) and the older local install under its config folder.
  {
    id: "claude-native-install",
    agent: "claude",
    level: "user",
    base: "home",
    pattern: ".local/share/claude/**",
    kind: "program",
    controls: "Claude Code's installed program, which starts every session with its hooks",
    askable: false,
  },
  {
    id: "claude-local-install",
    agent: "claude",
    level: "user",
    base: "claude-config",
    pattern: "local/**",
    kind: "program",
    controls: "Claude Code's installed program, which starts every session with its hooks",
    askable: false,
  },
  {
    id: "claude-plugins",
    agent: "claude",
    level: "user",
    base: "claude-config",
    pattern: "plugins/**",
    kind: "program",
    controls:
      "Claude Code's installed plugins, whose hook files (GateGuard's plugin among them) run at every call",
    askable: false,
  },
  {
    id: "claude-transcripts",
    agent: "claude",
    level: "user",
    base: "claude-config",
    pattern: "projects/**",
    kind: "evidence",
    controls:
      "Claude Code's session transcripts, which GateGuard reads as the record of earlier searches and denials",
    askable: false,
  },
  {
    id: "project-config",
    agent: "gateguard",
    level: "project",
    base: "project",
    pattern: ".gateguard.jsonc",
    kind: "config",
    controls: "GateGuard's project file, which can loosen its gates for this project",
    askable: true,
  },
  {
    id: "trust-store",
    agent: "gateguard",
    level: "state",
    base: "state",
    pattern: "trust.json",
    kind: "trust",
    controls: "the hashes of the project files the user trusted to loosen GateGuard",
    askable: true,
  },
  {
    id: "user-config",
    agent: "gateguard",
    level: "user",
    base: "state",
    pattern: "config.jsonc",
    kind: "config",
    controls:
      "GateGuard's user file, whose allowDestructive entries let destructive commands through and whose destructiveDecision asks instead of denying",
    askable: true,
  },
  {
    id: "state-dir",
    agent: "gateguard",
    level: "state",
    base: "state",
    pattern: "**",
    kind: "state",
    controls:
      "GateGuard's session state, which records what was already checked and which denials were read",
    askable: true,
  },
  {
    id: "program-binary",
    agent: "gateguard",
    level: "program",
    base: "binary",
    pattern: "",
    kind: "program",
    controls: "the GateGuard program every registration runs",
    askable: true,
  },
  {
    id: "program-runtime",
    agent: "gateguard",
    level: "program",
    base: "runtime",
    pattern: "",
    kind: "program",
    controls: "the Deno runtime a from-source registration runs GateGuard with",
    askable: true,
  },
  {
    id: "program-checkout",
    agent: "gateguard",
    level: "program",
    base: "checkout",
    pattern: "**",
    kind: "program",
    controls:
      "the GateGuard source checkout (its deno.json and code) a from-source registration runs",
    askable: true,
  },
  // A registration a team shares runs the bare name `gateguard`, which the shell looks up on PATH.
  ...onPathRows("gateguard", "program-on-path", {
    agent: "gateguard",
    level: "program",
    base: "path-dirs",
    controls: "a program named like GateGuard in a PATH folder searched before its own, which a " +
      "registration that runs the bare name gateguard would start instead",
    askable: true,
  }),
  // The plugin's launcher, running GateGuard from source, starts `deno` by name.
  ...onPathRows("deno", "runtime-on-path", {
    agent: "gateguard",
    level: "program",
    base: "runtime-path-dirs",
    controls:
      "a program named like Deno in a PATH folder searched before the running Deno's own, " +
      "which the Claude Code plugin's launcher would start instead to run GateGuard from source",
    askable: true,
  }),
  {
    id: "program-npmrc",
    agent: "gateguard",
    level: "program",
    base: "source-home",
    pattern: ".npmrc",
    kind: "program",
    controls: "a file Deno reads before any GateGuard code runs from source",
    askable: true,
  },
  {
    id: "program-deno-cache",
    agent: "gateguard",
    level: "program",
    base: "source-home",
    pattern: ".cache/deno/**",
    kind: "program",
    controls: "Deno's module cache, which a from-source run loads code from",
    askable: true,
  },
  {
    id: "codex-project-hooks",
    agent: "codex",
    level: "project",
    base: "project",
    pattern: ".codex/hooks.json",
    kind: "hook-file",
    controls: "Codex CLI's project hook file, where GateGuard is registered for Codex",
    askable: true,
  },
  {
    id: "codex-project-config",
    agent: "codex",
    level: "project",
    base: "project",
    pattern: ".codex/config.toml",
    kind: "hook-file",
    controls: "Codex CLI's project configuration, which can hold hooks and switch them off",
    askable: true,
  },
  {
    id: "codex-user-hooks",
    agent: "codex",
    level: "user",
    base: "codex-home",
    pattern: "hooks.json",
    kind: "hook-file",
    controls: "Codex CLI's user hook file, where GateGuard is registered for Codex",
    askable: true,
  },
  {
    id: "codex-user-config",
    agent: "codex",
    level: "user",
    base: "codex-home",
    pattern: "config.toml",
    kind: "hook-file",
    controls: "Codex CLI's user configuration, which can hold hooks and switch them off",
    askable: true,
  },
  {
    id: "codex-sessions",
    agent: "codex",
    level: "user",
    base: "codex-home",
    pattern: "sessions/**",
    kind: "evidence",
    controls: "Codex CLI's session logs, which GateGuard reads as the record of earlier searches",
    askable: true,
  },
  {
    id: "gemini-project-settings",
    agent: "gemini",
    level: "project",
    base: "project",
    pattern: ".gemini/settings.json",
    kind: "hook-file",
    controls: "Gemini CLI's project settings, where GateGuard is registered and hooks are enabled",
    askable: true,
  },
  {
    id: "gemini-user-settings",
    agent: "gemini",
    level: "user",
    base: "gemini-home",
    pattern: "settings.json",
    kind: "hook-file",
    controls: "Gemini CLI's user settings, where GateGuard is registered and hooks are enabled",
    askable: true,
  },
  {
    id: "gemini-extensions",
    agent: "gemini",
    level: "user",
    base: "gemini-home",
    pattern: "extensions/**",
    kind: "program",
    controls:
      "Gemini CLI's installed extensions, whose hook files (hooks/hooks.json) run beside GateGuard's",
    askable: true,
  },
  {
    id: "gemini-trusted-folders",
    agent: "gemini",
    level: "user",
    base: "gemini-home",
    pattern: "trustedFolders.json",
    kind: "program",
    controls:
      "Gemini CLI's trusted folders: a project it no longer trusts runs none of its project hooks",
    askable: true,
  },
  {
    id: "gemini-chats",
    agent: "gemini",
    level: "user",
    base: "gemini-home",
    pattern: "tmp/**",
    kind: "evidence",
    controls: "Gemini CLI's chat logs, which GateGuard reads as the record of earlier searches",
    askable: true,
  },
  {
    id: "copilot-project-hooks",
    agent: "copilot",
    level: "project",
    base: "project",
    pattern: ".github/hooks/*.json",
    kind: "hook-file",
    controls: "Copilot CLI's repository hook files, where GateGuard is registered for Copilot",
    askable: true,
  },
  {
    id: "copilot-user-hooks",
    agent: "copilot",
    level: "user",
    base: "copilot-home",
    pattern: "hooks/*.json",
    kind: "hook-file",
    controls: "Copilot CLI's user hook files, where GateGuard is registered for Copilot",
    askable: true,
  },
  {
    id: "copilot-user-settings",
    agent: "copilot",
    level: "user",
    base: "copilot-home",
    pattern: "settings.json",
    kind: "hook-file",
    controls:
      "Copilot CLI's user settings, which can hold hooks of their own and switch every hook off",
    askable: true,
  },
  {
    id: "copilot-user-state",
    agent: "copilot",
    level: "user",
    base: "copilot-home",
    pattern: "config.json",
    kind: "program",
    controls:
      "Copilot CLI's own state, whose trusted folders decide whether a repository's hooks run (GateGuard's repository registration among them)",
    askable: true,
  },
  {
    id: "copilot-repo-settings",
    agent: "copilot",
    level: "project",
    base: "project",
    pattern: ".github/copilot/settings.json",
    kind: "hook-file",
    controls:
      "Copilot CLI's repository settings, which can hold hooks of their own and switch every hook off",
    askable: true,
  },
  {
    id: "copilot-repo-local-settings",
    agent: "copilot",
    level: "local",
    base: "project",
    pattern: ".github/copilot/settings.local.json",
    kind: "hook-file",
    controls: "Copilot CLI's local repository settings, which override the repository's",
    askable: true,
  },
  {
    id: "copilot-sessions",
    agent: "copilot",
    level: "user",
    base: "copilot-home",
    pattern: "session-state/**",
    kind: "evidence",
    controls: "Copilot CLI's session logs, which GateGuard reads as the record of earlier searches",
    askable: true,
  },
  {
    id: "cursor-project-hooks",
    agent: "cursor",
    level: "project",
    base: "project",
    pattern: ".cursor/hooks.json",
    kind: "hook-file",
    controls: "Cursor's project hook file, where GateGuard is registered for Cursor",
    askable: true,
  },
  {
    id: "cursor-user-hooks",
    agent: "cursor",
    level: "user",
    base: "home",
    pattern: ".cursor/hooks.json",
    kind: "hook-file",
    controls: "Cursor's user hook file, where GateGuard is registered for Cursor",
    askable: true,
  },
  ...SERVER_LIST_ROWS,
  ...Object.entries(SHELL_STARTUP).map(startupRow),
  ...AGENT_PROGRAM_ROWS,
  ...APPROVAL_ROWS,
  ...envFileRows(),
  ...MISE_CONFIG_ROWS,
  ...EDITOR_ENV_ROWS,
  STARTUP_SOURCED_ROW,
  ENVRC_SOURCED_ROW,
  HOOK_SCRIPT_ROW,
  LINKED_EXTENSION_ROW,
];
