/**
 * Whether a Bash or PowerShell command is read-only introspection.
 *
 * A session usually opens with `ls`, `git status` or a search; such a
 * command should not use up the routine shell gate. A quote-aware
 * character screen first removes everything that could redirect,
 * substitute, expand or background, then every segment of the shared
 * lexer's parse must start with an allowlisted program whose options
 * neither write nor run other programs. When every segment is `git`
 * introspection the verdict is "readonly-git": the hook consults that
 * before destructive detection, which is safe because no allowlisted git
 * form can change anything.
 *
 * Every doubt rejects: this only ever grants an allowance, so a false "no"
 * costs one routine question while a false "yes" could skip it for a
 * command that changes something.
 *
 * @module
 */

import type { ShellDialect } from "../dialect.ts";
import {
  ALLOWED_SEPARATORS,
  anyArgs,
  type ArgsCheck,
  type Dialect,
  type ScreenRules,
} from "./screen.ts";

/** The PowerShell dialect once `loadReadOnly` has loaded it. */
let powerShellDialect: Dialect | null = null;

/** The Bash parser once `loadReadOnly` has loaded it (plain commands need none). */
let bashParser: typeof import("../bash/mod.ts") | null = null;

/** The option rules once `loadReadOnly` has loaded them (`ls` or `cat` need none). */
let optionRules: OptionRules | null = null;

/** The option rules module (rules.ts). */
type OptionRules = typeof import("./rules.ts");

/**
 * Loads what `readOnlyKind` needs for `command` written in `shell`: the
 * PowerShell rules and parser; for Bash the parser unless `command` is a
 * plain one (`plainWords`), and the option rules unless it is a plain call
 * of a program that takes any arguments (`ls -la`). Without a command, all
 * of the shell's. Until then a command that needs them is never read-only,
 * which only ever costs a routine question.
 */
export async function loadReadOnly(shell: ShellDialect, command?: string): Promise<void> {
  if (shell === "powershell") {
    powerShellDialect ??=
      (await (import(new URL("./powershell.ts", import.meta.url).href) as Promise<
        typeof import("./powershell.ts")
      >)).POWERSHELL;
    return;
  }
  const plain = command === undefined ? null : plainWords(command);
  // A plain call of a program the check does not allow is never read-only: no rules.
  const check = plain === null ? undefined : BASH_PROGRAMS.get(plain[0]);
  const needsRules = plain === null || (check !== undefined && check !== ANY_ARGUMENTS);
  await Promise.all([
    plain === null ? loadBashParser() : null,
    needsRules ? loadOptionRules() : null,
  ]);
}

/** Loads the Bash parser once. */
async function loadBashParser(): Promise<void> {
  bashParser ??= await (import(new URL("../bash/mod.ts", import.meta.url).href) as Promise<
    typeof import("../bash/mod.ts")
  >);
}

/** Loads the option rules once. */
async function loadOptionRules(): Promise<void> {
  optionRules ??= await (import(new URL("./rules.ts", import.meta.url).href) as Promise<
    OptionRules
  >);
}

/** A word Bash gives no meaning to: no quote, expansion, glob, operator, comment or `~`. */
const PLAIN_WORD = /^[A-Za-z0-9_./:,@%+=-]+$/;

/**
 * The words of `command` when it is one simple command that Bash splits at
 * blanks alone and expands nothing in (`ls -la src`, `git status`), else
 * null. Its first word holds no `=`, which would make it an assignment.
 * Such a command reads the same without the parser, so the commonest
 * read-only calls load none.
 */
export function plainWords(command: string): string[] | null {
  const words = command.split(/[ \t]+/).filter((w) => w !== "");
  if (words.length === 0 || words[0].includes("=")) return null;
  return words.every((w) => PLAIN_WORD.test(w)) ? words : null;
}

/** Commands longer than this are never read-only. */
export const MAX_READONLY_CHARS = 4096;

/** The verdict: all git introspection, read-only introspection, or neither. */
export type ReadOnlyKind = "readonly-git" | "readonly" | null;

/**
 * Classifies `command`, written in `dialect`: "readonly" when every segment passes the
 * read-only first-command rules, "readonly-git" when moreover every segment
 * is `git`, otherwise null (always null for PowerShell until `loadReadOnly`
 * has loaded its rules). Never throws.
 */
export function readOnlyKind(shell: ShellDialect, command: string): ReadOnlyKind {
  try {
    if (typeof command !== "string" || command.length > MAX_READONLY_CHARS) return null;
    // PowerShell's rules come with its parser, loaded by `loadReadOnly`;
    // until then no PowerShell command counts as read-only, which only ever
    // costs a routine question.
    const dialect = shell === "powershell" ? powerShellDialect : BASH;
    if (dialect === null) return null;
    const words = screen(command, dialect);
    if (words === null || words === 0) return null;
    const programs = dialect.programs(command, words);
    if (programs === null) return null;
    return programs.every((p) => p === "git") ? "readonly-git" : "readonly";
  } catch {
    return null;
  }
}

/**
 * Non-ASCII or a control character other than tab. PowerShell reads
 * typographic quotes and dashes as its own, and control characters can
 * make a command read differently from how it runs.
 */
function hasUnsafeChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code > 0x7e || (code < 0x20 && code !== 0x09)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// The character screen.

/**
 * Screens `command` quote-aware. Returns how many words it holds, or null
 * when it must be rejected. Comments end the scan: with newlines rejected
 * they run to the end of the text.
 */
function screen(command: string, rules: ScreenRules): number | null {
  if (hasUnsafeChar(command)) return null;
  let quote: "'" | '"' | null = null;
  let words = 0;
  let atWordStart = true;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (rules.anywhere.includes(c)) return null;
    if (quote === "'") {
      if (c === "'") quote = null;
      continue;
    }
    if (quote === '"') {
      if (rules.inDouble.includes(c)) return null;
      if (c === '"') quote = null;
      continue;
    }
    if (c === " " || c === "\t") {
      atWordStart = true;
      continue;
    }
    if (c === ";" || c === "|" || c === "&") {
      const doubled = command[i + 1] === c;
      if (c === "&" && !doubled) return null;
      if (doubled && c !== ";") i++;
      atWordStart = true;
      continue;
    }
    if (c === "#" && atWordStart) break;
    if (rules.unquoted.includes(c)) return null;
    if (rules.stopParsing && command.startsWith("--%", i)) return null;
    if (atWordStart) words++;
    atWordStart = false;
    if (c === "'" || c === '"') quote = c;
  }
  return quote === null ? words : null;
}

// ---------------------------------------------------------------------------
// Dialects.

/** How a program's arguments are checked, from the option rules (rules.ts). */
type ProgramCheck = (rules: OptionRules) => ArgsCheck;

/** The check of a program that takes any arguments: it needs no option rules. */
const ANY_ARGUMENTS: ProgramCheck = () => anyArgs;

/** Bash programs and the check of their arguments. */
const BASH_PROGRAMS: ReadonlyMap<string, ProgramCheck> = new Map([
  ["ls", ANY_ARGUMENTS],
  ["pwd", ANY_ARGUMENTS],
  ["cat", ANY_ARGUMENTS],
  ["head", ANY_ARGUMENTS],
  ["tail", ANY_ARGUMENTS],
  ["wc", ANY_ARGUMENTS],
  ["grep", ANY_ARGUMENTS],
  ["rg", (r) => r.rejectOptions(r.RG_RULES)],
  ["find", (r) => r.rejectOptions(r.FIND_RULES)],
  ["fd", (r) => r.rejectOptions(r.FD_RULES)],
  ["tree", (r) => r.rejectOptions(r.TREE_RULES)],
  ["git", (r) => r.gitArgs],
]);

/**
 * The check of `program`'s arguments, or null when it is not allowed or its
 * option rules are not loaded (see `loadReadOnly`).
 */
function checkOf(program: string): ArgsCheck | null {
  const check = BASH_PROGRAMS.get(program);
  if (check === undefined) return null;
  return optionRules === null ? (check === ANY_ARGUMENTS ? anyArgs : null) : check(optionRules);
}

const BASH: Dialect = {
  anywhere: "\\",
  inDouble: "$`",
  unquoted: "$`<>(){}",
  stopParsing: false,
  programs(command, words) {
    const plain = plainWords(command);
    if (plain !== null) {
      const [first, ...args] = plain;
      const check = checkOf(first);
      return check !== null && check(args) ? [first] : null;
    }
    if (bashParser === null) return null;
    const parse = bashParser.parseBash(command);
    if (!parse.ok || parse.commandSubstitution || parse.processSubstitution) return null;
    if (parse.heredoc || parse.parameterExpansion) return null;
    // The lexer consumes reserved words (`if`, `then`, `do`, `!`, …) and drops
    // loop headers: a word count that differs from the screen's means the
    // command was compound, not a list of simple commands.
    const seen = parse.segments.reduce(
      (n, seg) => n + seg.words.length + seg.assignments.length,
      0,
    );
    if (seen !== words) return null;
    const programs: string[] = [];
    const readOnly = parse.segments.every((seg) => {
      if (seg.depth !== 0 || seg.inSubstitution || !ALLOWED_SEPARATORS.has(seg.sepBefore)) {
        return false;
      }
      if (seg.assignments.length > 0 || seg.redirects.length > 0 || seg.stdinTexts.length > 0) {
        return false;
      }
      if (seg.negated) return false;
      const [first, ...args] = seg.words;
      if (first === undefined || first.quoted || first.raw !== first.text) return false;
      const check = checkOf(first.raw);
      programs.push(first.raw);
      return check !== null && check(args.map((w) => w.text));
    });
    return readOnly ? programs : null;
  },
};
