/**
 * Shell commands that some everyday programs carry inside their own
 * arguments or input, where a reader of the command line sees only text:
 * GNU sed's `e` command, vim's ex commands (`-c '!…'`, `+'…'`), make's
 * recipes and `$(shell …)` (`--eval`, a makefile fed on stdin), and the
 * jobs a crontab fed on stdin schedules. Each reader returns the commands
 * it finds; `null` means the program runs text no reader can see (sed
 * executing its pattern space, a script it could not take apart), which
 * the destructive gate treats as able to do anything.
 *
 * @module
 */

import { STDIN_PATHS } from "../stdin_markers.ts";

/** sed commands that take no argument. */
const SED_BARE = new Set("=dDgGhHnNpPxzF{}".split(""));

/** Reads a delimited part (`/re/`), from just after its delimiter; returns where it ends, or -1. */
function delimited(script: string, from: number, delimiter: string): number {
  let at = from;
  while (at < script.length && script[at] !== delimiter) {
    if (script[at] === "\n") return -1;
    at += script[at] === "\\" ? 2 : 1;
  }
  return at < script.length ? at + 1 : -1;
}

/** A line number, `$`, `first~step` or `+N`, read where the address starts. */
const PLAIN_ADDRESS = /\$|[+~]?\d+(?:~\d+)?/y;

/** Skips one sed address (`12`, `$`, `/re/I`, `\%re%`, `first~step`, `+N`); returns where it ends, or -1. */
function skipAddress(script: string, from: number): number {
  let at = from;
  const c = script[at];
  if (c === "/" || c === "\\") {
    const delimiter = c === "/" ? "/" : script[at + 1];
    if (delimiter === undefined) return -1;
    at = delimited(script, at + (c === "/" ? 1 : 2), delimiter);
    if (at < 0) return -1;
    while (script[at] === "I" || script[at] === "M") at++;
    return at;
  }
  PLAIN_ADDRESS.lastIndex = at;
  const plain = PLAIN_ADDRESS.exec(script);
  return plain ? at + plain[0].length : at;
}

/** The end of the line from `at` (its newline, or the script's end). */
function lineEnd(script: string, at: number): number {
  const end = script.indexOf("\n", at);
  return end < 0 ? script.length : end;
}

/**
 * The shell commands a GNU sed script runs with its `e` command, or null
 * when it runs the pattern space (`e` alone, or the `e` flag of `s`), or
 * holds something this reader does not know (which sed itself would refuse,
 * or read another way than this reader).
 */
export function sedCommands(script: string): string[] | null {
  const out: string[] = [];
  let at = 0;
  while (at < script.length) {
    const c = script[at];
    if (/[\s;]/.test(c)) {
      at++;
      continue;
    }
    if (c === "#") {
      at = lineEnd(script, at);
      continue;
    }
    at = skipAddress(script, at);
    if (at < 0) return null;
    if (script[at] === ",") {
      at = skipAddress(script, at + 1);
      if (at < 0) return null;
    }
    while (script[at] === " " || script[at] === "\t" || script[at] === "!") at++;
    const command = script[at++];
    if (command === undefined) break;
    if (SED_BARE.has(command)) continue;
    if (command === "s" || command === "y") {
      const delimiter = script[at];
      if (delimiter === undefined || delimiter === "\n" || delimiter === "\\") return null;
      at = delimited(script, at + 1, delimiter);
      if (at >= 0) at = delimited(script, at, delimiter);
      if (at < 0) return null;
      if (command === "y") continue;
      // Flags: `e` runs the pattern space; `w` takes a file name to the line's end.
      while (at < script.length && /[gpiImMe0-9w]/.test(script[at])) {
        if (script[at] === "e") return null;
        if (script[at] === "w") {
          at = lineEnd(script, at);
          break;
        }
        at++;
      }
      continue;
    }
    if (command === "e") {
      const end = lineEnd(script, at);
      const text = script.slice(at, end).trim();
      if (text === "") return null;
      out.push(text);
      at = end;
      continue;
    }
    if ("aicrRwW".includes(command)) {
      // Text, a file name or a label, to the line's end (a one-line `a\` goes on after a backslash).
      let end = lineEnd(script, at);
      while (script[end - 1] === "\\" && end < script.length) end = lineEnd(script, end + 1);
      at = end;
      continue;
    }
    // A label ends at `;` too (`:a;N;$!ba`).
    if (":btTv".includes(command)) {
      while (at < script.length && script[at] !== ";" && script[at] !== "\n") at++;
      continue;
    }
    if ("qQlL".includes(command)) {
      while (/[ \d]/.test(script[at] ?? "")) at++;
      continue;
    }
    return null;
  }
  return out;
}

/**
 * The scripts a sed command line runs: `-e`, `--expression`, else its first
 * operand; and the files it reads scripts from (`-f`, `--file`).
 */
export function sedScripts(args: readonly string[]): { scripts: string[]; files: string[] } {
  const scripts: string[] = [];
  const files: string[] = [];
  let operand: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      operand ??= args[i + 1] ?? null;
      break;
    }
    if (a === "-e" || a === "--expression") scripts.push(args[++i] ?? "");
    else if (a.startsWith("--expression=")) scripts.push(a.slice("--expression=".length));
    else if (a === "-f" || a === "--file") files.push(args[++i] ?? "");
    else if (a.startsWith("--file=")) files.push(a.slice("--file=".length));
    else if (a === "-l" || a === "--line-length") i++;
    else if (/^-[^-]/.test(a)) {
      // A cluster: `-ne 'p'` ends with the letter whose value follows; `-f` names a file.
      const letters = a.slice(1);
      const e = letters.indexOf("e");
      const f = letters.indexOf("f");
      const i0 = letters.indexOf("i");
      const cut = (k: number) => k >= 0 && (i0 < 0 || k < i0);
      if (cut(e)) scripts.push(letters.slice(e + 1) || (args[++i] ?? ""));
      else if (cut(f)) files.push(letters.slice(f + 1) || (args[++i] ?? ""));
    } else if (!a.startsWith("-") && operand === null) operand = a;
  }
  if (scripts.length === 0 && files.length === 0 && operand !== null) scripts.push(operand);
  return { scripts, files };
}

/**
 * The ex commands a vim command line runs at start: `-c CMD`, `--cmd CMD`
 * and `+CMD` (a bare `+`, `+NUM` and `+/pattern` only move the cursor).
 */
export function vimCommands(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-c" || a === "--cmd") out.push(args[++i] ?? "");
    else if (a.startsWith("+") && !/^\+(\d*|\/.*)$/.test(a)) out.push(a.slice(1));
    else if (a === "--") break;
  }
  return out;
}

/**
 * The shell command an ex command hands to a shell (`!cmd`, `:silent !cmd`,
 * `r !cmd`, `w !cmd`, with any range; `:terminal cmd`), or null for another
 * ex command.
 */
export function exShellCommand(command: string): string | null {
  // No two neighbouring parts share a character, so a long text fails in linear time.
  const m =
    /^[\s:]*(?:sil(?:ent)?!?\s+)?(?:[.$\d,%'<>+\-]+\s*)?(?:r(?:ead)?\s*|w(?:rite)?\s+)?!(.*)$/s
      .exec(command) ?? /^[\s:]*ter(?:m(?:inal)?)?!?\s+(.*)$/s.exec(command);
  return m ? m[1] : null;
}

/**
 * The makefile texts a make command line reads besides files: `--eval`
 * (`-E`) values, and its stdin when `-f -` (or `/dev/stdin`) names it.
 */
export function makeTexts(args: readonly string[], stdin: readonly string[]): string[] {
  const out: string[] = [];
  let fromStdin = false;
  const stdinName = (name: string | undefined) => name !== undefined && STDIN_PATHS.has(name);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--eval" || a === "-E") out.push(args[++i] ?? "");
    else if (a.startsWith("--eval=")) out.push(a.slice("--eval=".length));
    else if (a === "-f" || a === "--file" || a === "--makefile") fromStdin ||= stdinName(args[++i]);
    else if (/^--(?:file|makefile)=/.test(a)) fromStdin ||= stdinName(a.slice(a.indexOf("=") + 1));
    else if (a.startsWith("-f")) fromStdin ||= stdinName(a.slice(2));
  }
  return fromStdin ? [...out, ...stdin] : out;
}

/**
 * The shell commands a makefile text runs: recipe lines (after a tab, their
 * `@`, `-` and `+` prefixes dropped), a recipe after `;` on a rule's line,
 * `$(shell …)` and `!=` assignments; make's `$$` is the shell's `$`.
 */
export function makeCommands(text: string): string[] {
  const out: string[] = [];
  const unescape = (s: string) => s.replaceAll("$$", "$").trim();
  for (const line of text.replace(/\\\r?\n/g, " ").split(/\r?\n/)) {
    if (line.startsWith("\t")) {
      out.push(unescape(line.replace(/^\t[@+\-\s]*/, "")));
      continue;
    }
    const rule = /^[^#=:]*::?(?!=)[^;#]*;(.*)$/.exec(line);
    if (rule) out.push(unescape(rule[1]));
    const assigned = /^[^#=]*!=(.*)$/.exec(line);
    if (assigned) out.push(unescape(assigned[1]));
  }
  for (const m of text.matchAll(/\$[({]shell\s+([^)}]*)[)}]/g)) out.push(unescape(m[1]));
  return out;
}

/**
 * The commands of the jobs a crontab text schedules: each line that is
 * not blank, a comment or a variable, without its five time fields (or
 * its `@reboot`-style nickname).
 */
export function crontabCommands(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#") || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(trimmed)) {
      continue;
    }
    const job = /^(?:@\w+|(?:\S+\s+){5})(.*)$/.exec(trimmed);
    out.push(job ? job[1].trim() : trimmed);
  }
  return out;
}
