/**
 * A throwaway project for end-to-end tests: a real temporary directory with
 * the given files, its own state directory and home, and the environment
 * that points GateGuard at them.
 *
 * @module
 */

import { tempDir } from "./temp.ts";

/** The directories of one sandbox and the environment naming them. */
export interface Sandbox {
  /** The temporary root holding everything below. */
  tmp: string;
  /** The project (`CLAUDE_PROJECT_DIR`). */
  root: string;
  /** The state directory (`GATEGUARD_STATE_DIR`). */
  state: string;
  /** Environment for the CLI: state dir, project dir and `HOME`. */
  env: Record<string, string>;
}

/**
 * Creates a sandbox whose project holds `files` (project-relative path to
 * text), in the system's temporary directory or in `dir`.
 */
export async function sandbox(
  files: Record<string, string> = {},
  prefix = "gg-e2e-",
  dir?: string,
): Promise<Sandbox> {
  const tmp = await Deno.realPath(await tempDir({ prefix, dir }));
  const root = `${tmp}/proj`;
  await Deno.mkdir(root);
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${rel}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${rel}`, text);
  }
  const state = `${tmp}/state`;
  return {
    tmp,
    root,
    state,
    env: { GATEGUARD_STATE_DIR: state, CLAUDE_PROJECT_DIR: root, HOME: tmp },
  };
}
