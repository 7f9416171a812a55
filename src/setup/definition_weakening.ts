/**
 * How a change to a Claude Code skill, command or subagent definition is
 * judged (the `definition` rows of `control/rows.ts`). Such a file is
 * mostly prose the agent may well be asked to write, but two parts of it
 * run commands that no PreToolUse hook sees: the frontmatter's `hooks`
 * (Claude Code 2.1.332 runs a skill's or subagent's hooks for the rest of
 * the session once it loads), and the commands a skill or command runs as
 * it loads (a `` !`cmd` `` inline or a ```` ```! ```` block). A change that
 * adds or changes either weakens GateGuard; any other change is ordinary.
 *
 * The reading is wider than Claude Code's: a frontmatter that names hooks
 * anywhere (a nested key, a merge key) or could spell the key another way
 * (an escape, a tag) counts as hooks, and a file without a frontmatter that
 * has a `hooks:` line anywhere counts whole.
 *
 * @module
 */

/** The finding for hooks given to a skill, command or subagent. */
export const DEFINITION_HOOKS_LINE = "it gives a skill, command or subagent hooks, which run " +
  "commands for the rest of the session that GateGuard's hook never sees";

/** The finding for commands a skill or command runs as it loads. */
export const DEFINITION_SHELL_LINE = "it adds a shell command the skill or command runs as it " +
  "loads, which GateGuard's hook never sees";

/** A leading YAML frontmatter (blank lines and a byte order mark before it allowed). */
const FRONTMATTER = /^\uFEFF?\s*---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * A word that names hooks, a hook event Claude Code rejects at the top
 * level, or YAML that can spell a key without writing it out: an escape in
 * a quoted scalar (`"\x68ooks"`), a tag, a merge key.
 */
const HOOKISH = /\bhooks\b|\bPreToolUse\b|\bPermissionRequest\b|\\|!!|<</i;

/** A `hooks:` key anywhere, for a file without a frontmatter Claude Code might still read. */
const HOOKS_KEY = /^[ \t]*["']?hooks["']?[ \t]*:/im;

/** What of `text` can carry hooks: its frontmatter when it names any, else "". */
function hookPart(text: string): string {
  const front = FRONTMATTER.exec(text);
  if (front !== null) return HOOKISH.test(front[1]) ? front[1] : "";
  return HOOKS_KEY.test(text) ? text : "";
}

/** The commands `text` runs as it loads: each inline `` !`…` `` and each ```` ```! ```` block. */
function loadCommands(text: string): string[] {
  return [
    ...[...text.matchAll(/!`[^`]*`/g)].map((m) => m[0]),
    ...[...text.matchAll(/^[ \t]*(`{3,}|~{3,})[ \t]*!.*$[\s\S]*?^[ \t]*\1/gm)].map((m) => m[0]),
  ];
}

/** The weakenings a change of a definition file makes, from its text before (null: new) to after. */
export function definitionWeakenings(before: string | null, after: string): string[] {
  const out: string[] = [];
  const hooks = hookPart(after);
  if (hooks !== "" && hooks !== hookPart(before ?? "")) out.push(DEFINITION_HOOKS_LINE);
  const had = loadCommands(before ?? "");
  if (loadCommands(after).some((c) => !had.includes(c))) out.push(DEFINITION_SHELL_LINE);
  return out;
}
