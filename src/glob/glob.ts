/**
 * Glob matching without regular expressions.
 *
 * A pattern is parsed into tokens once (`compileGlob`), brace alternatives
 * are expanded up front, and each alternative is matched by a row-by-row
 * dynamic program over its tokens (`matchGlob`). Work is bounded by the
 * pattern length, the number of alternatives and the text length, so a
 * hostile pattern such as `*a*a*a*a*b` cannot backtrack. Every failure to
 * judge is reported as `"invalid"`, never as a plain miss, so callers can
 * fail closed.
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

/**
 * Parses `pattern`. Returns null when it is malformed (an unclosed bracket
 * class or a reversed range) or past bounds (over `GLOB_MAX_PATTERN`
 * characters, or more than `GLOB_MAX_ALTERNATIVES` brace alternatives).
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): CompiledGlob | null {
  if (pattern.length > GLOB_MAX_PATTERN) return null;
  const slashWildcards = options.slashWildcards ?? false;
  const foldCase = options.foldCase ?? false;
  const chars = Array.from(pattern);
  const found = scanPattern(chars, options.braces ?? true);
  if (!found) return null;
  const items = parseRange(chars, found, 0, chars.length);
  if (countAlternatives(items) > GLOB_MAX_ALTERNATIVES) return null;
  const alternatives = expand(items).map((flat) => tokenize(flat, slashWildcards, foldCase));
  return { source: pattern, slashWildcards, foldCase, alternatives };
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

/**
 * Row cell flags. `ENTERED`: the token may still match from here, and a
 * wildcard may stop. `INSIDE_DIRS`: part of a `dirs` run was read, so it
 * may only stop after a `/`.
 */
const ENTERED = 1;
const INSIDE_DIRS = 2;

/** Adds the positions reachable by letting a wildcard stop (or match nothing). */
function closeOverEmpty(tokens: readonly GlobToken[], row: Uint8Array): void {
  for (let j = 0; j < tokens.length; j++) {
    const kind = tokens[j].kind;
    if ((row[j] & ENTERED) && (kind === "star" || kind === "any" || kind === "dirs")) {
      row[j + 1] |= ENTERED;
    }
  }
}

/** One alternative against the text: cell `j` set = the first `j` tokens matched the prefix read. */
function matchTokens(
  tokens: readonly GlobToken[],
  text: readonly string[],
  slashWildcards: boolean,
  fold: boolean,
): boolean {
  const m = tokens.length;
  let row = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  row[0] = ENTERED;
  closeOverEmpty(tokens, row);
  for (const char of text) {
    next.fill(0);
    const slash = char === "/";
    const wildcardOk = slashWildcards || !slash;
    let live = false;
    for (let j = 0; j < m; j++) {
      if (!row[j]) continue;
      const token = tokens[j];
      let advance = false;
      let stay = 0;
      switch (token.kind) {
        case "literal":
          advance = token.char === char;
          break;
        case "one":
          advance = wildcardOk;
          break;
        case "class":
          advance = wildcardOk && classMatches(token, char, fold);
          break;
        case "star":
          if (!slash) stay = ENTERED;
          break;
        case "any":
          stay = ENTERED;
          break;
        case "dirs":
          stay = INSIDE_DIRS;
          advance = slash;
          break;
      }
      if (advance) next[j + 1] |= ENTERED;
      next[j] |= stay;
      live ||= advance || stay !== 0;
    }
    if (!live) return false;
    closeOverEmpty(tokens, next);
    [row, next] = [next, row];
  }
  return row[m] !== 0;
}

/** Matches a compiled glob against the whole of `text`. */
export function matchGlob(glob: CompiledGlob, text: string): GlobResult {
  if (text.length > GLOB_MAX_TEXT) return "invalid";
  const chars = Array.from(text, (c) => glob.foldCase ? c.toLowerCase() : c);
  for (const tokens of glob.alternatives) {
    if (matchTokens(tokens, chars, glob.slashWildcards, glob.foldCase)) return "match";
  }
  return "no-match";
}

/** Compiles `pattern` and matches it against `text`; `"invalid"` when the pattern does not compile. */
export function globMatch(pattern: string, text: string, options: GlobOptions = {}): GlobResult {
  const glob = compileGlob(pattern, options);
  return glob ? matchGlob(glob, text) : "invalid";
}
