/**
 * Shared by the plugin script tests: a PATH of this machine's tools on
 * which Deno cannot be found, to play a user who has no Deno.
 *
 * @module
 */

/** Links every program of /usr/bin except Deno into `dir`. */
export async function toolsWithoutDeno(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  for await (const entry of Deno.readDir("/usr/bin")) {
    if (entry.name !== "deno") await Deno.symlink(`/usr/bin/${entry.name}`, `${dir}/${entry.name}`);
  }
}

/** The folder of the Deno running the tests, to put it on a PATH. */
export function denoFolder(): string {
  return Deno.execPath().replace(/\/[^/]+$/, "");
}
