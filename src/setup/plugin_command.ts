/**
 * The commands of GateGuard's Claude Code plugin (`hooks/hooks.json`): the
 * PreToolUse launcher and the SessionStart installer, each a file under
 * `hooks/` with a POSIX `sh` form and a PowerShell twin.
 *
 * Claude Code runs a command hook through bash, or through PowerShell on
 * Windows without Git Bash, and a plugin has one hooks.json for both. So each
 * command is written to be read by either shell: bash runs `exec /bin/sh …`
 * on its second line and never reads further; PowerShell reads the first two lines
 * as a here-string it discards, and runs the `.ps1` twin on the third (as a
 * script block, so no execution policy applies). The paths come from the
 * environment Claude Code exports, not from text it substitutes, so a plugin
 * root holding quotes or `$` never reaches a shell parser.
 *
 * @module
 */

/**
 * The command that runs `hooks/<script>.sh` in bash or `hooks/<script>.ps1`
 * in PowerShell, with `sh` named by its path (`shell`): a bare `sh` is looked
 * up on PATH, where a user-writable folder (`~/.local/bin`, Homebrew's) could
 * hold one the agent wrote, which would then stand in for every gated call.
 */
export function pluginScriptCommand(script: string, args = "", shell = "/bin/sh"): string {
  const tail = args === "" ? "" : ` ${args}`;
  return [
    "echo @'",
    `' >/dev/null; exec ${shell} "$CLAUDE_PLUGIN_ROOT/hooks/${script}.sh"${tail}`,
    `'@ >$null; & ([scriptblock]::Create((Get-Content -Raw "$env:CLAUDE_PLUGIN_ROOT/hooks/${script}.ps1")))${tail}; exit $LASTEXITCODE`,
  ].join("\n");
}

/** The PreToolUse command of the plugin: the launcher (`hooks/launch.sh` and its twin). */
export const PLUGIN_COMMAND: string = pluginScriptCommand("launch");

/** The launcher command of earlier plugin versions (a bare `sh`), still GateGuard's own. */
export const LEGACY_PLUGIN_COMMANDS: readonly string[] = [pluginScriptCommand("launch", "", "sh")];

/** The SessionStart command of the plugin: installs or updates the binary it launches. */
export const PLUGIN_INSTALL_COMMAND: string = pluginScriptCommand(
  "install_binary",
  "--session-start",
);

/** The session starts the installer runs on: every one, so an update lands at the next. */
export const PLUGIN_SESSION_START_MATCHER = "startup|resume|clear|compact";

/**
 * Seconds the SessionStart installer may take: a download of the binary on a
 * slow line. It never blocks a session: the launcher fails closed without it.
 */
export const PLUGIN_INSTALL_TIMEOUT_SECONDS = 300;
