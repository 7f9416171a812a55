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
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import { joinPath } from "../platform/path.ts";

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

/**
 * The files the start-up files `startup` (absolute paths) load, and the
 * files those load in turn, each read through `fs` up to
 * `SOURCE_READ_LIMITS`. A file that is missing or cannot be read loads
 * nothing.
 */
export function startupSources(startup: readonly string[], home: string, fs: FsPort): string[] {
  const found = new Set<string>();
  let level = [...startup];
  let reads = 0;
  for (let depth = 0; depth < 2 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const file of level) {
      if (reads++ >= SOURCE_READ_LIMITS.files) break;
      const text = fs.readTextBounded(file, SOURCE_READ_LIMITS.bytesPerFile);
      if (text === null) continue;
      for (const path of sourcedPaths(text, home)) {
        if (found.has(path) || startup.includes(path)) continue;
        found.add(path);
        next.push(path);
      }
    }
    level = next;
  }
  return [...found];
}
