/**
 * Replacing a file in one step: the text goes to a new temporary file
 * beside it, which is then renamed over the target, so a reader sees the
 * old file or the new one, never half of either. The session state and the
 * settings files `gateguard init` edits are both written this way; a file
 * that is replaced keeps its mode and owner when the caller asks for them.
 *
 * @module
 */

/** How one atomic write is done. */
export interface AtomicWriteOptions {
  /** The temporary path, in the target's directory; it must not exist yet. */
  temp: string;
  /** Permission bits the file gets (left to the defaults when absent). */
  mode?: number;
  /** Owner the file gets; when it cannot be given, the write fails and the target stays. */
  owner?: { uid: number; gid: number };
}

/** The owner a write was asked to keep could not be given to the new file. */
export class OwnerNotKept extends Error {
  /** The owner asked for. */
  readonly owner: { uid: number; gid: number };

  constructor(path: string, owner: { uid: number; gid: number }) {
    super(`cannot keep the owner ${owner.uid}:${owner.gid} of ${path}`);
    this.name = "OwnerNotKept";
    this.owner = owner;
  }
}

/**
 * Writes `text` to `path` through `opts.temp`. On failure the temporary file
 * is removed and the error rethrown (`OwnerNotKept` when the owner could not
 * be given); the target is left as it was.
 */
export function writeAtomic(path: string, text: string, opts: AtomicWriteOptions): void {
  const { temp, mode, owner } = opts;
  const posix = Deno.build.os !== "windows";
  try {
    Deno.writeTextFileSync(
      temp,
      text,
      mode === undefined ? { createNew: true } : { createNew: true, mode },
    );
    // The creation mode passes through the umask; the bits asked for are exact.
    if (mode !== undefined && posix) Deno.chmodSync(temp, mode);
    if (owner !== undefined && posix) {
      try {
        Deno.chownSync(temp, owner.uid, owner.gid);
      } catch {
        throw new OwnerNotKept(path, owner);
      }
    }
    Deno.renameSync(temp, path);
  } catch (err) {
    try {
      Deno.removeSync(temp);
    } catch {
      // Never created, or already gone.
    }
    throw err;
  }
}
