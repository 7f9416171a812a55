/**
 * How a change to a project's mise config (`mise.toml` and its other names)
 * is judged. With mise active in a shell, entering the folder sets the
 * file's `[env]`, loads the files and runs the commands its directives name
 * (`_.source`, `_.file`, `_.path`, templates calling `exec`), and runs its
 * `[hooks]`: an agent started there, and GateGuard's hook with it, takes
 * all of that. mise trusts a project's file by its path, not its text, and
 * `mise install`, `mise run` and `mise exec` trust it unasked, so a change
 * after that acts at the next start.
 *
 * The file is mostly tool versions and tasks, the agent's ordinary work,
 * which mise itself loads without trust (nothing in them runs as the file
 * loads). So a change is weakening when it adds a line outside that safe
 * part: anything but tasks, plain tool versions, `min_version` and an
 * `[env]` entry that sets a plain text to a variable GateGuard neither
 * reads nor is moved by. Lines are placed in their table with TOML's
 * strings followed across lines, so no multi-line string can make a line of
 * `[env]` look like a task's.
 *
 * @module
 */

import { configuresGateGuard, ENV_VARIABLES, movesGateGuard } from "../config/env.ts";

/** One line of the file, with the table it belongs to. */
interface PlacedLine {
  /** The table header in effect, lower-cased and without blanks (`tasks.build`, `` for the root). */
  table: string;
  text: string;
  /** The line continues a string opened on an earlier line, under `key`. */
  inString: boolean;
  /** The key of the line (or of the string it continues), as written. */
  key: string;
  /** The line is a table header: it sets nothing itself. */
  header: boolean;
}

/** Splits `text` into lines placed in their tables, following strings across lines. */
export function placedLines(source: string): PlacedLine[] {
  const out: PlacedLine[] = [];
  let table = "";
  let open: '"""' | "'''" | null = null;
  let openKey = "";
  for (const text of source.split(/\r?\n|\r/)) {
    const inString = open !== null;
    // No two neighbouring parts of these patterns share a character: a long line fails in linear time.
    const header = inString ? null : /^\s*\[\[?([^\]]*)\]\]?\s*(#.*)?$/.exec(text);
    if (header) table = header[1].replace(/\s+/g, "").replace(/["']/g, "").toLowerCase();
    const equals = text.indexOf("=");
    const key = inString ? openKey : equals < 0 ? "" : text.slice(0, equals).trim();
    out.push({ table, text, inString, key, header: header !== null });
    open = stringStateAfter(text, open);
    if (!inString) openKey = key;
  }
  return out;
}

/**
 * Which multi-line string is still open at the end of `line`, given the one
 * open at its start: basic and literal strings, their multi-line forms and
 * comments are followed as TOML reads them.
 */
function stringStateAfter(line: string, open: '"""' | "'''" | null): '"""' | "'''" | null {
  let at = 0;
  let state = open;
  while (at < line.length) {
    if (state !== null) {
      if (state === '"""' && line[at] === "\\") {
        at += 2;
        continue;
      }
      if (line.startsWith(state, at)) {
        // The closing delimiter may follow up to two quotes of its kind that end the text.
        let run = 0;
        while (line[at + run] === state[0]) run++;
        at += Math.min(run, 5);
        state = null;
        continue;
      }
      at++;
      continue;
    }
    const c = line[at];
    if (c === "#") break;
    if (line.startsWith('"""', at) || line.startsWith("'''", at)) {
      state = line.startsWith('"""', at) ? '"""' : "'''";
      at += 3;
      continue;
    }
    if (c === '"' || c === "'") {
      // A one-line string: to its closing quote (basic strings read escapes).
      at++;
      while (at < line.length && line[at] !== c) at += c === '"' && line[at] === "\\" ? 2 : 1;
      at++;
      continue;
    }
    at++;
  }
  return state;
}

/** A plain text, or a list of plain texts, with no template in it. */
const PLAIN_VALUE =
  /^\s*(?:"[^"\\{]*"|'[^'{]*'|\[\s*(?:(?:"[^"\\{]*"|'[^'{]*')\s*(?:,\s*)?)*\])\s*(?:#.*)?$/;

/**
 * Whether a tool's versions are plain: no `path:` (a folder of the file's
 * choosing put on PATH), `ref:` (a build from source) or any other prefix,
 * nor a path; mise counts only plain versions as loading nothing.
 */
function plainVersions(value: string): boolean {
  return [...value.matchAll(/"([^"]*)"|'([^']*)'/g)].every((m) => !/[:/\\]/.test(m[1] ?? m[2]));
}

/** Whether `name` is a variable GateGuard reads, or one that moves it. */
function mattersToGateGuard(name: string): boolean {
  const upper = name.toUpperCase();
  return (ENV_VARIABLES as readonly string[]).includes(upper) || configuresGateGuard(upper) ||
    movesGateGuard(upper);
}

/** Whether one line of the file is in the part that sets nothing and runs nothing as it loads. */
function safeLine(line: PlacedLine): boolean {
  const { table, text } = line;
  if ((line.header || /^\s*(#.*)?$/.test(text)) && !line.inString) return true;
  // Tasks run only when asked for by name (`mise run`), a command the shell gate reads.
  if (table === "tasks" || table.startsWith("tasks.")) return true;
  if (line.inString) return false;
  const value = text.slice(text.indexOf("=") + 1);
  if (table === "") return /^\s*min_version\s*=/.test(text) && PLAIN_VALUE.test(value);
  if (table === "tools") return line.key !== "" && PLAIN_VALUE.test(value) && plainVersions(value);
  if (table !== "env") return false;
  const name = line.key.replace(/^["']|["']$/g, "");
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(name) && !mattersToGateGuard(name) &&
    PLAIN_VALUE.test(value) && !/^\s*\[/.test(value);
}

/** The finding for a change to what mise sets or runs as a shell enters the folder. */
export const MISE_CONFIG_LINE = "it changes what mise sets or runs when a shell enters the " +
  "folder, which reaches every agent started there and GateGuard's hook with it";

/**
 * The weakenings a change of a project's mise config makes, from its text
 * before (null: a new file) to after: one finding when a line outside the
 * safe part is new or changed.
 */
export function miseConfigWeakenings(before: string | null, after: string): string[] {
  const was = new Set(
    placedLines(before ?? "").map((l) => `${l.table}\u0000${l.inString}\u0000${l.text}`),
  );
  const added = placedLines(after).filter((l) =>
    !was.has(`${l.table}\u0000${l.inString}\u0000${l.text}`)
  );
  return added.every(safeLine) ? [] : [MISE_CONFIG_LINE];
}
