/**
 * The project root the setup commands (`init`, `doctor`) work on, wherever
 * inside the project they are run: the top of the git work tree, as Claude
 * Code takes it, so `init` in `src/` edits the project's own settings file
 * instead of making `src/.claude/settings.json`.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { denoFs, type FsPort } from "../platform/fs_port.ts";
import { dirName, joinPath } from "../platform/path.ts";

/** Most folders walked up before giving up on finding `.git` (deeper trees are not real). */
const MAX_DEPTH = 256;

/**
 * The nearest folder at or above `start` holding a `.git` entry (a folder
 * in a clone, a file in a worktree or submodule); `start` itself when none
 * does. Looks through `fs`, never following `.git` itself.
 */
export function gitRoot(start: string, fs: FsPort): string {
  let dir = start;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (fs.lstat(joinPath(dir, ".git")).ok) return dir;
    const parent = dirName(dir);
    if (parent === dir || parent === ".") break;
    dir = parent;
  }
  return start;
}

/**
 * The project root of the CLI commands: `CLAUDE_PROJECT_DIR` when set (Claude
 * Code's own answer), else the git root above the directory the command was
 * typed in (that directory itself outside a repository).
 */
export function cliProjectRoot(env: EnvSnapshot, fs: FsPort = denoFs): string {
  const dir = env.CLAUDE_PROJECT_DIR;
  if (dir !== undefined && dir.trim() !== "") return dir;
  // `deno task gateguard …` runs in the repository; INIT_CWD is where it was typed.
  const invoked = env.INIT_CWD;
  return gitRoot(invoked !== undefined && invoked.trim() !== "" ? invoked : Deno.cwd(), fs);
}
