/**
 * The destructive gate's narrow escape hatch: the `allowDestructive`
 * entries of the user file and of a trusted project file, and whether they
 * cover one command.
 *
 * An entry with a `/` or a wildcard is a path glob (`dist/**`, `/tmp/**`,
 * `~/scratch/**`; a relative glob is read from the project root); any other
 * entry is a command phrase, matched against a whole destructive command,
 * word for word. The reading is conservative, because an agent chooses the
 * command: every destructive part of the line must be covered (each path it
 * names placed and under a glob, or the part equal to a phrase), what is
 * left of the line once the covered parts are set aside must not be
 * destructive, and a path is never covered when it is, holds or lies above
 * the home folder, a filesystem root, the project root, or is its `.git`,
 * or belongs to GateGuard's control surface. A word the reader cannot place
 * (a variable, a substitution, `~user`, a wildcard outside the last name)
 * leaves the part uncovered, and so does a line that changes directory or
 * makes links, which could move a path after it was judged.
 *
 * @module
 */

import { parseBash, type Segment, type Word } from "../shell/bash/mod.ts";
import type { ShellDialect } from "../tools/call.ts";
import { absolutePath, formatPath, insideAt, type PathParts } from "../file_facts/paths.ts";
import { realLocation } from "../file_facts/real_path.ts";
import { globMatch } from "../glob/glob.ts";
import { controlSurfaceOf, type SurfaceContext } from "../control/surface.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { WorkBudget } from "../platform/budget.ts";

/** Where the command runs and what it may never be allowed to destroy. */
export interface AllowPlace {
  /** The directory the command runs in. */
  cwd: string;
  projectRoot: string;
  home: string | null;
  /** The control surface of this call (no path of it is ever covered). */
  surface: SurfaceContext;
  /** Real locations are judged through it: a link never carries a path out of its glob. */
  fs: FsPort;
}

/** Asks whether a piece of shell is destructive, with the gate's own rules. */
export type DestructiveCheck = (command: string) => Promise<boolean>;

/** Programs whose presence anywhere in the line makes no part of it covered. */
export const MOVERS: ReadonlySet<string> = new Set([
  "cd",
  "pushd",
  "popd",
  "ln",
  "link",
  "mount",
  "bindfs",
  "mklink",
]);

/** True for an entry read as a path glob rather than a command phrase. */
export function isPathEntry(entry: string): boolean {
  return !/\s/.test(entry.trim()) && /[/*?[]/.test(entry);
}

function baseNameOf(word: string): string {
  const parts = word.split("/");
  return parts[parts.length - 1] ?? "";
}

/** The path of `word`, placed against `cwd`, or null when it cannot be placed for sure. */
function placeWord(word: Word, place: AllowPlace): PathParts | null {
  if (word.expands || word.braces !== null || word.text === "") return null;
  let text = word.text;
  if (word.globs) {
    // Only a last name of nothing but `*` is read: what it expands to stays in its folder.
    const cut = text.lastIndexOf("/");
    if (cut < 0 || !/^\*+$/.test(text.slice(cut + 1))) return null;
    if (/[*?[]/.test(text.slice(0, cut))) return null;
    text = text.slice(0, cut) || "/";
  }
  if (text.includes("\\")) return null;
  return absolutePath(text, place.cwd, place.cwd);
}

function samePath(a: PathParts, b: PathParts): boolean {
  return a.root === b.root && a.segments.length === b.segments.length &&
    a.segments.every((s, i) => s === b.segments[i]);
}

/** True when deleting `path` would take one of the places no entry may cover. */
function isProtected(path: PathParts, place: AllowPlace): boolean {
  if (path.segments.length === 0) return true;
  const guarded = [place.home, place.projectRoot].flatMap((d) =>
    d ? [absolutePath(d, place.cwd, place.cwd)] : []
  );
  // The place itself, or a folder above it.
  if (guarded.some((g) => samePath(g, path) || insideAt(path, g) !== null)) return true;
  const git = absolutePath(`${place.projectRoot}/.git`, place.cwd, place.cwd);
  if (samePath(git, path) || insideAt(git, path) !== null) return true;
  if (path.segments.some((s) => s.toLowerCase() === ".git")) return true;
  const surface = controlSurfaceOf(formatPath(path), place.surface);
  return surface !== null;
}

/** True when `path` lies under the path glob `entry`. */
function underGlob(entry: string, path: PathParts, place: AllowPlace, budget: WorkBudget): boolean {
  let glob = entry.trim();
  let text: string;
  if (glob.startsWith("~/")) {
    if (!place.home) return false;
    glob = `${place.home.replace(/\/+$/, "")}/${glob.slice(2)}`;
  }
  if (glob.startsWith("/")) {
    text = formatPath(path);
  } else {
    const root = absolutePath(place.projectRoot, place.cwd, place.cwd);
    const at = insideAt(root, path);
    if (at === null) return false;
    text = path.segments.slice(at).join("/");
  }
  const match = (pattern: string): boolean =>
    globMatch(pattern, text, { slashWildcards: false }, budget) === "match";
  // `dist/**` covers `dist` itself as well as everything below it.
  return match(glob) || (glob.endsWith("/**") && match(glob.slice(0, -3)));
}

/** True when the path and its real location are both allowed and under a glob. */
function pathCovered(
  path: PathParts,
  globs: readonly string[],
  place: AllowPlace,
  budget: WorkBudget,
): boolean {
  const real = realLocation(path, place.fs);
  const seen = real === null ? [path] : [path, real];
  return seen.every((p) =>
    !isProtected(p, place) && globs.some((g) => underGlob(g, p, place, budget))
  );
}

function phraseCovers(segment: Segment, phrases: readonly string[]): boolean {
  if (segment.words.some((w) => w.expands || w.braces !== null)) return false;
  const words = segment.words.map((w) => w.text.toLowerCase());
  return phrases.some((phrase) => {
    const want = phrase.trim().toLowerCase().split(/\s+/);
    return want.length === words.length && want.every((w, i) => w === words[i]);
  });
}

/** The operands of a destructive command: every word after the program that is not an option. */
function operandsOf(segment: Segment): Word[] {
  const out: Word[] = [];
  let optionsEnd = false;
  for (const word of segment.words.slice(1)) {
    if (!optionsEnd && word.text === "--") {
      optionsEnd = true;
      continue;
    }
    if (!optionsEnd && word.text.startsWith("-")) continue;
    out.push(word);
  }
  return out;
}

/** True when a write redirect sends output somewhere other than a descriptor or /dev/null. */
function writesElsewhere(segment: Segment): boolean {
  return segment.redirects.some((r) =>
    !["<", "<<", "<<-", "<<<"].includes(r.op) && r.target.text !== "/dev/null" &&
    !(r.op.endsWith("&") && /^(\d+|-)$/.test(r.target.text))
  );
}

function segmentCovered(
  segment: Segment,
  entries: readonly string[],
  place: AllowPlace,
  budget: WorkBudget,
): boolean {
  if (writesElsewhere(segment) || segment.assignments.length > 0) return false;
  const phrases = entries.filter((e) => !isPathEntry(e));
  const operands = operandsOf(segment);
  // A phrase is the user's word for that command, but never for a protected place it names.
  const named = () =>
    operands.every((word) => {
      const path = placeWord(word, place);
      return path !== null && !isProtected(path, place);
    });
  if (phraseCovers(segment, phrases) && named()) return true;
  const globs = entries.filter(isPathEntry);
  if (globs.length === 0 || operands.length === 0) return false;
  return operands.every((word) => {
    const path = placeWord(word, place);
    return path !== null && pathCovered(path, globs, place, budget);
  });
}

/**
 * True when `entries` cover every destructive part of `command`, and what
 * is left once those parts are set aside is not destructive. Only Bash
 * lines are read; any other dialect, a line the reader cannot parse, and a
 * spent budget are never covered.
 */
export async function coveredByAllowList(
  dialect: ShellDialect,
  command: string,
  entries: readonly string[],
  place: AllowPlace,
  isDestructive: DestructiveCheck,
  budget: WorkBudget,
): Promise<boolean> {
  if (entries.length === 0 || dialect !== "bash") return false;
  const parse = parseBash(command);
  if (!parse.ok || parse.segments.length === 0) return false;
  if (parse.segments.some((s) => MOVERS.has(baseNameOf(s.words[0]?.text ?? "")))) return false;
  let rest = "";
  let from = 0;
  let covered = 0;
  for (const segment of parse.segments) {
    if (!(await isDestructive(segment.raw))) continue;
    if (!segmentCovered(segment, entries, place, budget)) return false;
    const at = command.indexOf(segment.raw, from);
    if (at < 0) return false;
    rest += command.slice(from, at) + "true";
    from = at + segment.raw.length;
    covered++;
  }
  rest += command.slice(from);
  if (covered === 0 || budget.exhausted() !== null) return false;
  return !(await isDestructive(rest));
}
