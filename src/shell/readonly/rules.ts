/**
 * The option rules of the programs the read-only check allows with some
 * arguments only: the options that reject a write or a run (by name, by
 * letter, by prefix) and git's read-only subcommands. Shared by the Bash
 * rules (readonly.ts, which loads this module for a command that needs it)
 * and the PowerShell rules (powershell.ts).
 *
 * @module
 */

import { FIND_ACTIONS } from "../programs/mod.ts";
import { FD_FLAGS } from "../programs/mod.ts";
import { RG_FLAGS } from "../programs/mod.ts";
import { type FamilySpec, runningOptions } from "../programs/mod.ts";
import type { ArgsCheck } from "./screen.ts";

// ---------------------------------------------------------------------------
// Per-program option rules.

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
export interface OptionRules {
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
export function rejectOptions(rules: OptionRules): ArgsCheck {
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
export const FIND_RULES: OptionRules = { wordPrefixes: FIND_ACTIONS };

/** Rejects every option of a search tool that runs another program, by its table. */
function runningRules(spec: FamilySpec): OptionRules {
  const running = runningOptions(spec);
  return { longPrefixes: running.long, shortLetters: running.short };
}

/**
 * `fd` options that run programs. `-l`/`--list-details` is fd's shorthand
 * for running `ls -l` over the results (an exec-batch), so it goes too.
 */
export const FD_RULES: OptionRules = runningRules(FD_FLAGS);

/**
 * `rg` options that run programs: preprocessors, the hostname helper, and
 * decompression (which runs programs found on `PATH`). Matching by prefix
 * rejects every long option starting with `pre`, `--pretty` included: one
 * extra routine question is cheaper than telling preprocessor spellings apart.
 */
export const RG_RULES: OptionRules = runningRules(RG_FLAGS);

/** `tree` options that write files: `-o` output and `-R` per-directory reports. */
export const TREE_RULES: OptionRules = { shortLetters: "oR" };

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
export function gitArgs(args: readonly string[]): boolean {
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
}
