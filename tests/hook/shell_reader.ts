/**
 * The shell side of self-protection as its tests read it: one home, project
 * and installed binary, and the kinds (or control-surface rows) a command
 * reaches. The read-only check is loaded first, as the shell gate does
 * before it reads a command.
 *
 * @module
 */

import { assert } from "../helpers/assert.ts";
import {
  loadFolderWrites,
  type ShellProtectContext,
  type ShellProtectHit,
  shellProtectHits,
} from "../../src/hook/shell_protect.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import type { ShellDialect } from "../../src/shell/dialect.ts";
import { loadReadOnly } from "../../src/shell/readonly/mod.ts";

await loadReadOnly("powershell");
await loadReadOnly("bash");
await loadFolderWrites();

/** The home `/home/u`, the project `/home/u/proj`, the binary in `~/.local/bin`. */
export const CTX: ShellProtectContext = {
  surface: {
    env: { HOME: "/home/u", GATEGUARD_STATE_DIR: "/home/u/.gateguard" },
    projectRoot: "/home/u/proj",
    processCwd: "/home/u/proj",
    program: { binary: "/home/u/.local/bin/gateguard", runtime: null, checkout: null },
  },
  cwd: "/home/u/proj",
};

/** The hits of `command`; fails the test when the budget ran out. */
export function hitsOf(command: string, dialect: ShellDialect = "bash"): ShellProtectHit[] {
  const hits = shellProtectHits(dialect, command, CTX, new WorkBudget());
  assert(hits !== null, `budget ran out on ${command}`);
  return hits;
}

/** Whether `command` draws a hit of `kind`. */
export function reaches(
  kind: ShellProtectHit["kind"],
  command: string,
  dialect: ShellDialect = "bash",
): boolean {
  return hitsOf(command, dialect).some((h) => h.kind === kind);
}
