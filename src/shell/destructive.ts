/**
 * The destructive-command detector behind the destructive shell gate.
 *
 * A well-formed Bash command is read through the shared lexer: every simple
 * command (including those in substitutions, groups, compound commands and
 * scripts handed to shells) is unwrapped and checked against per-program
 * rules, so quoted data such as a commit message or an `echo` argument is
 * never mistaken for a command. When the lexer cannot vouch for the whole
 * command (too long, unbalanced, nested too deep), the segments it did read
 * are still checked and, on top of that, a crude token scan of the raw text
 * looks for the same forms anywhere, quotes ignored: an unparseable command
 * is treated as destructive whenever a destructive form appears in it.
 *
 * Decisions:
 * - `rm` with any recursive option is destructive, forced or not: a
 *   recursive delete runs without prompting when stdin is not a terminal,
 *   and PowerShell's `Remove-Item -Recurse` is treated the same way.
 * - `find -delete` is not in the destructive set; `find -exec rm -rf` is,
 *   through its `-exec` command.
 * - `git push --force-with-lease` is destructive when it may reach
 *   main/master/develop/trunk, including when no refspec names the target.
 *
 * @module
 */

import { parseBash, type Word } from "./words.ts";
import { type InnerCommand, programName, unwrapCommand, unwrapSegments } from "./wrappers.ts";

/** The shell tools the detector understands. */
export type ShellTool = "Bash" | "PowerShell";

/** Most command-name positions the fallback token scan examines before assuming the worst. */
const MAX_SCAN_WINDOWS = 4096;

/** Most tokens after a command name that the fallback token scan reads. */
const MAX_WINDOW_TOKENS = 256;

/** Branches that a lease-protected force push must still not overwrite. */
const PROTECTED_BRANCHES = new Set(["main", "master", "develop", "trunk"]);

/** Programs that read SQL from their arguments or stdin. */
const SQL_CLIENTS = new Set([
  "psql",
  "pgcli",
  "mysql",
  "mariadb",
  "mycli",
  "mysqlsh",
  "sqlite",
  "sqlite3",
  "litecli",
  "sqlcmd",
  "osql",
  "isql",
  "duckdb",
  "bq",
  "clickhouse",
  "clickhouse-client",
  "cockroach",
  "snowsql",
  "trino",
  "presto",
  "sqlplus",
  "usql",
  "cqlsh",
  "beeline",
  "spark-sql",
  "impala-shell",
  "vsql",
  "ysqlsh",
  "turso",
  "wrangler",
]);

/** Programs whose every run destroys data. */
const ALWAYS_DESTRUCTIVE = new Set(["shred", "wipefs", "dropdb", "mkfs"]);

// ---------------------------------------------------------------------------
// Option reading shared by the per-program rules.

/** The options and operands of an argument list, as a getopt-style program sees them. */
interface Options {
  /** Short option letters, from every cluster. */
  short: Set<string>;
  /** Long option names (without `--` and without an `=value`). */
  long: string[];
  /** Values given to long options with `=`, by name. */
  longValues: Map<string, string>;
  /** Operands, in order (including those after `--`). */
  operands: string[];
  /** Whether a bare `--` appeared. */
  dashDash: boolean;
}

/** Value-taking options of a program: short letters and long names. */
interface ValueOptions {
  readonly short?: string;
  readonly long?: readonly string[];
}

/**
 * Reads `args` into options and operands. Options may follow operands (GNU
 * permutation); `--` ends them. Values of value-taking options are skipped
 * so that a message like `-m "--amend"` is not read as an option.
 */
function readOptions(args: readonly string[], values: ValueOptions = {}): Options {
  const out: Options = {
    short: new Set(),
    long: [],
    longValues: new Map(),
    operands: [],
    dashDash: false,
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (out.dashDash || a === "-" || !a.startsWith("-")) {
      out.operands.push(a);
      continue;
    }
    if (a === "--") {
      out.dashDash = true;
      continue;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = a.slice(2, eq < 0 ? undefined : eq);
      out.long.push(name);
      if (eq >= 0) out.longValues.set(name, a.slice(eq + 1));
      else if (values.long?.some((v) => abbreviates(name, v))) i++;
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      out.short.add(a[k]);
      if (values.short?.includes(a[k])) {
        if (k + 1 === a.length) i++;
        break;
      }
    }
  }
  return out;
}

/**
 * Whether `given` spells long option `full`, abbreviations included (git and
 * GNU tools accept any unambiguous prefix; an ambiguous one fails, so
 * counting it costs nothing). One-letter prefixes are left out: they are
 * ambiguous for every option this module looks for.
 */
function abbreviates(given: string, full: string): boolean {
  return given === full || (given.length >= 2 && full.startsWith(given));
}

function hasLong(o: Options, full: string): boolean {
  return o.long.some((name) => abbreviates(name, full));
}

// ---------------------------------------------------------------------------
// Per-program rules.

/** `rm` with a recursive option. */
function rmDestructive(args: readonly string[]): boolean {
  const o = readOptions(args);
  return o.short.has("r") || o.short.has("R") ||
    o.long.some((name) => name.length >= 1 && "recursive".startsWith(name));
}

/** `dd` that reads or writes a named file or device. */
function ddDestructive(args: readonly string[]): boolean {
  return args.some((a) => a.startsWith("if=") || a.startsWith("of="));
}

/** Git's global options that take a value as the next word. */
const GIT_GLOBAL_VALUES = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
  "--exec-path",
]);

/** A git subcommand rule: value-taking options and the destructive test. */
interface GitRule {
  readonly values?: ValueOptions;
  readonly test: (o: Options, args: readonly string[]) => boolean;
}

/** The destination branch a push refspec names, without `+` and `refs/heads/`. */
function refspecTarget(refspec: string): string {
  let spec = refspec.startsWith("+") ? refspec.slice(1) : refspec;
  const colon = spec.lastIndexOf(":");
  if (colon >= 0) spec = spec.slice(colon + 1);
  return spec.startsWith("refs/heads/") ? spec.slice("refs/heads/".length) : spec;
}

function pushDestructive(o: Options): boolean {
  if (o.short.has("n") || hasLong(o, "dry-run")) return false;
  if (o.short.has("f") || o.short.has("d") || hasLong(o, "force")) return true;
  if (["delete", "mirror", "prune"].some((name) => hasLong(o, name))) return true;
  const refspecs = o.operands.slice(1);
  if (refspecs.some((r) => r.startsWith("+") || r.startsWith(":"))) return true;
  const lease = o.long.filter((name) => name.length > 6 && "force-with-lease".startsWith(name));
  if (lease.length === 0) return false;
  if (["all", "branches", "tags"].some((name) => hasLong(o, name))) return true;
  for (const name of lease) {
    const value = o.longValues.get(name);
    if (value !== undefined && value !== "") {
      const ref = value.split(":")[0];
      if (PROTECTED_BRANCHES.has(refspecTarget(ref))) return true;
    }
  }
  // Without a refspec the current branch is pushed, which may be protected.
  if (refspecs.length === 0) return true;
  return refspecs.some((r) => {
    const target = refspecTarget(r);
    return PROTECTED_BRANCHES.has(target) || target === "HEAD" || target === "";
  });
}

/** Rules by git subcommand. */
const GIT_RULES: Readonly<Record<string, GitRule>> = {
  reset: { test: (o) => hasLong(o, "hard") },
  checkout: {
    values: { short: "bB", long: ["orphan", "conflict"] },
    test: (o) =>
      o.short.has("f") || hasLong(o, "force") || o.dashDash || o.operands.includes(".") ||
      hasLong(o, "pathspec-from-file"),
  },
  clean: {
    values: { short: "e", long: ["exclude"] },
    test: (o) =>
      (o.short.has("f") || hasLong(o, "force")) && !o.short.has("n") && !hasLong(o, "dry-run"),
  },
  push: {
    values: { short: "o", long: ["push-option", "repo", "receive-pack", "exec"] },
    test: pushDestructive,
  },
  branch: {
    values: { long: ["set-upstream-to", "format", "sort", "points-at"] },
    test: (o) =>
      o.short.has("D") ||
      ((o.short.has("d") || hasLong(o, "delete")) && (o.short.has("f") || hasLong(o, "force"))),
  },
  stash: {
    values: { short: "m", long: ["message"] },
    test: (o) => ["drop", "clear"].includes(o.operands[0]),
  },
  reflog: { test: (o) => ["expire", "delete"].includes(o.operands[0]) },
  "update-ref": { values: { short: "m" }, test: (o) => o.short.has("d") || hasLong(o, "stdin") },
  switch: {
    values: { short: "c", long: ["create", "orphan", "conflict"] },
    test: (o) =>
      o.short.has("f") || o.short.has("C") ||
      ["force", "discard-changes", "force-create"].some((name) => hasLong(o, name)),
  },
  restore: {
    values: { short: "s", long: ["source"] },
    test: (o) =>
      !(o.short.has("S") || hasLong(o, "staged")) || o.short.has("W") || hasLong(o, "worktree"),
  },
  rm: {
    values: { long: ["pathspec-from-file"] },
    test: (o) => o.short.has("r") && !hasLong(o, "cached"),
  },
  commit: {
    values: {
      short: "mFcCt",
      long: [
        "message",
        "file",
        "reuse-message",
        "reedit-message",
        "fixup",
        "squash",
        "template",
        "author",
        "date",
        "cleanup",
        "trailer",
        "pathspec-from-file",
      ],
    },
    test: (o) => hasLong(o, "amend"),
  },
  "filter-branch": { test: () => true },
};

/** Most git aliases followed in a row (`-c alias.x=…`). */
const MAX_GIT_ALIASES = 8;

/** `git` with global options, `-c alias.*` definitions and a destructive subcommand. */
function gitDestructive(args: readonly string[], depth: number): boolean {
  const aliases = new Map<string, string>();
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    const a = args[i];
    if (GIT_GLOBAL_VALUES.has(a)) {
      if (a === "-c") recordAlias(args[i + 1] ?? "", aliases);
      i += 2;
      continue;
    }
    if (a.startsWith("-c")) recordAlias(a.slice(2), aliases);
    i++;
  }
  let sub = args[i];
  let rest = args.slice(i + 1);
  for (let n = 0; n < MAX_GIT_ALIASES && sub !== undefined && aliases.has(sub); n++) {
    const value = aliases.get(sub)!;
    if (value.startsWith("!")) {
      return bashDestructive(`${value.slice(1)} ${rest.join(" ")}`, depth + 1);
    }
    const words = value.split(/\s+/).filter((w) => w !== "");
    sub = words[0];
    rest = [...words.slice(1), ...rest];
  }
  if (sub === undefined || !Object.hasOwn(GIT_RULES, sub)) return false;
  const rule = GIT_RULES[sub];
  return rule.test(readOptions(rest, rule.values), rest);
}

function recordAlias(setting: string, aliases: Map<string, string>): void {
  const eq = setting.indexOf("=");
  if (eq < 0 || !setting.toLowerCase().startsWith("alias.")) return;
  aliases.set(setting.slice("alias.".length, eq), setting.slice(eq + 1));
}

// ---------------------------------------------------------------------------
// SQL.

/** Statement keywords that destroy data when they start a statement or follow `delete`. */
const SQL_WORD = /[A-Za-z_][A-Za-z0-9_$]*/y;

/**
 * The keyword tokens of SQL text, lower-cased, with string literals and
 * quoted identifiers removed. Punctuation is kept as one-character tokens
 * so statement starts and function calls can be told apart. Dollar-quoted
 * bodies are kept: they can hold statements that run.
 */
function sqlTokens(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"' || c === "`") {
      i++;
      while (i < text.length) {
        if (text[i] === "\\" && c === "'") i += 2;
        else if (text[i] === c && text[i + 1] === c) i += 2;
        else if (text[i] === c) break;
        else i++;
      }
      i++;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      SQL_WORD.lastIndex = i;
      const m = SQL_WORD.exec(text)!;
      tokens.push(m[0].toLowerCase());
      i += m[0].length;
      continue;
    }
    if (!/\s/.test(c)) tokens.push(c);
    i++;
  }
  return tokens;
}

/** Whether SQL text drops, deletes or truncates. */
export function sqlDestructive(text: string): boolean {
  const t = sqlTokens(text);
  for (let i = 0; i < t.length; i++) {
    const next = t[i + 1];
    const statementStart = i === 0 || t[i - 1] === ";" || t[i - 1] === "(";
    if (t[i] === "drop" && next !== undefined && /^[a-z_]/.test(next)) return true;
    if (t[i] === "delete" && (next === "from" || statementStart)) return true;
    if (t[i] === "truncate" && next !== "(") return true;
  }
  return false;
}

function sqlClientDestructive(args: readonly string[], stdin: readonly string[]): boolean {
  if (args.some(sqlDestructive) || sqlDestructive(args.join(" "))) return true;
  return stdin.some(sqlDestructive);
}

// ---------------------------------------------------------------------------
// Commands.

/** Whether one unwrapped command is destructive. */
function commandDestructive(cmd: InnerCommand, depth: number): boolean {
  const words = cmd.words;
  if (words.length === 0) return false;
  const name = programName(words[0]);
  const args = words.slice(1).map((w) => w.text);
  if (words[0].expands && substitutedDestructive(words, depth)) return true;
  return nameDestructive(name, args, cmd.stdin, depth);
}

function nameDestructive(
  name: string,
  args: readonly string[],
  stdin: readonly string[],
  depth: number,
): boolean {
  if (name === "rm") return rmDestructive(args);
  if (name === "git") return gitDestructive(args, depth);
  if (name === "dd") return ddDestructive(args);
  if (name === "bq" && args.includes("rm")) return true;
  if (SQL_CLIENTS.has(name)) return sqlClientDestructive(args, stdin);
  return ALWAYS_DESTRUCTIVE.has(name) || name.startsWith("mkfs.");
}

/**
 * A command word built by an expansion (`$(echo rm) -rf x`, `` `which rm` ``,
 * `${RM:-rm}`): its source text is read as words and scanned together with
 * the arguments, so a destructive form spelled inside it is found.
 */
function substitutedDestructive(words: readonly Word[], depth: number): boolean {
  const head = words[0].raw.split(/[^A-Za-z0-9_./+=-]+/).filter((t) => t !== "" && t !== "-");
  return scanTokens([...head, ...words.slice(1).map((w) => w.text)], depth);
}

// ---------------------------------------------------------------------------
// The fail-closed token scan.

/** Characters that end a token in the fallback scan (separators become their own tokens). */
const SCAN_SEPARATORS = new Set([";", "&", "|", "\n"]);
/** Characters dropped by the fallback scan, so quoting and substitution syntax cannot split a name. */
const SCAN_DROPPED = new Set(["'", '"', "`", "\\"]);
/** Characters that separate tokens without ending a command in the fallback scan. */
const SCAN_BLANKS = new Set([" ", "\t", "\r", "(", ")", "{", "}", "$", "<", ">"]);

/** Splits raw text into crude tokens in one pass. */
function scanSplit(text: string): string[] {
  const tokens: string[] = [];
  let cur = "";
  for (const c of text) {
    if (SCAN_DROPPED.has(c)) continue;
    if (SCAN_BLANKS.has(c) || SCAN_SEPARATORS.has(c)) {
      if (cur !== "") tokens.push(cur);
      cur = "";
      if (SCAN_SEPARATORS.has(c)) tokens.push(";");
      continue;
    }
    cur += c;
  }
  if (cur !== "") tokens.push(cur);
  return tokens;
}

/** Names that start a window in the token scan. */
function scanWorthy(name: string): boolean {
  return name === "rm" || name === "git" || name === "dd" || SQL_CLIENTS.has(name) ||
    ALWAYS_DESTRUCTIVE.has(name) || name.startsWith("mkfs.") || isPowerShellRemover(name);
}

/**
 * Looks at every token that names a checked program, with the tokens after
 * it up to a separator as its arguments, whatever quoting or nesting the
 * text had. Too many such positions count as destructive.
 */
function scanTokens(tokens: readonly string[], depth: number): boolean {
  let windows = 0;
  let sqlVerdict: boolean | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const name = programName(plainWord(tokens[i]));
    if (!scanWorthy(name)) continue;
    if (++windows > MAX_SCAN_WINDOWS) return true;
    const args: string[] = [];
    for (let j = i + 1; j < tokens.length && args.length < MAX_WINDOW_TOKENS; j++) {
      if (tokens[j] === ";") break;
      args.push(tokens[j]);
    }
    if (isPowerShellRemover(name) && powerShellRemoveDestructive(args)) return true;
    if (SQL_CLIENTS.has(name)) {
      sqlVerdict ??= sqlDestructive(tokens.join(" "));
      if (sqlVerdict) return true;
      continue;
    }
    if (nameDestructive(name, args, [], depth)) return true;
  }
  return false;
}

function plainWord(text: string): Word {
  return { text, raw: text, quoted: false, globs: false, expands: false, braces: null };
}

/** The fail-closed reading of raw text: destructive when any destructive form appears in it. */
function rawDestructive(text: string, depth: number): boolean {
  return scanTokens(scanSplit(text), depth);
}

// ---------------------------------------------------------------------------
// Bash.

/** Whether a Bash command line is destructive. */
function bashDestructive(command: string, depth: number): boolean {
  if (depth > 8) return rawDestructive(command, depth);
  const parsed = parseBash(command);
  const unwrapped = unwrapSegments(parsed.segments, depth);
  if (unwrapped.commands.some((c) => commandDestructive(c, depth))) return true;
  if (unwrapped.opaque.some((text) => rawDestructive(text, depth))) return true;
  return !parsed.ok && rawDestructive(command, depth);
}

// ---------------------------------------------------------------------------
// PowerShell.

/** Parameters of `Remove-Item`, lower case, for prefix binding. */
const REMOVE_ITEM_PARAMETERS = [
  "path",
  "literalpath",
  "filter",
  "include",
  "exclude",
  "recurse",
  "force",
  "credential",
  "whatif",
  "confirm",
  "stream",
];

/** PowerShell names of `Remove-Item`. */
const POWERSHELL_REMOVERS = new Set(["remove-item", "rm", "ri", "del", "erase", "rd", "rmdir"]);

function isPowerShellRemover(name: string): boolean {
  return POWERSHELL_REMOVERS.has(name);
}

/**
 * `Remove-Item` with `-Recurse` (any unambiguous prefix, `-r` included, and
 * `-Recurse:$true`), or with a Bash-style cluster such as `-rf`.
 */
function powerShellRemoveDestructive(args: readonly string[]): boolean {
  let recursive = false;
  for (const a of args) {
    if (!a.startsWith("-") || a.startsWith("--")) continue;
    const [name, value] = a.slice(1).toLowerCase().split(":", 2);
    if (name === "") continue;
    const on = value === undefined || value !== "$false";
    if ("whatif".startsWith(name)) {
      if (on) return false;
      continue;
    }
    if ("recurse".startsWith(name)) recursive ||= on;
    else if (/^[rfvid]+$/.test(name) && name.includes("r")) {
      // A Bash-style cluster such as `-rf`; PowerShell rejects it, but it shows the intent.
      recursive ||= !REMOVE_ITEM_PARAMETERS.some((p) => p.startsWith(name));
    }
  }
  return recursive;
}

/** Splits a PowerShell command into simple commands of words (quotes and backticks removed). */
function powerShellCommands(command: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let cur = "";
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(cur);
    cur = "";
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === "`") {
      cur += command[i + 1] ?? "";
      inWord = true;
      i++;
    } else if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      cur += command.slice(i + 1, end < 0 ? undefined : end);
      inWord = true;
      i = end < 0 ? command.length : end;
    } else if (
      c === ";" || c === "|" || c === "\n" || c === "&" || c === "{" || c === "}" || c === "(" ||
      c === ")"
    ) {
      endCommand();
    } else if (c === " " || c === "\t" || c === "\r") endWord();
    else {
      cur += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

/** Whether a PowerShell command line is destructive. */
function powerShellDestructive(command: string): boolean {
  for (const words of powerShellCommands(command)) {
    const name = programName(plainWord(words[0]));
    const args = words.slice(1);
    if (isPowerShellRemover(name) && powerShellRemoveDestructive(args)) return true;
    const inner = unwrapCommand(words.map(plainWord), 0);
    if (inner.commands.some((c) => commandDestructive(c, 0))) return true;
    if (inner.opaque.some((text) => rawDestructive(text, 0))) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// The API.

/**
 * Whether `command` run by `tool` is destructive: a built-in form, or a
 * match of one of the `extra` patterns against the raw text. Never throws;
 * an internal error counts as destructive.
 */
export function isDestructive(tool: ShellTool, command: string, extra: readonly RegExp[]): boolean {
  try {
    if (typeof command !== "string") return false;
    if (extra.some((re) => re.test(command))) return true;
    return tool === "PowerShell" ? powerShellDestructive(command) : bashDestructive(command, 0);
  } catch {
    return true;
  }
}

/** The variable that holds the extra destructive patterns. */
const EXTRA_VARIABLE = "GATEGUARD_BASH_EXTRA_DESTRUCTIVE";

/**
 * Compiles the operator's extra destructive pattern: the whole value is one
 * regular expression source (use `|` for alternatives). Unset or blank gives
 * none; a source that does not compile gives none and one warning line.
 */
export function compileExtraPatterns(
  raw: string | undefined,
): { patterns: RegExp[]; warning: string | null } {
  if (raw === undefined || raw.trim() === "") return { patterns: [], warning: null };
  try {
    return { patterns: [new RegExp(raw)], warning: null };
  } catch {
    return {
      patterns: [],
      warning:
        `ignoring malformed ${EXTRA_VARIABLE} (not a valid regular expression); only the built-in destructive patterns apply.`,
    };
  }
}
