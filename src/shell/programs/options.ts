/**
 * Reading command arguments the way getopt-style programs do: single-dash
 * clusters letter by letter (a value-taking letter ends its cluster and
 * takes the rest or the next word), `--name=value` and `--name value`,
 * `--` ending the options, and long names abbreviated to any prefix (GNU
 * tools and git accept unambiguous prefixes; an ambiguous one is rejected
 * by the program, so matching it anyway errs on the side of caution).
 *
 * Also the normalisation of a command word to the program it names.
 *
 * @module
 */

import { baseName } from "../../platform/path.ts";
import { type FlagRole, VALUE_ROLES } from "./roles.ts";

/**
 * Options by spelling without dashes (a letter, or a long name), each with
 * its role: the one notation every option table is written in. An option
 * a table does not list is a switch.
 */
export type OptionRoles = Readonly<Record<string, FlagRole>>;

/** How one program's options are shaped. */
export interface OptionSpec {
  /**
   * Short options by letter. A letter whose role takes a value ends its
   * cluster and takes the rest of it, else the next word.
   */
  readonly short?: OptionRoles;
  /** Long options by name; one whose role takes a value takes the next word when written without `=`. */
  readonly long?: OptionRoles;
  /** False when the first operand ends the options (wrappers); default true (GNU permutation). */
  readonly permute?: boolean;
}

/** The role `table` gives the option spelled `name` (no dashes), or null when it lists none. */
export function optionRole(table: OptionRoles | undefined, name: string): FlagRole | null {
  return table !== undefined && Object.hasOwn(table, name) ? table[name] : null;
}

/** The options of `table` with role `role`, in the order the table lists them. */
export function namesWithRole(table: OptionRoles | undefined, role: FlagRole): string[] {
  return table === undefined ? [] : Object.keys(table).filter((name) => table[name] === role);
}

/**
 * Whether `scan` holds an option that `spec` gives role `role`: a letter
 * of a cluster, or a long option by its name or an abbreviation of it.
 */
export function hasRole(scan: ScannedArgs, spec: OptionSpec, role: FlagRole): boolean {
  return scan.shorts.some((o) => optionRole(spec.short, o.letter) === role) ||
    hasLong(scan, ...namesWithRole(spec.long, role));
}

/**
 * The values `scan` holds for the options `spec` gives role `role`: short
 * ones in the order written, then long ones (by name or abbreviation) in the
 * order `spec` lists them; null for one written without its value.
 */
export function roleValues(
  scan: ScannedArgs,
  spec: OptionSpec,
  role: FlagRole,
): (string | null)[] {
  return [
    ...scan.shorts.filter((o) => optionRole(spec.short, o.letter) === role).map((o) => o.value),
    ...namesWithRole(spec.long, role).flatMap((full) =>
      longsMatching(scan, full).map((l) => l.value)
    ),
  ];
}

/** Whether the option spelled `name` (no dashes) in `table` takes a value. */
export function takesValue(table: OptionRoles | undefined, name: string): boolean {
  const role = optionRole(table, name);
  return role !== null && VALUE_ROLES.has(role);
}

/** A long option as written. */
export interface LongOption {
  /** Name without the leading dashes and without `=value`. */
  name: string;
  /** The `=value` part or the consumed next word; null for a switch. */
  value: string | null;
}

/** A short option as written. */
export interface ShortOption {
  letter: string;
  /** Its value when the letter takes one; null for a switch. */
  value: string | null;
}

/** The arguments of one command, sorted into options and operands. */
export interface ScannedArgs {
  shorts: ShortOption[];
  longs: LongOption[];
  /** Operands in order, including those after `--`. */
  operands: string[];
  /** Whether a `--` ended the options. */
  dashDash: boolean;
  /** Index in the argument list where scanning stopped (the first unread word). */
  stop: number;
}

/** Splits `args` into options and operands according to `spec`. */
export function scanArgs(args: readonly string[], spec: OptionSpec = {}): ScannedArgs {
  const permute = spec.permute ?? true;
  const out: ScannedArgs = { shorts: [], longs: [], operands: [], dashDash: false, stop: 0 };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      out.dashDash = true;
      out.operands.push(...args.slice(i + 1));
      i = args.length;
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      let value: string | null = eq < 0 ? null : a.slice(eq + 1);
      if (value === null && takesValue(spec.long, name) && i + 1 < args.length) value = args[++i];
      out.longs.push({ name, value });
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const letter = a[k];
        if (takesValue(spec.short, letter)) {
          let value: string | null = a.slice(k + 1);
          if (value === "") value = i + 1 < args.length ? args[++i] : null;
          out.shorts.push({ letter, value });
          break;
        }
        out.shorts.push({ letter, value: null });
      }
      continue;
    }
    if (!permute) break;
    out.operands.push(a);
  }
  out.stop = i;
  return out;
}

/** True when a short option `letter` was given. */
export function hasShort(scan: ScannedArgs, letters: string): boolean {
  return scan.shorts.some((s) => letters.includes(s.letter));
}

/** True when a long option was written as `full` or any prefix of it. */
export function hasLong(scan: ScannedArgs, ...full: string[]): boolean {
  return scan.longs.some((l) => l.name !== "" && full.some((f) => f.startsWith(l.name)));
}

/** The long options written as `full` or a prefix of it. */
export function longsMatching(scan: ScannedArgs, full: string): LongOption[] {
  return scan.longs.filter((l) => l.name !== "" && full.startsWith(l.name));
}

/** Executable suffixes that do not change which program runs. */
const EXECUTABLE_SUFFIXES = [".exe", ".com"];

/**
 * The program a command word names, for table lookups: last path component
 * (`/` or `\`), lowercased (case-insensitive file systems run `RM` as `rm`),
 * and without `.exe`.
 */
export function programName(word: string): string {
  let name = baseName(word).toLowerCase();
  for (const suffix of EXECUTABLE_SUFFIXES) {
    if (name.endsWith(suffix) && name.length > suffix.length) {
      name = name.slice(0, -suffix.length);
    }
  }
  return name;
}

/** True when a word's value is only known at run time (`$…`, backticks). */
export function isDynamic(word: string): boolean {
  return word.includes("$") || word.includes("`");
}

/** The index after the expansion that starts `word` at `i`, or -1 when none starts there. */
function expansionEnd(word: string, i: number): number {
  if (word[i] === "`") {
    const end = word.indexOf("`", i + 1);
    return end < 0 ? -1 : end + 1;
  }
  if (word[i] !== "$") return -1;
  const next = word[i + 1] ?? "";
  // `$((…))`, `${#x}`, `$#`, `$?`, `$$` and `$!` are numbers, never options.
  if (next === "{" || (next === "(" && word[i + 2] !== "(")) {
    if (next === "{" && word[i + 2] === "#") return -1;
    const close = closingBracket(word, i + 1);
    return close < 0 ? -1 : close + 1;
  }
  if (/[@*1-9]/.test(next)) return i + 2;
  NAME_AT.lastIndex = i + 1;
  return NAME_AT.test(word) ? NAME_AT.lastIndex : -1;
}

/** A variable name, matched where a `$` leaves off (sticky: set `lastIndex` first). */
const NAME_AT = /[A-Za-z_][A-Za-z0-9_]*/y;

/**
 * Where the `{…}` or `(…)` whose opening bracket is at `open` closes,
 * counting nested brackets of its kind and skipping backslash escapes;
 * -1 when it does not close.
 */
export function closingBracket(text: string, open: number): number {
  const opener = text[open];
  const closer = opener === "{" ? "}" : ")";
  let level = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === opener) level++;
    else if (text[i] === closer && --level === 0) return i;
  }
  return -1;
}

/** Blanks, quotes or shell operators: text that is more than plain words. */
const NOT_PLAIN = /[|;&<>()`$\\'"]/;

/** `git rev-parse` options that print an object name, a branch name or the top-level path. */
const GIT_NAME_OPTIONS = new Set(["--abbrev-ref", "--short", "--verify", "--show-toplevel", "-q"]);

/**
 * Commands whose every output word starts like their first operand or
 * with `/`, so it is never an option: `find DIR …` prints paths under
 * DIR (unless a `-printf`-style action writes free text), `pwd` and
 * `mktemp` print absolute paths (mktemp's template cannot start with `-`
 * without a `--`), and git prints branch and object names, which cannot.
 */
const OPERAND_PRINTERS: ReadonlyMap<string, (args: readonly string[]) => boolean> = new Map([
  [
    "find",
    (args: readonly string[]) => {
      const start = args.find((a) => !/^-[HLP]$/.test(a));
      return start !== undefined && !start.startsWith("-") &&
        !args.some((a) => /^-(f?printf|fprint0?|fls)$/.test(a));
    },
  ],
  ["pwd", () => true],
  ["mktemp", (args: readonly string[]) => !args.includes("--")],
  // Branch names and object names never start with `-`; the top level is absolute.
  [
    "git",
    (args: readonly string[]) =>
      (args[0] === "branch" && args[1] === "--show-current" && args.length === 2) ||
      (args[0] === "rev-parse" &&
        args.slice(1).every((a) => !a.startsWith("-") || GIT_NAME_OPTIONS.has(a))),
  ],
]);

/** Whether `word` is one plain substitution (`$(find . -name '*.o')`) of an operand printer. */
function printsOperands(word: string): boolean {
  const inner = word.startsWith("$(") && word.endsWith(")")
    ? word.slice(2, -1)
    : word.length > 1 && word.startsWith("`") && word.endsWith("`")
    ? word.slice(1, -1)
    : null;
  if (inner === null) return false;
  // Quotes are dropped crudely: only a word's first character matters.
  const words = inner.trim().split(/\s+/).map((w) => w.replace(/^(['"])(.*)\1$/, "$2"));
  const check = OPERAND_PRINTERS.get(words[0]);
  const plain = inner.replace(/'[^']*'|"[^"$`\\]*"/g, "x");
  return check !== undefined && !NOT_PLAIN.test(plain) && check(words.slice(1));
}

/**
 * Whether an argument, as the line leaves it, may be any option when the
 * program runs: it is made only of expansions the line does not resolve
 * (`$o`, `"$@"`, `${a[@]}`, `$(tool)`), or dashes followed by one (`-$o`).
 * Literal text before it (`./$f`, `x$o`) makes it an operand, and so does
 * a substitution of a command that only prints paths (`$(find . …)`).
 */
export function mayBeAnyOption(word: string): boolean {
  if (/^--?[$`]/.test(word)) return true;
  if (word === "" || printsOperands(word)) return false;
  for (let i = 0; i < word.length;) {
    const end = expansionEnd(word, i);
    if (end < 0) return false;
    i = end;
  }
  return true;
}
