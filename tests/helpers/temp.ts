/**
 * Temporary directories and files that never outlive their test module.
 * Each one is made by Deno as usual and remembered; when the module
 * unloads (its tests done, passed or failed) every one left is removed. A
 * test that cleans up itself loses nothing by it; one that forgot, or
 * failed before its cleanup, no longer leaves a directory behind.
 * `GATEGUARD_TEST_KEEP_TMP=1` keeps them all, for looking into a failure.
 *
 * @module
 */

const made = new Set<string>();

/** Set to keep every temporary directory, to look into a failed run afterwards. */
const KEEP = "GATEGUARD_TEST_KEEP_TMP";

globalThis.addEventListener("unload", () => {
  if (Deno.env.get(KEEP)) return;
  for (const path of made) {
    try {
      Deno.removeSync(path, { recursive: true });
    } catch {
      // Removed by the test already, or not ours to force.
    }
  }
});

function remember(path: string): string {
  made.add(path);
  return path;
}

/** `Deno.makeTempDir`, removed when the module unloads. */
export async function tempDir(options?: Deno.MakeTempOptions): Promise<string> {
  return remember(await Deno.makeTempDir(options));
}

/** `Deno.makeTempDirSync`, removed when the module unloads. */
export function tempDirSync(options?: Deno.MakeTempOptions): string {
  return remember(Deno.makeTempDirSync(options));
}

/** `Deno.makeTempFile`, removed when the module unloads. */
export async function tempFile(options?: Deno.MakeTempOptions): Promise<string> {
  return remember(await Deno.makeTempFile(options));
}
