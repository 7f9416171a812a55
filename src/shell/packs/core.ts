/**
 * The core pack: the destructive forms the spec names (`rm -rf`,
 * `git reset --hard`, `git push --force`, `DROP TABLE`) and their close
 * kin that GateGuard has always gated: recursive deletes, git commands
 * that overwrite or drop work, SQL that drops or deletes, `dd` on a named
 * file or device, disk and database wipes, and the PowerShell and cmd.exe
 * recursive deletes. It cannot be switched off.
 *
 * @module
 */

import { hasLong, hasShort, type OptionRoles, type ScannedArgs } from "../programs/mod.ts";
import { sqlClientDestructive } from "../sql/mod.ts";
import { checkoutPathspec, GIT_PUSH_VALUE_OPTIONS } from "../programs/mod.ts";
import type { Pack, PackRule } from "./pack.ts";

/** Branches a lease-protected force push must still not overwrite. */
const PROTECTED_BRANCHES = new Set(["main", "master", "develop", "trunk"]);

/** Programs that run SQL given in their arguments or on stdin. */
export const SQL_CLIENTS = new Set([
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

/** Redis commands that empty a database. */
const REDIS_FLUSH = new Set(["flushall", "flushdb"]);

/** MongoDB shell calls that drop collections or databases or delete documents. */
const MONGO_DESTRUCTIVE = /\.(drop|dropDatabase|deleteMany|remove)\s*\(/;

/** Names under which PowerShell (and cmd) remove items. */
export const REMOVERS: ReadonlySet<string> = new Set([
  "remove-item",
  "rm",
  "ri",
  "del",
  "erase",
  "rd",
  "rmdir",
]);

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
  readonly short?: OptionRoles;
  readonly long?: OptionRoles;
  readonly test: (s: ScannedArgs) => boolean;
  /** The subcommand's own subcommand that destroys (`git stash drop`). */
  readonly sub?: RegExp;
  /** What an argument only known at run time is tried as (`PackRule.worst`). */
  readonly worst?: readonly string[];
}

/** What asks git's option parser for usage instead of running (`git stash drop -h`). */
const GIT_HELP = ["--help", "-h"];

/** Long options of `git commit` that take a value (so a message is never read as an option). */
const COMMIT_VALUES: OptionRoles = {
  message: "value",
  file: "value",
  "reuse-message": "value",
  "reedit-message": "value",
  fixup: "value",
  squash: "value",
  template: "value",
  author: "value",
  date: "value",
  cleanup: "value",
  trailer: "value",
  "pathspec-from-file": "value",
};

/** Destructive forms by git subcommand. */
const GIT_RULES: Readonly<Record<string, GitRule>> = {
  // `--keep` and `--merge` move the branch off its commits too, only refusing to touch
  // files with local changes.
  reset: { test: (s) => hasLong(s, "hard", "keep", "merge"), worst: ["--hard"] },
  checkout: {
    short: { b: "value", B: "value" },
    long: { orphan: "value", conflict: "value" },
    // A second operand, or one no branch can be named, is a pathspec: its files are overwritten.
    test: (s) =>
      // `-B` resets a branch that exists to the start point, as `branch -f` does.
      hasShort(s, "fB") || hasLong(s, "force", "pathspec-from-file") || s.dashDash ||
      s.operands.length > 1 || s.operands.some(checkoutPathspec),
    worst: ["-f"],
  },
  // Without `-f` it still deletes once `clean.requireForce` is off, which a
  // configuration file the hook cannot see may say: only a dry run is safe.
  clean: {
    short: { e: "value" },
    long: { exclude: "value" },
    test: (s) => !hasShort(s, "n") && !hasLong(s, "dry-run"),
  },
  push: {
    ...GIT_PUSH_VALUE_OPTIONS,
    test: pushDestructive,
    worst: ["--force"],
  },
  // `-f` resets or force-deletes a branch, `-M`/`-C` overwrite an existing one.
  branch: {
    short: { u: "value" },
    long: { "set-upstream-to": "value", format: "value", sort: "value", "points-at": "value" },
    test: (s) => hasShort(s, "DMCf") || hasLong(s, "force"),
    worst: ["-D"],
  },
  stash: {
    short: { m: "value" },
    long: { message: "value" },
    sub: /^(drop|clear)$/,
    test: () => true,
    worst: ["clear"],
  },
  reflog: { sub: /^(expire|delete)$/, test: () => true, worst: ["expire"] },
  "update-ref": {
    short: { m: "value" },
    test: (s) => hasShort(s, "d") || hasLong(s, "stdin"),
    worst: ["-d"],
  },
  switch: {
    short: { c: "value" },
    long: { create: "value", orphan: "value", conflict: "value" },
    test: (s) => hasShort(s, "fC") || hasLong(s, "force", "discard-changes", "force-create"),
    worst: ["-f"],
  },
  restore: {
    short: { s: "value" },
    long: { source: "value" },
    test: (s) =>
      !(hasShort(s, "S") || hasLong(s, "staged")) || hasShort(s, "W") || hasLong(s, "worktree"),
  },
  rm: {
    long: { "pathspec-from-file": "value" },
    test: (s) => hasShort(s, "r") && !hasShort(s, "n") && !hasLong(s, "cached", "dry-run"),
    worst: ["-r"],
  },
  commit: {
    short: { m: "value", F: "value", c: "value", C: "value", t: "value" },
    long: COMMIT_VALUES,
    test: (s) => s.longs.some((l) => l.name.length >= 2 && "amend".startsWith(l.name)),
    worst: ["--amend"],
  },
  // A `+` refspec into a local branch moves it wherever the remote's is (`+main:main`).
  fetch: {
    short: { o: "value", j: "value" },
    long: { "upload-pack": "value", depth: "value", refmap: "value", jobs: "value" },
    test: (s) => s.operands.slice(1).some((r) => /^\+[^:]*:(?!refs\/(remotes|tags)\/)./.test(r)),
  },
  "filter-branch": { test: () => true },
  "filter-repo": { test: () => true },
};

/** What each git rule destroys. */
const GIT_DESTROYS: Readonly<Record<string, string>> = {
  reset: "discards uncommitted changes in the work tree and index",
  checkout: "overwrites uncommitted changes in the work tree",
  clean: "deletes untracked files",
  push: "overwrites or deletes commits on the remote",
  branch: "deletes or overwrites a branch",
  stash: "drops stashed changes",
  reflog: "drops reflog entries, the record that recovers lost commits",
  "update-ref": "deletes or rewrites a ref",
  switch: "discards uncommitted changes or overwrites a branch",
  restore: "overwrites uncommitted changes in the work tree",
  rm: "deletes tracked files and directories from the work tree",
  commit: "replaces the last commit",
  fetch: "force-moves a local branch to the fetched commit",
  "filter-branch": "rewrites the history of every branch it touches",
  "filter-repo": "rewrites the history of the repository",
};

/** The git rules as pack rules: `git <subcommand>` with its option shape and test. */
const GIT_PACK_RULES: PackRule[] = Object.entries(GIT_RULES).map(([sub, rule]) => ({
  id: `git-${sub}`,
  commands: ["git"],
  path: rule.sub === undefined ? [sub] : [sub, rule.sub],
  options: { short: rule.short, long: rule.long },
  help: GIT_HELP,
  when: [{ test: (input) => rule.test(input.scan) }],
  // `-h` or `--help` as an option (not an option's value) prints the usage instead.
  unless: [{ test: (input) => input.scan.longs.some((l) => l.name === "help") }, { short: "h" }],
  worst: rule.worst,
  destroys: GIT_DESTROYS[sub],
}));

/** The core pack. */
export const CORE_PACK: Pack = {
  id: "core",
  summary: "recursive deletes, git commands that discard work, destructive SQL, disk wipes",
  defaultOn: true,
  required: true,
  rules: [
    {
      id: "rm-recursive",
      commands: ["rm"],
      when: [{ short: "rR", long: ["recursive"] }],
      destroys: "deletes a directory tree and every file below it",
    },
    {
      id: "dd-file",
      commands: ["dd"],
      when: [{ arg: /^(if|of)=/ }],
      worst: ["of=/dev/sda"],
      destroys: "reads or overwrites a named file or device byte for byte",
    },
    ...GIT_PACK_RULES,
    {
      id: "sql-drop-delete",
      commands: [...SQL_CLIENTS],
      when: [{ test: (input) => sqlClientDestructive(input.args, input.stdin) }],
      destroys: "drops tables or databases, or deletes or truncates rows",
    },
    {
      id: "bq-rm",
      commands: ["bq"],
      when: [{ arg: /^rm$/ }],
      destroys: "deletes a BigQuery table, view or dataset",
    },
    {
      id: "redis-flush",
      commands: ["redis-cli", "valkey-cli", "keydb-cli"],
      when: [{ test: (input) => input.args.some((a) => REDIS_FLUSH.has(a.toLowerCase())) }],
      destroys: "empties a Redis database",
    },
    {
      id: "mongo-drop",
      commands: ["mongo", "mongosh"],
      when: [{
        test: (input) => [...input.args, ...input.stdin].some((t) => MONGO_DESTRUCTIVE.test(t)),
      }],
      destroys: "drops MongoDB collections or databases, or deletes documents",
    },
    {
      id: "shred",
      commands: ["shred"],
      destroys: "overwrites file contents so they cannot be recovered",
    },
    {
      id: "disk-wipe",
      commands: ["wipefs", "mkfs", "mkfs.*", "format-volume", "clear-disk", "remove-partition"],
      destroys: "erases a filesystem, partition table or whole disk",
    },
    {
      id: "dropdb",
      commands: ["dropdb"],
      destroys: "drops a PostgreSQL database",
    },
    {
      id: "remove-item-recurse",
      // Read by the PowerShell reader, which binds the parameters; listed here for its text.
      commands: [],
      destroys: "deletes a directory tree, or every item a recursive listing found",
    },
    {
      id: "cmd-remove-tree",
      // Read by the cmd.exe reader; listed here for its text.
      commands: [],
      destroys: "deletes a directory tree or files in every subdirectory (cmd.exe /s)",
    },
    {
      id: "dotnet-delete",
      commands: [],
      destroys: "deletes a directory tree through .NET",
    },
    {
      id: "git-alias-unknown",
      // Read by the git reader; listed here for its text.
      commands: [],
      destroys: "may discard work: runs a git alias whose definition is only known at run time",
    },
    {
      id: "hidden-script",
      // Read by the engine: a script made only of variables the line never sets.
      commands: [],
      destroys: "runs a script whose text is set outside the command and cannot be read first",
    },
    {
      id: "unreadable",
      commands: [],
      destroys:
        "may destroy data: a destructive form appears in text too large or tangled to read in full",
    },
  ],
};
