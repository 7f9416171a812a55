/**
 * What a write into a folder stands for, and the helpers the readers of
 * such writes share (`folder_writes.ts` for copies, downloads and archives,
 * `found_files.ts` for programs that act on the files they find): a path
 * placed from the line's folder, `<folder>/<name>` for a name the line
 * holds and `<folder>/<unknown>` for names it does not.
 *
 * @module
 */

import type { Segment } from "../shell/bash/mod.ts";
import { baseName, joinPath, trimSeparators } from "../platform/path.ts";
import { commandProgram } from "./shell_words.ts";
import { UNKNOWN } from "./path_match.ts";
import type { ArchiveKind } from "./archive_names.ts";

/** git options that place the command in another folder (`git -C dir apply`). */
const GIT_FOLDER_OPTIONS: ReadonlySet<string> = new Set(["-C"]);

/**
 * The key a command's words go by in the programs' tables: the program's
 * name without `.exe`, or `git <subcommand>` past git's own options; with
 * the arguments after it and the folder `git -C` names (null when none).
 */
export function commandKey(
  words: readonly string[],
): { key: string; args: string[]; folder: string | null } {
  const program = commandProgram(words[0] ?? "");
  if (program !== "git") return { key: program, args: words.slice(1), folder: null };
  let args = words.slice(1);
  let folder: string | null = null;
  while (args.length > 0 && args[0].startsWith("-")) {
    if (GIT_FOLDER_OPTIONS.has(args[0])) folder = args[1] ?? null;
    args = args.slice(GIT_FOLDER_OPTIONS.has(args[0]) ? 2 : 1);
  }
  return { key: `git ${args[0] ?? ""}`, args: args.slice(1), folder };
}

/** One write the line makes into a folder, as a path to match. */
export interface FolderWrite {
  /** The path: placed when it starts with `/`, `~` or a drive; `UNKNOWN` for a name not on the line. */
  path: string;
  /** How a denial shows it. */
  shown: string;
  /** True when the name is not on the line: the write may reach anything below the folder. */
  subtree: boolean;
  /**
   * For a subtree write, the name patterns a file must match to be written
   * (`find -name`), lowercased; absent when any file may be.
   */
  names?: readonly string[];
  /** True for a program that deletes what it reaches (`find -delete`, `git clean`). */
  removes?: boolean;
  /** True when the names may be any file at all (`unread_names.ts`): no folder holds them. */
  anywhere?: boolean;
}

/** What the reader needs from its caller. */
export interface FolderWriteContext {
  /** The folder the command starts in, or null when unknown. */
  cwd: string | null;
  /** The index of the word a segment runs (after `sudo`, `env X=1`, …). */
  commandAt: (segment: Segment) => number;
  /** True for a segment that only reads (it writes nothing, whatever it names). */
  readsOnly: (segment: Segment) => boolean;
  /** Bash code as segments, null when it does not parse. */
  parse: (code: string) => readonly Segment[] | null;
  /**
   * The paths an archive or patch at an absolute path would write
   * (`archivePaths`), null when they cannot be read; absent: never read.
   */
  list?: (path: string, kind: ArchiveKind) => string[] | null;
  /** The repository's top folder (the project root) when known, for git's whole-worktree commands. */
  repository?: string | null;
}

/** The last name of a path, whatever separators it ends with. */
export function lastSegment(path: string): string {
  return baseName(trimSeparators(path));
}

/** A program's name as a command word gives it, lowercased. */
export function programName(word: string): string {
  return lastSegment(word).toLowerCase();
}

/** A folder as written, without the separators it ends with (a root stays a root). */
export function folderText(path: string): string {
  return trimSeparators(path) || path.slice(0, 1);
}

/** Whether a path is placed without the line's folder: from a root, a drive or the home. */
function isAbsolute(path: string): boolean {
  return /^(?:[\\/~]|[A-Za-z]:[\\/]|\$HOME\b|\$\{HOME\}|\$env:(?:HOME|USERPROFILE)\b)/i.test(path);
}

/** `path` from `folder`; null when the folder is unknown and the path is relative. */
export function placeIn(folder: string | null, path: string): string | null {
  if (isAbsolute(path)) return path;
  if (folder === null) return null;
  return path === "." || path === "./" ? folder : joinPath(folder, path);
}

/** A write of `name` (a path below the folder) into `folder`, shown under `shown`. */
export function namedWrite(folder: string, shown: string, name: string): FolderWrite {
  return {
    path: `${folder}/${name}`,
    shown: shown === "." ? name : `${shown}/${name}`,
    subtree: false,
  };
}

/** A write of names the line does not hold into `folder`, by `what` (`tar writes`, `find changes`). */
export function unknownWrite(folder: string, shown: string, what: string): FolderWrite {
  return {
    path: `${folder}/${UNKNOWN}`,
    shown: `${shown === "/" ? "" : shown}/<whatever ${what}>`,
    subtree: true,
  };
}

/**
 * Whether a command given as words (what `find -exec` or `xargs` runs) may
 * write: anything but one command the read-only check vouches for.
 */
export function runsWrite(words: readonly string[], ctx: FolderWriteContext): boolean {
  if (words.length === 0) return false;
  // `{}` stands for each name found; the check reads it as a plain file name.
  const quoted = words.map((w) => w.replaceAll("{}", "found")).map((w) =>
    /^[\w./:=@%+,{}-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`
  );
  const run = ctx.parse(quoted.join(" "));
  return run === null || run.length !== 1 || !ctx.readsOnly(run[0]);
}

/** The words of one PowerShell statement, quotes taken off. */
export function powershellWords(statement: string): string[] {
  return [...statement.matchAll(/'[^']*'|"[^"]*"|\S+/g)].map(([w]) =>
    /^(['"]).*\1$/.test(w) ? w.slice(1, -1) : w
  );
}

/** The full name a (possibly shortened) PowerShell parameter stands for among `names`, if one. */
export function parameterName(word: string, names: readonly string[]): string | null {
  const m = /^-([A-Za-z]+)(?::.*)?$/.exec(word);
  if (!m) return null;
  const given = m[1].toLowerCase();
  return names.find((n) => n === given) ?? names.find((n) => n.startsWith(given)) ?? null;
}
