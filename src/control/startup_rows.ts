/**
 * The control surface's rows for what reaches an agent's environment when
 * it starts: the shells' start-up files and what they load, the `.env`
 * files agents load, and the approvals direnv and mise keep. GateGuard's
 * hook runs with the environment its agent was started with, so each of
 * these can switch it off, or move what it reads, at the next start.
 *
 * @module
 */

import {
  onPathRows,
  type SurfaceAgent,
  type SurfaceBase,
  type SurfaceLevel,
  type SurfaceRow,
} from "./row_types.ts";

/**
 * The `.env` files Gemini CLI (0.61.0: the first of `.gemini/.env` and
 * `.env` from its folder upwards, then the same two in the home) and Codex
 * CLI (0.171.0, checked by a hook that printed its environment:
 * `$CODEX_HOME/.env` only, no `.env` of its folder or above) load into the
 * environment every hook they run inherits. Codex CLI's row needs no
 * loader of its own: its folder exists only where Codex CLI does.
 */
export function envFileRows(): SurfaceRow[] {
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
    needsLoader: "dotenv",
  });
  return [
    row("gemini-env", "gemini", "dotenv-folders", ".gemini/.env", "project"),
    row("agent-env", "gemini", "dotenv-folders", ".env", "project"),
    row("gemini-user-env", "gemini", "gemini-home", ".env", "user"),
    row("home-env", "gemini", "home", ".env", "user"),
    { ...row("codex-user-env", "codex", "codex-home", ".env", "user"), needsLoader: undefined },
  ];
}

/**
 * A project's mise config by each name mise looks for in a folder and the
 * folders above it (`mise.toml`, `mise.local.toml`, `mise.<env>.toml`, the
 * hidden and `.config` forms, `.rtx.toml`). With mise active, a shell
 * entering the folder takes its variables and runs what it names; mise
 * trusts such a file by its path, and trusts it unasked at `mise install`,
 * `mise run` or `mise exec`. The user's own (`~/.config/mise`) is a
 * start-up row.
 */
export const MISE_CONFIG_ROWS: readonly SurfaceRow[] = ([
  ["mise-config", "mise*.toml"],
  ["mise-hidden-config", ".mise*.toml"],
  ["mise-rtx-config", ".rtx*.toml"],
  ["mise-dot-config", ".config/mise*.toml"],
  ["mise-dot-config-folder", ".config/mise/**"],
  ["mise-hidden-folder", ".mise/**"],
  ["mise-folder-config", "mise/config*.toml"],
] as const).map(([id, pattern]): SurfaceRow => ({
  id,
  agent: "shell",
  level: "project",
  base: "dotenv-folders",
  pattern,
  kind: "mise-config",
  controls: "a project's mise config, whose variables and commands reach every shell that " +
    "enters its folder with mise active, an agent started there among them",
  askable: true,
  needsLoader: "mise",
}));

/**
 * The shells' start-up files under the home directory (their default
 * places: `ZDOTDIR` and `XDG_CONFIG_HOME` are not followed), by row id.
 * GateGuard's hook runs with the environment the agent was started with,
 * so a variable exported here reaches every agent started from a new
 * terminal: a way to switch GateGuard off, or move what it reads, at the
 * next start.
 */
export const SHELL_STARTUP: Readonly<Record<string, string>> = {
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
  // Terminal multiplexers and emulators set the environment of every shell they start.
  "shell-tmux-conf": ".tmux.conf",
  "shell-tmux-config": ".config/tmux/**",
  "shell-screenrc": ".screenrc",
  "shell-zellij-config": ".config/zellij/**",
  "shell-kitty-config": ".config/kitty/**",
  "shell-alacritty-config": ".config/alacritty/**",
  "shell-wezterm-config": ".config/wezterm/**",
  "shell-wezterm-lua": ".wezterm.lua",
  "shell-environment-d": ".config/environment.d/**",
  "shell-pwsh-profiles": ".config/powershell/**",
  "shell-powershell-profiles": "Documents/PowerShell/**",
  "shell-windows-powershell-profiles": "Documents/WindowsPowerShell/**",
};

export function startupRow([id, pattern]: [string, string]): SurfaceRow {
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
 * The approvals direnv and mise keep of folders' environment files: an
 * approved `.envrc` or `mise.toml` sets its variables in every shell that
 * enters the folder, so a forged approval is a start-up file of the agent's
 * choosing. (`direnv allow` and `mise trust` themselves are read by the
 * shell side, `hook/shell_environment.ts`.)
 */
export const APPROVAL_ROWS: readonly SurfaceRow[] = [
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

/** The files an approved `.envrc` loads (`source_env .envrc.local`): unapproved start-up code. */
export const ENVRC_SOURCED_ROW: SurfaceRow = {
  id: "direnv-loaded",
  agent: "shell",
  level: "project",
  base: "envrc-sourced",
  pattern: "",
  kind: "startup",
  controls: "a file an approved .envrc loads with no approval of its own, whose exports reach " +
    "every agent started in its folder and GateGuard's hook with it",
  askable: true,
};

/**
 * The agents' own programs as a terminal finds them: a program of the same
 * name in any `PATH` folder (a wrapper ahead of the real one, or the real
 * one replaced) starts the user's next session, and could start it
 * without GateGuard's hooks (`claude --settings …`).
 */
export const AGENT_PROGRAM_ROWS: readonly SurfaceRow[] = (
  [
    ["claude", "claude", "Claude Code"],
    ["codex", "codex", "Codex CLI"],
    ["gemini", "gemini", "Gemini CLI"],
    ["copilot", "copilot", "Copilot CLI"],
    ["cursor", "cursor-agent", "Cursor's agent"],
  ] as const
).flatMap(([agent, name, title]): SurfaceRow[] =>
  onPathRows(name, `${agent}-on-path`, {
    agent,
    level: "user",
    base: "path-all",
    controls: `a program named like ${title} in a PATH folder, which a terminal starts as the ` +
      "agent, with or without GateGuard's hooks",
    // As every Claude Code row: whether its question reaches a person is not known, so it is denied.
    askable: agent !== "claude",
  })
);

/**
 * VS Code's settings, whose `terminal.integrated.env.*` set the variables
 * of every terminal it opens, an agent started there among them: the
 * user's (Linux and macOS places) and the workspace's. Mostly ordinary
 * settings, so judged like a `.env` file, by the variables they name.
 */
export const EDITOR_ENV_ROWS: readonly SurfaceRow[] = (
  [
    ["vscode-workspace-settings", "project", "project", ".vscode/settings.json"],
    ["vscode-user-settings", "user", "home", ".config/Code/User/settings.json"],
    [
      "vscode-user-settings-mac",
      "user",
      "home",
      "Library/Application Support/Code/User/settings.json",
    ],
  ] as const
).map(([id, level, base, pattern]): SurfaceRow => ({
  id,
  agent: "shell",
  level,
  base,
  pattern,
  kind: "terminal-settings",
  controls: "VS Code's settings, whose terminal environment reaches every agent started in its " +
    "terminal and GateGuard's hook with it",
  askable: true,
}));
