/**
 * The file names Claude Code reads its settings from inside a `.claude`
 * directory. The exemption of those files and the guard on changes that
 * would switch GateGuard off through them both start from these names.
 *
 * @module
 */

/** The settings files Claude Code reads from a `.claude` directory, lowercased. */
export const CLAUDE_SETTINGS_NAMES: ReadonlySet<string> = new Set([
  "settings.json",
  "settings.local.json",
]);

/** True when a file's base name is one of Claude Code's settings file names, in any case. */
export function namedLikeClaudeSettings(basename: string): boolean {
  return CLAUDE_SETTINGS_NAMES.has(basename.toLowerCase());
}
