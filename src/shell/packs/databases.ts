/**
 * The databases pack: statements that empty a table without naming rows
 * (`DELETE FROM t` or `UPDATE t SET …` without `WHERE`) in every SQL
 * client the core reads, database drops through admin tools, Redis
 * flushes fed on stdin or run by a script, MongoDB drops spelled with
 * brackets or as commands, and text a Redis or MongoDB shell is fed that
 * cannot be read first. (`DROP`, `TRUNCATE`, `dropdb`, `FLUSHALL` as an
 * argument and mongosh drops are core rules.)
 *
 * @module
 */

import { sqlClientDestructive, sqlClientTexts, sqlDestructive, sqlUnbounded } from "../sql/mod.ts";
import { UNREADABLE_STDIN } from "../stdin_markers.ts";
import { SQL_CLIENTS } from "./core.ts";
import type { Pack } from "./pack.ts";

/**
 * Shell commands a SQL client's own escapes run: `\\!` (psql, mysql),
 * `system` at a line's start (mysql), `.shell`/`.system` (sqlite3), and
 * the program of `COPY … TO/FROM PROGRAM '…'`.
 */
function sqlShellCommands(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|[\s;])(?:\\!|\.shell|\.system)[ \t]+([^\n]*)/g)) {
    out.push(m[1]);
  }
  for (const m of text.matchAll(/^[ \t]*system[ \t]+([^\n;]*)/gim)) out.push(m[1]);
  for (const m of text.matchAll(/\bprogram\s+'((?:[^']|'')*)'/gi)) {
    out.push(m[1].replaceAll("''", "'"));
  }
  return out;
}

/** Most psql variables substituted into its statements. */
const MAX_PSQL_VARIABLES = 16;

/**
 * The statements psql runs once its variables (`-v name=value`,
 * `--set=name=value`, `--variable`) are substituted for `:name`,
 * `:'name'` and `:"name"` (`-v x=DROP -c ':x TABLE t'`).
 */
function psqlExpanded(args: readonly string[], stdin: readonly string[]): string[] {
  const vars: [string, string][] = [];
  for (let i = 0; i < args.length && vars.length < MAX_PSQL_VARIABLES; i++) {
    const a = args[i];
    const value = a === "-v" || a === "--set" || a === "--variable"
      ? args[++i] ?? ""
      : /^(-v|--set=|--variable=)/.test(a)
      ? a.replace(/^(-v|--set=|--variable=)/, "")
      : null;
    const eq = value?.indexOf("=") ?? -1;
    if (value !== null && eq > 0) vars.push([value.slice(0, eq), value.slice(eq + 1)]);
  }
  if (vars.length === 0) return [];
  return sqlClientTexts(args, stdin).map((t) =>
    vars.reduce(
      (text, [name, value]) =>
        text.replaceAll(`:'${name}'`, `'${value}'`).replaceAll(`:"${name}"`, value)
          .replace(new RegExp(`:${name.replace(/[^A-Za-z0-9_]/g, "")}\\b`, "g"), value),
      t,
    )
  );
}

/** The databases pack. */
export const DATABASES_PACK: Pack = {
  id: "databases",
  summary: "DELETE/UPDATE without WHERE, mysqladmin drop, redis FLUSHALL on stdin, mongosh deletes",
  defaultOn: true,
  rules: [
    {
      id: "sql-without-where",
      commands: [...SQL_CLIENTS],
      when: [{ test: (input) => sqlClientTexts(input.args, input.stdin).some(sqlUnbounded) }],
      destroys: "deletes or overwrites every row of a table",
    },
    {
      id: "mysqladmin-drop",
      commands: ["mysqladmin", "mariadb-admin"],
      when: [{ operand: /^drop$/i }],
      destroys: "drops a database",
    },
    {
      id: "redis-flush-stdin",
      commands: ["redis-cli", "valkey-cli", "keydb-cli"],
      // On stdin, or inside a script `EVAL` runs; text that cannot be read may hold either.
      when: [{
        test: (input) =>
          input.stdin.includes(UNREADABLE_STDIN) ||
          [...input.args, ...input.stdin].some((t) => /\bflush(all|db)\b/i.test(t)),
      }],
      destroys: "empties a Redis database",
    },
    {
      // `manage.py dbshell`, `rails dbconsole` and `php artisan db` start the project's SQL
      // client: what they are fed, or handed after `--`, is read as its statements.
      id: "framework-db-shell",
      commands: ["python*", "pypy*", "manage.py", "django-admin", "rails", "php", "artisan"],
      path: [/^(dbshell|dbconsole|db)$/],
      when: [{
        test: (input) =>
          sqlClientDestructive(input.scan.operands, input.stdin) ||
          sqlClientTexts(input.scan.operands, input.stdin).some(sqlUnbounded),
      }],
      destroys: "runs a statement that drops, deletes or empties data in the project's database",
    },
    {
      id: "mongorestore-drop",
      commands: ["mongorestore"],
      when: [{ long: ["drop"] }],
      unless: [{ long: ["dryRun"] }],
      destroys: "drops each collection before restoring it from the dump",
    },
    {
      id: "sql-shell-escape",
      commands: [...SQL_CLIENTS],
      when: [{
        test: (input) =>
          sqlClientTexts(input.args, input.stdin).some((t) =>
            sqlShellCommands(t).some((c) => input.code("bash", c))
          ),
      }],
      destroys: "runs a destructive shell command from inside the SQL client",
    },
    {
      id: "psql-variable-statement",
      commands: ["psql"],
      when: [{ test: (input) => psqlExpanded(input.args, input.stdin).some(sqlDestructive) }],
      destroys: "runs a statement built from psql variables that drops or deletes",
    },
    {
      id: "mongo-bracket-drop",
      commands: ["mongo", "mongosh"],
      when: [{
        test: (input) =>
          input.stdin.includes(UNREADABLE_STDIN) ||
          [...input.args, ...input.stdin].some((t) =>
            /\[\s*['"`](drop|dropDatabase|deleteMany|remove)['"`]\s*\]|\b(drop|dropDatabase|delete)['"]?\s*:/
              .test(t)
          ),
      }],
      destroys: "drops MongoDB collections or databases, or deletes documents",
    },
  ],
};
