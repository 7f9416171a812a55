/**
 * The rows of GateGuard's control surface, as data: every file or folder
 * whose change could switch GateGuard off, weaken it or forge what it
 * trusts, for every agent and level, and the types that describe a row.
 * `surface.ts` resolves the rows against a call and matches paths.
 *
 * @module
 */

/** Whose file a row is: an agent's, or GateGuard's own. */
export type SurfaceAgent =
  | "claude"
  | "codex"
  | "gemini"
  | "copilot"
  | "cursor"
  | "gateguard"
  | "shell";

/** Where a row sits. */
export type SurfaceLevel = "project" | "local" | "user" | "managed" | "state" | "program";

/**
 * What kind of file a row is, which decides how a change is judged:
 * `settings` (Claude Code's settings) and `hook-file` (another agent's hook
 * file) are compared before and after; `config` (GateGuard's project file)
 * by the keys that loosen it; every other kind is weakened by any write.
 * `startup` is a shell's start-up code: it can export anything, computed
 * any way, so no change to it can be read as harmless. `definition` is a
 * Claude Code skill, command or subagent, weakened by a change that gives
 * it hooks or commands it runs as it loads (`setup/definition_weakening.ts`).
 * `env-file` is a `.env` file an agent loads into its environment at start,
 * weakened by a change that sets a variable the hook's runtime reads before
 * GateGuard's code runs (`setup/env_file_weakening.ts`).
 */
export type SurfaceKind =
  | "settings"
  | "hook-file"
  | "config"
  | "trust"
  | "state"
  | "evidence"
  | "program"
  | "startup"
  | "definition"
  | "env-file";

/**
 * The directory a row's pattern is found under:
 * - `project`: the project root;
 * - `home`: the user's home directory;
 * - `claude-config`: `CLAUDE_CONFIG_DIR`, and `~/.claude` in any case;
 * - `codex-home`: `CODEX_HOME`, and `~/.codex`;
 * - `gemini-home`: `GEMINI_CLI_HOME/.gemini`, and `~/.gemini`;
 * - `copilot-home`: `COPILOT_HOME`, and `~/.copilot`;
 * - `managed`: the system folders Claude Code reads managed settings from;
 * - `state`: GateGuard's state directory;
 * - `binary`, `runtime`, `checkout`: the program the registration runs (a
 *   compiled binary; or Deno and the source checkout);
 * - `source-home`: the home directory, only when GateGuard runs from source
 *   (what Deno reads there before any GateGuard code runs);
 * - `startup-sourced`: the files the shells' start-up files load, found by
 *   reading them (`startup_sources.ts`) only for a path under the home
 *   directory, outside the project, that no other row holds; it stands for
 *   no folder of its own;
 * - `hook-sourced`: the scripts the agents' registered hooks run, found by
 *   reading their registration files (`hook_scripts.ts`) for a path no
 *   other row holds; no folder of its own either;
 * - `dotenv-folders`: the folders Gemini CLI and Codex CLI look for a `.env`
 *   file in when they start: the project root, the process's folder and
 *   every folder above them, the home left out (its own rows hold it). It
 *   stands for none while neither agent, nor direnv (whose `dotenv` loads
 *   one too), has a home folder on this machine;
 * - `dotenv-home`: the home directory, on the same condition.
 */
export type SurfaceBase =
  | "project"
  | "home"
  | "claude-config"
  | "codex-home"
  | "gemini-home"
  | "copilot-home"
  | "managed"
  | "state"
  | "binary"
  | "runtime"
  | "checkout"
  | "source-home"
  | "startup-sourced"
  | "hook-sourced"
  | "dotenv-folders"
  | "dotenv-home";

/** One row of the control surface. */
export interface SurfaceRow {
  /** A short stable id (`claude-project-settings`). */
  id: string;
  agent: SurfaceAgent;
  level: SurfaceLevel;
  base: SurfaceBase;
  /**
   * The path below the base, `/`-separated: a name, `*` (any one name),
   * `*.json` (a name ending so), or `**` as the last segment (the folder
   * and everything below it). `""` is the base itself.
   */
  pattern: string;
  kind: SurfaceKind;
  /** What a change to it would switch off or forge, as a phrase. */
  controls: string;
  /**
   * Whether a question put to the user about this path (Claude Code's
   * `ask`) really reaches a person each time. False for the paths Claude
   * Code guards with a prompt of its own (everything under a `.claude`
   * folder): that prompt hides the hook's reason and offers to allow
   * every later edit of the folder for the session, after which the
   * hook's question is approved with no one answering (seen in 2.1.332,
   * docs/security.md). Such a change is denied instead.
   */
  askable: boolean;
}

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
 * The `.env` files Gemini CLI (0.61.0: the first of `.gemini/.env` and
 * `.env` from its folder upwards, then the same two in the home) and Codex
 * CLI (`$CODEX_HOME/.env`, and a `.env` from its folder upwards) load into
 * the environment every hook they run inherits.
 */
function envFileRows(): SurfaceRow[] {
  const row = (
    id: string,
    agent: SurfaceAgent,
    base: SurfaceBase,
    pattern: string,
    level: SurfaceLevel,
  ): SurfaceRow => ({
    id,
    agent,
    level,
    base,
    pattern,
    kind: "env-file",
    controls: "a .env file an agent loads when it starts, whose variables reach every hook " +
      "it runs, GateGuard's included",
    askable: true,
  });
  return [
    row("gemini-env", "gemini", "dotenv-folders", ".gemini/.env", "project"),
    row("agent-env", "gemini", "dotenv-folders", ".env", "project"),
    row("gemini-user-env", "gemini", "gemini-home", ".env", "user"),
    row("home-env", "gemini", "dotenv-home", ".env", "user"),
    row("codex-user-env", "codex", "codex-home", ".env", "user"),
  ];
}

/**
 * The shells' start-up files under the home directory (their default
 * places: `ZDOTDIR` and `XDG_CONFIG_HOME` are not followed), by row id.
 * GateGuard's hook runs with the environment the agent was started with,
 * so a variable exported here reaches every agent started from a new
 * terminal: a way to switch GateGuard off, or move what it reads, at the
 * next start.
 */
const SHELL_STARTUP: Readonly<Record<string, string>> = {
  "shell-bashrc": ".bashrc",
  "shell-bash-profile": ".bash_profile",
  "shell-bash-login": ".bash_login",
  "shell-bash-aliases": ".bash_aliases",
  "shell-profile": ".profile",
  "shell-zshrc": ".zshrc",
  "shell-zshenv": ".zshenv",
  "shell-zprofile": ".zprofile",
  "shell-zlogin": ".zlogin",
  // Where a ZDOTDIR usually points, and folders the usual start-up files load every file of.
  "shell-zsh-config": ".config/zsh/**",
  "shell-oh-my-zsh-custom": ".oh-my-zsh/custom/**",
  "shell-bashrc-d": ".bashrc.d/**",
  "shell-cshrc": ".cshrc",
  "shell-tcshrc": ".tcshrc",
  "shell-fish-config": ".config/fish/config.fish",
  "shell-fish-conf-d": ".config/fish/conf.d/**",
  // Loaded when a command of that name runs: a `claude` function there wraps every start.
  "shell-fish-functions": ".config/fish/functions/**",
  "shell-pam-environment": ".pam_environment",
  // direnv's `direnvrc` runs before every `.envrc`, and its `direnv.toml` can approve folders
  // wholesale; mise's own config sets variables in every shell that activates it.
  "shell-direnv-config": ".config/direnv/**",
  "shell-mise-config": ".config/mise/**",
  "shell-environment-d": ".config/environment.d/**",
  "shell-pwsh-profiles": ".config/powershell/**",
  "shell-powershell-profiles": "Documents/PowerShell/**",
  "shell-windows-powershell-profiles": "Documents/WindowsPowerShell/**",
};

function startupRow([id, pattern]: [string, string]): SurfaceRow {
  return {
    id,
    agent: "shell",
    level: "user",
    base: "home",
    pattern,
    kind: "startup",
    controls:
      "your shell's start-up code, whose exports reach every agent started from a new terminal and GateGuard's hook with it",
    askable: true,
  };
}

/**
 * The agents' MCP server lists outside their settings files: each server
 * is a program the agent starts with the session, before any tool call and
 * outside GateGuard's gates (Claude Code 2.1.332 in print mode starts a
 * project's `.mcp.json` servers unasked; Copilot CLI 1.0.102 its user
 * file's, and a trusted project's). Gemini CLI's live in its settings and
 * Codex CLI's in its config file, rows of their own.
 */
const MCP_CONFIG_ROWS: readonly SurfaceRow[] = (
  [
    ["project-mcp", "claude", "project", "project", ".mcp.json", "Claude Code and Copilot CLI"],
    ["copilot-project-mcp", "copilot", "project", "project", ".github/mcp.json", "Copilot CLI"],
    ["copilot-user-mcp", "copilot", "user", "copilot-home", "mcp-config.json", "Copilot CLI"],
    ["cursor-project-mcp", "cursor", "project", "project", ".cursor/mcp.json", "Cursor"],
    ["cursor-user-mcp", "cursor", "user", "home", ".cursor/mcp.json", "Cursor"],
  ] as const
).map(([id, agent, level, base, pattern, who]): SurfaceRow => ({
  id,
  agent,
  level,
  base,
  pattern,
  kind: "program",
  controls: `the MCP servers ${who} starts with a session: programs that run outside ` +
    "GateGuard's gates",
  // As every Claude Code row: whether its question reaches a person is not known, so it is denied.
  askable: agent !== "claude",
}));

/**
 * The approvals direnv and mise keep of folders' environment files: an
 * approved `.envrc` or `mise.toml` sets its variables in every shell that
 * enters the folder, so a forged approval is a start-up file of the agent's
 * choosing. (`direnv allow` and `mise trust` themselves are read by the
 * shell side, `hook/shell_environment.ts`.)
 */
const APPROVAL_ROWS: readonly SurfaceRow[] = [
  [
    "direnv-approvals",
    ".local/share/direnv/**",
    "direnv's approvals of .envrc files, whose exports reach every agent started in their folder",
  ],
  [
    "mise-approvals",
    ".local/state/mise/**",
    "mise's trusted config files, whose variables reach every agent started in their folder",
  ],
].map(([id, pattern, controls]): SurfaceRow => ({
  id,
  agent: "shell",
  level: "user",
  base: "home",
  pattern,
  kind: "program",
  controls,
  askable: true,
}));

/** The files a start-up file loads (`. "$HOME/.cargo/env"`): start-up code too. */
export const STARTUP_SOURCED_ROW: SurfaceRow = {
  id: "shell-startup-sourced",
  agent: "shell",
  level: "user",
  base: "startup-sourced",
  pattern: "",
  kind: "startup",
  controls:
    "a file your shell's start-up code loads, whose exports reach every agent started from a new terminal and GateGuard's hook with it",
  askable: true,
};

/**
 * The row of a script an agent's registered hook runs (found on demand,
 * `hook_scripts.ts`): it runs at the agent's calls with no gate before it.
 */
export const HOOK_SCRIPT_ROW: SurfaceRow = {
  id: "agent-hook-script",
  agent: "shell",
  level: "user",
  base: "hook-sourced",
  pattern: "",
  kind: "program",
  controls:
    "a script an agent's registered hook runs at its calls, with no gate before it, which can switch GateGuard off or forge what it reads",
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
  ...MCP_CONFIG_ROWS,
  ...Object.entries(SHELL_STARTUP).map(startupRow),
  ...APPROVAL_ROWS,
  ...envFileRows(),
  STARTUP_SOURCED_ROW,
  HOOK_SCRIPT_ROW,
];
