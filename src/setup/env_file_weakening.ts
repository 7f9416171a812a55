/**
 * How a change to a `.env` file an agent loads at start is judged (the
 * `env-file` rows of `control/rows.ts`). Gemini CLI and Codex CLI copy such
 * a file into their own environment, and every hook they run inherits it,
 * GateGuard's included. A variable that moves what GateGuard reads or
 * changes how it starts (`movesGateGuard`: the loader's, the runtime's, the
 * shell's, the agents' homes) acts there before, or beneath, any check:
 * `DENO_V8_FLAGS` with a tiny heap makes every hook call crash, and an
 * agent lets a call through when its hook crashes; `LD_PRELOAD` runs code
 * of the agent's choosing inside the hook; `GEMINI_CLI_HOME` points the
 * hook at chat logs of the agent's making. GateGuard's own variables are
 * not judged here: the hook ignores one that such a file defines
 * (`config/agent_env_files.ts`).
 *
 * The file is ordinary project data otherwise (keys, URLs), so a change is
 * weakening only when, afterwards, the file names such a variable and the
 * lines that decide what it gets changed: lines naming one, and lines that
 * can change how their neighbours read (quotes open multi-line values, a
 * backslash escapes). Names are matched as words anywhere, whatever the
 * syntax around them, in any case but all lowercase without an underscore
 * (`env` in `terminal.integrated.env` is a key): reading too much only
 * asks more often.
 *
 * @module
 */

import { movesGateGuard } from "../config/env.ts";

/** A word that could be a variable's name. */
const NAME = /[A-Za-z_][A-Za-z0-9_]*/g;

/** Characters that change how the lines around them read. */
const STRUCTURAL = /["'`\\]/;

/** The variables `text` names that move GateGuard, uppercased, in order of first mention. */
export function movingVariablesIn(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.matchAll(NAME)) {
    // A lowercase word without an underscore is prose or a key (`terminal.integrated.env`);
    // a variable is written in capitals, or at least with an underscore (`ld_preload`).
    if (/^[a-z0-9]+$/.test(word)) continue;
    const name = word.toUpperCase();
    if (movesGateGuard(name) && !out.includes(name)) out.push(name);
  }
  return out;
}

/**
 * `text` with JSON's and the shells' character escapes read (`\u0044`,
 * `\x44`): a JSON key may spell a name that way (VS Code's settings), and
 * the names are looked for in both spellings.
 */
function withEscapesRead(text: string): string {
  if (!text.includes("\\")) return text;
  const read = text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\x([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return `${text}\n${read}`;
}

/** The lines of `text` that decide what such a variable gets, in order. */
function decidingLines(text: string): string[] {
  return text.split(/\r?\n|\r/).filter((line) =>
    STRUCTURAL.test(line) || movingVariablesIn(line).length > 0
  );
}

/** The finding for a change that gives such variables to the agent's next start. */
export function envFileLine(names: readonly string[]): string {
  const shown = names.slice(0, 3).join(", ") + (names.length > 3 ? ", …" : "");
  const reach = names.length === 1 ? "it reaches" : "they reach";
  return `it sets ${shown} for the agent's next start, where ${reach} GateGuard's hook ` +
    "before any of its checks run";
}

/**
 * The weakenings a change of an agent's `.env` file makes, from its text
 * before (null: a new file) to after: one finding when the file names a
 * variable that moves GateGuard afterwards and the lines deciding it changed.
 */
export function envFileWeakenings(before: string | null, after: string): string[] {
  const names = movingVariablesIn(withEscapesRead(after));
  if (names.length === 0) return [];
  const was = decidingLines(before ?? "");
  const now = decidingLines(after);
  const same = was.length === now.length && was.every((line, i) => line === now[i]);
  return same ? [] : [envFileLine(names)];
}

/** VS Code's settings that choose the program its terminal starts, or its arguments. */
const TERMINAL_PROGRAM =
  /terminal\.integrated\.(?:profiles|defaultProfile|shell|shellArgs|automationProfile|automationShell)\b/i;

/** The finding for a change to the program VS Code's terminal starts. */
export const TERMINAL_PROGRAM_LINE = "it changes the program VS Code's terminal starts, which " +
  "sets the environment of every agent started there";

/**
 * The weakenings a change of VS Code's settings makes: its terminal
 * environment judged as a `.env` file is, and any change at all to a file
 * that chooses the terminal's program (a profile's `path` and `args` run
 * whatever they name, so no variable need be spelled).
 */
export function terminalSettingsWeakenings(before: string | null, after: string): string[] {
  const program = TERMINAL_PROGRAM.test(withEscapesRead(after)) && before !== after;
  return [...envFileWeakenings(before, after), ...(program ? [TERMINAL_PROGRAM_LINE] : [])];
}
