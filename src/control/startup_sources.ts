/**
 * The files a shell's start-up files load: `. "$HOME/.cargo/env"`, `source
 * ~/.aliases`, `[ -f ~/.fzf.bash ] && . ~/.fzf.bash`. What such a file
 * exports reaches every agent started from a new terminal exactly as the
 * start-up file's own lines do, so it belongs to the control surface with
 * them (`control/rows.ts`, row `shell-startup-sourced`). Only paths the
 * line spells out are followed (the home directory as `~`, `$HOME` or
 * `${HOME}`); the files they load are read too, one level further, within
 * fixed bounds.
 *
 * The same for direnv: the files an approved `.envrc` loads when direnv
 * enters its folder (`source_env .envrc.local`, `dotenv .env.private`,
 * `source_up`). direnv approves an `.envrc` by its contents, not the files
 * it loads, so a change to one of those reaches every agent started in the
 * folder with no new approval (row `direnv-loaded`); paths are relative to
 * the `.envrc`'s folder.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import { dirName, joinPath } from "../platform/path.ts";
import { absolutePath, formatPath } from "../file_facts/paths.ts";

/** How much of each file is read, and how many files are read at most. */
export const SOURCE_READ_LIMITS = { bytesPerFile: 64 * 1024, files: 32 } as const;

/** A `.` or `source` command and the path it loads, at the start of a command. */
const SOURCE_COMMAND =
  /(?:^|[;&|({]|\b(?:then|do|else))\s*(?:\.|source)\s+(["']?)([^\s"';&|)]+)\1/g;

/** The path a start-up line loads, with the home directory put in; null when the line computes it. */
function spelledPath(raw: string, home: string): string | null {
  const text = raw.replace(/^~(?=$|\/)/, home).replace(/\$\{HOME\}|\$HOME\b/g, home);
  if (/[$`*?[]/.test(text) || text === "") return null;
  return text.startsWith("/") ? text : joinPath(home, text);
}

/** The paths `text` (a shell script) loads with `.` or `source`, comment lines left out. */
export function sourcedPaths(text: string, home: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (/^\s*#/.test(line)) continue;
    for (const m of line.matchAll(SOURCE_COMMAND)) {
      const path = spelledPath(m[2], home);
      if (path !== null) out.push(path);
    }
  }
  return out;
}

/** How much of each file a walk reads, and how many files at most. */
interface ReadLimits {
  bytesPerFile: number;
  files: number;
}

/**
 * The files `start` load (as `loads` reads each file's text), and the
 * files those load in turn: two levels, each file read through `fs` up to
 * `limits`. A file that is missing or cannot be read loads nothing; a file
 * of `start` is reported only when `again` says it counts when loaded.
 */
function followLoads(
  start: readonly string[],
  fs: FsPort,
  limits: ReadLimits,
  loads: (text: string, file: string) => string[],
  again: boolean,
): string[] {
  const found = new Set<string>();
  let level = [...start];
  let reads = 0;
  for (let depth = 0; depth < 2 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const file of level) {
      if (reads++ >= limits.files) break;
      const text = fs.readTextBounded(file, limits.bytesPerFile);
      if (text === null) continue;
      for (const path of loads(text, file)) {
        if (found.has(path) || (!again && start.includes(path))) continue;
        found.add(path);
        next.push(path);
      }
    }
    level = next;
  }
  return [...found];
}

/**
 * The files the start-up files `startup` (absolute paths) load, and the
 * files those load in turn, up to `SOURCE_READ_LIMITS`.
 */
export function startupSources(startup: readonly string[], home: string, fs: FsPort): string[] {
  return followLoads(startup, fs, SOURCE_READ_LIMITS, (text) => sourcedPaths(text, home), false);
}

/** How much of each file is read, and how many files are read at most. */
export const ENVRC_READ_LIMITS = { bytesPerFile: 64 * 1024, files: 16 } as const;

/** A direnv loading command at the start of a command, and its first argument when spelled. */
const LOADER =
  /(?:^|[;&|({]|\b(?:then|do|else))\s*(source_env_if_exists|source_env|source_up_if_exists|source_up|dotenv_if_exists|dotenv|source|\.)(?=\s|$|;)(?:[ \t]+(["']?)([^\s"';&|)]+)\2)?/g;

/** What each command loads when its argument is left out (null: nothing of its own). */
const DEFAULT_LOAD: Readonly<Record<string, string | null>> = {
  dotenv: ".env",
  dotenv_if_exists: ".env",
  source_env: null,
  source_env_if_exists: null,
  source: null,
  ".": null,
};

/** The folders above `dir`, nearest first. */
function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let at = dir, up = dirName(dir); up !== at; at = up, up = dirName(up)) out.push(up);
  return out;
}

/** The files the `.envrc` at `file` (absolute) loads, as its lines spell them. */
export function envrcLoads(text: string, file: string): string[] {
  const dir = dirName(file);
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (/^\s*#/.test(line)) continue;
    for (const m of line.matchAll(LOADER)) {
      const command = m[1];
      if (command.startsWith("source_up")) {
        out.push(...ancestors(dir).map((d) => joinPath(d, ".envrc")));
        continue;
      }
      const spelled = m[3] ?? DEFAULT_LOAD[command] ?? null;
      if (spelled === null || /[$`*?[~]/.test(spelled)) continue;
      const path = formatPath(absolutePath(spelled, dir, dir));
      // `source_env` of a folder loads the `.envrc` in it.
      out.push(path, ...(command.startsWith("source_env") ? [joinPath(path, ".envrc")] : []));
    }
  }
  return out;
}

/**
 * The files the `.envrc` files `envrcs` (absolute paths) load, and the
 * files those load in turn, up to `ENVRC_READ_LIMITS`. An `.envrc` of
 * `envrcs` counts again when another loads it (`source_up`): it is read
 * then without an approval of its own.
 */
export function envrcSources(envrcs: readonly string[], fs: FsPort): string[] {
  return followLoads(envrcs, fs, ENVRC_READ_LIMITS, envrcLoads, true);
}
