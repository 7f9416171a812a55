/**
 * The project root the setup commands (`init`, `doctor`) work on.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";

/** The project root of the CLI commands: `CLAUDE_PROJECT_DIR`, else the process directory. */
export function cliProjectRoot(env: EnvSnapshot): string {
  const dir = env.CLAUDE_PROJECT_DIR;
  if (dir !== undefined && dir.trim() !== "") return dir;
  // `deno task gateguard …` runs in the repository; INIT_CWD is where it was typed.
  const invoked = env.INIT_CWD;
  return invoked !== undefined && invoked.trim() !== "" ? invoked : Deno.cwd();
}
