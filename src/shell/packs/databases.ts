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

import { sqlClientTexts, sqlUnbounded } from "../sql/mod.ts";
import { UNREADABLE_STDIN } from "../stdin_markers.ts";
import { SQL_CLIENTS } from "./core.ts";
import type { Pack } from "./pack.ts";

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
      commands: ["redis-cli"],
      // On stdin, or inside a script `EVAL` runs; text that cannot be read may hold either.
      when: [{
        test: (input) =>
          input.stdin.includes(UNREADABLE_STDIN) ||
          [...input.args, ...input.stdin].some((t) => /\bflush(all|db)\b/i.test(t)),
      }],
      destroys: "empties a Redis database",
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
