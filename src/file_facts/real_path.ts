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

/** The real location of the absolute `target`, or null when it cannot be decided. */
export function realLocation(target: PathParts, fs: FsPort): PathParts | null {
  const missing: string[] = [];
  const lowest = Math.max(0, target.segments.length - MAX_MISSING);
  for (let depth = target.segments.length; depth >= lowest; depth--) {
    const path = formatPath({ ...target, segments: target.segments.slice(0, depth) });
    // The name is looked at before it is resolved: most names asked about
    // are missing, and a failed lookup costs an exception, so a missing name
    // costs one failure instead of two.
    const own = fs.lstat(path);
    if (!own.ok) {
      if (own.code !== "ENOENT") return null;
      if (depth > 0) missing.push(target.segments[depth - 1]);
      continue;
    }
    const real = fs.realPath(path);
    // The name is there but does not resolve: a dangling link or a loop.
    if (!real.ok) return null;
    const parts = realParts(real.path);
    return { ...parts, segments: [...parts.segments, ...missing.reverse()] };
  }
  return null;
}

/**
 * The real location of `path` made absolute against `base`, with its `..`
 * taken as the kernel takes them: from where the names before it really
 * lead, not from their spelling. Through a link `t` to `~/.claude/todos`,
 * `t/../settings.json` is `~/.claude/settings.json`, though the folded
 * spelling is `./settings.json`. Null when undecidable.
 */
export function walkedRealLocation(path: string, base: string, fs: FsPort): PathParts | null {
  const own = parsePath(path);
  const whole = own.root !== "" ? own : parsePath(`${base}/${path}`);
  if (!whole.segments.includes("..")) {
    return realLocation({ ...whole, segments: foldSegments(whole.segments, whole.windows) }, fs);
  }
  let at: PathParts = { ...whole, segments: [] };
  for (const segment of whole.segments) {
    if (segment === ".") continue;
    if (segment !== "..") {
      at = { ...at, segments: [...at.segments, segment] };
      continue;
    }
    const real = realLocation(at, fs);
    if (real === null) return null;
    at = { ...real, segments: real.segments.slice(0, -1) };
  }
  return realLocation(at, fs);
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
