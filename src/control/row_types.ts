/**
 * The types that describe a row of GateGuard's control surface: whose file
 * it is, at which level, what kind of file (which decides how a change to
 * it is judged) and which folder its pattern is found under.
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
 * `env-file` is a file whose variables an agent's environment takes at its
 * start (a `.env` file an agent loads, a terminal's settings), weakened by
 * a change that sets a variable moving what GateGuard reads or how it
 * starts (`setup/env_file_weakening.ts`). `terminal-settings` is an
 * editor's settings, judged so too, and weakened by any change once they
 * choose the program its terminal starts. `mise-config` is a project's
 * mise config, weakened by a change outside the part mise loads without
 * trust (`setup/mise_config_weakening.ts`).
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
  | "env-file"
  | "terminal-settings"
  | "mise-config";

/**
 * Kinds of rows a deletion cannot weaken: a skill or subagent that is gone
 * runs no hooks, a `.env` file that is gone sets no variable (the agent
 * then loads the next one up, itself a row), and neither do VS Code's
 * settings or a mise config that are gone. Their files count only for what
 * a change leaves in them, by the shell or a file tool.
 */
export const DELETION_HARMLESS: ReadonlySet<SurfaceKind> = new Set([
  "definition",
  "env-file",
  "terminal-settings",
  "mise-config",
]);

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
 *   file in when they start (and mise for its config): the project root,
 *   the process's folder and every folder above them, the home left out
 *   (its own rows hold it);
 * - `extension-linked`: the folders Gemini CLI's linked extensions load
 *   from (`gemini extensions link DIR`), found by reading each installed
 *   extension's install record, for a path no other row holds: their
 *   `gemini-extension.json` and `hooks/`; no folder of its own;
 * - `envrc-sourced`: the files an `.envrc` in those folders loads, found by
 *   reading them (`startup_sources.ts`) while direnv has its data folder
 *   here, for a path no other row holds; no folder of its own;
 * - `path-dirs`: the folders of `PATH` searched before the one that holds
 *   the running binary (all of them when it is not on `PATH`), relative
 *   entries from the process's folder, and that folder first on Windows,
 *   where a bare command name is looked up there too;
 * - `runtime-path-dirs`: from source only, the folders of `PATH` searched
 *   before the one that holds the running Deno, read the same way;
 * - `path-all`: every folder of `PATH`, read the same way.
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
  | "envrc-sourced"
  | "extension-linked"
  | "path-dirs"
  | "runtime-path-dirs"
  | "path-all";

/** One row of the control surface. */
export interface SurfaceRow {
  /** A short stable id (`claude-project-settings`). */
  id: string;
  agent: SurfaceAgent;
  level: SurfaceLevel;
  base: SurfaceBase;
  /**
   * The path below the base, `/`-separated: a name, a name with `*`
   * standing for any characters (`*.json`, `gateguard.*`, `*` for any one
   * name), or `**` as the last segment (the folder and everything below
   * it). `""` is the base itself.
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
  /**
   * Set for a file whose `command` and `args` strings name programs the
   * agent runs by itself (MCP and language servers); settings and hook
   * files name theirs in any case. The scripts they name are control files
   * too (`hook_scripts.ts`): every one the file names (`all`), or, for a
   * file that keeps every project's servers (Claude Code's own config),
   * the user's and this project's (`by-project`).
   */
  listsPrograms?: "all" | "by-project";
  /**
   * Set for a row that counts only while the program that loads it has its
   * folder on the machine (`bases.ts`): `dotenv` for a `.env` file (Gemini
   * CLI, Codex CLI or direnv), `mise` for a project's mise config.
   */
  needsLoader?: "dotenv" | "mise";
}

/**
 * The two rows of a program found by name on PATH: `name` itself and
 * `name.*` (Windows finds `name.exe`, `name.cmd`), with ids `<id>` and
 * `<id>-windows`.
 */
export function onPathRows(
  name: string,
  id: string,
  row: Omit<SurfaceRow, "id" | "pattern" | "kind">,
): SurfaceRow[] {
  return [name, `${name}.*`].map((pattern) => ({
    ...row,
    id: pattern === name ? id : `${id}-windows`,
    pattern,
    kind: "program",
  }));
}
