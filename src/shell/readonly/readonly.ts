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

import { parsePowerShell } from "../powershell/mod.ts";
import { parseBash } from "../bash/mod.ts";
import { FIND_ACTIONS } from "../programs/mod.ts";
import { FD_FLAGS } from "../programs/mod.ts";
import { RG_FLAGS } from "../programs/mod.ts";
import { type FamilySpec, runningOptions } from "../programs/mod.ts";
import type { ShellDialect } from "../dialect.ts";

/** Commands longer than this are never read-only. */
export const MAX_READONLY_CHARS = 4096;

/** The verdict: all git introspection, read-only introspection, or neither. */
export type ReadOnlyKind = "readonly-git" | "readonly" | null;

/**
 * Classifies `command`, written in `dialect`: "readonly" when every segment passes the
 * read-only first-command rules, "readonly-git" when moreover every segment
 * is `git`, otherwise null. Never throws.
 */
export function readOnlyKind(shell: ShellDialect, command: string): ReadOnlyKind {
  try {
    if (typeof command !== "string" || command.length > MAX_READONLY_CHARS) return null;
    const dialect = shell === "powershell" ? POWERSHELL : BASH;
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

/** What the screen rejects in one dialect. */
interface ScreenRules {
  /** Rejected wherever they appear, even inside single quotes. */
  anywhere: string;
  /** Rejected inside double quotes. */
  inDouble: string;
  /** Rejected outside quotes. */
  unquoted: string;
  /** Unquoted `--%` (PowerShell's stop-parsing token) rejects. */
  stopParsing: boolean;
}

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
// Per-program option rules.

/** Decides whether a program's arguments (after quote removal) are read-only. */
type ArgsCheck = (args: readonly string[]) => boolean;

const anyArgs: ArgsCheck = () => true;

/** A long option's name without dashes and without any `=value`. */
function longName(arg: string): string | null {
  if (!arg.startsWith("--") || arg === "--") return null;
  const eq = arg.indexOf("=");
  return eq < 0 ? arg.slice(2) : arg.slice(2, eq);
}

/** A short option cluster's letters (`-abc` gives `abc`); null for anything else. */
function shortCluster(arg: string): string | null {
  return arg.length > 1 && arg[0] === "-" && arg[1] !== "-" ? arg.slice(1) : null;
}

/** Option rules of a program whose options are flagged by name alone. */
interface OptionRules {
  /** Long option names (no dashes) that are rejected when the given name starts with them. */
  longPrefixes?: readonly string[];
  /** Letters that reject anywhere inside a single-dash cluster. */
  shortLetters?: string;
  /** Whole single-dash words (find's predicates) rejected by prefix. */
  wordPrefixes?: readonly string[];
}

/**
 * Builds a check that rejects any argument matching `rules`. Every
 * argument is looked at, including those after `--` and those that are
 * values of other options: a value that looks like a rejected option costs
 * one routine question, never a missed one.
 */
function rejectOptions(rules: OptionRules): ArgsCheck {
  return (args) =>
    args.every((arg) => {
      const name = longName(arg);
      if (name !== null) {
        if (rules.longPrefixes?.some((p) => name.startsWith(p))) return false;
      }
      if (rules.wordPrefixes?.some((p) => arg.startsWith(p))) return false;
      const cluster = shortCluster(arg);
      if (cluster !== null && rules.shortLetters !== undefined) {
        for (const letter of cluster) if (rules.shortLetters.includes(letter)) return false;
      }
      return true;
    });
}

/** `find` primaries that run programs, delete, or write files. */
const FIND_RULES: OptionRules = { wordPrefixes: FIND_ACTIONS };

/** Rejects every option of a search tool that runs another program, by its table. */
function runningRules(spec: FamilySpec): OptionRules {
  const running = runningOptions(spec);
  return { longPrefixes: running.long, shortLetters: running.short };
}

/**
 * `fd` options that run programs. `-l`/`--list-details` is fd's shorthand
 * for running `ls -l` over the results (an exec-batch), so it goes too.
 */
const FD_RULES: OptionRules = runningRules(FD_FLAGS);

/**
 * `rg` options that run programs: preprocessors, the hostname helper, and
 * decompression (which runs programs found on `PATH`). Matching by prefix
 * rejects every long option starting with `pre`, `--pretty` included: one
 * extra routine question is cheaper than telling preprocessor spellings apart.
 */
const RG_RULES: OptionRules = runningRules(RG_FLAGS);

/** `tree` options that write files: `-o` output and `-R` per-directory reports. */
const TREE_RULES: OptionRules = { shortLetters: "oR" };

// ---------------------------------------------------------------------------
// git.

/** How a git option takes a value: not at all, only attached, or attached or as the next word. */
type Takes = "none" | "optional" | "required";

/** The options one read-only git subcommand accepts. */
interface GitRules {
  long: ReadonlyMap<string, Takes>;
  short: ReadonlyMap<string, Takes>;
  /** `-<n>` as a commit count. */
  counts: boolean;
  /** Whether revisions or paths may be given. */
  positionals: boolean;
}

/**
 * Option specs written compactly: `name` takes nothing, `name?` an
 * optional attached value, `name=` a required value.
 */
function takesMap(specs: readonly string[]): Map<string, Takes> {
  const map = new Map<string, Takes>();
  for (const spec of specs) {
    const last = spec[spec.length - 1];
    const takes: Takes = last === "?" ? "optional" : last === "=" ? "required" : "none";
    map.set(takes === "none" ? spec : spec.slice(0, -1), takes);
  }
  return map;
}

/** Every short spec is one letter, optionally followed by `?` or `=`. */
function shortSpecs(specs: string): string[] {
  const out: string[] = [];
  for (const c of specs) {
    if ((c === "?" || c === "=") && out.length > 0) out[out.length - 1] += c;
    else out.push(c);
  }
  return out;
}

/** Diff output options shared by `diff`, `log` and `show` (no `--output`, `--ext-diff`, `--textconv`). */
const DIFF_LONG = [
  "patch",
  "no-patch",
  "raw",
  "patch-with-raw",
  "patch-with-stat",
  "stat?",
  "numstat",
  "shortstat",
  "dirstat?",
  "summary",
  "compact-summary",
  "name-only",
  "name-status",
  "check",
  "full-index",
  "binary",
  "abbrev?",
  "minimal",
  "patience",
  "histogram",
  "diff-algorithm=",
  "unified=",
  "inter-hunk-context=",
  "function-context",
  "find-renames?",
  "find-copies?",
  "find-copies-harder",
  "break-rewrites?",
  "no-renames",
  "diff-filter=",
  "text",
  "ignore-all-space",
  "ignore-space-change",
  "ignore-space-at-eol",
  "ignore-cr-at-eol",
  "ignore-blank-lines",
  "ignore-submodules?",
  "submodule?",
  "color?",
  "no-color",
  "color-moved?",
  "word-diff?",
  "color-words?",
  "no-ext-diff",
  "no-textconv",
  "no-prefix",
  "src-prefix=",
  "dst-prefix=",
  "relative?",
  "exit-code",
  "quiet",
  "pickaxe-all",
  "pickaxe-regex",
  "irreversible-delete",
];
const DIFF_SHORT = "pusbwWRzaM?C?B?U=S=G=";

/** Revision walking and formatting options of `log` and `show`. */
const LOG_LONG = [
  "oneline",
  "graph",
  "decorate?",
  "no-decorate",
  "all",
  "branches?",
  "tags?",
  "remotes?",
  "format=",
  "pretty?",
  "max-count=",
  "skip=",
  "since=",
  "after=",
  "until=",
  "before=",
  "author=",
  "committer=",
  "grep=",
  "all-match",
  "invert-grep",
  "regexp-ignore-case",
  "extended-regexp",
  "fixed-strings",
  "basic-regexp",
  "perl-regexp",
  "reverse",
  "first-parent",
  "merges",
  "no-merges",
  "follow",
  "date=",
  "relative-date",
  "abbrev-commit",
  "no-abbrev-commit",
  "full-history",
  "simplify-by-decoration",
  "left-right",
  "cherry-pick",
  "cherry-mark",
  "cherry",
  "boundary",
  "ancestry-path",
  "topo-order",
  "date-order",
  "author-date-order",
  "walk-reflogs",
  "source",
  "parents",
  "children",
  "use-mailmap",
  "mailmap",
  "no-mailmap",
  "cc",
  "full-diff",
  "log-size",
];
const LOG_SHORT = "n=iEFPgm";

const LOG_RULES: GitRules = {
  long: takesMap([...DIFF_LONG, ...LOG_LONG]),
  short: takesMap(shortSpecs(DIFF_SHORT + LOG_SHORT)),
  counts: true,
  positionals: true,
};

/**
 * The read-only subcommands and their allowlists. Only real option names
 * appear: git accepts unambiguous abbreviations of long options, so a name
 * listed here that git did not know could stand for one it does.
 */
const GIT_SUBCOMMANDS: ReadonlyMap<string, GitRules> = new Map([
  ["log", LOG_RULES],
  ["show", LOG_RULES],
  ["diff", {
    long: takesMap([...DIFF_LONG, "cached", "staged", "merge-base"]),
    short: takesMap(shortSpecs(DIFF_SHORT)),
    counts: false,
    positionals: true,
  }],
  ["status", {
    long: takesMap([
      "short",
      "branch",
      "long",
      "verbose",
      "show-stash",
      "porcelain?",
      "untracked-files?",
      "ignored?",
      "ignore-submodules?",
      "ahead-behind",
      "no-ahead-behind",
      "renames",
      "no-renames",
      "find-renames?",
      "column?",
      "no-column",
    ]),
    short: takesMap(shortSpecs("sbvzu?")),
    counts: false,
    positionals: true,
  }],
  ["ls-files", {
    long: takesMap([
      "cached",
      "deleted",
      "modified",
      "others",
      "ignored",
      "stage",
      "unmerged",
      "killed",
      "directory",
      "no-empty-directory",
      "exclude-standard",
      "full-name",
      "error-unmatch",
      "recurse-submodules",
      "eol",
      "debug",
      "deduplicate",
      "sparse",
      "resolve-undo",
      "abbrev?",
      "exclude=",
      "exclude-from=",
      "exclude-per-directory=",
      "format=",
      "with-tree=",
    ]),
    short: takesMap(shortSpecs("cdmoisuktvfzx=X=")),
    counts: false,
    positionals: true,
  }],
  ["rev-parse", {
    long: takesMap([
      "show-toplevel",
      "show-prefix",
      "show-cdup",
      "git-dir",
      "absolute-git-dir",
      "git-common-dir",
      "is-inside-work-tree",
      "is-inside-git-dir",
      "is-bare-repository",
      "is-shallow-repository",
      "show-superproject-working-tree",
      "shared-index-path",
      "local-env-vars",
      "verify",
      "quiet",
      "symbolic",
      "symbolic-full-name",
      "all",
      "revs-only",
      "no-revs",
      "flags",
      "no-flags",
      "sq",
      "not",
      "short?",
      "abbrev-ref?",
      "branches?",
      "tags?",
      "remotes?",
      "show-object-format?",
      "git-path=",
      "default=",
      "prefix=",
      "path-format=",
      "resolve-git-dir=",
    ]),
    short: takesMap(["q"]),
    counts: false,
    positionals: true,
  }],
  // Without a positional `git branch` only lists, whatever the filters.
  ["branch", {
    long: takesMap([
      "all",
      "remotes",
      "verbose",
      "list",
      "show-current",
      "ignore-case",
      "omit-empty",
      "no-abbrev",
      "abbrev?",
      "color?",
      "no-color",
      "column?",
      "no-column",
      "contains=",
      "no-contains=",
      "merged=",
      "no-merged=",
      "points-at=",
      "sort=",
      "format=",
    ]),
    short: takesMap(["a", "r", "v", "l", "i"]),
    counts: false,
    positionals: false,
  }],
]);

/** Options whose value is a format; `%G` placeholders and `%(signature)` run the signature verifier. */
const FORMAT_OPTIONS = new Set(["format", "pretty"]);

function formatRunsVerifier(value: string): boolean {
  return value.includes("%G") || value.includes("%(signature");
}

/**
 * Checks `git` arguments: no global options, a read-only subcommand, and
 * only options from its allowlist. A separate option value that starts
 * with `-` rejects, so a wrongly assumed value can never hide an option.
 * `--` is accepted but does not end the checks.
 */
const gitArgs: ArgsCheck = (args) => {
  const [sub, ...rest] = args;
  const rules = sub === undefined ? undefined : GIT_SUBCOMMANDS.get(sub);
  if (rules === undefined) return false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--") continue;
    const name = longName(arg);
    if (name !== null) {
      const takes = rules.long.get(name);
      if (takes === undefined) return false;
      const eq = arg.indexOf("=");
      let value = eq < 0 ? null : arg.slice(eq + 1);
      if (takes === "none" && value !== null) return false;
      if (takes === "required" && value === null && i + 1 < rest.length) {
        value = rest[++i];
        if (value.startsWith("-")) return false;
      }
      if (value !== null && FORMAT_OPTIONS.has(name) && formatRunsVerifier(value)) return false;
      continue;
    }
    const cluster = shortCluster(arg);
    if (cluster === null) {
      if (!rules.positionals) return false;
      continue;
    }
    if (rules.counts && /^[0-9]+$/.test(cluster)) continue;
    for (let k = 0; k < cluster.length; k++) {
      const takes = rules.short.get(cluster[k]);
      if (takes === undefined) return false;
      if (takes === "none") continue;
      if (takes === "required" && k === cluster.length - 1 && i + 1 < rest.length) {
        if (rest[++i].startsWith("-")) return false;
      }
      break;
    }
  }
  return true;
};

// ---------------------------------------------------------------------------
// Dialects.

/** Bash programs and the check of their arguments. */
const BASH_PROGRAMS: ReadonlyMap<string, ArgsCheck> = new Map([
  ["ls", anyArgs],
  ["pwd", anyArgs],
  ["cat", anyArgs],
  ["head", anyArgs],
  ["tail", anyArgs],
  ["wc", anyArgs],
  ["grep", anyArgs],
  ["rg", rejectOptions(RG_RULES)],
  ["find", rejectOptions(FIND_RULES)],
  ["fd", rejectOptions(FD_RULES)],
  ["tree", rejectOptions(TREE_RULES)],
  ["git", gitArgs],
]);

/** Separators a read-only command may use between its segments. */
const ALLOWED_SEPARATORS = new Set(["start", ";", "|", "&&", "||"]);

/** One dialect: its screen and how its screened text is split and checked. */
interface Dialect extends ScreenRules {
  /**
   * The program of every segment of the screened `command` (holding
   * `words` words, lowercased for PowerShell), or null unless each segment
   * is read-only.
   */
  programs(command: string, words: number): string[] | null;
}

const BASH: Dialect = {
  anywhere: "\\",
  inDouble: "$`",
  unquoted: "$`<>(){}",
  stopParsing: false,
  programs(command, words) {
    const parse = parseBash(command);
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
      const check = BASH_PROGRAMS.get(first.raw);
      programs.push(first.raw);
      return check !== undefined && check(args.map((w) => w.text));
    });
    return readOnly ? programs : null;
  },
};

/**
 * PowerShell commands (lowercased; PowerShell resolves names
 * case-insensitively) and the check of their arguments. The cmdlets and
 * their built-in aliases only read; `rg` and `git` follow the Bash rules.
 */
const POWERSHELL_PROGRAMS: ReadonlyMap<string, ArgsCheck> = new Map([
  ...["get-childitem", "gci", "ls", "dir"].map((name) => [name, anyArgs] as const),
  ...["get-content", "gc", "cat", "type"].map((name) => [name, anyArgs] as const),
  ...["select-string", "sls"].map((name) => [name, anyArgs] as const),
  ...["get-location", "gl", "pwd"].map((name) => [name, anyArgs] as const),
  ["rg", rejectOptions(RG_RULES)],
  ["git", gitArgs],
]);

const POWERSHELL: Dialect = {
  anywhere: "",
  inDouble: "$`",
  unquoted: "$`<>(){}@[]",
  stopParsing: true,
  programs(command, words) {
    const parse = parsePowerShell(command);
    if (!parse.ok || parse.variables || parse.subexpression || parse.group) return null;
    if (parse.scriptBlock || parse.hashtable || parse.hereString || parse.backtickEscape) {
      return null;
    }
    if (parse.stopParsing) return null;
    // The lexer consumes `&` and `.` invocations and `$x =` targets; the
    // screen rejects them already, and a differing word count says so again.
    const seen = parse.segments.reduce((n, seg) => n + seg.words.length, 0);
    if (seen !== words) return null;
    const programs: string[] = [];
    const readOnly = parse.segments.every((seg) => {
      if (seg.depth !== 0 || seg.container !== null || !ALLOWED_SEPARATORS.has(seg.sepBefore)) {
        return false;
      }
      if (seg.redirects.length > 0 || seg.stdinRedirected || seg.invocation !== null) return false;
      if (seg.assignedTo !== null || seg.stopParsing) return false;
      const [first, ...args] = seg.words;
      // A quoted first word is an expression in PowerShell, not a command.
      if (first === undefined || first.quoted || first.expands || first.raw !== first.text) {
        return false;
      }
      const program = first.raw.toLowerCase();
      const check = POWERSHELL_PROGRAMS.get(program);
      programs.push(program);
      // A native program receives each element of a comma list as its own argument.
      return check !== undefined && check(args.flatMap((w) => w.parts));
    });
    return readOnly ? programs : null;
  },
};
