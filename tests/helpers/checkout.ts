/**
 * A source checkout of its own in a temp folder, for the tests that build a
 * bundle: the project's deno.json and run config, the given files, and the repository's own
 * Deno cache linked in, where the bundler runs from (`bundlerEnv`), so no
 * test fetches it again.
 *
 * @module
 */

import { REPO_ROOT } from "./cli.ts";
import { tempDir } from "./temp.ts";
import { RUN_CONFIG } from "../../src/platform/permissions.ts";

/** Makes the checkout; `files` maps paths relative to its root to their text. */
export async function tempCheckout(files: Record<string, string>): Promise<string> {
  const root = await tempDir({ prefix: "gg-checkout-" });
  await Deno.mkdir(`${root}/src`, { recursive: true });
  await Deno.mkdir(`${root}/.cache`, { recursive: true });
  await Deno.mkdir(`${REPO_ROOT}/.cache/deno`, { recursive: true });
  await Deno.symlink(`${REPO_ROOT}/.cache/deno`, `${root}/.cache/deno`);
  for (const config of ["deno.json", RUN_CONFIG]) {
    await Deno.copyFile(`${REPO_ROOT}/${config}`, `${root}/${config}`);
  }
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${rel}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${rel}`, text);
  }
  return root;
}
