/**
 * Target identity: where a tool's file path points, the canonical key its
 * first touch is recorded under, and the project-relative path its class
 * and sensitivity are judged on.
 *
 * Two different anchors are used on purpose. A relative target resolves
 * where the tool runs (payload `cwd`, then `CLAUDE_PROJECT_DIR`, then the
 * process cwd), since that is the file the tool will open; the project
 * root prefers `CLAUDE_PROJECT_DIR`, since class, sensitivity and exempt
 * globs describe the project, not wherever the tool happens to run.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import {
  absolutePath,
  climbs,
  foldSegments,
  formatPath,
  isAbsolute,
  normalizeNames,
  parsePath,
  type PathParts,
  relativeSegments,
} from "./paths.ts";

/** The directories a target is judged against. */
export interface Roots {
  /** The project root, as chosen by `projectRoot`. */
  projectRoot: string;
  /** The payload `cwd`, when present. */
  toolCwd: string | null;
  /** The hook process's working directory. */
  processCwd: string;
  /** `CLAUDE_PROJECT_DIR`, when set. */
  projectDirEnv: string | null;
  /** True when the hook runs on Windows: POSIX paths are then foreign, and vice versa. */
  hostWindows: boolean;
  /** The user's home directory (`HOME`, else `USERPROFILE`), for the Claude settings exemption. */
  homeDir?: string | null;
}

/** A tool's file path, resolved. */
export interface ResolvedTarget {
  /** The path exactly as the tool input gave it. */
  raw: string;
  /** Absolute, `.`/`..` folded, `/`-separated, original case; symlinks are not resolved. */
  absolute: string;
  /** The checked-state key: `absolute`, lowercased when Windows-style. */
  key: string;
  /** True when the resolved path is in Windows syntax. */
  windowsStyle: boolean;
  /**
   * True when the path is in the other host's syntax (Windows-style on a POSIX
   * host or the reverse): its class and key come from its path, and the
   * filesystem is asked only through `fsPath`.
   */
  foreign: boolean;
  /**
   * The path the filesystem checks ask about: `absolute` for a native
   * target; for a foreign one, the raw path when it is rooted with `/`,
   * since this host still opens that (on POSIX a backslash is part of a
   * name), else null: nothing here can be asked.
   */
  fsPath: string | null;
  /**
   * For a native target whose path holds `..`: the path joined to its base
   * with the `..` kept, since the filesystem takes them after any link
   * before them (`realLocation` of it is not that of `absolute`).
   */
  unfolded?: string;
  /** True when the target lies strictly inside the project root. */
  inProject: boolean;
  /**
   * Lowercased project-relative path after Windows name normalization and
   * worktree stripping, used for class and sensitivity; the lowercased
   * absolute path when the target is outside the root.
   */
  classPath: string;
  /** Lowercased project-relative path before worktree stripping; null outside the root. */
  relPath: string | null;
  /** The file name in its original case, after Windows name normalization. */
  basename: string;
}

function nonEmpty(value: string | null | undefined): string | null {
  return value ? value : null;
}

/**
 * The project root: `CLAUDE_PROJECT_DIR`, then the payload `cwd`, then the
 * process cwd (empty values count as absent).
 */
export function projectRoot(
  toolCwd: string | null,
  projectDirEnv: string | null,
  processCwd: string,
): string {
  return nonEmpty(projectDirEnv) ?? nonEmpty(toolCwd) ?? processCwd;
}

/** The project root of `roots`, absolute and folded. */
export function projectRootParts(roots: Roots): PathParts {
  return absolutePath(roots.projectRoot, roots.processCwd, roots.processCwd);
}

/** Leading segments of a Claude Code worktree: `.claude`, `worktrees`, its name. */
const WORKTREE_DEPTH = 3;

/**
 * Drops a leading `.claude/worktrees/<name>/` from project-relative
 * segments when `<root>/.claude/worktrees/<name>/.git` exists, since such a
 * worktree mirrors the project. A foreign root cannot be checked, so its
 * paths keep the prefix (and stay under `.claude`, the stricter reading).
 */
export function stripWorktree(
  root: PathParts,
  segments: readonly string[],
  fs: FsPort,
  foreign: boolean,
): readonly string[] {
  if (
    foreign || segments.length <= WORKTREE_DEPTH ||
    segments[0].toLowerCase() !== ".claude" || segments[1].toLowerCase() !== "worktrees"
  ) return segments;
  const gitPath = formatPath({
    ...root,
    segments: [...root.segments, ...segments.slice(0, WORKTREE_DEPTH), ".git"],
  });
  return fs.lstat(gitPath).ok ? segments.slice(WORKTREE_DEPTH) : segments;
}

/** Resolves a tool's file path against `roots`. Never throws. */
export function resolveTarget(raw: string, roots: Roots, fs: FsPort): ResolvedTarget {
  const base = nonEmpty(roots.toolCwd) ?? nonEmpty(roots.projectDirEnv) ?? roots.processCwd;
  const parts = absolutePath(raw, base, roots.processCwd);
  const absolute = formatPath(parts);
  const foreign = parts.windows !== roots.hostWindows;
  const root = projectRootParts(roots);
  const rel = relativeSegments(root, parts);
  return {
    raw,
    absolute,
    key: parts.windows ? absolute.toLowerCase() : absolute,
    windowsStyle: parts.windows,
    foreign,
    fsPath: foreign ? (raw.startsWith("/") ? raw : null) : absolute,
    ...(!foreign && climbs(raw) ? { unfolded: isAbsolute(raw) ? raw : `${base}/${raw}` } : {}),
    inProject: rel !== null,
    classPath: judgedPath(parts, root, fs, foreign),
    relPath: rel ? normalizeNames(parts.windows, rel).join("/").toLowerCase() : null,
    basename: normalizeNames(parts.windows, parts.segments).at(-1) ?? "",
  };
}

/** The folded absolute path of a resolved target, as parts. */
export function targetParts(target: ResolvedTarget): PathParts {
  return parsePath(target.absolute, target.windowsStyle);
}

/**
 * The target's `fsPath` as parts, folded in this host's syntax, or null
 * when the host has no path to ask about.
 */
export function fsParts(target: ResolvedTarget): PathParts | null {
  if (target.fsPath === null) return null;
  if (!target.foreign) return targetParts(target);
  const parts = parsePath(target.fsPath, false);
  return { ...parts, segments: foldSegments(parts.segments, false) };
}

/**
 * The lowercased path the class and sensitivity rules judge for an
 * absolute location: relative to `root` (worktree stripped) when inside
 * it, else the whole path. A null root means the project has no comparable
 * location on this host; `foreign` means no worktree can be checked.
 */
export function judgedPath(
  location: PathParts,
  root: PathParts | null,
  fs: FsPort,
  foreign: boolean,
): string {
  const rel = root ? relativeSegments(root, location) : null;
  const names = normalizeNames(location.windows, rel ?? location.segments);
  const path = rel && root
    ? stripWorktree(root, names, fs, foreign).join("/")
    : formatPath({ ...location, segments: names });
  return path.toLowerCase();
}
