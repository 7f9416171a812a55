/**
 * The include and exclusion filters of one search, and whether they let a
 * target through. Pure: globs are matched with the DP matcher of
 * `src/glob/glob.ts`, never with a `RegExp`.
 *
 * Exclusions are judged generously (any doubt covers the target) and
 * includes strictly (any doubt admits nothing), so a filter the hook
 * cannot read only ever removes credit. See docs/search-credit.md
 * "Search filters".
 *
 * @module
 */

import { compileGlob, type GlobToken, matchGlob, matchGlobOrAncestor } from "../glob/glob.ts";
import type { WorkBudget } from "../platform/budget.ts";
import { containsWord } from "./stem.ts";
import { RG_TYPES, UGREP_TYPES } from "./tool_flags.ts";

/** Most include or exclusion filters a search may carry and still be judged. */
export const MAX_FILTERS = 32;

/** One filter glob. */
export interface GlobFilter {
  glob: string;
  /** Match case-insensitively. */
  fold: boolean;
  /** Comes from a file-type table, not from text the agent wrote. */
  fromType: boolean;
  /** A test the hook cannot read (a regex): as an include it admits nothing, as an exclusion it covers. */
  opaque: boolean;
}

/** Every filter of one search. */
export interface SearchFilters {
  includes: GlobFilter[];
  exclusions: GlobFilter[];
  /** A filter the hook cannot read (a file of exclusions, a redefined or unknown type). */
  unreadable: boolean;
  /** Include globs with a directory part match the path below the search root (rg, Grep). */
  pathGlobs: boolean;
}

/** The target as the filters see it. */
export interface FilterTarget {
  /** Segments of the absolute target path. */
  segments: readonly string[];
  /** The same segments joined by `/`, when the caller keeps them so. */
  path?: string;
  basename: string;
  /** The lowercased stem (see `stemOf`). */
  stem: string;
  /** Windows-style target: names compare case-insensitively. */
  windows: boolean;
  /** The call's work budget the glob matches draw on; a match it refuses gives no credit. */
  budget?: WorkBudget;
  /**
   * Glob verdicts already worked out for this target in this decision, by
   * what decides them: the calls of one turn repeat their filters and
   * operands, and each distinct one is matched once (see `remembered`).
   */
  verdicts?: Map<string, boolean>;
}

/** Most verdicts a target keeps; past it the memo starts over, so its memory stays bounded. */
const VERDICT_MEMO_ENTRIES = 4096;

/**
 * The verdict `judge` gives for `key`, worked out once per target when the
 * target keeps a memo. `key` must name everything the verdict depends on
 * besides the target itself. A verdict the budget refused is remembered as
 * given: the budget stays spent, so it would be refused again.
 */
export function remembered(target: FilterTarget, key: string, judge: () => boolean): boolean {
  const memo = target.verdicts;
  if (!memo) return judge();
  const known = memo.get(key);
  if (known !== undefined) return known;
  const verdict = judge();
  if (memo.size >= VERDICT_MEMO_ENTRIES) memo.clear();
  memo.set(key, verdict);
  return verdict;
}

/** A search without filters. */
export function newFilters(pathGlobs: boolean): SearchFilters {
  return { includes: [], exclusions: [], unreadable: false, pathGlobs };
}

/** Adds one glob as an include, or as an exclusion when `exclude` is set. */
export function addGlob(
  filters: SearchFilters,
  glob: string,
  exclude: boolean,
  fold = false,
  fromType = false,
  opaque = false,
): void {
  (exclude ? filters.exclusions : filters.includes).push({ glob, fold, fromType, opaque });
}

/**
 * Adds a built-in file type's globs (`table` names ripgrep's or ugrep's
 * list). An unknown type makes the filters unreadable.
 */
export function addType(
  filters: SearchFilters,
  table: "rg" | "ugrep",
  name: string,
  exclude: boolean,
): void {
  const types = table === "rg" ? RG_TYPES : UGREP_TYPES;
  const globs = Object.hasOwn(types, name) ? types[name] : undefined;
  if (!globs) {
    filters.unreadable = true;
    return;
  }
  for (const glob of globs) addGlob(filters, glob, exclude, false, true);
}

/**
 * Splits `text` on the commas outside braces, trimming each entry and
 * dropping empty ones (`*.{ts,js},!dist/**` has two entries).
 */
export function splitTopLevel(text: string, separator: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    else if (c === separator && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== "");
}

/** True when `text` holds a glob metacharacter. */
export function hasGlobChars(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // `*`, `?`, `[` and `{`: none is half of a surrogate pair.
    if (c === 0x2a || c === 0x3f || c === 0x5b || c === 0x7b) return true;
  }
  return false;
}

function stripLeading(glob: string): string {
  let g = glob.trim();
  while (g.startsWith("./")) g = g.slice(2);
  return g;
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The one character a glob token can match (folded), or null when it can match more. */
function onlyChar(token: GlobToken): string | null {
  if (token.kind === "literal") return token.char;
  if (token.kind !== "class" || token.negated) return null;
  let only: string | null = null;
  for (const { lo, hi } of token.ranges) {
    if (lo !== hi) return null;
    const c = String.fromCodePoint(lo).toLowerCase();
    if (only !== null && only !== c) return null;
    only = c;
  }
  return only;
}

/** The single name the last segment of one alternative can match, or null. */
function lastSegmentName(tokens: readonly GlobToken[]): string | null {
  let name: string | null = "";
  for (const token of tokens) {
    // `**/` ends a segment like `/` does.
    if (token.kind === "dirs" || (token.kind === "literal" && token.char === "/")) {
      name = "";
      continue;
    }
    const c = onlyChar(token);
    name = c === null || name === null ? null : name + c;
  }
  return name;
}

/**
 * True when `glob`'s last segment can only be the target's own file name:
 * after brace expansion, every alternative ends in that name, spelled with
 * literal characters or one-character classes (`{tokenizer.js}`,
 * `tokenizer.[j]s`). A pattern the matcher cannot parse (or the budget
 * refuses) is read by its text.
 */
export function namesOnlyTarget(glob: string, basename: string, budget?: WorkBudget): boolean {
  const compiled = compileGlob(glob, { foldCase: true }, budget);
  if (compiled === null) {
    const last = glob.slice(glob.lastIndexOf("/") + 1);
    return last !== "" && !hasGlobChars(last) && sameName(last, basename);
  }
  const name = basename.toLowerCase();
  return name !== "" && compiled.alternatives.every((alt) => lastSegmentName(alt) === name);
}

/**
 * True when every include the agent wrote names the target's own file, so
 * the search could only find the target: a lookup, not a search.
 */
export function isLookup(filters: SearchFilters, target: FilterTarget): boolean {
  const own = filters.includes.filter((f) => !f.fromType && !f.opaque);
  return own.length > 0 &&
    own.every((f) => namesOnlyTarget(stripLeading(f.glob), target.basename, target.budget));
}

/**
 * Whether one exclusion glob covers the target; doubt covers it. The glob
 * covers the file or a directory above it when it matches a run of path
 * segments ending there: the whole path is matched with any directories
 * allowed before the glob, and with or without any segments after it.
 * Neither the filter's case flag nor anything but its text matters.
 */
function exclusionCovers(filter: GlobFilter, target: FilterTarget): boolean {
  if (filter.opaque) return true;
  return remembered(target, `exclusion\u0000${filter.glob}`, () => {
    if (target.stem !== "" && containsWord(filter.glob.toLowerCase(), target.stem, target.budget)) {
      return true;
    }
    let glob = stripLeading(filter.glob);
    while (glob.startsWith("/")) glob = glob.slice(1);
    while (glob.endsWith("/")) glob = glob.slice(0, -1);
    if (glob === "") return true;
    const compiled = compileGlob(`**/${glob}`, { foldCase: true }, target.budget);
    return !compiled ||
      matchGlobOrAncestor(compiled, target.path ?? target.segments.join("/"), target.budget) !==
        "no-match";
  });
}

/**
 * True when the filters keep the target out: an unreadable filter, more
 * than `MAX_FILTERS` exclusions, or an exclusion that names the stem or
 * matches the file or any directory on its path.
 */
export function excludes(filters: SearchFilters, target: FilterTarget): boolean {
  if (filters.unreadable || filters.exclusions.length > MAX_FILTERS) return true;
  return filters.exclusions.some((f) => exclusionCovers(f, target));
}

/** Whether one include glob admits the target; doubt admits nothing. */
function includeAdmits(
  filter: GlobFilter,
  target: FilterTarget,
  pathGlobs: boolean,
  relatives: readonly (readonly string[])[],
): boolean {
  if (filter.opaque) return false;
  let glob = stripLeading(filter.glob);
  const fold = filter.fold || target.windows;
  if (!glob.includes("/")) {
    const compiled = compileGlob(glob, { foldCase: fold }, target.budget);
    return compiled !== null && matchGlob(compiled, target.basename, target.budget) === "match";
  }
  if (!pathGlobs) return false;
  while (glob.startsWith("/")) glob = glob.slice(1);
  const compiled = compileGlob(glob, { foldCase: fold }, target.budget);
  if (!compiled) return false;
  return relatives.some((rel) => matchGlob(compiled, rel.join("/"), target.budget) === "match");
}

/**
 * True when the include filters let the target through: there are none,
 * or one that does not merely name the target admits it. `relatives` are
 * the target's segments below each search root that contains it, for the
 * path globs of rg and the Grep tool.
 */
export function admits(
  filters: SearchFilters,
  target: FilterTarget,
  relatives: readonly (readonly string[])[],
): boolean {
  if (filters.includes.length === 0) return true;
  if (filters.includes.length > MAX_FILTERS) return false;
  return filters.includes.some((f) =>
    !(!f.fromType && namesOnlyTarget(stripLeading(f.glob), target.basename, target.budget)) &&
    includeAdmits(f, target, filters.pathGlobs, relatives)
  );
}
