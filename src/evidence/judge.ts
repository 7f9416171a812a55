/**
 * Judges one piece of evidence against one target: does it credit the
 * target, and if it mentions the target without crediting it, why not.
 *
 * A search can reach a target three ways: its stem appears as a word in the
 * search (any target), it named the target's directory exactly (new
 * files only), or its patterns search for a name the target exports (a
 * separate, later pass: see `symbol.ts`). Each way then has to pass the
 * same gates in order: not a mere lookup, not piped input, in scope, not
 * filtered out. See
 * docs/search-credit.md "Prior-search credit" and "Closest search that did
 * not count".
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import { compileGlob, matchGlob, matchGlobOrAncestor } from "../glob/glob.ts";
import { formatPath, insideAt, type PathParts, relativeSegments } from "../file_facts/paths.ts";
import {
  admits,
  excludes,
  type FilterTarget,
  isLookup,
  namesOnlyTarget,
  remembered,
} from "./filters.ts";
import type { DepthLimit, Operand, Scope, SearchEvidence } from "./types.ts";
import { withinDepth } from "./depth.ts";
import { clearlyIgnored } from "./ignore_files.ts";
import { containsWord, MIN_MENTION_LENGTH, type TargetStem } from "./stem.ts";
import { searchesSymbol } from "./symbol.ts";

/** Why a mention did not credit, closest first (see docs/search-credit.md). */
export const MISS_CODES = [
  "same-batch",
  "excluded",
  "out-of-scope",
  "stdin-only",
  "not-a-search",
  "generic-stem",
] as const;

/** One reason code of the closest-miss note. */
export type MissCode = typeof MISS_CODES[number];

/** The outcome of judging evidence against a target. */
export type Verdict =
  | { kind: "credit" }
  | { kind: "miss"; code: MissCode }
  /** The evidence does not mention the target at all. */
  | { kind: "silent" };

/** The target as the judge sees it. */
export interface JudgeTarget {
  place: PathParts;
  parent: PathParts;
  basename: string;
  stem: TargetStem;
  isNewWrite: boolean;
  filter: FilterTarget;
  /** The target's path below a number of its segments, by that number (see `belowText`). */
  below: Map<number, string>;
  /** Whether `.gitignore` files clearly ignore the target, read on first need. */
  ignored?: boolean;
  /**
   * The symbol pass: the names the target exports. A search then reaches
   * the target only by searching for one of them; stems and directories
   * are not looked at.
   */
  symbols?: ReadonlySet<string>;
}

const CREDIT: Verdict = { kind: "credit" };
const SILENT: Verdict = { kind: "silent" };

function miss(code: MissCode): Verdict {
  return { kind: "miss", code };
}

function rank(v: Verdict): number {
  if (v.kind === "credit") return -1;
  if (v.kind === "silent") return MISS_CODES.length;
  return MISS_CODES.indexOf(v.code);
}

/** The closer of two verdicts: a credit beats any miss, a miss beats silence. */
export function closer(a: Verdict, b: Verdict): Verdict {
  return rank(b) < rank(a) ? b : a;
}

/** True when two absolute paths name the same place (case-insensitive if Windows-style). */
export function samePlace(a: PathParts, b: PathParts): boolean {
  const fold = a.windows || b.windows;
  const eq = (x: string, y: string): boolean =>
    fold ? x.toLowerCase() === y.toLowerCase() : x === y;
  return eq(a.root, b.root) && a.segments.length === b.segments.length &&
    a.segments.every((s, i) => eq(s, b.segments[i]));
}

/** The segments of `inner` below `outer`: `[]` when they are the same place. */
function withinOrSame(outer: PathParts, inner: PathParts): readonly string[] | null {
  return samePlace(outer, inner) ? [] : relativeSegments(outer, inner);
}

/** The target's path below its first `at` segments, joined once per depth. */
function belowText(t: JudgeTarget, at: number): string {
  let text = t.below.get(at);
  if (text === undefined) {
    text = t.place.segments.slice(at).join("/");
    t.below.set(at, text);
  }
  return text;
}

/**
 * True when a glob operand matches the target or a directory above it,
 * below the operand's anchor, which holds the target's first `at`
 * segments. The verdict depends on the pattern, its flags and how deep
 * the anchor is (the target fixes the rest), so the same operand in many
 * calls of the turn is matched once.
 */
function globOperandAdmits(
  op: Extract<Operand, { kind: "glob" }>,
  t: JudgeTarget,
  at: number,
): boolean {
  const key = `operand\u0000${+op.gitStyle}${+op.fold}${at}\u0000${op.glob}`;
  return remembered(t.filter, key, () => {
    const options = { slashWildcards: op.gitStyle, foldCase: op.fold || t.filter.windows };
    const compiled = compileGlob(op.glob, options, t.filter.budget);
    const below = belowText(t, at);
    return compiled !== null &&
      matchGlobOrAncestor(compiled, below, t.filter.budget) === "match";
  });
}

/**
 * True when a glob operand's matches reach the target (`rel`, its segments
 * below the operand's anchor) within the depth limit. A glob of k segments
 * matches paths k segments below its anchor; with `**` or pathspec
 * wildcards that count is unknown, so a limit admits nothing.
 */
function globDepthAdmits(
  op: Extract<Operand, { kind: "glob" }>,
  rel: readonly string[],
  limit: DepthLimit,
): boolean {
  if (limit.min === 0 && limit.max === null) return true;
  const parts = op.glob.split("/").filter((s) => s !== "");
  if (op.gitStyle || parts.includes("**")) return false;
  return withinDepth(limit, rel.slice(parts.length));
}

function operandNamesOnlyTarget(op: Operand, t: JudgeTarget): boolean {
  if (op.kind === "path") return samePlace(op.place, t.place);
  if (op.kind === "glob") return namesOnlyTarget(op.glob, t.basename, t.filter.budget);
  return false;
}

/** True when the search could only have read or found the target itself. */
function onlyTheTarget(ev: SearchEvidence, t: JudgeTarget): boolean {
  if (isLookup(ev.filters, t.filter)) return true;
  const scope = ev.scope;
  switch (scope.kind) {
    case "below":
      return samePlace(scope.root, t.place);
    case "glob":
      return namesOnlyTarget(scope.pattern, t.basename, t.filter.budget);
    case "dir-files":
      return samePlace(scope.except, t.place);
    case "operands":
      return scope.operands.length > 0 &&
        scope.operands.every((op) => operandNamesOnlyTarget(op, t));
  }
}

/**
 * The target's segments below each root of the scope that contains it, or
 * null when the scope does not contain the target.
 */
function scopeRelatives(scope: Scope, t: JudgeTarget): (readonly string[])[] | null {
  switch (scope.kind) {
    case "below":
    case "glob": {
      const rel = relativeSegments(scope.root, t.place);
      return rel ? [rel] : null;
    }
    case "dir-files":
      return samePlace(scope.dir, t.parent) ? [[t.basename]] : null;
    case "operands": {
      if (scope.operands.length === 0) {
        const rel = scope.cwd ? relativeSegments(scope.cwd, t.place) : null;
        return rel && withinDepth(scope.depth, rel) ? [rel] : null;
      }
      const relatives: (readonly string[])[] = [];
      let admitted = false;
      for (const op of scope.operands) {
        if (op.kind === "path") {
          const rel = withinOrSame(op.place, t.place);
          if (rel && withinDepth(scope.depth, rel)) {
            admitted = true;
            relatives.push(rel.length > 0 ? rel : [t.basename]);
          }
        } else if (op.kind === "glob") {
          // The anchor is compared with the target once, for all three uses.
          const at = insideAt(op.anchor, t.place);
          if (at === null || !globOperandAdmits(op, t, at)) continue;
          const rel = t.place.segments.slice(at);
          if (!globDepthAdmits(op, rel, scope.depth)) continue;
          admitted = true;
          relatives.push(rel);
        }
      }
      return admitted ? relatives : null;
    }
  }
}

function patternAdmits(scope: Scope, t: JudgeTarget, relatives: (readonly string[])[]): boolean {
  if (scope.kind !== "glob") return true;
  const compiled = compileGlob(scope.pattern, { foldCase: t.filter.windows }, t.filter.budget);
  return compiled !== null &&
    relatives.some((rel) => matchGlob(compiled, rel.join("/"), t.filter.budget) === "match");
}

function namesParent(ev: SearchEvidence, t: JudgeTarget, fs: FsPort): boolean {
  return ev.namedDirs.some((d) => {
    if (!samePlace(d.place, t.parent)) return false;
    if (!d.mustExist) return true;
    const stat = fs.stat(formatPath(d.place));
    return stat.ok && stat.isDirectory;
  });
}

function mentionsStem(texts: readonly string[], name: string, t: JudgeTarget): boolean {
  return texts.some((text) => containsWord(text, name, t.filter.budget));
}

/**
 * Judges one search against the target. Both ways in (stem and named
 * directory) are tried; the closer verdict wins. A search read under two
 * accounts of its start (`twin`) gets the farther of the two verdicts.
 */
export function judgeSearch(ev: SearchEvidence, t: JudgeTarget, fs: FsPort): Verdict {
  const own = judgeOne(ev, t, fs);
  if (ev.twin === undefined) return own;
  // Both accounts of where the shell stood must credit: the farther verdict stands.
  const other = judgeOne(ev.twin, t, fs);
  return closer(own, other) === own ? other : own;
}

function judgeOne(ev: SearchEvidence, t: JudgeTarget, fs: FsPort): Verdict {
  if (t.symbols !== undefined) return symbolVerdict(ev, t, t.symbols, fs);
  const byStem = t.stem.usable && mentionsStem(ev.stemTexts, t.stem.name, t);
  const byDir = t.isNewWrite && namesParent(ev, t, fs);
  const bare = !t.stem.usable && t.stem.name.length >= MIN_MENTION_LENGTH &&
    mentionsStem(ev.stemTexts, t.stem.name, t);
  const generic = bare ? miss("generic-stem") : SILENT;
  if (!byStem && !byDir) return generic;
  // What the model never saw proves nothing, and a miss line would only confuse.
  if (ev.unseen) return SILENT;
  if (onlyTheTarget(ev, t)) return miss("not-a-search");
  if (ev.stdinOnly) return miss("stdin-only");
  const excluded = excludes(ev.filters, t.filter);
  const viaDir = byDir ? (excluded ? miss("excluded") : CREDIT) : SILENT;
  return closer(closer(generic, viaDir), byStem ? stemVerdict(ev, t, excluded, fs) : SILENT);
}

/** A search for a name the target exports, held to the stem's gates after the name. */
function symbolVerdict(
  ev: SearchEvidence,
  t: JudgeTarget,
  symbols: ReadonlySet<string>,
  fs: FsPort,
): Verdict {
  if (!searchesSymbol(ev.symbol, symbols, t.filter.budget)) return SILENT;
  if (ev.unseen) return SILENT;
  if (onlyTheTarget(ev, t)) return miss("not-a-search");
  if (ev.stdinOnly) return miss("stdin-only");
  return stemVerdict(ev, t, excludes(ev.filters, t.filter), fs);
}

function stemVerdict(ev: SearchEvidence, t: JudgeTarget, excluded: boolean, fs: FsPort): Verdict {
  const relatives = scopeRelatives(ev.scope, t);
  if (relatives === null) return miss("out-of-scope");
  if (
    excluded || !patternAdmits(ev.scope, t, relatives) ||
    !admits(ev.filters, t.filter, relatives) ||
    skipsTarget(ev, t, relatives, fs)
  ) {
    return miss("excluded");
  }
  return CREDIT;
}

/**
 * True when the tool's default skips kept the target out of its listing: a
 * hidden name below every path that reached it, or a `.gitignore` that
 * clearly ignores it (read once per target, only when a search needs it).
 */
function skipsTarget(
  ev: SearchEvidence,
  t: JudgeTarget,
  relatives: (readonly string[])[],
  fs: FsPort,
): boolean {
  if (ev.skips === undefined) return false;
  if (ev.skips.hidden && relatives.every((rel) => rel.some((s) => s.startsWith(".")))) {
    return true;
  }
  if (!ev.skips.ignored) return false;
  t.ignored ??= clearlyIgnored(t.place, fs, t.filter.budget);
  return t.ignored;
}

/** True when a non-search text names the target (its stem, or a bare name long enough). */
export function mentionsTarget(text: string, t: JudgeTarget): boolean {
  const name = t.stem.name;
  const long = t.stem.usable || name.length >= MIN_MENTION_LENGTH;
  return long && containsWord(text, name, t.filter.budget);
}
