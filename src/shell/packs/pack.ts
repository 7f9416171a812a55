/**
 * The shape of a destructive-command pack and the one matcher every pack
 * rule goes through.
 *
 * A pack is a named table of rules, each of them data: the programs it
 * applies to, the subcommand path that must follow, the options or
 * operands that make the command destructive, the ones that make it a dry
 * run or read-only, and one line on what the command destroys. A rule whose
 * condition the fields cannot express carries a `test` over the scanned
 * arguments; it stays a pure function of them.
 *
 * The engine (`shell/destructive.ts`) reads every command, however nested
 * or wrapped, down to a program name and its arguments, and asks the active
 * packs' rules for that name. A pack module only declares data.
 *
 * @module
 */

import {
  hasLong,
  hasShort,
  mayBeAnyOption,
  type OptionSpec,
  scanArgs,
  type ScannedArgs,
} from "../options.ts";
import type { Dialect } from "../wrappers.ts";

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
  /** Unique within its pack; `gateguard explain` prints `<pack>/<id>`. */
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
}

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

/** Values of `--dry-run=` that still run for real. */
const REAL_RUN = new Set(["none", "false", "0", "no", "off"]);

/** A dry-run or help option among `args` before any `--`, as most command-line tools spell them. */
export function dryRunOrHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((a) => {
    if (a === "--help" || a === "--dryrun" || a === "--dry-run" || a === "--whatif") return true;
    if (!a.startsWith("--dry-run=")) return false;
    return !REAL_RUN.has(a.slice("--dry-run=".length).toLowerCase());
  });
}

const DEFAULT_HELP = ["--help"];

/**
 * Whether the command asks for usage: a help word of the rule after its
 * subcommand path, before any operand after it and before `--`, and not
 * the value of an option. Programs that permute their arguments would
 * also honour a later one; programs that do not would delete the operands
 * first, so a later one never counts.
 */
export function asksForHelp(rule: PackRule, args: readonly string[]): boolean {
  const words = rule.help ?? DEFAULT_HELP;
  const path = rule.path ?? [];
  const shortValue = rule.options?.shortValue ?? "";
  const longValue = rule.options?.longValue ?? [];
  let matched = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return false;
    if (words.includes(a)) return matched === path.length;
    if (a.startsWith("--")) {
      if (!a.includes("=") && longValue.includes(a.slice(2))) i++;
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      const at = [...a.slice(1)].findIndex((c) => shortValue.includes(c));
      if (at === a.length - 2) i++;
      continue;
    }
    if (matched < path.length) {
      if (stepMatches(path[matched], a)) matched++;
      continue;
    }
    return false;
  }
  return false;
}

/** Whether word `word` is the step `step`. */
function stepMatches(step: PathStep, word: string): boolean {
  return typeof step === "string" ? step === word : step.test(word);
}

/** Where the path ends among `operands` (index after its last step), or -1 when it is absent. */
export function pathEnd(path: readonly PathStep[], operands: readonly string[]): number {
  if (path.length === 0) return 0;
  for (let start = 0; start < Math.min(3, operands.length); start++) {
    if (!stepMatches(path[0], operands[start])) continue;
    let k = 1;
    while (k < path.length && start + k < operands.length) {
      if (!stepMatches(path[k], operands[start + k])) break;
      k++;
    }
    if (k === path.length) return start + k;
  }
  return -1;
}

function conditionHolds(c: Condition, input: RuleInput): boolean {
  if (c.short !== undefined && hasShort(input.scan, c.short)) return true;
  if (c.long !== undefined && hasLong(input.scan, ...c.long)) return true;
  if (c.operand !== undefined && input.scan.operands.some((o) => c.operand!.test(o))) return true;
  if (c.arg !== undefined && input.args.some((a) => c.arg!.test(a))) return true;
  return c.test !== undefined && c.test(input);
}

/** Whether `rule` finds the command destructive. */
export function ruleMatches(
  rule: PackRule,
  args: readonly string[],
  stdin: readonly string[],
  code: RuleInput["code"],
): boolean {
  const scan = scanArgs(args, rule.options);
  const end = pathEnd(rule.path ?? [], scan.operands);
  if (end < 0) return false;
  const input: RuleInput = {
    args,
    scan: { ...scan, operands: scan.operands.slice(end) },
    stdin,
    code,
  };
  if (rule.unless?.some((c) => conditionHolds(c, input))) return false;
  return (rule.when ?? []).every((c) => conditionHolds(c, input));
}

/** The option words of `rule` an unknown argument is tried as, by rule: a memo of a pure function. */
const WORST_MEMO = new WeakMap<PackRule, readonly string[]>();

/** One cluster of every short letter `when` lists, each long option it lists, and `worst`. */
function worstOptions(rule: PackRule): readonly string[] {
  const known = WORST_MEMO.get(rule);
  if (known !== undefined) return known;
  const when = rule.when ?? [];
  const letters = when.map((c) => c.short ?? "").join("");
  const words = [
    ...(letters === "" ? [] : [`-${letters}`]),
    ...when.flatMap((c) => (c.long ?? []).map((l) => `--${l}`)),
    ...(rule.worst ?? []),
  ];
  WORST_MEMO.set(rule, words);
  return words;
}

/**
 * Whether `rule` finds the command destructive once each argument only
 * known at run time (`rm $o x`, `git reset "$@"`) is read as the worst it
 * could be: an option that makes the rule fire, or, standing first among
 * the operands, the subcommand the rule names (`git $x --hard`). An
 * argument after `--`, or the value of an option, stays what it is.
 */
export function worstCaseMatches(
  rule: PackRule,
  args: readonly string[],
  stdin: readonly string[],
  code: RuleInput["code"],
): boolean {
  if (!args.some(mayBeAnyOption)) return false;
  const options = worstOptions(rule);
  const as = (w: string | null) => (a: string) => w !== null && mayBeAnyOption(a) ? w : a;
  if (options.some((w) => ruleMatches(rule, args.map(as(w)), stdin, code))) return true;
  const step = rule.path?.[0];
  if (typeof step !== "string") return false;
  const first = scanArgs(args, rule.options).operands[0];
  const at = first !== undefined && mayBeAnyOption(first) ? args.indexOf(first) : -1;
  if (at < 0) return false;
  return [null, ...options].some((w) => {
    const tried = args.map((a, k) => k === at ? step : as(w)(a));
    return ruleMatches(rule, tried, stdin, code);
  });
}

/** Whether a rule's command list names `name`. */
export function namesCommand(commands: readonly string[], name: string): boolean {
  return commands.some((c) => c.endsWith("*") ? name.startsWith(c.slice(0, -1)) : c === name);
}
