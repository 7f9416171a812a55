/**
 * Operator exemptions: `GATEGUARD_EXEMPT_GLOBS` and Claude Code's own
 * settings files. An exempt target skips every later rule, sensitive and
 * hard-linked ones included, because the operator asked for it.
 *
 * Relative globs describe the project, so they match the whole
 * project-relative path and never a target outside the root; absolute
 * globs match the whole absolute path and may reach outside on purpose.
 * Patterns and paths are compared lowercased with `/` separators.
 *
 * Both readings hold on the real path as well as on the spelling: a
 * symlinked directory must not make `src/auth/login.py` look like
 * `tests/authlink/login.py`, or `src/payments/settings.json` like
 * `.claude/settings.json`. Doubt while resolving grants nothing.
 *
 * @module
 */

import { type CompiledGlob, compileGlob, matchGlob } from "../glob/glob.ts";
import type { WorkBudget } from "../platform/budget.ts";
import type { FsPort } from "../platform/fs_port.ts";
import {
  absolutePath,
  formatPath,
  normalizeNames,
  parsePath,
  type PathParts,
  relativeSegments,
} from "./paths.ts";
import {
  fsParts,
  projectRootParts,
  type ResolvedTarget,
  type Roots,
  stripWorktree,
} from "./resolve.ts";
import { realLocation } from "./real_path.ts";
import { namedLikeClaudeSettings } from "./settings_names.ts";

/** Why a target is exempt, as recorded in metrics. */
export type ExemptReason = "exempt-glob" | "claude-settings";

function compileExempt(pattern: string): CompiledGlob | null {
  return compileGlob(pattern, { foldCase: true });
}

/**
 * Splits the variable on commas into normalized patterns (trimmed,
 * lowercased, `\` read as `/`), dropping empty and malformed ones so they
 * grant nothing. Since the list is comma-separated, a brace group cannot
 * hold a comma here.
 */
export function parseExemptGlobs(raw: string | undefined): readonly string[] {
  if (!raw) return [];
  return raw.split(",")
    .map((p) => p.trim().toLowerCase().replaceAll("\\", "/"))
    .filter((p) => p !== "" && compileExempt(p) !== null);
}

function isAbsoluteGlob(pattern: string): boolean {
  return parsePath(pattern).root !== "";
}

/** The texts globs are matched against: the absolute path, and the project-relative ones. */
interface GlobTexts {
  absolute: string;
  relatives: readonly (string | null)[];
}

function lexicalTexts(target: ResolvedTarget): GlobTexts {
  // In a verified worktree the project-relative path is read both as written and as mirrored.
  return {
    absolute: target.absolute.toLowerCase(),
    relatives: [target.relPath, target.inProject ? target.classPath : null],
  };
}

/**
 * Where the target really is, for the globs: null when that cannot be
 * decided, `"as-spelled"` when the real path below the project root's
 * real location is the spelled one (or the host cannot ask about it).
 */
function realTexts(
  target: ResolvedTarget,
  roots: Roots,
  fs: FsPort,
): GlobTexts | "as-spelled" | null {
  const location = fsParts(target);
  if (location === null) return "as-spelled";
  const real = realLocation(location, fs);
  if (real === null) return null;
  const root = projectRootParts(roots);
  const realRoot = root.windows === roots.hostWindows ? realLocation(root, fs) : null;
  const rel = realRoot ? relativeSegments(realRoot, real) : null;
  const relatives: string[] = [];
  if (realRoot && rel) {
    const names = normalizeNames(real.windows, rel);
    const written = names.join("/").toLowerCase();
    if (written === target.relPath) return "as-spelled";
    relatives.push(written, stripWorktree(realRoot, names, fs, false).join("/").toLowerCase());
  }
  return { absolute: formatPath(real).toLowerCase(), relatives };
}

function globsMatch(
  texts: GlobTexts,
  globs: readonly string[],
  budget: WorkBudget | undefined,
): boolean {
  const { absolute, relatives } = texts;
  for (const pattern of globs) {
    const glob = compileExempt(pattern);
    if (!glob) continue;
    const texts = isAbsoluteGlob(pattern) ? [absolute] : relatives;
    if (texts.some((text) => text !== null && matchGlob(glob, text, budget) === "match")) {
      return true;
    }
  }
  return false;
}

/** An operator glob covers the target as spelled and where it really is. */
function globExempt(
  target: ResolvedTarget,
  globs: readonly string[],
  roots: Roots,
  fs: FsPort,
  budget: WorkBudget | undefined,
): boolean {
  if (!globsMatch(lexicalTexts(target), globs, budget)) return false;
  const real = realTexts(target, roots, fs);
  return real === "as-spelled" || (real !== null && globsMatch(real, globs, budget));
}

/**
 * The settings file is really `<dir>/.claude/<name>` for the directory the
 * spelling names: neither `.claude` nor anything below `<dir>` is a link
 * to somewhere else. (A link in place of the file itself is the caller's
 * check, on the file's own `lstat`.)
 */
function reallyInClaudeDir(target: ResolvedTarget, fs: FsPort): boolean {
  const location = fsParts(target);
  if (location === null) return true;
  const real = realLocation(location, fs);
  const owner: PathParts = { ...location, segments: location.segments.slice(0, -2) };
  const realOwner = realLocation(owner, fs);
  if (real === null || realOwner === null) return false;
  const rel = relativeSegments(realOwner, real);
  return rel !== null && rel.length === 2 && rel[0].toLowerCase() === ".claude" &&
    rel[1].toLowerCase() === target.basename.toLowerCase();
}

function claudeSettings(target: ResolvedTarget, roots: Roots): boolean {
  if (!namedLikeClaudeSettings(target.basename)) return false;
  const name = target.basename.toLowerCase();
  if (target.inProject && target.classPath === `.claude/${name}`) return true;
  if (!roots.homeDir) return false;
  const home = absolutePath(roots.homeDir, roots.processCwd, roots.processCwd);
  const homeClaude = formatPath({ ...home, segments: [...home.segments, ".claude"] });
  const parts = parsePath(target.absolute, target.windowsStyle);
  const parent = formatPath({ ...parts, segments: parts.segments.slice(0, -1) });
  return parent.toLowerCase() === homeClaude.toLowerCase();
}

/**
 * Why the target is exempt, or null: an exempt glob matches it, or it is a
 * Claude settings file (`settings.json` / `settings.local.json` directly
 * in the project's or the home directory's `.claude`), in both cases as
 * spelled and on its real path. Never throws; an error grants no
 * exemption, and neither does a glob `budget` cannot pay for.
 */
export function exemptReason(
  target: ResolvedTarget,
  globs: readonly string[],
  roots: Roots,
  fs: FsPort,
  budget?: WorkBudget,
): ExemptReason | null {
  try {
    if (globExempt(target, globs, roots, fs, budget)) return "exempt-glob";
    return claudeSettings(target, roots) && reallyInClaudeDir(target, fs)
      ? "claude-settings"
      : null;
  } catch {
    return null;
  }
}
