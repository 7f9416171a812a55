/**
 * The shape of a destructive-command pack: the types every pack module
 * declares its rules with.
 *
 * A pack is a named table of rules, each of them data: the programs it
 * applies to, the subcommand path that must follow, the options or
 * operands that make the command destructive, the ones that make it a dry
 * run or read-only, and one line on what the command destroys. A rule whose
 * condition the fields cannot express carries a `test` over the scanned
 * arguments; it stays a pure function of them.
 *
 * The engine (`shell/destructive/destructive.ts`) reads every command, however nested
 * or wrapped, down to a program name and its arguments, and asks the active
 * packs' rules for that name through its matcher (`shell/destructive/rule_match.ts`).
 * A pack module only declares data.
 *
 * @module
 */

import type { OptionSpec, ScannedArgs } from "../programs/mod.ts";
import type { Dialect } from "../dialect.ts";

/** One step of a subcommand path: a word as written, or a pattern a word must match. */
export type PathStep = string | RegExp;

/** What a rule's test may read about one command. */
export interface RuleInput {
  /** The arguments after the program name, as the shell passes them. */
  readonly args: readonly string[];
  /**
   * The arguments sorted by the rule's option shape; `operands` holds only
   * the operands after the subcommand path.
   */
  readonly scan: ScannedArgs;
  /** Texts fed to the program's stdin that could be read (pipes, here-documents). */
  readonly stdin: readonly string[];
  /** Reads `text` as code of `dialect` with the same detector (a script the command runs). */
  readonly code: (dialect: Dialect, text: string) => boolean;
}

/**
 * A condition on a command's arguments. It holds when any one of its
 * fields matches; a rule that needs several at once lists several
 * conditions.
 */
export interface Condition {
  /** Any of these short option letters, alone or in a cluster. */
  readonly short?: string;
  /** Any of these long options, by full name or an abbreviation of it. */
  readonly long?: readonly string[];
  /** An operand after the subcommand path matches. */
  readonly operand?: RegExp;
  /** Any argument word, option or operand, as written, matches. */
  readonly arg?: RegExp;
  /** What the fields above cannot say. */
  readonly test?: (input: RuleInput) => boolean;
}

/** One destructive form. */
export interface PackRule {
  /** Unique across every pack, declared by one rule; `gateguard explain` prints `<pack>/<id>`. */
  readonly id: string;
  /**
   * Program names it applies to, as `programName` gives them (lower-case,
   * no directory, no `.exe`). A name ending in `*` matches by prefix.
   */
  readonly commands: readonly string[];
  /**
   * Subcommand path: its first step among the first three operands, every
   * later step the operand right after the one before (global options may
   * stand before the path).
   */
  readonly path?: readonly PathStep[];
  /** How the program's options take values, so a value is never read as an operand. */
  readonly options?: OptionSpec;
  /** What makes it destructive; every listed condition must hold. Absent: the path alone. */
  readonly when?: readonly Condition[];
  /** What makes it a dry run or read-only; any listed condition is enough. */
  readonly unless?: readonly Condition[];
  /**
   * Words that ask the program for usage instead of running it, written
   * after the subcommand path and before any operand (default `--help`).
   */
  readonly help?: readonly string[];
  /**
   * Options that make it fire where `when` says so only through a `test`:
   * an argument only known at run time is tried as each of them (the
   * letters and names `when` lists are tried without being listed here).
   */
  readonly worst?: readonly string[];
  /** One line on what it destroys, shown in the denial and by `gateguard explain`. */
  readonly destroys: string;
  /**
   * Other ways of writing the same destructive form (another program name,
   * through a package manager), each matched on its own fields alone. The
   * rule's id and `destroys` stand for all of them, so an id is declared
   * once.
   */
  readonly forms?: readonly RuleForm[];
}

/** One more way of writing a rule: every field that says what matches, none that names the rule. */
export type RuleForm = Omit<PackRule, "id" | "destroys" | "forms">;

/** A named table of rules. */
export interface Pack {
  /** The name operators switch it by. */
  readonly id: string;
  /** One line on what it covers. */
  readonly summary: string;
  /** Active unless switched off; an opt-in pack is inactive unless switched on. */
  readonly defaultOn: boolean;
  /** Cannot be switched off (the spec's own list). */
  readonly required?: true;
  /**
   * A dry-run or help option (`--dry-run`, `--help`) written anywhere
   * disarms every rule of the pack. Off for packs whose programs read
   * those words differently.
   */
  readonly dryRunsAndHelp?: boolean;
  readonly rules: readonly PackRule[];
}

/** The rule that found a command destructive. */
export interface DestructiveHit {
  readonly pack: string;
  readonly rule: string;
  readonly destroys: string;
}
