/**
 * Target stems and whole-word matching.
 *
 * A target is named in a search by its stem: the file name without its
 * last extension, lowercased, with one test affix removed for test
 * targets. Matching is a word-bounded `indexOf` scan, so no pattern is
 * ever compiled from search text. See docs/search-credit.md "Stem
 * matching" and "Test stems".
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";

/** Stems too common to tie a search to one file. */
export const GENERIC_STEMS: ReadonlySet<string> = new Set([
  "index",
  "main",
  "init",
  "__init__",
  "utils",
  "util",
  "types",
  "readme",
  "test",
  "tests",
  "config",
  "mod",
  "lib",
  "setup",
  "app",
  "spec",
  "helpers",
  "common",
]);

/** Shortest stem that can credit a target. */
export const MIN_STEM_LENGTH = 4;

/** Shortest bare name that still counts as a mention for the miss note. */
export const MIN_MENTION_LENGTH = 3;

/**
 * Test affixes, tried in order; the first that applies is removed.
 * `exts` limits an affix to those extensions (null: any extension).
 */
const TEST_AFFIXES: readonly { affix: string; at: "prefix" | "suffix"; exts: string[] | null }[] = [
  { affix: ".test", at: "suffix", exts: null },
  { affix: ".spec", at: "suffix", exts: null },
  { affix: "test_", at: "prefix", exts: [".py"] },
  { affix: "_test", at: "suffix", exts: [".py", ".go"] },
];

/** The last extension of a file name (with its dot), "" for none or a dotfile. */
export function extensionOf(basename: string): string {
  const dot = basename.lastIndexOf(".");
  return dot > 0 ? basename.slice(dot) : "";
}

/** How a target is named in searches. */
export interface TargetStem {
  /** The lowercased name a search must contain as a word. */
  name: string;
  /** True when `name` may credit (long enough and not generic). */
  usable: boolean;
}

/**
 * The stem of `basename`: without its last extension, lowercased, and for
 * a test target without one test affix.
 */
export function stemOf(basename: string, isTest: boolean): TargetStem {
  const ext = extensionOf(basename).toLowerCase();
  let name = basename.slice(0, basename.length - ext.length).toLowerCase();
  if (isTest) {
    for (const { affix, at, exts } of TEST_AFFIXES) {
      if (exts !== null && !exts.includes(ext)) continue;
      if (name.length <= affix.length) continue;
      if (at === "suffix" && name.endsWith(affix)) {
        name = name.slice(0, name.length - affix.length);
        break;
      }
      if (at === "prefix" && name.startsWith(affix)) {
        name = name.slice(affix.length);
        break;
      }
    }
  }
  return { name, usable: name.length >= MIN_STEM_LENGTH && !GENERIC_STEMS.has(name) };
}

/** Letters and digits of any script; a fixed pattern, never built from input. */
const NON_ASCII_WORD = /[\p{L}\p{N}]/u;

/** Characters that quote or escape in shells and never belong to a stem. */
const QUOTING = ['"', "'", "\\", "`"];

function isWordChar(code: number): boolean {
  if (code < 0x80) {
    return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a);
  }
  return NON_ASCII_WORD.test(String.fromCharCode(code));
}

/**
 * True when `word` occurs in `text` bounded on both sides by a
 * non-alphanumeric character or an end of the text. Both are compared as
 * given: callers lowercase them.
 *
 * Every occurrence is found in one pass (Knuth-Morris-Pratt), so a text
 * full of near-misses (`aaaa…` searched for `aaa…a`) costs steps in
 * proportion to the lengths, never to their product. The steps are charged
 * to `budget` when one is given; a refused charge answers false, and the
 * spent budget fails the call closed.
 */
export function containsWord(text: string, word: string, budget?: WorkBudget): boolean {
  if (word === "" || word.length > text.length) return false;
  const scan = scanWord(text, word);
  if (budget && !budget.spend(scan.steps, "stem")) return false;
  return scan.found;
}

/** The KMP scan behind `containsWord`, with the comparisons it made. */
function scanWord(text: string, word: string): { found: boolean; steps: number } {
  // fallback[k]: the longest proper border of word[0..k].
  const fallback = new Int32Array(word.length);
  let steps = 0;
  for (let k = 1, border = 0; k < word.length; k++) {
    while (border > 0 && word.charCodeAt(k) !== word.charCodeAt(border)) {
      border = fallback[border - 1];
      steps++;
    }
    if (word.charCodeAt(k) === word.charCodeAt(border)) border++;
    fallback[k] = border;
    steps++;
  }
  for (let i = 0, matched = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    while (matched > 0 && code !== word.charCodeAt(matched)) {
      matched = fallback[matched - 1];
      steps++;
    }
    steps++;
    if (code !== word.charCodeAt(matched)) continue;
    if (++matched < word.length) continue;
    const at = i + 1 - word.length;
    const before = at === 0 || !isWordChar(text.charCodeAt(at - 1));
    const after = i + 1 === text.length || !isWordChar(text.charCodeAt(i + 1));
    if (before && after) return { found: true, steps };
    matched = fallback[matched - 1];
  }
  return { found: false, steps };
}

/**
 * The plain-text prefilter: true when `raw` might name `stem` once quotes
 * and backslashes are gone. A search that fails it cannot credit by stem.
 */
export function mayMention(raw: string, stem: string): boolean {
  let plain = raw.toLowerCase();
  for (const quote of QUOTING) plain = plain.replaceAll(quote, "");
  return plain.includes(stem);
}
