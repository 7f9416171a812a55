/**
 * Replacing a file in one step: the text goes to a new temporary file
 * beside it, which is then renamed over the target, so a reader sees the
 * old file or the new one, never half of either. The session state and the
 * settings files `gateguard init` edits are both written this way.
 *
 * @module
 */

/** How one atomic write is done. */
export interface AtomicWriteOptions {
  /** The temporary path, in the target's directory; it must not exist yet. */
  temp: string;
  /** Permission bits the file gets (left to the defaults when absent). */
  mode?: number;
}

/**
 * Writes `text` to `path` through `opts.temp`. On failure the temporary file
 * is removed and the error rethrown; the target is left as it was.
 */
export function writeAtomic(path: string, text: string, opts: AtomicWriteOptions): void {
  const { temp, mode } = opts;
  try {
    Deno.writeTextFileSync(
      temp,
      text,
      mode === undefined ? { createNew: true } : { createNew: true, mode },
    );
    // The creation mode passes through the umask; the bits asked for are exact.
    if (mode !== undefined && Deno.build.os !== "windows") Deno.chmodSync(temp, mode);
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
