/**
 * Glob matching without regular expressions.
 *
 * A pattern is parsed into tokens once (`compileGlob`, cached per pattern
 * and options) and its brace alternatives are expanded up front. All
 * alternatives then run together as one automaton over bit sets
 * (`matchGlob`, running `glob/automaton.ts`): each character of the text moves every live position at
 * once, 32 positions to a machine word. The cost is the text length times
 * the word count, so a hostile pattern such as `*a*a*a*a*b` cannot
 * backtrack, and a long pattern against a long path stays linear in the
 * path. Callers pass the call's work budget (platform/budget.ts); a match
 * or a parse the budget refuses is `"invalid"`. Every failure to judge is
 * reported as `"invalid"`, never as a plain miss, so callers can fail
 * closed.
 *
 * Syntax: `*` (within one segment), `**` as a whole segment (across
 * segments; `**` followed by `/` also matches zero directories), `?` (one
 * character, not `/`), bracket classes `[...]` with members, ranges, `!`/`^`
 * negation and a leading literal `]`, and braces `{a,b}` (nested allowed).
 * An unclosed class or a reversed range is malformed; an unbalanced `{` or
 * `}` is a literal. There are no escapes: `\` is an ordinary character.
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";
import {
  type CompiledGlob,
  type GlobClassRange,
  type GlobToken,
  runAutomaton,
} from "./automaton.ts";

export type { CompiledGlob, GlobClassRange, GlobToken } from "./automaton.ts";

/** Longest pattern accepted, in UTF-16 code units; longer ones are past bounds. */
export const GLOB_MAX_PATTERN = 256;

/** Most alternatives a pattern may expand to through its braces. */
export const GLOB_MAX_ALTERNATIVES = 32;

/** Longest text matched, in UTF-16 code units; longer texts are judged `"invalid"`. */
export const GLOB_MAX_TEXT = 8192;

/** How a pattern is read. */
export interface GlobOptions {
  /**
   * Git pathspec style: `*`, `?` and bracket classes also match `/`, and
   * `**` has no directory meaning. Default false (path-glob style).
   */
  readonly slashWildcards?: boolean;
  /** Match case-insensitively. Default false. */
  readonly foldCase?: boolean;
  /** Expand `{a,b}` alternatives. Default true; false reads braces literally. */
  readonly braces?: boolean;
}

/** Outcome of a match: `"invalid"` when the pattern or the text cannot be judged. */
export type GlobResult = "match" | "no-match" | "invalid";

/** Parse tree before brace expansion. */
type Item =
  | { kind: "literal"; char: string }
  | { kind: "one" }
  | { kind: "star" }
  | { kind: "class"; negated: boolean; ranges: GlobClassRange[] }
  | { kind: "alt"; options: Item[][] };

type FlatItem = Exclude<Item, { kind: "alt" }>;

/** Index of the `]` closing the class opened at `open`, or -1 when it is unclosed. */
function classEnd(chars: readonly string[], open: number): number {
  let i = open + 1;
  if (chars[i] === "!" || chars[i] === "^") i++;
  // A `]` right after the opening (and negation) is a member, not the end.
  if (chars[i] === "]") i++;
  while (i < chars.length && chars[i] !== "]") i++;
  return i < chars.length ? i : -1;
}

/** Parses the class between `open` and `close`; null for a reversed range such as `[z-a]`. */
function parseClass(chars: readonly string[], open: number, close: number): Item | null {
  let i = open + 1;
  const negated = chars[i] === "!" || chars[i] === "^";
  if (negated) i++;
  const ranges: GlobClassRange[] = [];
  while (i < close) {
    const lo = chars[i].codePointAt(0)!;
    if (chars[i + 1] === "-" && i + 2 < close) {
      const hi = chars[i + 2].codePointAt(0)!;
      if (hi < lo) return null;
      ranges.push({ lo, hi });
      i += 3;
    } else {
      ranges.push({ lo, hi: lo });
      i++;
    }
  }
  return { kind: "class", negated, ranges };
}

/** Classes by opening index, and brace pairs with their top-level commas: one scan. */
interface Plan {
  classes: Map<number, { item: Item; close: number }>;
  closeOf: Map<number, number>;
  commasOf: Map<number, number[]>;
}

function scanPattern(chars: readonly string[], braces: boolean): Plan | null {
  const plan: Plan = { classes: new Map(), closeOf: new Map(), commasOf: new Map() };
  const stack: { open: number; commas: number[] }[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "[") {
      const close = classEnd(chars, i);
      const item = close < 0 ? null : parseClass(chars, i, close);
      if (!item) return null;
      plan.classes.set(i, { item, close });
      i = close;
    } else if (!braces) {
      continue;
    } else if (c === "{") {
      stack.push({ open: i, commas: [] });
    } else if (c === "," && stack.length > 0) {
      stack[stack.length - 1].commas.push(i);
    } else if (c === "}" && stack.length > 0) {
      const top = stack.pop()!;
      plan.closeOf.set(top.open, i);
      plan.commasOf.set(top.open, top.commas);
    }
  }
  return plan;
}

const WILDCARDS: ReadonlyMap<string, Item> = new Map<string, Item>([
  ["*", { kind: "star" }],
  ["?", { kind: "one" }],
]);

/** Literal items and tokens by character: never changed, so every pattern shares them. */
const literals = new Map<string, { kind: "literal"; char: string }>();

/** The one literal item (and token) of `char`; a bounded count of them are kept. */
function literalOf(char: string): { kind: "literal"; char: string } {
  let literal = literals.get(char);
  if (!literal) {
    literal = { kind: "literal", char };
    if (literals.size < COMPILE_CACHE_ENTRIES) literals.set(char, literal);
  }
  return literal;
}

function parseRange(chars: readonly string[], plan: Plan, start: number, end: number): Item[] {
  const items: Item[] = [];
  let i = start;
  while (i < end) {
    const c = chars[i];
    const cls = plan.classes.get(i);
    const close = plan.closeOf.get(i);
    if (cls) {
      items.push(cls.item);
      i = cls.close + 1;
    } else if (c === "{" && close !== undefined) {
      const cuts = [i, ...plan.commasOf.get(i)!, close];
      const options: Item[][] = [];
      for (let k = 0; k + 1 < cuts.length; k++) {
        options.push(parseRange(chars, plan, cuts[k] + 1, cuts[k + 1]));
      }
      items.push({ kind: "alt", options });
      i = close + 1;
    } else {
      items.push(WILDCARDS.get(c) ?? literalOf(c));
      i++;
    }
  }
  return items;
}

/** Number of alternatives `items` expands to, saturated just past the bound. */
function countAlternatives(items: readonly Item[]): number {
  let product = 1;
  for (const item of items) {
    if (item.kind !== "alt") continue;
    let sum = 0;
    for (const option of item.options) {
      sum = Math.min(sum + countAlternatives(option), GLOB_MAX_ALTERNATIVES + 1);
    }
    product = Math.min(product * sum, GLOB_MAX_ALTERNATIVES + 1);
  }
  return product;
}

function expand(items: readonly Item[]): FlatItem[][] {
  let out: FlatItem[][] = [[]];
  for (const item of items) {
    if (item.kind !== "alt") {
      for (const seq of out) seq.push(item);
      continue;
    }
    const tails = item.options.flatMap(expand);
    out = out.flatMap((head) => tails.map((tail) => [...head, ...tail]));
  }
  return out;
}

const isSlash = (item: FlatItem | undefined): boolean =>
  item !== undefined && item.kind === "literal" && item.char === "/";

/** The wildcard tokens, one object each: tokens are never changed, so patterns share them. */
const ANY: GlobToken = { kind: "any" };
const DIRS: GlobToken = { kind: "dirs" };
const STAR: GlobToken = { kind: "star" };

function tokenize(flat: readonly FlatItem[], slashWildcards: boolean, fold: boolean): GlobToken[] {
  const tokens: GlobToken[] = [];
  let i = 0;
  while (i < flat.length) {
    const item = flat[i];
    if (item.kind === "literal") {
      tokens.push(literalOf(fold ? item.char.toLowerCase() : item.char));
      i++;
      continue;
    }
    if (item.kind !== "star") {
      tokens.push(item);
      i++;
      continue;
    }
    let end = i;
    while (end < flat.length && flat[end].kind === "star") end++;
    const wholeSegment = end - i >= 2 && (i === 0 || isSlash(flat[i - 1])) &&
      (end === flat.length || isSlash(flat[end]));
    if (slashWildcards) {
      tokens.push(ANY);
    } else if (!wholeSegment) {
      tokens.push(STAR);
    } else if (end === flat.length) {
      tokens.push(ANY);
    } else {
      tokens.push(DIRS);
      end++; // the `/` belongs to the `dirs` token
    }
    i = end;
  }
  return tokens;
}

/**
 * Compiled patterns by options and text, so a pattern seen again is parsed
 * once per process; with the tokens it was charged for (null: malformed).
 */
const compiled = new Map<string, { glob: CompiledGlob | null; tokens: number }>();

/** Units charged per match on top of the characters, for the work around them. */
const CALL_UNITS = 16;

/**
 * Units charged per pattern, on top of its characters and tokens: parsing,
 * expanding the braces and building the automaton allocate a few
 * kilobytes, which in a fresh hook process took about 200 µs for a pattern
 * seen once, as much as matching several thousand characters.
 */
export const GLOB_PARSE_UNITS = 8192;

/** Entries the compile cache holds before it starts over; bounds its memory. */
const COMPILE_CACHE_ENTRIES = 4096;

/** The patterns each call's budget has paid for, by cache key. */
const paidBy = new WeakMap<WorkBudget, Set<string>>();

/**
 * Charges `budget` for parsing the pattern of `key` (`units` in all), once
 * per call: a call pays for each pattern it uses, whatever earlier calls in
 * the same process parsed, and a pattern it asks for again is free.
 */
function payParse(budget: WorkBudget | undefined, key: string, units: number): boolean {
  if (!budget) return true;
  let paid = paidBy.get(budget);
  if (paid?.has(key)) return true;
  if (!budget.spend(units, "glob")) return false;
  if (!paid) paidBy.set(budget, paid = new Set());
  paid.add(key);
  return true;
}

/**
 * Parses `pattern`. Returns null when it is malformed (an unclosed bracket
 * class or a reversed range) or past bounds (over `GLOB_MAX_PATTERN`
 * characters, or more than `GLOB_MAX_ALTERNATIVES` brace alternatives), and
 * when `budget` refuses the parse (`GLOB_PARSE_UNITS`, the pattern length
 * and the tokens of its alternatives, once per budget). The process keeps
 * what it parsed, so a pattern seen again is not parsed again, but each
 * call's budget pays for it the first time that call asks.
 */
export function compileGlob(
  pattern: string,
  options: GlobOptions = {},
  budget?: WorkBudget,
): CompiledGlob | null {
  if (pattern.length > GLOB_MAX_PATTERN) return null;
  const slashWildcards = options.slashWildcards ?? false;
  const foldCase = options.foldCase ?? false;
  const braces = options.braces ?? true;
  const key = `${+slashWildcards}${+foldCase}${+braces}\u0000${pattern}`;
  const known = compiled.get(key);
  if (known !== undefined) {
    const units = GLOB_PARSE_UNITS + pattern.length + known.tokens;
    return payParse(budget, key, units) ? known.glob : null;
  }
  // Asked before parsing: a budget that cannot pay for the pattern's
  // characters is refused (and stays spent) before any work.
  if (budget && budget.remaining < GLOB_PARSE_UNITS + pattern.length) {
    budget.spend(GLOB_PARSE_UNITS + pattern.length, "glob");
    return null;
  }
  const chars = Array.from(pattern);
  const found = scanPattern(chars, braces);
  let glob: CompiledGlob | null = null;
  let tokens = 0;
  if (found) {
    const items = parseRange(chars, found, 0, chars.length);
    if (countAlternatives(items) <= GLOB_MAX_ALTERNATIVES) {
      const flat = expand(items);
      tokens = flat.reduce((n, f) => n + f.length, 0);
      const alternatives = flat.map((f) => tokenize(f, slashWildcards, foldCase));
      glob = { source: pattern, slashWildcards, foldCase, alternatives };
    }
  }
  if (!payParse(budget, key, GLOB_PARSE_UNITS + pattern.length + tokens)) return null;
  if (compiled.size >= COMPILE_CACHE_ENTRIES) compiled.clear();
  compiled.set(key, { glob, tokens });
  return glob;
}

/**
 * Matches a compiled glob against the whole of `text`. With a `budget`, each
 * word step of the automaton is one unit; a match the budget cannot pay for
 * is stopped and is `"invalid"`, the same as any other failure to judge.
 */
export function matchGlob(glob: CompiledGlob, text: string, budget?: WorkBudget): GlobResult {
  return matchRun(glob, text, budget, false);
}

/**
 * Like `matchGlob`, but also a match when the glob matches `text` up to one
 * of its `/` (a directory the path lies in): what `glob` and `glob/**`
 * match together, in one run.
 */
export function matchGlobOrAncestor(
  glob: CompiledGlob,
  text: string,
  budget?: WorkBudget,
): GlobResult {
  return matchRun(glob, text, budget, true);
}

function matchRun(
  glob: CompiledGlob,
  text: string,
  budget: WorkBudget | undefined,
  ancestors: boolean,
): GlobResult {
  if (text.length > GLOB_MAX_TEXT) return "invalid";
  if (budget && !budget.spend(CALL_UNITS + text.length, "glob")) return "invalid";
  const limit = budget?.remaining ?? Infinity;
  const run = runAutomaton(glob, text, limit, ancestors);
  if (run === null) {
    budget?.spend(Infinity, "glob");
    return "invalid";
  }
  budget?.spend(run.steps, "glob");
  return run.matched ? "match" : "no-match";
}

/** Compiles `pattern` and matches it against `text`; `"invalid"` when the pattern does not compile. */
export function globMatch(
  pattern: string,
  text: string,
  options: GlobOptions = {},
  budget?: WorkBudget,
): GlobResult {
  const glob = compileGlob(pattern, options, budget);
  return glob ? matchGlob(glob, text, budget) : "invalid";
}
