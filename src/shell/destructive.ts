/**
 * The destructive-command detector behind the destructive shell gate.
 *
 * A well-formed command is read through the shared lexers: every simple
 * command, including those in substitutions, groups, compound commands and
 * scripts handed to other shells, is unwrapped and checked against
 * per-program rules, so quoted data such as a commit message or an `echo`
 * argument is never mistaken for a command. Text fed to a program's stdin
 * (a pipe, a here-document, a here-string) is checked when the program
 * consumes it as code: SQL for SQL clients, a script for shells.
 *
 * When a lexer cannot vouch for the whole command (too long, unbalanced,
 * nested too deep), or a wrapper chain is too deep to follow, the segments
 * that were read are still checked and a crude token scan of the raw text
 * looks for the same forms anywhere, quotes ignored. An unparseable command
 * is therefore destructive whenever a destructive form appears in it.
 *
 * Decisions:
 * - `rm` with any recursive option is destructive, forced or not: with no
 *   terminal on stdin a recursive delete does not prompt, and PowerShell's
 *   `Remove-Item -Recurse` (its equivalent) is treated the same way.
 *   `rm -f file` and `rm file` are not.
 * - `find -delete` is not in the destructive set; `find -exec rm -rf` is,
 *   through its `-exec` command.
 * - `git push --force-with-lease` is destructive when it may overwrite
 *   main/master/develop/trunk, including when no refspec names a branch.
 * - `git rm -r --cached` only untracks files and is not destructive.
 * - Dry runs (`git clean -n`, `git push -n`, `Remove-Item -WhatIf`) are not.
 * - `Remove-Item` fed by a recursive `Get-ChildItem` (directly or through a
 *   `ForEach-Object` script block) removes a tree and counts as recursive.
 * - A command word known only at run time is read from its source text
 *   (`$(echo rm) -rf x`), variables assigned in the same command line are
 *   substituted (`x=rm; $x -rf /`, arrays, `set --`, `read`, a custom
 *   `IFS`), and a glob command word is tried as every checked program it
 *   could match (`/???/r? -rf x`). A program named by a substitution whose
 *   text gives nothing away (`$(printf '\x72\x6d') -rf x`) counts when its
 *   arguments only make sense as a forced recursive `rm` or a destructive
 *   git subcommand; a plain unknown variable (`$GREP -r x`) does not.
 * - `git branch -f/-M/-C` overwrite or reset a branch like `-D` deletes one;
 *   `git clean` without `-f` counts once `clean.requireForce` is set off.
 * - Files a program cannot be seen reading (`psql < dump.sql`) are unknown
 *   and pass; text it visibly reads (`psql -f <(echo …)`, a pipe, a
 *   here-document) is checked.
 * - The extra pattern is matched case-sensitively, as written, against the
 *   raw command; it is operator configuration, so its cost is theirs.
 *
 * @module
 */

import { MAX_LEX_CHARS, type Segment } from "./words.ts";
import { argv, parseBash } from "./parser.ts";
import { compileGlob, GLOB_MAX_PATTERN, matchGlob } from "../glob/glob.ts";
import { type Dialect, MAX_WRAPPER_DEPTH, unwrapCommand, type Unwrapped } from "./wrappers.ts";
import { gitGlobalOption } from "./tools/git.ts";
import { hasLong, hasShort, programName, scanArgs, type ScannedArgs } from "./options.ts";
import { bindParameter, parsePowerShell, type PsSegment, splitColonArg } from "./powershell.ts";

/** Most command-name positions the fallback token scan examines before assuming the worst. */
const MAX_SCAN_WINDOWS = 4096;

/** Most tokens after a command name that the fallback token scan reads as its arguments. */
const MAX_WINDOW_TOKENS = 256;

/** Most values remembered per shell variable assigned in a command line. */
const MAX_VALUES_PER_VARIABLE = 8;

/**
 * Most scripts (and glob candidates) one call analyses in full; past it
 * the rest is read with the linear raw token scan, so fan-out through
 * nested wrappers cannot multiply the work.
 */
const MAX_ANALYSES = 1024;

/**
 * Most characters of scripts one call parses in full, the command itself
 * included. Wrappers that hand back nearly all of their text as a script
 * (`docker watch watch … <long tail>`) would otherwise re-parse a long
 * command at every start position and depth, and a hook that outlives its
 * timeout lets the command through.
 */
const MAX_ANALYSED_CHARS = 4 * MAX_LEX_CHARS;

/** Where the analysis is: how deep in wrappers and scripts, and the call's shared budget. */
interface Walk {
  readonly depth: number;
  readonly budget: { left: number; chars: number };
}

/** Takes one analysis of `size` characters from the budget; false once it is spent. */
function afford(walk: Walk, size: number): boolean {
  walk.budget.left--;
  walk.budget.chars -= size;
  return walk.budget.left >= 0 && walk.budget.chars >= 0;
}

/** One level deeper, same budget. */
function deeper(walk: Walk): Walk {
  return { depth: walk.depth + 1, budget: walk.budget };
}

/** Most git aliases (`-c alias.x=…`) followed in a row. */
const MAX_GIT_ALIASES = 8;

/** Branches a lease-protected force push must still not overwrite. */
const PROTECTED_BRANCHES = new Set(["main", "master", "develop", "trunk"]);

/** Programs that run SQL given in their arguments or on stdin. */
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
  "invoke-sqlcmd",
]);

/** Programs whose every run destroys data. */
const ALWAYS_DESTRUCTIVE_PROGRAMS = ["shred", "wipefs", "mkfs", "dropdb"];

/** PowerShell commands whose every run destroys data. */
const ALWAYS_DESTRUCTIVE_CMDLETS = ["format-volume", "clear-disk", "remove-partition"];

/** Every program or command whose every run destroys data. */
const ALWAYS_DESTRUCTIVE = new Set([...ALWAYS_DESTRUCTIVE_PROGRAMS, ...ALWAYS_DESTRUCTIVE_CMDLETS]);

/** Redis commands that empty a database. */
const REDIS_FLUSH = new Set(["flushall", "flushdb"]);

/** MongoDB shell calls that drop collections or databases or delete documents. */
const MONGO_DESTRUCTIVE = /\.(drop|dropDatabase|deleteMany|remove)\s*\(/;

/** Paths through which `source` reads its script from stdin. */
const STDIN_PATHS = new Set(["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-"]);

/** Programs that run a script file named by an operand, which may be a `<( … )`. */
const SCRIPT_READERS = new Set(["source", ".", "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"]);

/**
 * Programs a command word with glob characters is tried as: the checked
 * programs and the wrappers that can run them (`/???/r?` may be `/bin/rm`).
 */
const GLOB_CANDIDATES = [
  "rm",
  "git",
  "dd",
  "bq",
  "redis-cli",
  "mongo",
  "mongosh",
  ...ALWAYS_DESTRUCTIVE_PROGRAMS,
  ...SQL_CLIENTS,
  ...SCRIPT_READERS,
  "eval",
  "sudo",
  "doas",
  "env",
  "xargs",
  "find",
  "timeout",
  "nice",
  "nohup",
  "command",
  "exec",
  "ssh",
  "su",
  "setsid",
  "stdbuf",
  "time",
  "busybox",
];

/** Names under which PowerShell (and cmd) remove items. */
const REMOVERS = new Set(["remove-item", "rm", "ri", "del", "erase", "rd", "rmdir"]);

/** Parameters of `Remove-Item`, with the common parameters, for prefix binding. */
const REMOVE_ITEM_PARAMETERS = [
  "Path",
  "LiteralPath",
  "Filter",
  "Include",
  "Exclude",
  "Recurse",
  "Force",
  "Credential",
  "WhatIf",
  "Confirm",
  "Stream",
  "Verbose",
  "Debug",
  "ErrorAction",
  "WarningAction",
  "InformationAction",
  "ProgressAction",
  "ErrorVariable",
  "WarningVariable",
  "InformationVariable",
  "OutVariable",
  "OutBuffer",
  "PipelineVariable",
];

/** Aliases of those parameters. */
const REMOVE_ITEM_ALIASES: Readonly<Record<string, string>> = {
  PSPath: "LiteralPath",
  LP: "LiteralPath",
  wi: "WhatIf",
  cf: "Confirm",
  vb: "Verbose",
  db: "Debug",
  ea: "ErrorAction",
  wa: "WarningAction",
};

/** Parameters of `Get-ChildItem` that matter when it feeds `Remove-Item`. */
const GET_CHILD_ITEM_PARAMETERS = [
  "Recurse",
  "Depth",
  "Directory",
  "Path",
  "LiteralPath",
  "Filter",
];

/** Names of `Get-ChildItem`. */
const CHILD_ITEM_LISTERS = new Set(["get-childitem", "gci", "ls", "dir"]);

/** Values that turn a PowerShell switch off when attached with a colon. */
const SWITCH_OFF = new Set(["$false", "0", "false"]);

// ---------------------------------------------------------------------------
// Per-program rules on argument vectors.

/** `rm` with a recursive option (GNU `--recursive` may be abbreviated to `--r`). */
function rmDestructive(args: readonly string[]): boolean {
  const scan = scanArgs(args);
  return hasShort(scan, "rR") || hasLong(scan, "recursive");
}

/** `rm` with a recursive and a force option: the shape of `rm -rf` whatever the program is called. */
function rmForcedDestructive(args: readonly string[]): boolean {
  const scan = scanArgs(args);
  return rmDestructive(args) && (hasShort(scan, "f") || hasLong(scan, "force"));
}

/** `dd` reading or writing a named file or device. */
function ddDestructive(args: readonly string[]): boolean {
  return args.some((a) => a.startsWith("if=") || a.startsWith("of="));
}

/** The branch a push refspec writes, without `+` and `refs/heads/`. */
function refspecTarget(refspec: string): string {
  let spec = refspec.startsWith("+") ? refspec.slice(1) : refspec;
  const colon = spec.lastIndexOf(":");
  if (colon >= 0) spec = spec.slice(colon + 1);
  return spec.startsWith("refs/heads/") ? spec.slice("refs/heads/".length) : spec;
}

/** Whether a lease-protected push may overwrite a protected branch. */
function leaseReachesProtected(
  s: ScannedArgs,
  leases: readonly { value: string | null }[],
): boolean {
  if (hasLong(s, "all", "branches", "mirror")) return true;
  for (const lease of leases) {
    if (lease.value && PROTECTED_BRANCHES.has(refspecTarget(lease.value.split(":")[0]))) {
      return true;
    }
  }
  const refspecs = s.operands.slice(1);
  // Without a refspec the current branch is pushed, and it may be a protected one.
  if (refspecs.length === 0) return true;
  return refspecs.some((r) => {
    const target = refspecTarget(r);
    return target === "" || target === "HEAD" || PROTECTED_BRANCHES.has(target);
  });
}

function pushDestructive(s: ScannedArgs): boolean {
  if (hasShort(s, "n") || hasLong(s, "dry-run")) return false;
  if (hasShort(s, "fd")) return true;
  const leases = s.longs.filter((l) => l.name.length > 6 && "force-with-lease".startsWith(l.name));
  const forced = s.longs.some((l) => l.name.length >= 2 && "force".startsWith(l.name));
  if (forced || hasLong(s, "delete", "mirror", "prune")) return true;
  if (s.operands.slice(1).some((r) => r.startsWith("+") || r.startsWith(":"))) return true;
  return leases.length > 0 && leaseReachesProtected(s, leases);
}

/** A git subcommand rule: how its options are shaped and when it destroys work. */
interface GitRule {
  readonly shortValue?: string;
  readonly longValue?: readonly string[];
  readonly test: (s: ScannedArgs) => boolean;
}

/** Long options of `git commit` that take a value (so a message is never read as an option). */
const COMMIT_VALUES = [
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
];

/** Destructive forms by git subcommand. */
const GIT_RULES: Readonly<Record<string, GitRule>> = {
  reset: { test: (s) => hasLong(s, "hard") },
  checkout: {
    shortValue: "bB",
    longValue: ["orphan", "conflict"],
    test: (s) =>
      hasShort(s, "f") || hasLong(s, "force", "pathspec-from-file") || s.dashDash ||
      s.operands.includes("."),
  },
  clean: {
    shortValue: "e",
    longValue: ["exclude"],
    test: (s) =>
      (hasShort(s, "f") || hasLong(s, "force")) && !hasShort(s, "n") && !hasLong(s, "dry-run"),
  },
  push: {
    shortValue: "o",
    longValue: ["push-option", "repo", "receive-pack", "exec"],
    test: pushDestructive,
  },
  // `-f` resets or force-deletes a branch, `-M`/`-C` overwrite an existing one.
  branch: {
    shortValue: "u",
    longValue: ["set-upstream-to", "format", "sort", "points-at"],
    test: (s) => hasShort(s, "DMCf") || hasLong(s, "force"),
  },
  stash: {
    shortValue: "m",
    longValue: ["message"],
    test: (s) => s.operands[0] === "drop" || s.operands[0] === "clear",
  },
  reflog: { test: (s) => s.operands[0] === "expire" || s.operands[0] === "delete" },
  "update-ref": { shortValue: "m", test: (s) => hasShort(s, "d") || hasLong(s, "stdin") },
  switch: {
    shortValue: "c",
    longValue: ["create", "orphan", "conflict"],
    test: (s) => hasShort(s, "fC") || hasLong(s, "force", "discard-changes", "force-create"),
  },
  restore: {
    shortValue: "s",
    longValue: ["source"],
    test: (s) =>
      !(hasShort(s, "S") || hasLong(s, "staged")) || hasShort(s, "W") || hasLong(s, "worktree"),
  },
  rm: {
    longValue: ["pathspec-from-file"],
    test: (s) => hasShort(s, "r") && !hasShort(s, "n") && !hasLong(s, "cached", "dry-run"),
  },
  commit: {
    shortValue: "mFcCt",
    longValue: COMMIT_VALUES,
    test: (s) => s.longs.some((l) => l.name.length >= 2 && "amend".startsWith(l.name)),
  },
  "filter-branch": { test: () => true },
  "filter-repo": { test: () => true },
};

/** Records `alias.NAME=VALUE` from a `-c` setting, and whether it switches `clean.requireForce` off. */
function recordSetting(setting: string, aliases: Map<string, string>): boolean {
  const eq = setting.indexOf("=");
  if (eq < 0) return false;
  const key = setting.slice(0, eq).toLowerCase();
  if (key.startsWith("alias.")) {
    aliases.set(setting.slice("alias.".length, eq), setting.slice(eq + 1));
  }
  return key === "clean.requireforce" && GIT_FALSE.has(setting.slice(eq + 1).toLowerCase());
}

/** Spellings git reads as false. */
const GIT_FALSE = new Set(["false", "no", "off", "0", ""]);

/** `git` with global options and `-c alias.*` definitions, then a destructive subcommand. */
function gitDestructive(args: readonly string[], walk: Walk): boolean {
  const aliases = new Map<string, string>();
  let cleanUnforced = false;
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    const a = args[i];
    if (gitGlobalOption(a)?.value) {
      if (a === "-c") cleanUnforced ||= recordSetting(args[i + 1] ?? "", aliases);
      i += 2;
      continue;
    }
    if (a.startsWith("-c")) cleanUnforced ||= recordSetting(a.slice(2), aliases);
    i++;
  }
  let sub = args[i];
  let rest = args.slice(i + 1);
  for (let n = 0; n < MAX_GIT_ALIASES && sub !== undefined && aliases.has(sub); n++) {
    const value = aliases.get(sub)!;
    if (value.startsWith("!")) {
      return codeDestructive("bash", `${value.slice(1)} ${rest.join(" ")}`, deeper(walk), []);
    }
    const words = value.split(/\s+/).filter((w) => w !== "");
    sub = words[0];
    rest = [...words.slice(1), ...rest];
  }
  if (sub === undefined || !Object.hasOwn(GIT_RULES, sub)) return false;
  const rule = GIT_RULES[sub];
  const scan = scanArgs(rest, { shortValue: rule.shortValue, longValue: rule.longValue });
  // With `clean.requireForce` off, `git clean` deletes without `-f`.
  if (sub === "clean" && cleanUnforced) return !hasShort(scan, "n") && !hasLong(scan, "dry-run");
  return rule.test(scan);
}

// ---------------------------------------------------------------------------
// SQL.

const SQL_WORD = /[A-Za-z_][A-Za-z0-9_$]*/y;

/**
 * The tokens of SQL text, keywords lower-cased, with each string literal and
 * quoted identifier reduced to the placeholder `_` (its content is data) and
 * punctuation kept as one-character tokens (so statement starts and
 * function calls can be told apart). Dollar-quoted bodies are kept: they
 * can hold statements that run.
 */
function sqlTokens(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    // MySQL runs the body of `/*! … */`; other comments are blanks, so they
    // cannot split `DROP/* x */TABLE` into harmless tokens.
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const close = end < 0 ? text.length : end;
      if (text[i + 2] === "!") {
        tokens.push(...sqlTokens(text.slice(i + 3, close).replace(/^[0-9]*/, "")));
      }
      i = close + 2;
      continue;
    }
    if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (c === "'" || c === '"' || c === "`") {
      i++;
      while (i < text.length) {
        if (c === "'" && text[i] === "\\") i += 2;
        else if (text[i] === c && text[i + 1] === c) i += 2;
        else if (text[i] === c) break;
        else i++;
      }
      i++;
      tokens.push("_");
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      SQL_WORD.lastIndex = i;
      const word = SQL_WORD.exec(text)![0];
      tokens.push(word.toLowerCase());
      i += word.length;
      continue;
    }
    if (!/\s/.test(c)) tokens.push(c);
    i++;
  }
  return tokens;
}

/**
 * Whether SQL text drops something, deletes rows or truncates a table.
 * String literals are data and do not count.
 */
export function sqlDestructive(text: string): boolean {
  const t = sqlTokens(text);
  for (let i = 0; i < t.length; i++) {
    const next = t[i + 1];
    const statementStart = i === 0 || t[i - 1] === ";" || t[i - 1] === "(";
    const named = next !== undefined && /^[a-z_]/.test(next);
    if (t[i] === "drop" && named) return true;
    if (t[i] === "delete" && (next === "from" || (statementStart && named))) return true;
    // `truncate(x, 1)` is a function; `TRUNCATE t` and `TRUNCATE TABLE t` empty a table.
    if (t[i] === "truncate" && (next === "table" || (statementStart && named))) return true;
  }
  return false;
}

function sqlClientDestructive(args: readonly string[], stdin: readonly string[]): boolean {
  // A value attached to a short option (`-cDROP TABLE x`) is read without the option.
  const attached = args.filter((a) => /^-[A-Za-z]./.test(a)).map((a) => a.slice(2));
  // So is the value of a long option (`--command=DROP TABLE x`): read whole,
  // its leading `--` would start an SQL comment.
  const long = args.filter((a) => /^--[A-Za-z-]+=/.test(a)).map((a) => a.slice(a.indexOf("=") + 1));
  const options = args.filter((a) => !a.startsWith("--"));
  return [...args, ...attached, ...long, options.join(" "), ...stdin].some(sqlDestructive);
}

// ---------------------------------------------------------------------------
// One command.

/**
 * Programs that run a command given somewhere among their arguments, after
 * options whose value-taking rules differ per tool and version (containers,
 * clusters, job runners). Rather than model each option table, every word
 * that could start the inner command is tried: a false start is only a
 * harmless word list, while a missed start would let the command through.
 */
const COMMAND_RUNNERS = new Set([
  "docker",
  "podman",
  "nerdctl",
  "kubectl",
  "oc",
  "coproc",
  "parallel",
  "script",
  "runuser",
  "chroot",
  "unshare",
  "nsenter",
  "setsid",
  "firejail",
  "flatpak-spawn",
  "systemd-run",
  "watch",
]);

/** Commands that never run their arguments: the runner scan stops after one. */
const PLAIN_COMMANDS = new Set(["echo", "printf", "true", "false", ":", "cat", "ls", "test", "["]);

/** Most start positions tried inside one runner's arguments. */
const MAX_RUNNER_STARTS = 64;

function runnerDestructive(args: readonly string[], stdin: readonly string[], walk: Walk): boolean {
  const limit = Math.min(args.length, MAX_RUNNER_STARTS);
  for (let i = 0; i < limit; i++) {
    if (args[i].startsWith("-") || args[i] === ":::") continue;
    // Words after a plain command are its arguments, not another command.
    if (i > 0 && PLAIN_COMMANDS.has(programName(args[i - 1]))) break;
    const rest = args.slice(i);
    const raw = rest.join(" ");
    // Each start reads the rest of the line again: it costs its length.
    if (!afford(walk, raw.length)) return rawDestructive(args.join(" "), walk);
    // A quoted script argument (`script -c 'rm -rf x'`, `watch 'rm -rf x'`) is code too.
    if (/\s/.test(args[i]) && codeDestructive("bash", args[i], deeper(walk), stdin)) return true;
    const u = unwrapCommand(rest, walk.depth + 1);
    if (unwrappedDestructive(u, stdin, deeper(walk), raw)) return true;
  }
  return false;
}

/** Whether the program `name` run with `args` (and `stdin` fed to it) is destructive. */
function programDestructive(
  name: string,
  args: readonly string[],
  stdin: readonly string[],
  walk: Walk,
): boolean {
  if (COMMAND_RUNNERS.has(name) && walk.depth < MAX_WRAPPER_DEPTH) {
    if (runnerDestructive(args, stdin, walk)) return true;
  }
  if (name === "rm") return rmDestructive(args);
  if (name === "git") return gitDestructive(args, walk);
  if (name === "dd") return ddDestructive(args);
  if (name === "bq" && args.includes("rm")) return true;
  if (SQL_CLIENTS.has(name)) return sqlClientDestructive(args, stdin);
  if (name === "redis-cli") return args.some((a) => REDIS_FLUSH.has(a.toLowerCase()));
  if (name === "mongo" || name === "mongosh") {
    return [...args, ...stdin].some((t) => MONGO_DESTRUCTIVE.test(t));
  }
  if (name === "alias") {
    // A destructive alias is a destructive command waiting for its name.
    return args.some((a) =>
      a.includes("=") && codeDestructive("bash", a.slice(a.indexOf("=") + 1), deeper(walk), [])
    );
  }
  if ((name === "source" || name === ".") && STDIN_PATHS.has(args[0] ?? "")) {
    return stdin.some((text) => codeDestructive("bash", text, deeper(walk), []));
  }
  return ALWAYS_DESTRUCTIVE.has(name) || name.startsWith("mkfs.");
}

/** A word made of two to eight variable references (`$a$b`). */
const JOINED_VARIABLES = /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?){2,8}$/;
const VARIABLE_REF = /\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g;

/**
 * A word that is one variable, array element, whole array or the
 * positional parameters: `$x`, `${x}`, `${a[0]}`, `${a[@]}`, `$@`, `${*}`.
 */
const LONE_VARIABLE =
  /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[@*])(?:\[[^\]]*\])?\}|([A-Za-z_][A-Za-z0-9_]*|[@*]))$/;

/** Splits a variable's value into the words it expands to: at blanks and at `IFS` characters. */
function fields(value: string, ifs: string): string[] {
  let text = value;
  for (const c of ifs) text = text.split(c).join(" ");
  return text.split(/\s+/).filter((v) => v !== "");
}

/** `$IFS` in any spelling: it expands to blanks, so it splits the word around it. */
const IFS_EXPANSION = /\$\{IFS[^}]*\}|\$IFS(?![A-Za-z0-9_])/g;

/**
 * Replaces words that are a lone variable assigned earlier in the same
 * command line by every value it was given (`x=rm; $x -rf /`), and splits
 * words at `$IFS` (`rm$IFS-rf$IFS/`).
 */
function resolveVariables(words: readonly string[], vars: ReadonlyMap<string, string[]>): string[] {
  // A custom `IFS` splits values at its characters too (`IFS=,; x=rm,-rf,y; $x`).
  const ifs = (vars.get("IFS") ?? []).join("");
  return words.flatMap((w) => {
    const m = LONE_VARIABLE.exec(w);
    const values = m ? vars.get(m[1] ?? m[2]) : undefined;
    if (values) return fields(values.join(" "), ifs);
    // A word made only of known variables (`$a$b`) is their values joined.
    if (JOINED_VARIABLES.test(w)) {
      const parts = [...w.matchAll(VARIABLE_REF)].map((r) => vars.get(r[1])?.at(-1));
      if (parts.every((v) => v !== undefined)) {
        return parts.join("").split(/\s+/).filter((v) => v !== "");
      }
    }
    if (!w.includes("IFS")) return [w];
    return w.replace(IFS_EXPANSION, " ").split(" ").filter((v) => v !== "");
  });
}

/**
 * A command whose command word is only known at run time (`$(echo rm) -rf x`,
 * `` `which rm` -rf x ``, `${RM:-rm} -rf x`): the source of that word is cut
 * into tokens and scanned together with the arguments, so a destructive
 * form spelled inside it is found.
 */
function dynamicDestructive(words: readonly string[], walk: Walk): boolean {
  const cut = (text: string): string[] =>
    text.split(/[^A-Za-z0-9_./+=-]+/).filter((t) => t !== "" && t !== "-");
  const rest = words.slice(1);
  // Also read the word with its simple expansions removed: `r$@m` runs `rm`.
  if (
    tokensDestructive([...cut(words[0]), ...rest], walk) ||
    tokensDestructive([...cut(words[0].replace(SIMPLE_EXPANSION, "")), ...rest], walk)
  ) return true;
  // A program named by a command's output (`$(printf '\x72\x6d') -rf x`) could be any:
  // arguments that only make sense as a forced recursive `rm` or a destructive
  // git subcommand count.
  return /\$\(|`/.test(words[0]) && (rmForcedDestructive(rest) || gitDestructive(rest, walk));
}

/** Candidates matched by recent glob command words: a small memo of a pure function. */
const GLOB_MEMO = new Map<string, readonly string[]>();
const GLOB_MEMO_SIZE = 64;

/**
 * The candidate programs a glob command word may name. A malformed pattern
 * such as `[` is literal to bash and names none; one too long to judge may
 * name any.
 */
function globCandidates(word: string): readonly string[] {
  const base = word.slice(Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\")) + 1);
  const known = GLOB_MEMO.get(base);
  if (known !== undefined) return known;
  const glob = compileGlob(base, { braces: false, foldCase: true });
  const names = glob === null
    ? (base.length > GLOB_MAX_PATTERN ? GLOB_CANDIDATES : [])
    : GLOB_CANDIDATES.filter((n) => matchGlob(glob, n) !== "no-match");
  if (GLOB_MEMO.size >= GLOB_MEMO_SIZE) GLOB_MEMO.clear();
  GLOB_MEMO.set(base, names);
  return names;
}

/** Parameter expansions that may expand to nothing. */
const SIMPLE_EXPANSION = /\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$[@*#?$!0-9-]/g;

/**
 * A command word with glob characters may expand to any program it
 * matches: the command is checked once per checked program or wrapper name
 * the pattern's last path component can match.
 */
function globDestructive(
  words: readonly string[],
  stdin: readonly string[],
  walk: Walk,
): boolean {
  const raw = words.join(" ");
  for (const name of globCandidates(words[0])) {
    if (!afford(walk, raw.length)) return rawDestructive(raw, walk);
    const u = unwrapCommand([name, ...words.slice(1)], walk.depth + 1);
    if (unwrappedDestructive(u, stdin, deeper(walk), raw)) return true;
  }
  return false;
}

/** Checks what `unwrapCommand` found: commands, scripts, a shell reading stdin, opacity. */
function unwrappedDestructive(
  u: Unwrapped,
  stdin: readonly string[],
  walk: Walk,
  raw: string,
): boolean {
  for (const c of u.commands) {
    if (c.words.length === 0) continue;
    const fromStdin = c.stdinAsArgs
      ? stdin.flatMap((t) => t.split(/\s+/)).filter((t) => t !== "")
      : [];
    const args = [...c.words.slice(1), ...fromStdin];
    if (/[$`]/.test(c.words[0]) && dynamicDestructive([c.words[0], ...args], walk)) return true;
    if (/[*?[]/.test(c.words[0]) && walk.depth < MAX_WRAPPER_DEPTH) {
      if (globDestructive([c.words[0], ...args], stdin, walk)) return true;
    }
    if (programDestructive(programName(c.words[0]), args, stdin, walk)) return true;
  }
  for (const s of u.scripts) {
    if (codeDestructive(s.dialect, s.text, { depth: s.depth, budget: walk.budget }, stdin)) {
      return true;
    }
  }
  if (u.stdinShell !== null) {
    for (const text of stdin) {
      if (codeDestructive(u.stdinShell, text, deeper(walk), [])) return true;
    }
  }
  return u.opaque && rawDestructive(raw, walk);
}

// ---------------------------------------------------------------------------
// The fail-closed token scan.

/** Characters that end a command in the fallback scan. */
const SCAN_SEPARATORS = new Set([";", "&", "|", "\n"]);
/** Characters the fallback scan drops, so quoting cannot split a name (`r''m`, `\rm`). */
const SCAN_DROPPED = new Set(["'", '"', "`", "\\", "^"]);
/** Characters that only separate tokens in the fallback scan. */
const SCAN_BLANKS = new Set([" ", "\t", "\r", "(", ")", "{", "}", "$", "<", ">", ","]);

/** Splits raw text into crude tokens in one pass; separators become `;` tokens. */
function scanSplit(text: string): string[] {
  const tokens: string[] = [];
  let cur = "";
  for (const c of text) {
    if (SCAN_DROPPED.has(c)) continue;
    const sep = SCAN_SEPARATORS.has(c);
    if (sep || SCAN_BLANKS.has(c)) {
      if (cur !== "") tokens.push(cur);
      cur = "";
      if (sep) tokens.push(";");
      continue;
    }
    cur += c;
  }
  if (cur !== "") tokens.push(cur);
  return tokens;
}

/** Names that open a window in the token scan. */
function scanWorthy(name: string): boolean {
  return name === "rm" || name === "git" || name === "dd" || name === "bq" ||
    name === "redis-cli" || name === "mongo" || name === "mongosh" || SQL_CLIENTS.has(name) ||
    ALWAYS_DESTRUCTIVE.has(name) || name.startsWith("mkfs.") || REMOVERS.has(name);
}

/**
 * Reads every token that names a checked program as a command, with the
 * tokens after it up to a separator as its arguments, whatever quoting or
 * nesting surrounded it. Too many such positions count as destructive.
 */
function tokensDestructive(tokens: readonly string[], walk: Walk): boolean {
  let windows = 0;
  let sqlVerdict: boolean | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const name = programName(tokens[i]);
    if (!scanWorthy(name)) continue;
    if (++windows > MAX_SCAN_WINDOWS) return true;
    const args: string[] = [];
    for (let j = i + 1; j < tokens.length && args.length < MAX_WINDOW_TOKENS; j++) {
      if (tokens[j] === ";") break;
      args.push(tokens[j]);
    }
    if (REMOVERS.has(name) && removeItemDestructive(args)) return true;
    if (SQL_CLIENTS.has(name)) {
      sqlVerdict ??= sqlDestructive(tokens.join(" "));
      if (sqlVerdict) return true;
    }
    if (programDestructive(name, args, [], walk)) return true;
  }
  return false;
}

/** The fail-closed reading of raw text: destructive when a destructive form appears anywhere in it. */
function rawDestructive(text: string, walk: Walk): boolean {
  return tokensDestructive(scanSplit(text), walk);
}

// ---------------------------------------------------------------------------
// Bash.

/** Builtins whose `NAME=value` arguments assign variables. */
const DECLARING_BUILTINS = new Set(["export", "declare", "typeset", "local", "readonly"]);

/** `read` options that take a value (`-a` names the array it fills). */
const READ_VALUE_OPTIONS = "adinNptu";

/**
 * Variables given a value anywhere in the parse: `x=…` prefixes (arrays
 * too), `export`/`declare` arguments, `set --` (the positional parameters,
 * as `@` and `*`) and `read` from a here-string, here-document or pipe.
 */
function assignedVariables(segments: readonly Segment[], walk: Walk): Map<string, string[]> {
  const vars = new Map<string, string[]>();
  const give = (name: string, value: string): void => {
    const list = vars.get(name) ?? [];
    // The first few values are enough to spot a destructive one; more would only cost time.
    if (list.length < MAX_VALUES_PER_VARIABLE) list.push(value);
    vars.set(name, list);
  };
  const add = (text: string): void => {
    const eq = text.indexOf("=");
    const name = text.slice(0, eq).replace(/\+$/, "").replace(/\[[^\]]*\]$/, "");
    if (eq <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
    const value = text.slice(eq + 1);
    const array = value.startsWith("(") && value.endsWith(")");
    give(name, array ? value.slice(1, -1) : value);
  };
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    for (const a of seg.assignments) add(a.text);
    const [first, ...rest] = argv(seg);
    if (first === undefined) continue;
    if (DECLARING_BUILTINS.has(first)) rest.forEach(add);
    else if (first === "set") {
      const scan = scanArgs(rest, { permute: false });
      const params = scan.dashDash ? scan.operands : rest.slice(scan.stop);
      if (params.length > 0) ["@", "*"].forEach((n) => give(n, params.join(" ")));
    } else if (first === "read") {
      const scan = scanArgs(rest, { shortValue: READ_VALUE_OPTIONS });
      const names = [
        ...scan.operands,
        ...scan.shorts.filter((o) => o.letter === "a" && o.value !== null).map((o) => o.value!),
      ];
      const input = (bashStdin(segments, i, walk) ?? []).join(" ");
      for (const name of names) give(name, input);
    }
  }
  return vars;
}

/**
 * Texts that reach the stdin of `segments[index]`: its here-documents and
 * here-strings and, when it is piped, the words and stdin texts of the
 * commands before it in the pipeline (a group or subshell piped into it
 * included). Null once the call's character budget is spent: the command
 * is then read with the fail-closed token scan.
 */
function bashStdin(segments: readonly Segment[], index: number, walk: Walk): string[] | null {
  const seg = segments[index];
  const out = [...seg.stdinTexts];
  if (seg.sepBefore !== "|" && seg.sepBefore !== "|&") return out;
  for (let j = index - 1; j >= 0; j--) {
    const prev = segments[j];
    if (prev.depth < seg.depth) break;
    // The arguments are what a producer such as `echo` or `printf` writes.
    if (prev.words.length > 1) out.push(argv(prev).slice(1).join(" "));
    out.push(...prev.stdinTexts);
    // Every element of a long pipeline looks back over all the others.
    if ((walk.budget.chars -= prev.raw.length + 1) < 0) return null;
    if (prev.depth === seg.depth && prev.sepBefore !== "|" && prev.sepBefore !== "|&") break;
  }
  return out;
}

/**
 * A script reader (`source`, `.`, a shell) given a `<( … )` operand runs
 * what the substituted command prints; that text is only known as the
 * command's source, so it is read with the fail-closed token scan.
 */
function readsProcessSubstitution(words: readonly string[]): boolean {
  return words.some((w) => SCRIPT_READERS.has(programName(w))) &&
    words.some((w) => w.startsWith("<("));
}

/**
 * What the `<( … )` operands of a command print, as far as it can be told:
 * the arguments and stdin texts of the substituted commands. A program
 * reading such a file (`psql -f <(echo "drop table x")`) consumes that text.
 */
function processSubstitutionOutput(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    if (!w.startsWith("<(") || !w.endsWith(")")) continue;
    for (const seg of parseBash(w.slice(2, -1)).segments) {
      const produced = argv(seg).slice(1);
      if (produced.length > 0) out.push(produced.join(" "));
      out.push(...seg.stdinTexts);
    }
  }
  return out;
}

function bashDestructive(command: string, walk: Walk, stdin: readonly string[]): boolean {
  const parsed = parseBash(command);
  const vars = assignedVariables(parsed.segments, walk);
  // A pipeline too long to follow into `read` leaves variables unknown.
  if (walk.budget.chars < 0) return rawDestructive(command, walk);
  for (let i = 0; i < parsed.segments.length; i++) {
    const seg = parsed.segments[i];
    const words = resolveVariables(argv(seg), vars);
    if (words.length === 0) continue;
    const piped = bashStdin(parsed.segments, i, walk);
    if (piped === null) return rawDestructive(command, walk);
    const segStdin = [
      ...piped,
      ...processSubstitutionOutput(words),
      ...stdin,
    ];
    const u = unwrapCommand(words, walk.depth);
    if (unwrappedDestructive(u, segStdin, walk, seg.raw)) return true;
    if (
      readsProcessSubstitution(words) &&
      words.some((w) => w.startsWith("<(") && rawDestructive(w, walk))
    ) {
      return true;
    }
  }
  return !parsed.ok && rawDestructive(command, walk);
}

// ---------------------------------------------------------------------------
// PowerShell.

/** Whether a PowerShell switch given as `-Name` or `-Name:value` is on. */
function switchOn(value: string | null): boolean {
  return value === null || value === "" || !SWITCH_OFF.has(value.toLowerCase());
}

/**
 * `Remove-Item` (or an alias) with `-Recurse` bound by any unambiguous
 * prefix or `-Recurse:$true`, and without `-WhatIf`. A Bash-style cluster
 * such as `-rf`, which binds to no parameter, counts as recursive: it shows
 * what the command was meant to do.
 */
function removeItemDestructive(args: readonly string[]): boolean {
  let recursive = false;
  for (const a of args) {
    const split = splitColonArg(a);
    if (split === null || a.startsWith("--")) continue;
    const bound = bindParameter(a, REMOVE_ITEM_PARAMETERS, REMOVE_ITEM_ALIASES);
    if (bound === "WhatIf" && switchOn(split.value)) return false;
    if (bound === "Recurse") recursive ||= switchOn(split.value);
    if (bound === null && /^[rfRdvi]+$/.test(split.name) && /r/i.test(split.name)) recursive = true;
  }
  return recursive;
}

/** Whether a `Get-ChildItem` feeding the pipeline lists recursively. */
function recursiveListing(args: readonly string[]): boolean {
  return args.some((a) => {
    const split = splitColonArg(a);
    return split !== null && bindParameter(a, GET_CHILD_ITEM_PARAMETERS) === "Recurse" &&
      switchOn(split.value);
  });
}

/** A PowerShell variable reference that makes up a whole word (`$x`, `${x}`). */
const PS_LONE_VARIABLE = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;

/**
 * Values given to variables by `$x = …` segments, by lower-cased name (the
 * names are case-insensitive). The value is the segment's words as text:
 * for a string literal that is the string itself.
 */
function psVariables(segments: readonly PsSegment[]): Map<string, string> {
  const vars = new Map<string, string>();
  for (const seg of segments) {
    const m = seg.assignedTo === null ? null : PS_LONE_VARIABLE.exec(seg.assignedTo);
    if (m) vars.set(m[1].toLowerCase(), seg.words.map((w) => w.text).join(" "));
  }
  return vars;
}

/**
 * The argument vector of a PowerShell segment: comma lists split the way a
 * native program receives them, and whole-word variables assigned in the
 * same command replaced by their value (PowerShell does not split it).
 */
function psArgv(seg: PsSegment, vars: ReadonlyMap<string, string>): string[] {
  return seg.words.flatMap((w, i) => {
    const m = PS_LONE_VARIABLE.exec(w.text);
    const value = m ? vars.get(m[1].toLowerCase()) : undefined;
    if (value !== undefined) return [value];
    return w.parameter || i === 0 ? [w.text] : w.parts;
  });
}

/** Index of the segment feeding `index` through a pipe at the same depth, or -1. */
function pipelineSource(segments: readonly PsSegment[], index: number): number {
  const seg = segments[index];
  if (seg.sepBefore !== "|") return -1;
  for (let j = index - 1; j >= 0; j--) {
    if (segments[j].depth === seg.depth) return j;
    if (segments[j].depth < seg.depth) return -1;
  }
  return -1;
}

/** The command a PowerShell command word names: `programName`, also without `.ps1`/`.cmd`/`.bat`. */
function psName(text: string): string {
  const base = programName(text);
  return base.endsWith(".ps1") || base.endsWith(".cmd") || base.endsWith(".bat")
    ? base.slice(0, -4)
    : base;
}

/** `Remove-Item` fed by a recursive `Get-ChildItem`: every listed item is removed. */
function removesRecursiveListing(
  args: readonly string[],
  source: readonly string[] | null,
): boolean {
  if (source === null || !CHILD_ITEM_LISTERS.has(psName(source[0]))) return false;
  return !dryRun(args) && recursiveListing(source.slice(1));
}

/** `Remove-Item … -WhatIf`: nothing is removed. */
function dryRun(args: readonly string[]): boolean {
  return args.some((a) => {
    const split = splitColonArg(a);
    return split !== null && switchOn(split.value) &&
      bindParameter(a, REMOVE_ITEM_PARAMETERS, REMOVE_ITEM_ALIASES) === "WhatIf";
  });
}

function powerShellDestructive(command: string, walk: Walk, stdin: readonly string[]): boolean {
  const parsed = parsePowerShell(command);
  const segments = parsed.segments;
  const vars = psVariables(segments);
  let listedRecursively = false;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (seg.words.length === 0) continue;
    const words = psArgv(seg, vars);
    const name = psName(words[0]);
    const args = words.slice(1);
    const index = pipelineSource(segments, i);
    const source = index >= 0 ? psArgv(segments[index], vars) : null;
    if (CHILD_ITEM_LISTERS.has(name) && recursiveListing(args)) listedRecursively = true;
    // A command named by an expression (`&('ri')`, `.(gcm Remove-Item)`, `& $c`
    // left unresolved) may be any remover: read its arguments as one.
    if (seg.words[0].expands && /^[.&(]|^\$/.test(words[0])) {
      if (removeItemDestructive(args) || rawDestructive(command, walk)) return true;
    }
    if (REMOVERS.has(name)) {
      // A splatted hashtable (`Remove-Item x @p`) may carry -Recurse.
      if (args.some((a) => /^@[A-Za-z_]/.test(a)) && !dryRun(args)) return true;
      if (removeItemDestructive(args) || removesRecursiveListing(args, source)) return true;
      // `gci -r | % { Remove-Item $_ }`: a script block removes what a recursive listing found.
      if (seg.container === "scriptblock" && listedRecursively && !dryRun(args)) return true;
      continue;
    }
    const fed = source === null ? [...stdin] : [source.join(" "), ...stdin];
    const raw = seg.words.map((w) => w.raw).join(" ");
    if (unwrappedDestructive(unwrapCommand(words, walk.depth), fed, walk, raw)) return true;
  }
  return dotNetDeletes(command, listedRecursively) || (!parsed.ok && rawDestructive(command, walk));
}

/**
 * .NET deletes called from PowerShell: `[IO.Directory]::Delete(p, $true)` and
 * `DirectoryInfo.Delete($true)` remove a tree, and `.Delete()` on what a
 * recursive listing found removes every listed item.
 */
function dotNetDeletes(command: string, listedRecursively: boolean): boolean {
  const text = command.toLowerCase().replace(/[\s`]+/g, "");
  if (text.includes("directory]::delete(") && text.includes("$true")) return true;
  if (text.includes(".delete($true)")) return true;
  return listedRecursively && text.includes(".delete()");
}

// ---------------------------------------------------------------------------
// cmd.exe.

/** `rd /s` or `del /s` (`erase`, `rmdir`), switches possibly run together (`/s/q`): a recursive delete in cmd.exe. */
function cmdRemoveDestructive(args: readonly string[]): boolean {
  return args.some((a) => a.startsWith("/") && a.split("/").some((p) => p.toLowerCase() === "s"));
}

/** Splits a cmd.exe command line into commands of words (`^` escapes, `"…"` quotes). */
function cmdCommands(text: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let cur = "";
  let quoted = false;
  const endWord = (): void => {
    if (cur !== "") words.push(cur);
    cur = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "^") cur += text[++i] ?? "";
    else if (!quoted && (c === "&" || c === "|" || c === "\n" || c === "(" || c === ")")) {
      endWord();
      if (words.length > 0) commands.push(words);
      words = [];
    } else if (!quoted && (c === " " || c === "\t" || c === "\r")) endWord();
    else cur += c;
  }
  endWord();
  if (words.length > 0) commands.push(words);
  return commands;
}

function cmdDestructive(text: string, walk: Walk): boolean {
  for (const words of cmdCommands(text)) {
    const name = programName(words[0]);
    if (REMOVERS.has(name) && name !== "remove-item" && name !== "ri") {
      if (cmdRemoveDestructive(words.slice(1))) return true;
      continue;
    }
    const u = unwrapCommand(words, walk.depth);
    if (unwrappedDestructive(u, [], walk, words.join(" "))) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Dispatch and the API.

/**
 * Whether `text` written in `dialect` is destructive. Past the depth bound,
 * or once the call's budget of scripts or characters is spent, only the raw
 * token scan runs: it is linear and does not recurse into scripts.
 */
function codeDestructive(
  dialect: Dialect,
  text: string,
  walk: Walk,
  stdin: readonly string[],
): boolean {
  if (walk.depth >= MAX_WRAPPER_DEPTH || !afford(walk, text.length)) {
    return rawDestructive(text, walk);
  }
  if (dialect === "powershell") return powerShellDestructive(text, walk, stdin);
  if (dialect === "cmd") return cmdDestructive(text, walk);
  return bashDestructive(text, walk, stdin);
}

/**
 * Whether `command` run by `tool` is destructive: a built-in form, or a
 * match of one of the `extra` patterns against the raw text. Never throws;
 * an internal error counts as destructive.
 */
export function isDestructive(
  tool: "Bash" | "PowerShell",
  command: string,
  extra: readonly RegExp[],
): boolean {
  try {
    if (typeof command !== "string") return false;
    if (extra.some((re) => re.test(command))) return true;
    const walk: Walk = { depth: 0, budget: { left: MAX_ANALYSES, chars: MAX_ANALYSED_CHARS } };
    return codeDestructive(tool === "PowerShell" ? "powershell" : "bash", command, walk, []);
  } catch {
    return true;
  }
}

/** The variable that holds the extra destructive pattern. */
const EXTRA_VARIABLE = "GATEGUARD_BASH_EXTRA_DESTRUCTIVE";

/**
 * Compiles the operator's extra destructive pattern: the whole value is one
 * regular expression source (alternatives go in one `a|b`). Unset or blank
 * gives none; a source that does not compile gives none and a one-line
 * warning naming the variable.
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
        `ignoring malformed ${EXTRA_VARIABLE} (not a valid regular expression); the built-in destructive checks still apply.`,
    };
  }
}
