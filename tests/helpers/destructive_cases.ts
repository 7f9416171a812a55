/**
 * Tables of destructive forms and their benign look-alikes, registered as
 * the three tests every evasion mechanism of the destructive gate gets:
 * the table itself, the property that a benign prefix never changes a
 * verdict, and a bound on the work counted (never timed) for the command
 * behind a long benign head.
 */

import { assert, assertEquals } from "./assert.ts";
import { destructiveHit, newDetectBudget } from "../../src/shell/destructive.ts";

/** One mechanism: what it closes, commands it must find destructive, look-alikes that must pass. */
export interface EvasionCase {
  readonly mechanism: string;
  /** The shell tool the commands are run by, when not the table's. */
  readonly tool?: "Bash" | "PowerShell";
  readonly destructive: readonly string[];
  readonly benign: readonly string[];
}

/** Benign commands put before a command, per tool. */
const PREFIXES = {
  Bash: ["ls; ", "echo hi\n", "FOO=1 true; ", "cd /tmp && "],
  PowerShell: ["Get-Location; ", "Write-Output hi\n", "$x = 1; "],
} as const;

/** A long benign head, per tool, for the work bound. */
const HEADS = { Bash: "echo a; ".repeat(200), PowerShell: "Write-Output a; ".repeat(100) } as const;

/** Registers the tests of `cases`, run by `tool` unless a case says otherwise, under `[destructive-bash-gate] <area>: …`. */
export function registerEvasionCases(
  area: string,
  cases: readonly EvasionCase[],
  tool: "Bash" | "PowerShell" = "Bash",
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
