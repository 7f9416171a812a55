/**
 * The matching half of the glob matcher: a compiled pattern (its brace
 * alternatives as token lists) runs as one automaton over bit sets, one bit
 * per token position, 32 positions to a machine word. Each character of the
 * text moves every live position at once, so a run costs the text length
 * times the live words, with no backtracking. A run counts its own steps
 * (including building the step of each distinct character it meets) and
 * stops at a limit, so callers can charge them to the call's work budget.
 * Parsing and the public matching API are in `glob.ts`.
 *
 * @module
 */

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

function inRanges(ranges: readonly GlobClassRange[], cp: number): boolean {
  for (const r of ranges) if (cp >= r.lo && cp <= r.hi) return true;
  return false;
}

function classMatches(
  token: Extract<GlobToken, { kind: "class" }>,
  char: string,
  fold: boolean,
): boolean {
  let member = inRanges(token.ranges, char.codePointAt(0)!);
  if (!member && fold) {
    member = inRanges(token.ranges, char.toUpperCase().codePointAt(0)!) ||
      inRanges(token.ranges, char.toLowerCase().codePointAt(0)!);
  }
  return member !== token.negated;
}

/** Characters below this code have a row of their own in the step table. */
const ASCII = 128;

/**
 * All alternatives of a glob as one automaton over bit sets, one bit per
 * position: alternative `k` owns the positions `offset[k]` to
 * `offset[k] + tokens.length`, the last of them its accepting position. A
 * character moves every live position at once, 32 to a word, so matching
 * costs the text length times the word count: linear in the text, with no
 * backtracking and no per-position loop.
 *
 * What a character moves forward (its step) is worked out from position
 * sets sorted by token kind: only the literals of that character and the
 * bracket classes are looked at. The positions a character keeps live
 * depend only on whether it is a `/`.
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
  /** Positions of literal tokens, by their (folded) character. */
  literals: Map<string, number[]>;
  /**
   * Bracket class tokens and their positions: one entry per class as
   * written, however many alternatives its braces gave it.
   */
  classes: { token: Extract<GlobToken, { kind: "class" }>; positions: number[] }[];
  /** Positions a character other than `/` keeps live: `*` and `**`. */
  keep: Uint32Array;
  /** Positions `/` keeps live: `**` (and, in pathspec style, every wildcard run). */
  keepSlash: Uint32Array;
  /** Positions any character moves forward where wildcards may read it: `?`. */
  one: Uint32Array;
  /**
   * Units a step costs to work out, on top of the literals of its
   * character: every word, every class and every class position.
   */
  stepUnits: number;
}

/**
 * The steps of the running match, one row of words per ASCII character
 * and one more for the current other character, shared by every run (one
 * run at a time): a run works out the step of each distinct ASCII
 * character it meets once, of each other character at each occurrence,
 * and allocates nothing per character. `rowRun` holds the run that last
 * filled each ASCII row.
 */
let table = new Uint32Array(0);
const rowRun = new Uint32Array(ASCII);
let runCount = 0;

/** Makes the step table hold a row of `words` words for each ASCII character and one more. */
function tableFor(words: number): Uint32Array {
  const needed = (ASCII + 1) * words;
  if (table.length < needed) table = new Uint32Array(Math.max(needed, 2 * table.length));
  return table;
}

/**
 * The position sets each wildcard token joins: `?` reads one character;
 * `*`, `**` and `**\/` may be left without reading; `*` and `**` keep
 * reading any character but `/`, `**` a `/` too; `**\/` leaves on a `/`.
 */
const WILDCARD_SETS: Readonly<
  Record<
    "one" | "star" | "any" | "dirs",
    readonly ("one" | "empty" | "keep" | "keepSlash" | "dirs")[]
  >
> = {
  one: ["one"],
  star: ["empty", "keep"],
  any: ["empty", "keep", "keepSlash"],
  dirs: ["empty", "dirs"],
};

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
  let size = 0;
  for (const alt of glob.alternatives) size += alt.length + 1;
  const words = (size + 31) >>> 5;
  // The seven bit sets share one buffer: one allocation, not seven.
  const buffer = new Uint32Array(7 * words);
  const bits = (k: number): Uint32Array => buffer.subarray(k * words, (k + 1) * words);
  const a: Automaton = {
    words,
    start: bits(0),
    accept: bits(1),
    empty: bits(2),
    dirs: bits(3),
    literals: new Map(),
    classes: [],
    keep: bits(4),
    keepSlash: bits(5),
    one: bits(6),
    stepUnits: 0,
  };
  const classOf = new Map<GlobToken, Automaton["classes"][number]>();
  let classPositions = 0;
  let position = 0;
  for (const alt of glob.alternatives) {
    setBit(a.start, position);
    for (const token of alt) {
      switch (token.kind) {
        case "literal": {
          const at = a.literals.get(token.char);
          if (at) at.push(position);
          else a.literals.set(token.char, [position]);
          break;
        }
        case "class": {
          const same = classOf.get(token);
          if (same) same.positions.push(position);
          else {
            const entry = { token, positions: [position] };
            classOf.set(token, entry);
            a.classes.push(entry);
          }
          classPositions++;
          break;
        }
        default:
          for (const set of WILDCARD_SETS[token.kind]) setBit(a[set], position);
      }
      position++;
    }
    setBit(a.accept, position);
    position++;
  }
  closeOverEmpty(a.start, a.empty);
  a.stepUnits = words + a.classes.length + classPositions;
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

/**
 * Writes the positions `char` moves forward into row `row` of the step
 * table: `?` and the classes that take it where wildcards may read it, its
 * literals, and for `/` the `**\/` runs it may leave. Returns the units
 * that cost.
 */
function fillRow(glob: CompiledGlob, a: Automaton, char: string, row: number): number {
  const words = a.words;
  const at = row * words;
  const slash = char === "/";
  const wildcardOk = glob.slashWildcards || !slash;
  for (let w = 0; w < words; w++) {
    table[at + w] = (wildcardOk ? a.one[w] : 0) | (slash ? a.dirs[w] : 0);
  }
  const literal = a.literals.get(char);
  if (literal) { for (const p of literal) table[at + (p >>> 5)] |= 1 << (p & 31); }
  if (wildcardOk) {
    for (const { token, positions } of a.classes) {
      if (!classMatches(token, char, glob.foldCase)) continue;
      for (const p of positions) table[at + (p >>> 5)] |= 1 << (p & 31);
    }
  }
  return a.stepUnits + (literal?.length ?? 0);
}

/** A row of the step table, and the units spent filling it (0 when the run filled it before). */
interface RowAt {
  row: number;
  units: number;
}

/** Reused by every run: a run reads it before asking again. */
const rowAt: RowAt = { row: 0, units: 0 };

/** The row holding the step of the character at `text[i]`, folded as the glob says. */
function stepRow(glob: CompiledGlob, a: Automaton, text: string, i: number, run: number): RowAt {
  let code = text.charCodeAt(i);
  rowAt.units = 0;
  if (code < ASCII) {
    if (glob.foldCase && code >= 0x41 && code <= 0x5a) code += 0x20;
    if (rowRun[code] !== run) {
      rowRun[code] = run;
      rowAt.units = fillRow(glob, a, String.fromCharCode(code), code);
    }
    rowAt.row = code;
    return rowAt;
  }
  const raw = String.fromCodePoint(text.codePointAt(i)!);
  rowAt.units = fillRow(glob, a, glob.foldCase ? raw.toLowerCase() : raw, ASCII);
  rowAt.row = ASCII;
  return rowAt;
}

/** How a run ended: whether it matched, and the word steps it took. */
export interface Run {
  matched: boolean;
  steps: number;
}

/**
 * The automaton over the whole text. Two bit sets run side by side:
 * `entered` positions may be left by a wildcard matching nothing more,
 * `inside` positions are within a `**\/` run and may only be left through a
 * `/`. Only the words from the lowest to the highest live one (and those a
 * carry reaches) are visited, and the run stops as soon as nothing is live
 * or the steps would pass `limit` (then it returns null). With `ancestors`,
 * reaching a `/` in an accepting state is a match too: the glob matched the
 * text up to there, a directory above the path.
 */
export function runAutomaton(
  glob: CompiledGlob,
  text: string,
  limit: number,
  ancestors: boolean,
): Run | null {
  const a = automatonOf(glob);
  return a.words === 1
    ? runOneWord(glob, a, text, limit, ancestors)
    : runWords(glob, a, text, limit, ancestors);
}

/** The code of `/`, where a run with `ancestors` checks for a match. */
const SLASH = 0x2f;

/** `runAutomaton` for up to 32 positions, in plain numbers. */
function runOneWord(
  glob: CompiledGlob,
  a: Automaton,
  text: string,
  limit: number,
  ancestors: boolean,
): Run | null {
  const empty = a.empty[0];
  const dirs = a.dirs[0];
  const keep = a.keep[0];
  const keepSlash = a.keepSlash[0];
  const rows = tableFor(1);
  let entered = a.start[0];
  let inside = 0;
  const run = ++runCount;
  let steps = 1;
  for (let i = 0; i < text.length;) {
    const slash = text.charCodeAt(i) === SLASH;
    if (ancestors && slash && (entered & a.accept[0]) !== 0) return { matched: true, steps };
    const { row, units } = stepRow(glob, a, text, i, run);
    steps += 2 + units;
    if (steps > limit) return null;
    i += widthAt(text, i);
    const here = entered | inside;
    const stay = slash ? keepSlash : keep;
    const reached = (((here & rows[row]) << 1) | (here & stay)) >>> 0;
    // Wildcards reached may match nothing (see closeOverEmpty).
    const sum = ((reached & empty) >>> 0) + empty;
    entered = (reached | ((sum >>> 0) ^ empty)) >>> 0;
    inside = here & dirs;
    if ((entered | inside) === 0) return { matched: false, steps };
  }
  return { matched: (entered & a.accept[0]) !== 0, steps };
}

/** True when a live word of `bits` holds an accepting position. */
function accepts(a: Automaton, bits: Uint32Array, lo: number, hi: number): boolean {
  for (let w = lo; w <= hi; w++) if (bits[w] & a.accept[w]) return true;
  return false;
}

/** `runAutomaton` over several words, visiting only the live ones. */
function runWords(
  glob: CompiledGlob,
  a: Automaton,
  text: string,
  limit: number,
  ancestors: boolean,
): Run | null {
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
  const rows = tableFor(words);
  const run = ++runCount;
  let steps = 1;
  for (let i = 0; i < text.length;) {
    const slash = text.charCodeAt(i) === SLASH;
    if (ancestors && slash) {
      steps += hi - lo + 1;
      if (accepts(a, entered, lo, hi)) return { matched: true, steps };
    }
    const { row, units } = stepRow(glob, a, text, i, run);
    steps += hi - lo + 2 + units;
    if (steps > limit) return null;
    const at = row * words;
    const stay = slash ? a.keepSlash : a.keep;
    i += widthAt(text, i);
    for (let w = staleLo; w <= staleHi; w++) {
      nextEntered[w] = 0;
      nextInside[w] = 0;
    }
    let shifted = 0;
    let carry = 0;
    let newLo = words;
    let newHi = -1;
    let w = lo;
    for (; w < words && (w <= hi || shifted !== 0 || carry !== 0); w++) {
      const here = entered[w] | inside[w];
      const moved = here & rows[at + w];
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
    const enteredWas = entered;
    entered = nextEntered;
    nextEntered = enteredWas;
    const insideWas = inside;
    inside = nextInside;
    nextInside = insideWas;
  }
  return { matched: accepts(a, entered, lo, hi), steps };
}
