/**
 * git's global options, the ones written before the subcommand, as data:
 * which take the next word as their value, and what each does to a search
 * the subcommand runs. The destructive check reads the value-takers (so a
 * `-C dir` never hides the subcommand) and the configuration they set; the
 * search evidence reads the roles.
 *
 * @module
 */

import { baseName } from "../../platform/path.ts";
import type { FamilySpec } from "./roles.ts";
import type { OptionSpec } from "./options.ts";

/**
 * What a global option does to a search run by the subcommand: nothing
 * (`inert`), sets the directory it runs in (`base`), or something the
 * evidence cannot follow (`unknown`: another repository, work tree or
 * pathspec mode).
 */
export type GitGlobalSearchRole = "inert" | "base" | "unknown";

/** One git global option. */
export interface GitGlobalOption {
  /** Takes the next word as its value (when not attached with `=`). */
  readonly value: boolean;
  /** What it does to a search. */
  readonly search: GitGlobalSearchRole;
  /** Sets configuration (`-c name=value`, `--config-env name=VAR`): aliases and settings follow. */
  readonly config?: true;
}

/** A table of options by letter and by long name, in the notation of every option table. */
export interface GitGlobalOptions {
  readonly short: Readonly<Record<string, GitGlobalOption>>;
  readonly long: Readonly<Record<string, GitGlobalOption>>;
}

/** git's global options. */
export const GIT_GLOBAL_OPTIONS: GitGlobalOptions = {
  short: {
    C: { value: true, search: "base" },
    c: { value: true, search: "inert", config: true },
    P: { value: false, search: "inert" },
    p: { value: false, search: "unknown" },
  },
  long: {
    "config-env": { value: true, search: "unknown", config: true },
    "git-dir": { value: true, search: "unknown" },
    "work-tree": { value: true, search: "unknown" },
    namespace: { value: true, search: "unknown" },
    "super-prefix": { value: true, search: "unknown" },
    "no-pager": { value: false, search: "inert" },
    "no-optional-locks": { value: false, search: "inert" },
    paginate: { value: false, search: "unknown" },
    bare: { value: false, search: "unknown" },
    "no-replace-objects": { value: false, search: "unknown" },
    "literal-pathspecs": { value: false, search: "unknown" },
    "glob-pathspecs": { value: false, search: "unknown" },
    "noglob-pathspecs": { value: false, search: "unknown" },
    "icase-pathspecs": { value: false, search: "unknown" },
  },
};

/** The global option spelled `word` (`-C`, `--git-dir`), or null when git has none by that spelling. */
export function gitGlobalOption(word: string): GitGlobalOption | null {
  const [table, name] = word.startsWith("--")
    ? [GIT_GLOBAL_OPTIONS.long, word.slice(2)]
    : /^-[^-]$/.test(word)
    ? [GIT_GLOBAL_OPTIONS.short, word.slice(1)]
    : [null, ""];
  return table !== null && Object.hasOwn(table, name) ? table[name] : null;
}

/**
 * The words of a list separated by spaces and line breaks. Split on plain
 * strings: this runs when the module loads, on every call that loads it,
 * and a regular expression's first use there (compiled, then tiered up on a
 * long text) cost about 1 ms, measured in process.
 */
function words(list: string): ReadonlySet<string> {
  return new Set(list.replaceAll("\n", " ").split(" ").filter((w) => w !== ""));
}

/**
 * git's own subcommands, builtin and shipped with it. A word not among
 * them (nor an alias defined on the line) may be an alias from a
 * configuration file the hook cannot see, or a typo `help.autocorrect`
 * turns into one of them.
 */
export const GIT_COMMANDS: ReadonlySet<string> = words(`
  add am annotate apply archimport archive backfill bisect blame branch bugreport bundle
  cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout-index
  cherry cherry-pick citool clean clone column commit commit-graph commit-tree config
  count-objects credential credential-cache credential-store cvsexportcommit cvsimport
  cvsserver daemon describe diagnose diff diff-files diff-index diff-pairs diff-tree difftool
  fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref
  for-each-repo format-patch fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id grep gui
  hash-object help hook http-backend imap-send index-pack init init-db instaweb
  interpret-trailers last-modified log ls-files ls-remote ls-tree mailinfo mailsplit
  maintenance merge merge-base merge-file merge-index merge-one-file merge-tree mergetool
  mktag mktree multi-pack-index mv name-rev notes p4 pack-objects pack-redundant pack-refs
  patch-id prune prune-packed pull push quiltimport range-diff read-tree rebase reflog refs
  remote repack replace replay repo request-pull rerere reset restore rev-list rev-parse
  revert rm send-email send-pack shortlog show show-branch show-index show-ref sparse-checkout
  stage stash status stripspace submodule svn switch symbolic-ref tag unpack-file
  unpack-objects update-index update-ref update-server-info upload-archive upload-pack var
  verify-commit verify-pack verify-tag version whatchanged worktree write-tree
`);

/**
 * Configuration keys (lower-cased; `*` is any subsection) whose value git
 * runs as a shell command: pagers, editors, ssh, hooks for diff, merge and
 * filters, credential helpers, signing programs and the like.
 */
export const GIT_COMMAND_KEYS: readonly RegExp[] = [
  /^core\.(pager|editor|sshcommand|fsmonitor|askpass|gitproxy)$/,
  /^sequence\.editor$/,
  /^pager\.[^.]+$/,
  /^credential\.(.+\.)?helper$/,
  /^diff\.external$/,
  /^diff\..+\.(command|textconv)$/,
  /^merge\..+\.driver$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^gpg\.(.+\.)?program$/,
  /^uploadpack\.packobjectshook$/,
  /^remote\..+\.(uploadpack|receivepack)$/,
  /^(difftool|mergetool)\..+\.cmd$/,
  /^sendemail\.(sendmailcmd|smtpserver)$/,
  /^browser\..+\.cmd$/,
];

/** Environment variables whose value git (or the pager and editor it starts) runs as a command. */
export const GIT_COMMAND_ENV: readonly string[] = [
  "GIT_SSH_COMMAND",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "GIT_EXTERNAL_DIFF",
  "GIT_PROXY_COMMAND",
  "PAGER",
  "EDITOR",
  "VISUAL",
];

/**
 * Subcommands that run a command given in an option: `rebase --exec`,
 * `difftool --extcmd`, and the `--upload-pack`/`--receive-pack` programs
 * git starts through the shell for a local remote. The options whose value
 * is that command have the role `runs-value`; the others listed take a
 * value.
 */
export const GIT_CODE_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  rebase: {
    short: { x: "runs-value", s: "value", X: "value", C: "value" },
    long: {
      exec: "runs-value",
      onto: "value",
      strategy: "value",
      "strategy-option": "value",
      whitespace: "value",
      empty: "value",
    },
  },
  difftool: {
    short: { x: "runs-value", t: "value", O: "value" },
    long: { extcmd: "runs-value", tool: "value" },
  },
  fetch: { short: { j: "value" }, long: { "upload-pack": "runs-value" } },
  pull: { short: { j: "value" }, long: { "upload-pack": "runs-value" } },
  "ls-remote": { long: { "upload-pack": "runs-value" } },
  clone: {
    short: { u: "runs-value", o: "value", b: "value", c: "value", j: "value" },
    long: {
      "upload-pack": "runs-value",
      origin: "value",
      branch: "value",
      config: "value",
      reference: "value",
      depth: "value",
      template: "value",
    },
  },
  push: {
    short: { o: "value" },
    long: {
      "receive-pack": "runs-value",
      exec: "runs-value",
      repo: "value",
      "push-option": "value",
    },
  },
  archive: {
    short: { o: "value" },
    long: {
      exec: "runs-value",
      remote: "value",
      output: "value",
      prefix: "value",
      format: "value",
    },
  },
};

/**
 * How close `typed` is to the git command `name` as `help.autocorrect`
 * judges it: one more than the edit distance with free transpositions,
 * substitutions costing 2, insertions 1 and deletions 3. git runs the one
 * best command when it scores below 7. (A prefix of a common command
 * scores 0 and stops the correction in the versions that have it; older
 * ones correct `rest` to `reset`, so the prefix rule is not modelled.)
 */
export function autocorrectScore(typed: string, name: string): number {
  const n = name.length;
  let prev2: number[] = [];
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= typed.length; i++) {
    const row = [i * 3];
    for (let j = 1; j <= n; j++) {
      let best = prev[j - 1] + (typed[i - 1] === name[j - 1] ? 0 : 2);
      best = Math.min(best, prev[j] + 3, row[j - 1] + 1);
      if (i > 1 && j > 1 && typed[i - 1] === name[j - 2] && typed[i - 2] === name[j - 1]) {
        best = Math.min(best, prev2[j - 2]);
      }
      row.push(best);
    }
    prev2 = prev;
    prev = row;
  }
  return prev[n] + 1;
}

/** Scores below this are close enough for `help.autocorrect` to run the command. */
export const AUTOCORRECT_FLOOR = 7;

/**
 * Names git's own ref-format rules forbid in a branch or tag but a
 * pathspec may hold: pathspec magic (`:/`), globs, a trailing or doubled
 * slash, a component starting with a dot (`.`, `./src`, `../x`), an
 * absolute path.
 */
const NOT_A_REF = /^[:/]|[*?[\\]|\/$|\/\/|(^|\/)\./;

/** File extensions that mark a lone `git checkout` operand as a file rather than a branch. */
const FILE_EXTENSIONS = words(`
  c cc cfg cjs conf cpp cs css csv go h hpp html ini java js json jsonc jsx kt lock md mjs php
  py rb rs scss sh sql svelte swift toml ts tsx txt vue xml yaml yml
`);

/** The options of `git push` that take a value (the next word, or glued to the letter). */
export const GIT_PUSH_VALUE_OPTIONS: OptionSpec = {
  short: { o: "value" },
  long: { "push-option": "value", repo: "value", "receive-pack": "value", exec: "value" },
};

/**
 * Whether a `git checkout` operand must be a pathspec: no branch or tag
 * can be spelled that way, or it names a source file by its extension.
 */
export function checkoutPathspec(operand: string): boolean {
  if (NOT_A_REF.test(operand)) return true;
  // NOT_A_REF took every backslash, so the last segment is after a `/`.
  const base = baseName(operand);
  const dot = base.lastIndexOf(".");
  return dot > 0 && FILE_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
}

/** How `git grep` reads its arguments. */
export const GIT_GREP_FLAGS: FamilySpec = {
  patternFirst: true,
  recursive: true,
  longPrefixes: true,
  types: null,
  pathGlobs: false,
  short: {
    A: "value",
    B: "value",
    C: "value",
    c: "silent",
    e: "pattern",
    f: "pattern-file",
    v: "invert",
    L: "invert",
    E: "extended-regexp",
    P: "extended-regexp",
    G: "basic-regexp",
    F: "fixed-strings",
    m: "max-count",
    q: "silent",
  },
  long: {
    "after-context": "value",
    "before-context": "value",
    context: "value",
    "max-depth": "subdirectory-levels",
    "max-count": "max-count",
    count: "silent",
    quiet: "silent",
    "no-exclude-standard": "no-ignore",
    "no-index": "no-ignore",
    threads: "value",
    "open-files-in-pager": "switch",
    "invert-match": "invert",
    "files-without-match": "invert",
    and: "invert",
    not: "invert",
    "all-match": "invert",
    "extended-regexp": "extended-regexp",
    "perl-regexp": "extended-regexp",
    "basic-regexp": "basic-regexp",
    "fixed-strings": "fixed-strings",
  },
};

/** How `git ls-files` reads its arguments. */
export const GIT_LS_FILES_FLAGS: FamilySpec = {
  patternFirst: false,
  recursive: true,
  longPrefixes: true,
  types: null,
  pathGlobs: false,
  short: { x: "exclude", X: "unreadable" },
  long: {
    exclude: "exclude",
    "exclude-from": "unreadable",
    "exclude-per-directory": "unreadable",
    "with-tree": "value",
    format: "value",
  },
};
