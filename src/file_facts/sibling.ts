/**
 * Sibling-collapse eligibility: whether a new file may share the denial of
 * an earlier new file in its directory, and the directory key the gate is
 * recorded under.
 *
 * Only ordinary project files qualify. Harness and tooling directories are
 * dot-directories, and an 8.3 short name can alias any directory, so both
 * block collapse. The gate is keyed by the directory's real location, and
 * a symlinked directory must hold up under the same screen at its real
 * location, so a link into `.claude/hooks` cannot pass as `src/tools`.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import { classify, type TargetClass } from "./class.ts";
import { formatPath, relativeSegments } from "./paths.ts";
import { realDirectory, realLocation } from "./real_path.ts";
import {
  judgedPath,
  projectRootParts,
  type ResolvedTarget,
  type Roots,
  targetParts,
} from "./resolve.ts";
import { isSensitivePath } from "./sensitive.ts";

/** The classes whose new files may collapse onto a sibling's denial. */
const COLLAPSIBLE: ReadonlySet<TargetClass> = new Set(["code", "test", "prose"]);

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";

/** True for a segment holding an 8.3 short-name marker: `~` followed by a digit (`CLAUDE~1`). */
function hasShortName(segment: string): boolean {
  for (let i = segment.indexOf("~"); i >= 0; i = segment.indexOf("~", i + 1)) {
    if (isDigit(segment[i + 1])) return true;
  }
  return false;
}

/** True when no segment of the `/`-separated path is a dot-name or an 8.3 short name. */
export function passesSiblingScreen(path: string): boolean {
  return path.split("/").every((s) => !s.startsWith(".") && !hasShortName(s));
}

/**
 * The canonical real directory (`/`-separated, lowercased on Windows) a new
 * file's sibling gate is keyed by, or null when the target may not
 * collapse: wrong class, a dot or short-name segment, a foreign path, a
 * real directory that leaves the project or changes the class or screen
 * or is sensitive, or any filesystem error.
 */
export function siblingDirKey(
  target: ResolvedTarget,
  cls: TargetClass,
  roots: Roots,
  fs: FsPort,
): string | null {
  try {
    if (!COLLAPSIBLE.has(cls) || target.foreign || !passesSiblingScreen(target.classPath)) {
      return null;
    }
    const parts = targetParts(target);
    if (parts.segments.length === 0) return null;
    const realDir = realDirectory(parts, fs);
    if (!realDir) return null;
    const written = formatPath({ ...parts, segments: parts.segments.slice(0, -1) });
    const real = formatPath(realDir);
    const same = realDir.windows ? written.toLowerCase() === real.toLowerCase() : written === real;
    if (!same) {
      const root = projectRootParts(roots);
      const realRoot = root.windows === roots.hostWindows ? realLocation(root, fs) : null;
      if (!realRoot) return null;
      const realFile = { ...realDir, segments: [...realDir.segments, target.basename] };
      if (!relativeSegments(realRoot, realFile)) return null;
      const judged = judgedPath(realFile, realRoot, fs, false);
      if (classify(judged) !== cls || !passesSiblingScreen(judged) || isSensitivePath(judged)) {
        return null;
      }
    }
    return realDir.windows ? real.toLowerCase() : real;
  } catch {
    return null;
  }
}
