/**
 * Tests of SQL reading for the destructive gate: option clusters with an
 * attached statement, dollar-quoted bodies, dynamic SQL (literals run by
 * `EXECUTE`, `EXEC`, `PREPARE … FROM`, `sp_executesql`, `\gexec`, joined
 * or alone; anything else run that way cannot be read), text built with
 * `printf` or escapes or decoded on its way into a client, and the Redis
 * and MongoDB shells' spellings. Each mechanism has destructive forms and
 * benign look-alikes, run through the property that a benign prefix never
 * changes a verdict and under a bound on the work counted.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { type EvasionCase, registerEvasionCases } from "../../helpers/destructive_cases.ts";
import { destructiveHit, newDetectBudget } from "../../../src/shell/destructive/mod.ts";
import { sqlDestructive, sqlUnbounded } from "../../../src/shell/sql/sql.ts";
import { loadAllParts } from "../../../src/shell/destructive/mod.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();

const CASES: readonly EvasionCase[] = [
  {
    mechanism: "a statement attached to a cluster of switches",
    destructive: [
      "psql -qXc'DROP TABLE users'",
      'psql -Xqc"DROP TABLE users"',
      "mysql -uroot -Ne'DROP TABLE users'",
      "psql -qXc 'DROP TABLE users'",
    ],
    benign: ["psql -qXc'SELECT 1'", "mysql -uroot -Ne'SHOW TABLES'", "psql -qAtX -d app"],
  },
  {
    mechanism: "dollar-quoted bodies are statements",
    destructive: [
      "psql -c '$x$DROP TABLE users$x$'",
      'psql -c "DO \\$\\$ BEGIN TRUNCATE users; END \\$\\$"',
      'psql -c "CREATE FUNCTION f() RETURNS void AS \\$f\\$ DELETE FROM users \\$f\\$ LANGUAGE sql"',
    ],
    benign: [
      "psql -c \"DO \\$\\$ BEGIN RAISE NOTICE 'hi'; END \\$\\$\"",
      "psql -c 'SELECT 1'",
    ],
  },
  {
    mechanism: "literals run as dynamic SQL are read, alone and joined",
    destructive: [
      `psql -c "DO \\$\\$ BEGIN EXECUTE 'DROP TABLE users'; END \\$\\$"`,
      `psql -c "DO \\$\\$ BEGIN EXECUTE 'DR' || 'OP TABLE users'; END \\$\\$"`,
      `psql -c "DO \\$\\$ BEGIN EXECUTE format('DROP TABLE %I', 'users'); END \\$\\$"`,
      `psql -c "EXECUTE 'DROP TABLE users'"`,
      `psql -c "EXECUTE IMMEDIATE 'DROP TABLE x'"`,
      `psql -c "SELECT 'DROP TABLE ' || tablename FROM pg_tables \\gexec"`,
      `mysql -e "PREPARE s FROM 'DROP TABLE x'; EXECUTE s"`,
      `sqlcmd -Q "EXEC('DROP TABLE x')"`,
      `sqlcmd -Q "EXEC sp_executesql N'DROP TABLE x'"`,
      `psql -c "DO \\$\\$ BEGIN EXECUTE 'UPDATE users SET admin = true'; END \\$\\$"`,
    ],
    benign: [
      `psql -c "DO \\$\\$ BEGIN EXECUTE 'SELECT 1'; END \\$\\$"`,
      `psql -c "SELECT 'VACUUM ' || tablename FROM pg_tables \\gexec"`,
      `mysql -e "PREPARE s FROM 'SELECT 1'; EXECUTE s"`,
      `psql -c "PREPARE q AS SELECT 1; EXECUTE q"`,
      `sqlcmd -Q "EXEC dbo.report_daily"`,
      `psql -c "SELECT 'DROP TABLE users'"`,
    ],
  },
  {
    mechanism: "dynamic SQL built from anything but literals cannot be read",
    destructive: [
      `psql -c "DO \\$\\$ DECLARE s text := 'x'; BEGIN EXECUTE s; END \\$\\$"`,
      `mysql -e "SET @q = 'x'; PREPARE s FROM @q; EXECUTE s"`,
      `sqlcmd -Q "DECLARE @s nvarchar(100) = 'x'; EXEC(@s)"`,
      `sqlcmd -Q "EXEC sp_executesql @s"`,
      `psql -c "SELECT cmd FROM jobs \\gexec"`,
      `psql -c "DO \\$\\$ BEGIN EXECUTE chr(68) || 'ROP TABLE x'; END \\$\\$"`,
    ],
    benign: [
      `psql -c "PREPARE q AS SELECT 1; EXECUTE q(1)"`,
      `psql -c "SELECT execute_at FROM jobs"`,
    ],
  },
  {
    mechanism: "SQL built with printf or escapes, or decoded on its way in",
    destructive: [
      "printf 'DR\\x4fP TABLE users' | psql",
      "printf 'DR\\117P TABLE users' | sqlite3 app.db",
      "printf '%s %s' DROP 'TABLE users' | psql",
      "printf 'DR%sP TABLE users' O | psql",
      "echo -e 'DR\\x4fP TABLE users' | mysql",
      "base64 -d <<< RFJPUCBUQUJMRSB1c2Vycw== | psql",
      "echo RFJPUCBUQUJMRSB1c2Vycw== | base64 -d | psql",
      "rev <<< 'sresu ELBAT PORD' | psql",
      "gunzip -c dump.sql.gz | psql",
      "printf 'UPD\\x41TE users SET admin = 1' | psql",
    ],
    benign: [
      "printf 'SELECT %s' 1 | psql",
      "printf 'SELECT 1\\n' | psql",
      "echo 'SELECT 1' | psql",
      "cat query.sql | psql",
      "psql < dump.sql",
      "echo c2VsZWN0IDE= | base64 -d",
      "psql -v ON_ERROR_STOP=1 -f migrate.sql",
    ],
  },
  {
    mechanism: "psql variables hold statements or names",
    destructive: [
      "psql -v t=users -c 'DROP TABLE :t'",
      "psql -v cmd='DROP TABLE users' -c ':cmd'",
      "psql --set=cmd='DROP TABLE users' -c ':cmd'",
    ],
    benign: ["psql -v t=users -c 'SELECT * FROM :t'"],
  },
  {
    mechanism: "Redis commands on stdin or in a script, MongoDB drops by any spelling",
    destructive: [
      "echo FLUSHALL | redis-cli",
      "redis-cli <<< FLUSHALL",
      "printf 'FLUSH\\x41LL' | redis-cli",
      "echo RkxVU0hBTEw= | base64 -d | redis-cli",
      `redis-cli EVAL "redis.call('flushall')" 0`,
      `mongosh --eval "db['dropDatabase']()"`,
      "mongosh --eval 'db[`dropDatabase`]()'",
      `mongosh --eval 'db.runCommand({drop: "users"})'`,
      `mongosh --eval 'db.runCommand({"drop": "users"})'`,
      `mongosh --eval 'db.runCommand({delete: "users", deletes: [{q: {}, limit: 0}]})'`,
      "echo ZGIuZHJvcERhdGFiYXNlKCk= | base64 -d | mongosh",
    ],
    benign: [
      "echo PING | redis-cli",
      "redis-cli SET greeting hello",
      "redis-cli GET flushall_count",
      "mongosh --eval 'db.runCommand({ping: 1})'",
      "mongosh --eval 'db.users.find({deleted: true})'",
    ],
  },
];

registerEvasionCases("SQL and data stores", CASES);

Deno.test("[destructive-bash-gate] SQL: dynamic SQL nested in dynamic SQL is read a few levels down, then no further", () => {
  const nest = (sql: string, levels: number): string =>
    levels === 0 ? sql : `EXECUTE '${nest(sql, levels - 1).replaceAll("'", "''")}'`;
  assertEquals(sqlDestructive(nest("DROP TABLE x", 3)), true);
  assertEquals(sqlUnbounded(nest("UPDATE t SET a = 1", 3)), true);
  assertEquals(sqlDestructive(nest("SELECT 1", 3)), false);
  // A printf format that repeats for every argument stays bounded.
  const many = `printf '%s' ${"a ".repeat(4000)}| psql`;
  const budget = newDetectBudget();
  assertEquals(destructiveHit("bash", many, [], undefined, budget), null);
  assert(budget.chars >= 0);
});
