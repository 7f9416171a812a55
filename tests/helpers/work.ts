/**
 * Assertions on counted work, the machine-independent stand-in for timing:
 * a reader that exposes a step count is checked to spend a bounded number
 * of steps per character, and to spend at most about twice the steps when
 * its input doubles.
 *
 * @module
 */

import { assert } from "./assert.ts";
import { type BudgetCheckpoint, WorkBudget } from "../../src/platform/budget.ts";

/** Most steps the Bash lexer and parser spend per character of any input (`BashParse.steps`). */
export const BASH_STEPS_PER_CHAR = 4;

/** Most steps the PowerShell lexer spends per character of any input (`PsParse.steps`). */
export const POWERSHELL_STEPS_PER_CHAR = 8;

/** Extra steps a doubled input may cost beyond twice the single one (fixed start-up work). */
const FIXED_STEPS = 64;

/**
 * Asserts that `steps(2n)` stays within `2 * slack` times `steps(n)` (plus
 * a small fixed allowance), where `steps(k)` is the work spent on the input
 * `build(k)`: doubling the input must not quadruple the work.
 */
export function assertLinearWork(
  label: string,
  build: (copies: number) => string,
  copies: number,
  steps: (text: string) => number,
  slack = 1.05,
): void {
  const single = steps(build(copies));
  const doubled = steps(build(2 * copies));
  assert(
    doubled <= 2 * slack * single + FIXED_STEPS,
    `${label}: ${single} steps, then ${doubled} steps doubled`,
  );
}

/** Asserts that `spent` is at most `perChar` steps per character of `text` (plus fixed work). */
export function assertStepsPerChar(
  label: string,
  text: string,
  spent: number,
  perChar: number,
): void {
  assert(
    spent <= perChar * text.length + FIXED_STEPS,
    `${label}: ${spent} steps on ${text.length} characters`,
  );
}

/**
 * A work budget that also counts the units each analysis was granted, by
 * its label, and how often a reading gave its work back (`restore`).
 */
export class CountingBudget extends WorkBudget {
  readonly by = new Map<string, number>();
  restores = 0;

  override spend(units: number, what: string): boolean {
    const ok = super.spend(units, what);
    if (ok) this.by.set(what, (this.by.get(what) ?? 0) + units);
    return ok;
  }

  /** The units granted to the analysis `what`. */
  units(what: string): number {
    return this.by.get(what) ?? 0;
  }

  override restore(at: BudgetCheckpoint): void {
    this.restores++;
    super.restore(at);
  }
}
