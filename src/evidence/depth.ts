/**
 * Depth limits of shell searches (`rg --max-depth`, `find -maxdepth`,
 * `fd --min-depth`…): a search held above a target's depth never read it,
 * and one held at depth 0 reads no file of its directories at all. A
 * limit the hook cannot read admits nothing.
 *
 * @module
 */

import type { DepthLimit } from "./types.ts";

/**
 * The limit options, by the role their tool tables give them.
 * `subdirectory-levels` counts directories descended into (PowerShell's
 * `-Depth`, git grep's `--max-depth`: 0 reads the files directly in the
 * path), one less than depth.
 */
export type DepthRole = "max-depth" | "min-depth" | "exact-depth" | "subdirectory-levels";

/** Applies one limit option with its value; a value that is no plain count admits nothing. */
export function limitDepth(limit: DepthLimit, role: DepthRole, value: string): void {
  // git's `--max-depth -1` lifts the limit.
  if (role === "subdirectory-levels" && value === "-1") return;
  const count = /^[0-9]{1,6}$/.test(value) ? Number(value) : null;
  if (count === null) {
    limit.max = 0;
    return;
  }
  const n = role === "subdirectory-levels" ? count + 1 : count;
  if (role !== "min-depth") limit.max = limit.max === null ? n : Math.min(limit.max, n);
  if (role === "min-depth" || role === "exact-depth") limit.min = Math.max(limit.min, n);
}

/** True when a target `segments` below a search path lies within the limit. */
export function withinDepth(limit: DepthLimit, segments: readonly string[]): boolean {
  return segments.length >= limit.min && (limit.max === null || segments.length <= limit.max);
}
