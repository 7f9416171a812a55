/**
 * New-file detection for Write targets: only a new file may earn directory
 * credit or sibling collapse, so "new" must be certain.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import type { ResolvedTarget } from "./resolve.ts";

/**
 * True only when `lstat` reports the target missing (`ENOENT`). Any other
 * error, a dangling symlink, and a foreign target (nothing on this host to
 * ask) count as existing.
 */
export function isNewFile(target: ResolvedTarget, fs: FsPort): boolean {
  try {
    if (target.foreign) return false;
    const info = fs.lstat(target.absolute);
    return !info.ok && info.code === "ENOENT";
  } catch {
    return false;
  }
}
