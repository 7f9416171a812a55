/**
 * Appends metrics lines to `metrics.jsonl` in the state directory, rotating
 * it to `metrics.jsonl.1` past 1 MiB.
 *
 * Recording must never change a decision, so every failure is swallowed and
 * the lines are simply lost. The state directory may be shared, so the
 * append never follows a link planted in place of the file:
 *
 * - Deno has no `O_NOFOLLOW`. The file is first examined with `lstat`.
 * - Missing: it is created with `createNew` (`O_CREAT|O_EXCL`), which fails
 *   on any existing name, a dangling symlink included, instead of following it.
 * - A regular file with one link: it is opened for append without create,
 *   and the opened file's own stat must show the same device and inode as
 *   the `lstat`; a swap between the two calls (a symlink put in its place)
 *   shows up as a mismatch and nothing is written. Where the platform
 *   reports no inode (Windows) the comparison cannot tell, and the opened
 *   file only has to be a regular file.
 * - Anything else (a symlink, a directory, a FIFO, a file with more than one
 *   hard link, which is another name for some other file): nothing is written.
 *
 * Rotation renames the directory entry itself, so a link in place of either
 * file is moved or replaced, never written through.
 *
 * @module
 */

/** Name of the live metrics file in the state directory. */
export const METRICS_FILE = "metrics.jsonl";

/** Name the live file is rotated to, replacing the previous rotation. */
export const ROTATED_FILE = "metrics.jsonl.1";

/** Size past which an append first rotates the live file. */
export const ROTATE_BYTES = 1024 * 1024;

/** Looks at the file again after losing a create race, at most this often in all. */
const CREATE_ATTEMPTS = 3;

const encoder = new TextEncoder();

function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
}

/** Creates the file and writes; false when another process created it first. */
function createAndWrite(path: string, bytes: Uint8Array): boolean {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { append: true, createNew: true, mode: 0o600 });
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) return false;
    throw err;
  }
  try {
    writeAll(file, bytes);
  } finally {
    file.close();
  }
  return true;
}

function appendExisting(path: string, seen: Deno.FileInfo, bytes: Uint8Array): void {
  const file = Deno.openSync(path, { append: true });
  try {
    const opened = file.statSync();
    if (!opened.isFile || !sameFile(seen, opened)) return;
    writeAll(file, bytes);
  } finally {
    file.close();
  }
}

function tryLstat(path: string): Deno.FileInfo | "missing" | null {
  try {
    return Deno.lstatSync(path);
  } catch (err) {
    return err instanceof Deno.errors.NotFound ? "missing" : null;
  }
}

/**
 * Appends `lines` (each one JSON line without its newline) to
 * `<dir>/metrics.jsonl` in a single write. Never throws; on any problem
 * nothing, or at worst the rotation alone, happens. `look` is how the file
 * is examined before writing (`lstat`; a port, so a test can stage a
 * parallel process creating the file in between).
 */
export function appendMetrics(
  dir: string,
  lines: readonly string[],
  look: (path: string) => Deno.FileInfo | "missing" | null = tryLstat,
): void {
  try {
    // A line holding a line break would forge or break neighbouring lines.
    const kept = lines.filter((l) => typeof l === "string" && !/[\r\n]/.test(l));
    if (kept.length === 0) return;
    const bytes = encoder.encode(kept.join("\n") + "\n");
    const path = `${dir}/${METRICS_FILE}`;
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Parallel hooks of one batch may all find the file missing: the ones
    // whose create loses look again and append to the winner's file.
    for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
      const seen = look(path);
      if (seen === null) return;
      if (seen === "missing") {
        if (createAndWrite(path, bytes)) return;
        continue;
      }
      if (!seen.isFile || seen.isSymlink || (seen.nlink ?? 1) > 1) return;
      if (seen.size > 0 && seen.size + bytes.length > ROTATE_BYTES) {
        Deno.renameSync(path, `${dir}/${ROTATED_FILE}`);
        if (createAndWrite(path, bytes)) return;
        continue;
      }
      return appendExisting(path, seen, bytes);
    }
  } catch {
    // Metrics are best effort: a failure here must not reach the decision.
  }
}
