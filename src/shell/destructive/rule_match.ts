/**
 * The rule matcher: how the engine asks one pack rule about a program run
 * with its arguments (subcommand path, conditions, dry-run and help words,
 * the worst reading of arguments only known at run time), and the index of
 * the active packs' rules by program name it looks rules up in.
 *
 * @module
 */

import { hasLong, hasShort, mayBeAnyOption, scanArgs, takesValue } from "../programs/mod.ts";
import type { Condition, PackEntry, PackRule, PathStep, RuleInput } from "../packs/mod.ts";
import { loadedPack } from "./parts.ts";
import type { ActiveRule, RuleIndex } from "./detect_types.ts";

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
  const short = rule.options?.short;
  const long = rule.options?.long;
  let matched = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return false;
    if (words.includes(a)) return matched === path.length;
    if (a.startsWith("--")) {
      if (!a.includes("=") && takesValue(long, a.slice(2))) i++;
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      const at = [...a.slice(1)].findIndex((c) => takesValue(short, c));
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

const INDEX_MEMO = new Map<string, RuleIndex>();

/** `rule` and each of its other forms, every one a rule of the same id that matches on its own fields. */
function ruleForms(rule: PackRule): PackRule[] {
  return [rule, ...(rule.forms ?? []).map((f) => ({ ...f, id: rule.id, destroys: rule.destroys }))];
}

/**
 * The rules of the active packs (`entries`) by the program names they apply
 * to. A pack whose rules are not loaded yet lists its program names as
 * pending instead, so a command that reaches one asks for the pack
 * (`pendingPack`). Memoised per set of packs and what of it is loaded.
 */
export function indexRules(entries: readonly PackEntry[]): RuleIndex {
  const packs = entries.map((e) => e.pack ?? loadedPack(e.id));
  const key = entries.map((e, i) => `${e.id}${packs[i] ? "" : "?"}`).join(",");
  const known = INDEX_MEMO.get(key);
  if (known !== undefined) return known;
  const byName = new Map<string, ActiveRule[]>();
  const byPrefix: { prefix: string; rule: ActiveRule }[] = [];
  const pending = new Map<string, string>();
  const pendingPrefix: { prefix: string; pack: string }[] = [];
  entries.forEach((entry, i) => {
    const pack = packs[i];
    if (pack === undefined) {
      for (const name of entry.commands) {
        if (name.endsWith("*")) pendingPrefix.push({ prefix: name.slice(0, -1), pack: entry.id });
        else if (!pending.has(name)) pending.set(name, entry.id);
      }
      return;
    }
    for (const rule of pack.rules.flatMap(ruleForms)) {
      const active = { pack: pack.id, rule, dryRunsAndHelp: pack.dryRunsAndHelp ?? false };
      for (const name of rule.commands) {
        if (name.endsWith("*")) byPrefix.push({ prefix: name.slice(0, -1), rule: active });
        else byName.set(name, [...(byName.get(name) ?? []), active]);
      }
    }
  });
  const index: RuleIndex = {
    byName,
    byPrefix,
    packs: new Set(entries.map((e) => e.id)),
    pending,
    pendingPrefix,
  };
  INDEX_MEMO.set(key, index);
  return index;
}

/** The id of an active pack not loaded yet whose rules apply to `name`, or null. */
export function pendingPack(rules: RuleIndex, name: string): string | null {
  return rules.pending.get(name) ??
    rules.pendingPrefix.find((p) => name.startsWith(p.prefix))?.pack ?? null;
}
