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
 */
export function containsWord(text: string, word: string): boolean {
  if (word === "") return false;
  let from = 0;
  while (from <= text.length - word.length) {
    const at = text.indexOf(word, from);
    if (at < 0) return false;
    const end = at + word.length;
    const before = at === 0 || !isWordChar(text.charCodeAt(at - 1));
    const after = end === text.length || !isWordChar(text.charCodeAt(end));
    if (before && after) return true;
    from = at + 1;
  }
  return false;
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
