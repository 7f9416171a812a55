/**
 * Tables of destructive forms and their benign look-alikes, registered as
 * the three tests every evasion mechanism of the destructive gate gets:
 * the table itself, the property that a benign prefix never changes a
 * verdict, and a bound on the work counted (never timed) for the command
 * behind a long benign head.
 */

import { assert, assertEquals } from "./assert.ts";
import {
  destructiveHit,
  findDestructive,
  forgetParts,
  indexRules,
  loadAllParts,
  loadedParts,
  newDetectBudget,
  type PartName,
} from "../../src/shell/destructive/mod.ts";
import { PACK_MANIFEST, type PackEntry } from "../../src/shell/packs/mod.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import type { ShellDialect } from "../../src/shell/dialect.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();

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

  Deno.test(`[lazy-loading] ${area}: read with no part of the engine loaded, every command gets the same answer for the same work`, async () => {
    const differ: string[] = [];
    for (const c of cases) {
      const shell = c.tool ?? tool;
      differ.push(...(await readFromNothing(shell, [...c.destructive, ...c.benign])).differ);
    }
    assertEquals(differ, []);
  });

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

/** What reading a command found, the work it cost, and the engine parts it loaded. */
interface Reading {
  hit: string | null;
  chars: number;
  analyses: number;
  work: number;
}

function reading(
  hit: { pack: string; rule: string } | null,
  budget: ReturnType<typeof newDetectBudget>,
  start: { chars: number; left: number },
): Reading {
  return {
    hit: hit === null ? null : `${hit.pack}/${hit.rule}`,
    chars: start.chars - budget.chars,
    analyses: start.left - budget.left,
    work: budget.work?.spent ?? 0,
  };
}

/**
 * Reads each of `commands` with no part of the engine loaded, as a new hook
 * process does (`findDestructive` loads what the command reaches and reads
 * it again), and returns the commands whose answer or work differs from the
 * fully loaded engine's, with the parts each command made load.
 */
export async function readFromNothing(
  shell: ShellDialect,
  commands: readonly string[],
  packs: readonly PackEntry[] = PACK_MANIFEST.filter((p) => p.defaultOn),
): Promise<{ differ: string[]; loads: Map<string, PartName[]> }> {
  const differ: string[] = [];
  const loads = new Map<string, PartName[]>();
  for (const command of commands) {
    await loadAllParts();
    const full = newDetectBudget(new WorkBudget());
    const fullStart = { ...full };
    const expected = reading(
      destructiveHit(shell, command, [], indexRules(packs), full),
      full,
      fullStart,
    );
    forgetParts();
    const lazy = newDetectBudget(new WorkBudget());
    const lazyStart = { ...lazy };
    const found = await findDestructive(shell, command, [], packs, lazy);
    const got = reading(found, lazy, lazyStart);
    loads.set(command, loadedParts());
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      differ.push(`${command}: ${JSON.stringify(got)} != ${JSON.stringify(expected)}`);
    }
  }
  await loadAllParts();
  return { differ, loads };
}
