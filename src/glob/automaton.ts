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

/** What one character does: the positions it moves forward, and those it keeps live. */
interface Step {
  advance: Uint32Array;
  stay: Uint32Array;
}

/** Characters below this code are marked in an array and looked up by their code. */
const ASCII = 128;

/**
 * All alternatives of a glob as one automaton over bit sets, one bit per
 * position: alternative `k` owns the positions `offset[k]` to
 * `offset[k] + tokens.length`, the last of them its accepting position. A
 * character moves every live position at once, 32 to a word, so matching
 * costs the text length times the word count: linear in the text, with no
 * backtracking and no per-position loop.
 *
 * A character's step is built the first time the text shows it, from
 * position sets sorted by token kind: only the literals naming that
 * character and the bracket classes are looked at, and a character that
 * neither names (most of a path, for most globs) shares one prebuilt step.
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
  /** Per ASCII character code met so far (folded when the glob folds case): its step. */
  ascii: Map<number, Step>;
  /** Per other character met so far: its step. */
  steps: Map<string, Step>;
  /** Positions of literal tokens, by their (folded) character. */
  literals: Map<string, number[]>;
  /**
   * Bracket class tokens and their positions: one entry per class as
   * written, however many alternatives its braces gave it.
   */
  classes: { token: Extract<GlobToken, { kind: "class" }>; positions: number[] }[];
  /** The step of a character other than `/` that no literal or class names. */
  plain: Step;
  /** Positions a character other than `/` keeps live: `*` and `**`. */
  keep: Uint32Array;
  /** Positions `/` keeps live: `**` (and, in pathspec style, every wildcard run). */
  keepSlash: Uint32Array;
  /** Positions any character moves forward where wildcards may read it: `?`. */
  one: Uint32Array;
  /**
   * Units charged for each distinct character a run meets, on top of its
   * literals of that character, whether its step is built then or was built
   * by an earlier run: a build looks at every word and every class, and
   * charging it the same either way keeps a match's cost independent of
   * what ran before.
   */
  buildUnits: number;
  /** Build units charged so far, summed over all runs. */
  charged: number;
}

/**
 * Counts runs, so a run tells the characters it met from those earlier
 * runs met: the per-character marks below hold the number of the last run
 * that met the character, whatever its automaton (one run at a time).
 */
let runCount = 0;
const seenAscii = new Uint32Array(ASCII);
const seenOther = new Map<string, number>();

/** Other characters whose marks are kept before the map starts over; bounds its memory. */
const SEEN_OTHER_ENTRIES = 4096;

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
  const keep = bits();
  const one = bits();
  const a: Automaton = {
    words,
    start: bits(),
    accept: bits(),
    empty: bits(),
    dirs: bits(),
    ascii: new Map(),
    steps: new Map(),
    literals: new Map(),
    classes: [],
    plain: { advance: one, stay: keep },
    keep,
    keepSlash: bits(),
    one,
    buildUnits: 0,
    charged: 0,
  };
  const classOf = new Map<GlobToken, Automaton["classes"][number]>();
  let classPositions = 0;
  let offset = 0;
  for (const alt of glob.alternatives) {
    setBit(a.start, offset);
    alt.forEach((token, j) => {
      const position = offset + j;
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
        case "one":
          setBit(one, position);
          break;
        case "star":
          setBit(a.empty, position);
          setBit(keep, position);
          break;
        case "any":
          setBit(a.empty, position);
          setBit(keep, position);
          setBit(a.keepSlash, position);
          break;
        case "dirs":
          setBit(a.empty, position);
          setBit(a.dirs, position);
          break;
      }
    });
    offset += alt.length;
    setBit(a.accept, offset);
    offset++;
  }
  closeOverEmpty(a.start, a.empty);
  a.buildUnits = words + a.classes.length + classPositions;
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
 * The step of the character at `text[i]`, folded as the glob says. The
 * first time run `run` meets a character, its build units are charged.
 */
function stepAt(glob: CompiledGlob, a: Automaton, text: string, i: number, run: number): Step {
  let code = text.charCodeAt(i);
  if (code < ASCII) {
    if (glob.foldCase && code >= 0x41 && code <= 0x5a) code += 0x20;
    if (seenAscii[code] !== run) {
      seenAscii[code] = run;
      a.charged += a.buildUnits + (a.literals.get(String.fromCharCode(code))?.length ?? 0);
    }
    let known = a.ascii.get(code);
    if (!known) {
      known = buildStep(glob, a, String.fromCharCode(code));
      a.ascii.set(code, known);
    }
    return known;
  }
  const raw = String.fromCodePoint(text.codePointAt(i)!);
  const char = glob.foldCase ? raw.toLowerCase() : raw;
  if (seenOther.get(char) !== run) {
    if (seenOther.size >= SEEN_OTHER_ENTRIES) seenOther.clear();
    seenOther.set(char, run);
    a.charged += a.buildUnits + (a.literals.get(char)?.length ?? 0);
  }
  let step = a.steps.get(char);
  if (!step) {
    step = buildStep(glob, a, char);
    a.steps.set(char, step);
  }
  return step;
}

/**
 * The positions `char` moves forward and keeps live: the literals of that
 * character, the classes that take it, `?` and, for `/`, the `**\/` runs it
 * may leave. A character other than `/` that no literal or class takes
 * shares the automaton's plain step.
 */
function buildStep(glob: CompiledGlob, a: Automaton, char: string): Step {
  const slash = char === "/";
  const wildcardOk = glob.slashWildcards || !slash;
  let advance: Uint32Array | null = null;
  const literal = a.literals.get(char);
  if (literal) {
    advance = wildcardOk ? new Uint32Array(a.one) : new Uint32Array(a.words);
    for (const position of literal) setBit(advance, position);
  }
  if (wildcardOk) {
    for (const { token, positions } of a.classes) {
      if (!classMatches(token, char, glob.foldCase)) continue;
      advance ??= new Uint32Array(a.one);
      for (const position of positions) setBit(advance, position);
    }
  }
  if (!slash) return advance === null ? a.plain : { advance, stay: a.keep };
  advance ??= wildcardOk ? new Uint32Array(a.one) : new Uint32Array(a.words);
  for (let w = 0; w < a.words; w++) advance[w] |= a.dirs[w];
  return { advance, stay: a.keepSlash };
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
  let entered = a.start[0];
  let inside = 0;
  // Steps of the characters this run meets are charged to it.
  const run = ++runCount;
  let steps = 1 - a.charged;
  for (let i = 0; i < text.length;) {
    if (ancestors && text.charCodeAt(i) === SLASH && (entered & a.accept[0]) !== 0) {
      return { matched: true, steps: steps + a.charged };
    }
    steps += 2;
    const step = stepAt(glob, a, text, i, run);
    if (steps + a.charged > limit) return null;
    i += widthAt(text, i);
    const here = entered | inside;
    const reached = (((here & step.advance[0]) << 1) | (here & step.stay[0])) >>> 0;
    // Wildcards reached may match nothing (see closeOverEmpty).
    const sum = ((reached & empty) >>> 0) + empty;
    entered = (reached | ((sum >>> 0) ^ empty)) >>> 0;
    inside = here & dirs;
    if ((entered | inside) === 0) return { matched: false, steps: steps + a.charged };
  }
  return { matched: (entered & a.accept[0]) !== 0, steps: steps + a.charged };
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
  // Steps of the characters this run meets are charged to it.
  const run = ++runCount;
  let steps = 1 - a.charged;
  for (let i = 0; i < text.length;) {
    if (ancestors && text.charCodeAt(i) === SLASH) {
      steps += hi - lo + 1;
      if (accepts(a, entered, lo, hi)) return { matched: true, steps: steps + a.charged };
    }
    steps += hi - lo + 2;
    const step = stepAt(glob, a, text, i, run);
    const advance = step.advance;
    const stay = step.stay;
    if (steps + a.charged > limit) return null;
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
    if (newHi < 0) return { matched: false, steps: steps + a.charged };
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
  return { matched: accepts(a, entered, lo, hi), steps: steps + a.charged };
}
