/**
 * Glob matching without regular expressions.
 *
 * A pattern is parsed into tokens once (`compileGlob`, cached per pattern
 * and options) and its brace alternatives are expanded up front. All
 * alternatives then run together as one automaton over bit sets
 * (`matchGlob`): each character of the text moves every live position at
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

/** One inclusive code-point range of a bracket class (a single member has `lo === hi`). */
export interface GlobClassRange {
  readonly lo: number;
  readonly hi: number;
}

/** One matching step of a compiled alternative. */
export type GlobToken =
  | { readonly kind: "literal"; readonly char: string }
  /** `?`: one character. */
  | { readonly kind: "one" }
  /** `*`: any run of characters within a segment. */
  | { readonly kind: "star" }
  /** `**` at the end of a segment chain (or any wildcard run in pathspec style): anything. */
  | { readonly kind: "any" }
  /** `**` followed by `/`: nothing, or anything that ends in `/`. */
  | { readonly kind: "dirs" }
  | {
    readonly kind: "class";
    readonly negated: boolean;
    readonly ranges: readonly GlobClassRange[];
  };

/** A parsed pattern, ready to match many texts. */
export interface CompiledGlob {
  /** The pattern as given. */
  readonly source: string;
  /** See `GlobOptions.slashWildcards`. */
  readonly slashWildcards: boolean;
  /** See `GlobOptions.foldCase`; literals are stored lowercased when set. */
  readonly foldCase: boolean;
  /** The brace-expanded alternatives; the glob matches when any of them does. */
  readonly alternatives: readonly (readonly GlobToken[])[];
}

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
      items.push(WILDCARDS.get(c) ?? { kind: "literal", char: c });
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

function tokenize(flat: readonly FlatItem[], slashWildcards: boolean, fold: boolean): GlobToken[] {
  const tokens: GlobToken[] = [];
  let i = 0;
  while (i < flat.length) {
    const item = flat[i];
    if (item.kind === "literal") {
      tokens.push({ kind: "literal", char: fold ? item.char.toLowerCase() : item.char });
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
      tokens.push({ kind: "any" });
    } else if (!wholeSegment) {
      tokens.push({ kind: "star" });
    } else if (end === flat.length) {
      tokens.push({ kind: "any" });
    } else {
      tokens.push({ kind: "dirs" });
      end++; // the `/` belongs to the `dirs` token
    }
    i = end;
  }
  return tokens;
}

/** Compiled patterns by options and text, so a pattern seen again in one call is parsed once. */
const compiled = new Map<string, CompiledGlob | null>();

/** Units charged per match and per parse on top of the characters, for the work around them. */
const CALL_UNITS = 16;

/** Entries the compile cache holds before it starts over; bounds its memory. */
const COMPILE_CACHE_ENTRIES = 4096;

/**
 * Parses `pattern`. Returns null when it is malformed (an unclosed bracket
 * class or a reversed range) or past bounds (over `GLOB_MAX_PATTERN`
 * characters, or more than `GLOB_MAX_ALTERNATIVES` brace alternatives), and
 * when `budget` refuses the parse (charged the pattern length, then the
 * tokens of its alternatives). A pattern compiled before with the same
 * options is not parsed or charged again.
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
  if (known !== undefined) return known;
  if (budget && !budget.spend(CALL_UNITS + pattern.length, "glob")) return null;
  const chars = Array.from(pattern);
  const found = scanPattern(chars, braces);
  let glob: CompiledGlob | null = null;
  if (found) {
    const items = parseRange(chars, found, 0, chars.length);
    if (countAlternatives(items) <= GLOB_MAX_ALTERNATIVES) {
      const flat = expand(items);
      if (budget && !budget.spend(flat.reduce((n, f) => n + f.length, 0), "glob")) return null;
      const alternatives = flat.map((f) => tokenize(f, slashWildcards, foldCase));
      glob = { source: pattern, slashWildcards, foldCase, alternatives };
    }
  }
  if (compiled.size >= COMPILE_CACHE_ENTRIES) compiled.clear();
  compiled.set(key, glob);
  return glob;
}

function inRanges(ranges: readonly GlobClassRange[], char: string): boolean {
  const cp = char.codePointAt(0)!;
  return ranges.some((r) => cp >= r.lo && cp <= r.hi);
}

function classMatches(
  token: Extract<GlobToken, { kind: "class" }>,
  char: string,
  fold: boolean,
): boolean {
  const member = inRanges(token.ranges, char) ||
    (fold && (inRanges(token.ranges, char.toUpperCase()) ||
      inRanges(token.ranges, char.toLowerCase())));
  return member !== token.negated;
}

/** What one character does: the positions it moves forward, and those it keeps live. */
interface Step {
  advance: Uint32Array;
  stay: Uint32Array;
}

/** Characters below this code are looked up in an array, not a map. */
const ASCII = 128;

/**
 * All alternatives of a glob as one automaton over bit sets, one bit per
 * position: alternative `k` owns the positions `offset[k]` to
 * `offset[k] + tokens.length`, the last of them its accepting position. A
 * character moves every live position at once, 32 to a word, so matching
 * costs the text length times the word count: linear in the text, with no
 * backtracking and no per-position loop.
 */
interface Automaton {
  /** Words per bit set. */
  words: number;
  /** The start positions, closed over the wildcards that may match nothing. */
  start: Uint32Array;
  /** Accepting positions. */
  accept: Uint32Array;
  /** Positions of `*`, `**` and `**\/` tokens, which may be left without reading. */
  empty: Uint32Array;
  /** Positions of `**\/` tokens, which read anything but may be left only after a `/`. */
  dirs: Uint32Array;
  /** Per ASCII character met so far (folded when the glob folds case): its step. */
  ascii: (Step | undefined)[];
  /** Per other character met so far: its step. */
  steps: Map<string, Step>;
  tokens: readonly { token: GlobToken; position: number }[];
}

const automata = new WeakMap<CompiledGlob, Automaton>();

function setBit(bits: Uint32Array, position: number): void {
  bits[position >>> 5] |= 1 << (position & 31);
}

/**
 * Lets the wildcards at `mask` match nothing: every set position inside a
 * run of `mask` positions sets the rest of the run and the position after
 * it. One pass, by addition: adding the run to its set positions carries
 * through the run to its end, and the carry lands one past it.
 */
function closeOverEmpty(bits: Uint32Array, mask: Uint32Array): void {
  let carry = 0;
  for (let w = 0; w < bits.length; w++) {
    const sum = ((bits[w] & mask[w]) >>> 0) + mask[w] + carry;
    carry = sum > 0xffffffff ? 1 : 0;
    bits[w] = (bits[w] | ((sum >>> 0) ^ mask[w])) >>> 0;
  }
}

function automatonOf(glob: CompiledGlob): Automaton {
  const known = automata.get(glob);
  if (known) return known;
  const size = glob.alternatives.reduce((n, alt) => n + alt.length + 1, 0);
  const words = (size + 31) >>> 5;
  const bits = (): Uint32Array => new Uint32Array(words);
  const a: Automaton = {
    words,
    start: bits(),
    accept: bits(),
    empty: bits(),
    dirs: bits(),
    ascii: new Array(ASCII),
    steps: new Map(),
    tokens: [],
  };
  const tokens: { token: GlobToken; position: number }[] = [];
  let offset = 0;
  for (const alt of glob.alternatives) {
    setBit(a.start, offset);
    alt.forEach((token, j) => {
      tokens.push({ token, position: offset + j });
      if (token.kind === "star" || token.kind === "any" || token.kind === "dirs") {
        setBit(a.empty, offset + j);
      }
      if (token.kind === "dirs") setBit(a.dirs, offset + j);
    });
    offset += alt.length;
    setBit(a.accept, offset);
    offset++;
  }
  a.tokens = tokens;
  closeOverEmpty(a.start, a.empty);
  automata.set(glob, a);
  return a;
}

/** UTF-16 units of the character at `text[i]`: 2 for a surrogate pair. */
function widthAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code >= 0xd800 && code <= 0xdbff && i + 1 < text.length &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ? 2
    : 1;
}

/** The step of the character at `text[i]`, folded as the glob says. */
function stepAt(glob: CompiledGlob, a: Automaton, text: string, i: number): Step {
  let code = text.charCodeAt(i);
  if (code < ASCII) {
    if (glob.foldCase && code >= 0x41 && code <= 0x5a) code += 0x20;
    return a.ascii[code] ??= buildStep(glob, a, String.fromCharCode(code));
  }
  const raw = String.fromCodePoint(text.codePointAt(i)!);
  const char = glob.foldCase ? raw.toLowerCase() : raw;
  let step = a.steps.get(char);
  if (!step) {
    step = buildStep(glob, a, char);
    a.steps.set(char, step);
  }
  return step;
}

/** The positions `char` moves forward and keeps live. */
function buildStep(glob: CompiledGlob, a: Automaton, char: string): Step {
  const advance = new Uint32Array(a.words);
  const stay = new Uint32Array(a.words);
  const slash = char === "/";
  const wildcardOk = glob.slashWildcards || !slash;
  for (const { token, position } of a.tokens) {
    let forward = false;
    let keep = false;
    switch (token.kind) {
      case "literal":
        forward = token.char === char;
        break;
      case "one":
        forward = wildcardOk;
        break;
      case "class":
        forward = wildcardOk && classMatches(token, char, glob.foldCase);
        break;
      case "star":
        keep = !slash;
        break;
      case "any":
        keep = true;
        break;
      case "dirs":
        forward = slash;
        break;
    }
    if (forward) setBit(advance, position);
    if (keep) setBit(stay, position);
  }
  return { advance, stay };
}

/** How a run ended: whether it matched, and the word steps it took. */
interface Run {
  matched: boolean;
  steps: number;
}

/**
 * The automaton over the whole text. Two bit sets run side by side:
 * `entered` positions may be left by a wildcard matching nothing more,
 * `inside` positions are within a `**\/` run and may only be left through a
 * `/`. Only the words from the lowest to the highest live one (and those a
 * carry reaches) are visited, and the run stops as soon as nothing is live
 * or the steps would pass `limit` (then it returns null).
 */
function runAutomaton(glob: CompiledGlob, a: Automaton, text: string, limit: number): Run | null {
  return a.words === 1 ? runOneWord(glob, a, text, limit) : runWords(glob, a, text, limit);
}

/** `runAutomaton` for up to 32 positions, in plain numbers. */
function runOneWord(glob: CompiledGlob, a: Automaton, text: string, limit: number): Run | null {
  const empty = a.empty[0];
  const dirs = a.dirs[0];
  let entered = a.start[0];
  let inside = 0;
  let steps = 1;
  for (let i = 0; i < text.length;) {
    steps += 2;
    if (steps > limit) return null;
    const step = stepAt(glob, a, text, i);
    i += widthAt(text, i);
    const here = entered | inside;
    const reached = (((here & step.advance[0]) << 1) | (here & step.stay[0])) >>> 0;
    // Wildcards reached may match nothing (see closeOverEmpty).
    const sum = ((reached & empty) >>> 0) + empty;
    entered = (reached | ((sum >>> 0) ^ empty)) >>> 0;
    inside = here & dirs;
    if ((entered | inside) === 0) return { matched: false, steps };
  }
  return { matched: (entered & a.accept[0]) !== 0, steps };
}

/** `runAutomaton` over several words, visiting only the live ones. */
function runWords(glob: CompiledGlob, a: Automaton, text: string, limit: number): Run | null {
  const words = a.words;
  const { empty, dirs } = a;
  let entered = a.start.slice();
  let inside = new Uint32Array(words);
  let nextEntered = new Uint32Array(words);
  let nextInside = new Uint32Array(words);
  // Live words of the current sets, and the words the next sets last wrote.
  let lo = 0;
  let hi = words - 1;
  let staleLo = 0;
  let staleHi = -1;
  let steps = 1;
  for (let i = 0; i < text.length;) {
    steps += hi - lo + 2;
    if (steps > limit) return null;
    const { advance, stay } = stepAt(glob, a, text, i);
    i += widthAt(text, i);
    nextEntered.fill(0, staleLo, staleHi + 1);
    nextInside.fill(0, staleLo, staleHi + 1);
    let shifted = 0;
    let carry = 0;
    let newLo = words;
    let newHi = -1;
    let w = lo;
    for (; w < words && (w <= hi || shifted !== 0 || carry !== 0); w++) {
      const here = entered[w] | inside[w];
      const moved = here & advance[w];
      const reached = ((moved << 1) | shifted | (here & stay[w])) >>> 0;
      shifted = moved >>> 31;
      // Wildcards reached may match nothing (see closeOverEmpty), inline.
      const sum = ((reached & empty[w]) >>> 0) + empty[w] + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      const e = (reached | ((sum >>> 0) ^ empty[w])) >>> 0;
      const d = here & dirs[w];
      nextEntered[w] = e;
      nextInside[w] = d;
      if ((e | d) !== 0) {
        if (newLo === words) newLo = w;
        newHi = w;
      }
    }
    if (newHi < 0) return { matched: false, steps };
    staleLo = lo;
    staleHi = w - 1;
    lo = newLo;
    hi = newHi;
    [entered, nextEntered] = [nextEntered, entered];
    [inside, nextInside] = [nextInside, inside];
  }
  for (let w = lo; w <= hi; w++) if (entered[w] & a.accept[w]) return { matched: true, steps };
  return { matched: false, steps };
}

/**
 * Matches a compiled glob against the whole of `text`. With a `budget`, each
 * word step of the automaton is one unit; a match the budget cannot pay for
 * is stopped and is `"invalid"`, the same as any other failure to judge.
 */
export function matchGlob(glob: CompiledGlob, text: string, budget?: WorkBudget): GlobResult {
  if (text.length > GLOB_MAX_TEXT) return "invalid";
  if (budget && !budget.spend(CALL_UNITS + text.length, "glob")) return "invalid";
  const run = runAutomaton(glob, automatonOf(glob), text, budget?.remaining ?? Infinity);
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
