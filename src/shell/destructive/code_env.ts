/**
 * Environment variables whose value a program runs as code, and how each
 * is read. A shell runs `PROMPT_COMMAND` and the command substitutions of
 * its prompts, imports a function from `BASH_FUNC_<name>%%` and sources the
 * file `BASH_ENV` or `ENV` names; editors, pagers and browsers are started
 * from their variables as command lines; perl turns `PERL5OPT`'s `-M` into
 * `use …;`. A line that gives one of them a destructive value is read as
 * running it, whichever program follows: git's own variables stay with
 * git (`GIT_COMMAND_ENV`).
 *
 * @module
 */

import { deeper, type Engine, type Verdict, type Walk } from "./detect_types.ts";

/** How a program reads a variable's value. */
type Reading = "command" | "function" | "sourced" | "perl";

/** The variables, by name. */
const CODE_ENV: Readonly<Record<string, Reading>> = {
  PROMPT_COMMAND: "command",
  PS0: "command",
  PS1: "command",
  PS2: "command",
  PS4: "command",
  EDITOR: "command",
  VISUAL: "command",
  SUDO_EDITOR: "command",
  FCEDIT: "command",
  SYSTEMD_EDITOR: "command",
  PAGER: "command",
  MANPAGER: "command",
  SYSTEMD_PAGER: "command",
  PSQL_PAGER: "command",
  PSQL_EDITOR: "command",
  BROWSER: "command",
  // less starts them through the shell; a leading `|` or `-` only says how it reads the output.
  LESSOPEN: "command",
  LESSCLOSE: "command",
  BASH_ENV: "sourced",
  ENV: "sourced",
  PERL5OPT: "perl",
};

/** An exported function as bash passes it on: `BASH_FUNC_name%%=() { …; }`. */
const EXPORTED_FUNCTION = /^BASH_FUNC_.+%%$/;

/** How `name`'s value is run, or null when no program runs it. */
function readingOf(name: string): Reading | null {
  if (Object.hasOwn(CODE_ENV, name)) return CODE_ENV[name];
  return EXPORTED_FUNCTION.test(name) ? "function" : null;
}

/** Whether giving `name` the value `value` runs something destructive. */
export function codeEnvHit(name: string, value: string, walk: Walk, engine: Engine): Verdict {
  const reading = readingOf(name);
  if (reading === null || value.trim() === "") return null;
  switch (reading) {
    case "command":
      return engine.code("bash", value.replace(/^\s*(\|\|?|-)/, ""), deeper(walk), []);
    case "function":
      // `() { body; }` is a group once its empty parameter list is gone.
      return engine.code("bash", value.replace(/^\s*\(\)\s*/, ""), deeper(walk), []);
    case "sourced":
      // A file's name; only a process substitution (`<(echo …)`) shows its text.
      return value.includes("<(") ? engine.raw(value, walk) : null;
    case "perl":
      return engine.program("perl", ["-e", value.replace(/-[Mm]-?/g, "use ")], [], deeper(walk));
  }
}

/** The first `NAME=value` word (as `env` and `sudo` take them) that runs something destructive. */
export function assignmentsHit(words: readonly string[], walk: Walk, engine: Engine): Verdict {
  for (const word of words) {
    const eq = word.indexOf("=");
    const hit = eq > 0 ? codeEnvHit(word.slice(0, eq), word.slice(eq + 1), walk, engine) : null;
    if (hit) return hit;
  }
  return null;
}
