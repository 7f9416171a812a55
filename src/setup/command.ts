/**
 * The command a registration runs, whatever the agent: a compiled binary
 * registers its own absolute path, a from-source checkout the `deno run`
 * line with the binary's permission set. Every agent's hook file stores
 * that command as a shell string, so quoting lives here too.
 *
 * @module
 */

import { sourceArgv, sourceEnv } from "../platform/permissions.ts";
import { baseName } from "../platform/path.ts";
import type { ProgramPaths } from "../control/surface.ts";

/** Characters that never need shell quoting. */
const SHELL_SAFE = /^[A-Za-z0-9_\/.:,+=@%-]+$/;

/** Quotes one word for the shell an agent runs hook commands in. */
export function shellQuote(word: string, windows: boolean): string {
  if (windows) {
    const slashed = word.replaceAll("\\", "/");
    return SHELL_SAFE.test(slashed) ? slashed : `"${slashed}"`;
  }
  return SHELL_SAFE.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The file-system path of a `file:` URL. */
export function pathOfFileUrl(url: URL, windows: boolean): string {
  const path = decodeURIComponent(url.pathname);
  return windows && /^\/[A-Za-z]:/.test(path) ? path.slice(1) : path;
}

/** True when `execPath` is the Deno runtime itself, so GateGuard runs from source. */
export function runsFromSource(execPath: string): boolean {
  return /^deno(\.exe)?$/i.test(baseName(execPath));
}

/**
 * The command to register. A compiled binary registers its own absolute
 * path; when the runtime is `deno` itself (running from source) it is the
 * `deno run` line with the binary's permission set, for the repository the
 * module at `moduleUrl` (two folders below the root) belongs to. On POSIX
 * systems that line starts with `sourceEnv`'s assignments, so Deno reads
 * nothing under the user's home before GateGuard runs; Windows shells have
 * no such prefix, and there the binary is the safe install.
 */
export function registrationCommand(execPath: string, moduleUrl: string, windows: boolean): string {
  const { checkout } = programPaths(execPath, moduleUrl, windows);
  if (checkout === null) return shellQuote(execPath, windows);
  const run = sourceArgv(execPath, checkout).map((word) => shellQuote(word, windows));
  if (windows) return run.join(" ");
  // `$HOME` stays for the shell to expand (double quotes), read before HOME is reassigned.
  const env = sourceEnv(checkout).map(([name, value]) =>
    value === "$HOME" ? `${name}="$HOME"` : `${name}=${shellQuote(value, false)}`
  );
  return [...env, ...run].join(" ");
}

/**
 * The program a registration made by this build runs, for the control
 * surface: the compiled binary, or Deno and the checkout the module at
 * `moduleUrl` (two folders below the root) belongs to.
 */
export function programPaths(execPath: string, moduleUrl: string, windows: boolean): ProgramPaths {
  if (!runsFromSource(execPath)) return { binary: execPath, runtime: null, checkout: null };
  const checkout = pathOfFileUrl(new URL("../..", moduleUrl), windows).replace(/\/$/, "");
  return { binary: null, runtime: execPath, checkout };
}

/** The name a registration runs GateGuard by when the binary is on `PATH`. */
export const BARE_COMMAND = "gateguard";

/** Which command a registration gets, and why when it names this machine's paths. */
export type CommandChoice =
  | { portable: true; command: string }
  | { portable: false; command: string; why: string };

/** What `chooseCommand` needs to know about this machine. */
export interface CommandHost {
  /** The running executable (`Deno.execPath()`). */
  execPath: string;
  /** URL of a module two folders below the repository root (for a from-source run). */
  moduleUrl: string;
  windows: boolean;
  /** Where a bare `gateguard` is found on `PATH` (read from the directories, nothing run), or null. */
  onPath: string | null;
  /** Resolves every symlink of a path; null when it cannot be resolved. */
  realPath: (path: string) => string | null;
}

/**
 * The command to write into a file a team shares. A bare `gateguard` when
 * that name, looked up on `PATH`, is this very binary (after symlinks), so
 * every clone runs its own install; otherwise the machine-specific command
 * of `registrationCommand`, with the reason it cannot be bare.
 */
export function chooseCommand(host: CommandHost): CommandChoice {
  const command = registrationCommand(host.execPath, host.moduleUrl, host.windows);
  if (runsFromSource(host.execPath)) {
    return {
      portable: false,
      command,
      why: "GateGuard runs from source here, so the command names this checkout",
    };
  }
  if (host.onPath === null) {
    return {
      portable: false,
      command,
      why: `\`${BARE_COMMAND}\` is not on PATH, so the command is this binary's full path`,
    };
  }
  const self = host.realPath(host.execPath);
  if (self === null || host.realPath(host.onPath) !== self) {
    return {
      portable: false,
      command,
      why: `\`${BARE_COMMAND}\` on PATH is ${host.onPath}, not this binary, so the command is ` +
        "this binary's full path",
    };
  }
  return { portable: true, command: BARE_COMMAND };
}
