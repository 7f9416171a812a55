/**
 * Whether the project's `.gitignore` files clearly ignore a target, for
 * the searches that skip ignored files by default (rg, fd, git grep). Only
 * a simple subset of gitignore is read, and every doubt answers "not
 * ignored", so a search keeps its credit unless the file was surely out of
 * its reach. See docs/search-credit.md "Default skips".
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import type { WorkBudget } from "../platform/budget.ts";
import { formatPath, type PathParts } from "../file_facts/paths.ts";
import { compileGlob, matchGlob } from "../glob/glob.ts";

/** Largest ignore file read; a larger one is not read (doubt: not ignored). */
export const IGNORE_FILE_MAX_BYTES = 16 * 1024;

/** Most directories above the target searched for ignore files and the repository root. */
export const IGNORE_MAX_DIRS = 32;

/** Work units charged per ignore file looked for, besides its bytes. */
const UNITS_PER_LOOKUP = 256;

/** One usable line of an ignore file. */
interface IgnoreRule {
  glob: string;
  /** Contains a `/` before its end: matched against the path below the file's directory. */
  anchored: boolean;
  /** Ends in `/`: matches directories only. */
  dirOnly: boolean;
}

/**
 * The rules of one ignore file, or null when it holds something the subset
 * does not read safely (a negation, which may re-include the target).
 * Escaped and blank lines and comments are skipped.
 */
function readRules(text: string): IgnoreRule[] | null {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "").trimEnd();
    if (line === "" || line.startsWith("#") || line.startsWith("\\")) continue;
    if (line.startsWith("!")) return null;
    const dirOnly = line.endsWith("/");
    const body = dirOnly ? line.slice(0, -1) : line;
    if (body === "") continue;
    const anchored = body.includes("/");
    rules.push({ glob: body.startsWith("/") ? body.slice(1) : body, anchored, dirOnly });
  }
  return rules;
}

/** True when `rule` matches the target (`rel`, its segments below the rule's directory) or a directory above it. */
function ruleMatches(rule: IgnoreRule, rel: readonly string[], budget?: WorkBudget): boolean {
  const compiled = compileGlob(rule.glob, { braces: false }, budget);
  if (compiled === null) return false;
  // A directory-only rule cannot match the target file itself.
  const last = rule.dirOnly ? rel.length - 1 : rel.length;
  for (let i = 0; i < last; i++) {
    const text = rule.anchored ? rel.slice(0, i + 1).join("/") : rel[i];
    if (matchGlob(compiled, text, budget) === "match") return true;
  }
  return false;
}

/**
 * True when a `.gitignore` between the target and its git repository's
 * root ignores it. Outside a repository (no `.git` within
 * `IGNORE_MAX_DIRS` directories), these tools read no `.gitignore`, so
 * nothing is ignored. Any negation or an unreadable or oversized file
 * answers false; a spent budget answers true (no credit on unpaid work).
 */
export function clearlyIgnored(place: PathParts, fs: FsPort, budget?: WorkBudget): boolean {
  const found: { rel: readonly string[]; rules: IgnoreRule[] }[] = [];
  const dirs = place.segments.length - 1;
  let inRepository = false;
  for (let depth = dirs; depth >= 0 && dirs - depth < IGNORE_MAX_DIRS; depth--) {
    // A spent budget fails closed: the target counts as out of the search's reach.
    if (budget && !budget.spend(UNITS_PER_LOOKUP, "evidence")) return true;
    const dir = formatPath({ ...place, segments: place.segments.slice(0, depth) });
    const join = (name: string): string => dir.endsWith("/") ? dir + name : `${dir}/${name}`;
    const text = fs.readTextBounded(join(".gitignore"), IGNORE_FILE_MAX_BYTES);
    if (text !== null) {
      if (budget && !budget.spend(text.length, "evidence")) return true;
      const rules = readRules(text);
      if (rules === null) return false;
      found.push({ rel: place.segments.slice(depth), rules });
    }
    if (fs.lstat(join(".git")).ok) {
      inRepository = true;
      break;
    }
  }
  if (!inRepository) return false;
  return found.some(({ rel, rules }) => rules.some((rule) => ruleMatches(rule, rel, budget)));
}
