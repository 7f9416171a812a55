/**
 * What the parts of the destructive detector share: where an analysis is
 * (its depth, the call's budget, the active rules) and the engine's entry
 * points as a port, so the dialect readers (Bash, PowerShell, cmd.exe) and
 * the fail-closed token scan can hand nested code back to the engine
 * without importing it.
 *
 * @module
 */

import type { DestructiveHit, PackRule } from "../packs/mod.ts";
import type { Dialect } from "../dialect.ts";
import type { Unwrapped } from "./unwrapped.ts";
import type { WorkBudget } from "../../platform/budget.ts";

/** A pack rule with the pack it came from. */
export interface ActiveRule {
  readonly pack: string;
  readonly rule: PackRule;
  /** The pack's dry-run and help options disarm the rule. */
  readonly dryRunsAndHelp: boolean;
}

/** The active packs' rules by program name, and the ones that match names by prefix. */
export interface RuleIndex {
  readonly byName: ReadonlyMap<string, readonly ActiveRule[]>;
  readonly byPrefix: readonly { prefix: string; rule: ActiveRule }[];
  /** Every active pack's id. */
  readonly packs: ReadonlySet<string>;
  /** The program names of active packs whose rules are not loaded yet, with the pack's id. */
  readonly pending: ReadonlyMap<string, string>;
  /** The same for the names those packs match by prefix. */
  readonly pendingPrefix: readonly { prefix: string; pack: string }[];
}

/**
 * The detector's allowance within one call: full analyses and characters
 * of scripts left, the characters the fail-closed scan read (a count for
 * tests and the bench), and the call's shared work budget, which every full
 * analysis also draws on.
 */
export interface DetectBudget {
  left: number;
  chars: number;
  scanned: number;
  work: WorkBudget | null;
}

/** Where the analysis is: how deep in wrappers and scripts, the call's budget and rules. */
export interface Walk {
  readonly depth: number;
  readonly budget: DetectBudget;
  readonly rules: RuleIndex;
  /** Environment variables the command line assigns, each with the values it may get. */
  readonly env?: ReadonlyMap<string, readonly string[]>;
  /**
   * The arguments come from a crude token reading, where a `--help` or a
   * dry-run option may belong to another command or never reach this one:
   * they disarm nothing.
   */
  readonly crude?: boolean;
  /**
   * The command was found by trying an unknown program's arguments as
   * starts: its own arguments are not tried again (the outer scan does).
   */
  readonly guessed?: boolean;
}

/** A verdict: the rule that fired, or null for a command that destroys nothing. */
export type Verdict = DestructiveHit | null;

/** The engine as the dialect readers call it. */
export interface Engine {
  /** Reads `text` as code of `dialect`. */
  code(dialect: Dialect, text: string, walk: Walk, stdin: readonly string[]): Verdict;
  /** Reads `text` as a script a shell runs: one made only of unset variables is destructive. */
  script(dialect: Dialect, text: string, walk: Walk, stdin: readonly string[]): Verdict;
  /** Checks what `unwrapCommand` found in one command. */
  unwrapped(u: Unwrapped, stdin: readonly string[], walk: Walk, raw: string): Verdict;
  /** Checks one program run with its arguments. */
  program(name: string, args: readonly string[], stdin: readonly string[], walk: Walk): Verdict;
  /** Asks the active packs' rules about one program run with its arguments, nothing unwrapped. */
  rules(name: string, args: readonly string[], stdin: readonly string[], walk: Walk): Verdict;
  /** The fail-closed reading of raw text. */
  raw(text: string, walk: Walk): Verdict;
  /** The hit of a core rule by id. */
  core(rule: string): DestructiveHit;
}

/** Charges `units` of work short of a full analysis; false once the budget is spent. */
export function spend(walk: Walk, units: number): boolean {
  const budget = walk.budget;
  budget.chars -= units;
  const shared = budget.work === null || budget.work.spend(units, "command");
  return shared && budget.chars >= 0;
}

/** Takes one analysis of `size` characters from the budget; false once it is spent. */
export function afford(walk: Walk, size: number): boolean {
  walk.budget.left--;
  return spend(walk, size) && walk.budget.left >= 0;
}

/** One level deeper, same budget, rules and environment. */
export function deeper(walk: Walk): Walk {
  return { ...walk, depth: walk.depth + 1 };
}
