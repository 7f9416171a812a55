/**
 * The matcher GateGuard used before the bit-set automaton: a row-by-row
 * dynamic program over one alternative's tokens. Slow but plain, it is the
 * oracle the property test compares `matchGlob` with.
 *
 * @module
 */

import type { CompiledGlob, GlobClassRange, GlobToken } from "../../src/glob/glob.ts";

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

/** The oracle's answer for a compiled glob and a text within bounds. */
export function referenceMatch(glob: CompiledGlob, text: string): boolean {
  const chars = Array.from(text, (c) => glob.foldCase ? c.toLowerCase() : c);
  return glob.alternatives.some((tokens) =>
    matchTokens(tokens, chars, glob.slashWildcards, glob.foldCase)
  );
}
