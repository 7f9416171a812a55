/**
 * Tables of destructive forms and their benign look-alikes, registered as
 * the three tests every evasion mechanism of the destructive gate gets:
 * the table itself, the property that a benign prefix never changes a
 * verdict, and a bound on the work counted (never timed) for the command
 * behind a long benign head.
 */

import { assert, assertEquals } from "./assert.ts";
import { destructiveHit, newDetectBudget } from "../../src/shell/destructive/mod.ts";
import type { ShellDialect } from "../../src/shell/dialect.ts";

/** One mechanism: what it closes, commands it must find destructive, look-alikes that must pass. */
export interface EvasionCase {
  readonly mechanism: string;
  /** The shell the commands are written in, when not the table's. */
  readonly tool?: ShellDialect;
  readonly destructive: readonly string[];
  readonly benign: readonly string[];
}

/** Benign commands put before a command, per shell. */
const PREFIXES = {
  bash: ["ls; ", "echo hi\n", "FOO=1 true; ", "cd /tmp && "],
  powershell: ["Get-Location; ", "Write-Output hi\n", "$x = 1; "],
} as const;

/** A long benign head, per shell, for the work bound. */
const HEADS = { bash: "echo a; ".repeat(200), powershell: "Write-Output a; ".repeat(100) } as const;

/** Registers the tests of `cases`, written in `tool` unless a case says otherwise, under `[destructive-bash-gate] <area>: …`. */
export function registerEvasionCases(
  area: string,
  cases: readonly EvasionCase[],
  tool: ShellDialect = "bash",
): void {
  for (const c of cases) {
    const shell = c.tool ?? tool;
    Deno.test(`[destructive-bash-gate] ${area}: ${c.mechanism}`, () => {
      const missed = c.destructive.filter((cmd) => destructiveHit(shell, cmd, []) === null);
      const flagged = c.benign.filter((cmd) => destructiveHit(shell, cmd, []) !== null);
      assertEquals({ missed, flagged }, { missed: [], flagged: [] });
    });
  }

  Deno.test(`[destructive-bash-gate] ${area}: a benign prefix never changes a verdict`, () => {
    const changed: string[] = [];
    for (const c of cases) {
      const shell = c.tool ?? tool;
      for (const prefix of PREFIXES[shell]) {
        for (const cmd of c.destructive) {
          if (destructiveHit(shell, prefix + cmd, []) === null) changed.push(prefix + cmd);
        }
        for (const cmd of c.benign) {
          if (destructiveHit(shell, prefix + cmd, []) !== null) changed.push(prefix + cmd);
        }
      }
    }
    assertEquals(changed, []);
  });

  Deno.test(`[destructive-bash-gate] ${area}: work stays within a bound of the command length`, () => {
    for (const c of cases) {
      const shell = c.tool ?? tool;
      for (const cmd of [...c.destructive, ...c.benign]) {
        const command = `${HEADS[shell]}${cmd}`;
        const budget = newDetectBudget();
        const start = { ...budget };
        destructiveHit(shell, command, [], undefined, budget);
        const chars = start.chars - budget.chars;
        const analyses = start.left - budget.left;
        assert(chars <= 8 * command.length, `${cmd}: ${chars} characters for ${command.length}`);
        assert(analyses <= 16, `${cmd}: ${analyses} analyses`);
      }
    }
  });
}
