/**
 * Hard-linked targets: a file with more than one name can be changed
 * through a name that says nothing about it (an ordinary path linked to a
 * sensitive file), so such a target gets the strict treatment.
 *
 * @module
 */

import type { FsErrorCode, FsPort, StatResult } from "../platform/fs_port.ts";
import type { ResolvedTarget } from "./resolve.ts";

/** Errors that mean the file is simply not there yet: a new file has one name. */
const MISSING: ReadonlySet<FsErrorCode> = new Set(["ENOENT", "ENOTDIR"]);

function linked(info: StatResult): boolean {
  if (!info.ok) return !MISSING.has(info.code);
  // A directory's link count counts its subdirectories, not extra names.
  if (info.isDirectory) return false;
  // A platform that reports no link count gives nothing to act on.
  return info.nlink !== null && info.nlink > 1;
}

/**
 * True when the target file has more than one hard link (through a
 * symlink, the file it points to). Any stat error other than a missing
 * file counts as hard-linked; a foreign target without an `fsPath` has no
 * file to stat and is judged by its path alone (not hard-linked).
 */
export function isHardLinked(target: ResolvedTarget, fs: FsPort): boolean {
  try {
    const path = target.fsPath;
    if (path === null) return false;
    const own = fs.lstat(path);
    return linked(own.ok && own.isSymlink ? fs.stat(path) : own);
  } catch {
    return true;
  }
}
