/**
 * The real (symlink-resolved) location of a path that may not exist yet:
 * its own realpath when it exists, else the realpath of its nearest
 * existing ancestor with the missing names appended.
 *
 * Anything that makes the answer uncertain yields null, and callers treat
 * null as the strict outcome: a name that exists but cannot be resolved
 * (a dangling symlink, a loop), `ENOTDIR`, `EACCES` or any other error.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import { foldSegments, formatPath, parsePath, type PathParts } from "./paths.ts";

/** A realpath result as parts: host separators become `/`, Windows long prefixes go. */
function realParts(path: string): PathParts {
  const parts = parsePath(path);
  return { ...parts, segments: foldSegments(parts.segments, parts.windows) };
}

/**
 * Most missing trailing names walked over before giving up; keeps the
 * syscalls per decision bounded for a hostile deep path.
 */
const MAX_MISSING = 64;

/** What `KnownLocations` remembers of a name that is not there. */
export const MISSING = "missing";

/**
 * Real locations found while judging one call, by path as spelled: the
 * real location of a folder (null: undecidable), or `MISSING` for a name
 * that is not there, so that names below it need no lookup of their own.
 */
export type KnownLocations = Map<string, PathParts | null | typeof MISSING>;

/**
 * The real location of the absolute `target`, or null when it cannot be
 * decided. With `known`, the folders found on the way and the names found
 * missing are remembered across calls: many names under one folder
 * resolve it once, and nothing below a missing name is looked up.
 */
export function realLocation(
  target: PathParts,
  fs: FsPort,
  known?: KnownLocations,
): PathParts | null {
  const prefix = (depth: number) =>
    formatPath({ ...target, segments: target.segments.slice(0, depth) });
  let top = target.segments.length;
  // Below a name already found missing, every name is missing too: start above it.
  if (known) {
    for (let depth = 1; depth < target.segments.length; depth++) {
      if (known.get(prefix(depth)) === MISSING) {
        top = depth;
        break;
      }
    }
  }
  const missing: string[] = target.segments.slice(top).reverse();
  const lowest = Math.max(0, target.segments.length - MAX_MISSING);
  for (let depth = top; depth >= lowest; depth--) {
    const path = prefix(depth);
    const seen = known?.get(path);
    if (seen === MISSING) {
      if (depth > 0) missing.push(target.segments[depth - 1]);
      continue;
    }
    if (seen !== undefined) {
      return seen === null ? null : { ...seen, segments: [...seen.segments, ...missing.reverse()] };
    }
    // The name is looked at before it is resolved: most names asked about
    // are missing, and a failed lookup costs an exception, so a missing name
    // costs one failure instead of two.
    const own = fs.lstat(path);
    if (!own.ok) {
      if (own.code !== "ENOENT") return null;
      known?.set(path, MISSING);
      if (depth > 0) missing.push(target.segments[depth - 1]);
      continue;
    }
    const real = fs.realPath(path);
    // The name is there but does not resolve: a dangling link or a loop.
    if (!real.ok) {
      known?.set(path, null);
      return null;
    }
    const parts = realParts(real.path);
    known?.set(path, parts);
    return { ...parts, segments: [...parts.segments, ...missing.reverse()] };
  }
  return null;
}

/** Most names a walk of `..` looks up; a longer walk is undecidable. */
const MAX_WALKED = 256;

/** `path` against `base`, split, `..` kept. */
function spelledParts(path: string, base: string): PathParts {
  const own = parsePath(path);
  return own.root !== "" ? own : parsePath(`${base}/${path}`);
}

/**
 * Whether walking `path` (against `base`) would look up more names
 * between its first and last `..` than `walkedRealLocation` follows: its
 * real location is then undecidable.
 */
export function walkTooLong(path: string, base: string): boolean {
  const { segments } = spelledParts(path, base);
  const first = segments.indexOf("..");
  const names = segments.slice(first, segments.lastIndexOf("..") + 1)
    .filter((s) => s !== "." && s !== "..");
  return first >= 0 && names.length > MAX_WALKED;
}

/**
 * The real location of `path` made absolute against `base`, with its `..`
 * taken as the kernel takes them: from where the names before it really
 * lead, not from their spelling. Through a link `t` to `~/.claude/todos`,
 * `t/../settings.json` is `~/.claude/settings.json`, though the folded
 * spelling is `./settings.json`. The names before the first `..` are
 * resolved as any path is; from there to the last `..`, each name is looked
 * up once as the walk meets it (a `..` costs nothing, and nothing below a
 * missing name is looked up). Null when undecidable: a walk too long
 * (`walkTooLong`), or a name on it that cannot be looked at.
 */
export function walkedRealLocation(path: string, base: string, fs: FsPort): PathParts | null {
  const whole = spelledParts(path, base);
  const first = whole.segments.indexOf("..");
  if (first < 0) {
    return realLocation({ ...whole, segments: foldSegments(whole.segments, whole.windows) }, fs);
  }
  if (walkTooLong(path, base)) return null;
  const last = whole.segments.lastIndexOf("..");
  const start = realLocation(
    { ...whole, segments: foldSegments(whole.segments.slice(0, first), whole.windows) },
    fs,
  );
  if (start === null) return null;
  let real: PathParts = start;
  const missing: string[] = [];
  for (const segment of whole.segments.slice(first, last + 1)) {
    if (segment === ".") continue;
    if (segment === "..") {
      if (missing.length > 0) missing.pop();
      else real = { ...real, segments: real.segments.slice(0, -1) };
      continue;
    }
    // Below a missing name everything is missing: no link there to follow.
    if (missing.length > 0) {
      missing.push(segment);
      continue;
    }
    const next = { ...real, segments: [...real.segments, segment] };
    const found = fs.lstat(formatPath(next));
    if (!found.ok) {
      if (found.code !== "ENOENT") return null;
      missing.push(segment);
    } else if (found.isSymlink) {
      const resolved = fs.realPath(formatPath(next));
      if (!resolved.ok) return null;
      real = realParts(resolved.path);
    } else {
      real = next;
    }
  }
  const rest = foldSegments(whole.segments.slice(last + 1), whole.windows);
  return realLocation({ ...real, segments: [...real.segments, ...missing, ...rest] }, fs);
}

/** The real location of the directory that would hold `target`, or null when undecidable. */
export function realDirectory(target: PathParts, fs: FsPort): PathParts | null {
  const dir = { ...target, segments: target.segments.slice(0, -1) };
  const real = realLocation(dir, fs);
  if (!real) return null;
  // An existing dir path must really be a directory; missing ones will be created as such.
  const existing = fs.stat(formatPath(dir));
  if (existing.ok) return existing.isDirectory ? real : null;
  return existing.code === "ENOENT" ? real : null;
}
