/**
 * How a search tool's options are described: the role each option plays
 * (for the search evidence, and for the read-only check, which refuses the
 * options that run other programs) and the shape of a tool's table. The
 * tables themselves live one per tool beside this module.
 *
 * @module
 */

/**
 * What a flag does to the evidence.
 *
 * - `switch`: takes no value and changes nothing the evidence reads.
 * - `value`: takes a value the evidence ignores.
 * - `pattern`: supplies the search pattern (so no positional is the pattern).
 * - `pattern-file`: names a file of patterns (so no positional is the pattern,
 *   and what the search looked for cannot be read).
 * - `invert`: a switch after which the search shows what does not match as
 *   written (inverted matches, whole-line matches only, files without a
 *   match, patterns combined with `--and`/`--not`).
 * - `fixed-strings` / `extended-regexp` / `basic-regexp`: switches choosing
 *   how the patterns are read (literal text, ERE or PCRE, BRE).
 * - `glob` / `iglob`: include glob, an exclusion when it starts with `!`
 *   (`iglob` matches case-insensitively).
 * - `glob-list`: comma-separated globs, `!` or `^` marking exclusions.
 * - `include` / `exclude`: one include or exclusion glob.
 * - `bar-include` / `bar-exclude`: `|`-separated include or exclusion globs.
 * - `type` / `type-not`: a built-in file type included or excluded.
 * - `type-list`: comma-separated types, `!` or `^` marking exclusions.
 * - `extension`: one extension included (`*.<ext>`).
 * - `extension-list`: comma-separated extensions, `!` or `^` marking exclusions.
 * - `unreadable` / `unreadable-switch`: hides files the hook cannot see
 *   (a file of exclusions, a redefined type): the search never credits.
 * - `recursive`: a switch that makes the search recursive.
 * - `directories`: a value; `recurse` makes the search recursive.
 * - `path`: the value is a path operand.
 * - `base`: the value is the directory relative operands resolve against.
 * - `exec`: the rest of the segment is a command to run, not arguments.
 * - `runs` / `runs-value`: a switch, or an option with a value, that makes
 *   the tool run another program (a preprocessor, `ls` over each result,
 *   decompressors); the search reads them as a switch or a value.
 * - `no-pattern`: the search lists files, so no positional is a pattern.
 * - `silent`: a switch after which the search shows no file or line (quiet,
 *   counts only): its output tells the model nothing about a file.
 * - `max-count`: a value capping matches per file; `0` shows nothing.
 * - `entry-type`: a value naming the kinds of entries listed (fd's `-t`);
 *   only directories or special files means no ordinary file is listed.
 * - `hidden` / `no-ignore`: switches that make a tool list the hidden or
 *   the ignored files it skips by default; `all-files` does both;
 *   `unrestricted` is ripgrep's `-u`: once lifts ignore files, twice also
 *   hidden ones.
 * - `max-depth` / `min-depth` / `exact-depth`: a value bounding how deep
 *   below its paths the search reads (1: the files directly in a directory
 *   operand); `subdirectory-levels` counts only the directories descended
 *   into (0: the files directly in a directory operand).
 * - `no-run`: a switch with which a wrapper runs nothing (`command -v`,
 *   `sudo -l`).
 * - `shell-mode`: a switch with which a wrapper runs the words after its
 *   options joined as one shell command (`pnpm exec -c`).
 */
export type FlagRole =
  | "switch"
  | "value"
  | "pattern"
  | "pattern-file"
  | "invert"
  | "fixed-strings"
  | "extended-regexp"
  | "basic-regexp"
  | "glob"
  | "iglob"
  | "glob-list"
  | "include"
  | "exclude"
  | "bar-include"
  | "bar-exclude"
  | "type"
  | "type-not"
  | "type-list"
  | "extension"
  | "extension-list"
  | "unreadable"
  | "unreadable-switch"
  | "recursive"
  | "directories"
  | "path"
  | "base"
  | "exec"
  | "runs"
  | "runs-value"
  | "no-pattern"
  | "max-depth"
  | "min-depth"
  | "exact-depth"
  | "subdirectory-levels"
  | "silent"
  | "max-count"
  | "entry-type"
  | "hidden"
  | "no-ignore"
  | "all-files"
  | "unrestricted"
  | "no-run"
  | "shell-mode";

/** The roles whose flag consumes a value. */
export const VALUE_ROLES: ReadonlySet<FlagRole> = new Set<FlagRole>([
  "value",
  "pattern",
  "pattern-file",
  "glob",
  "iglob",
  "glob-list",
  "include",
  "exclude",
  "bar-include",
  "bar-exclude",
  "type",
  "type-not",
  "type-list",
  "extension",
  "extension-list",
  "unreadable",
  "directories",
  "path",
  "base",
  "runs-value",
  "max-depth",
  "min-depth",
  "exact-depth",
  "subdirectory-levels",
  "max-count",
  "entry-type",
]);

/** The roles of options that make a tool run other programs. */
export const RUNNING_ROLES: ReadonlySet<FlagRole> = new Set<FlagRole>([
  "exec",
  "runs",
  "runs-value",
]);

/**
 * The options of `spec` that run other programs: long names and short
 * letters. A check that must not miss one rejects every long name that
 * starts with one of these names (`--exec-batch` starts with `exec`).
 */
export function runningOptions(spec: FamilySpec): { long: string[]; short: string } {
  const pick = (table: Readonly<Record<string, FlagRole>>): string[] =>
    Object.keys(table).filter((k) => RUNNING_ROLES.has(table[k]));
  return { long: pick(spec.long), short: pick(spec.short).join("") };
}

/** How one family's arguments are read. */
export interface FamilySpec {
  /** The first positional is the pattern unless a `pattern` flag supplied it. */
  patternFirst: boolean;
  /** Searches below its operands without being asked to. */
  recursive: boolean;
  /** Single-letter flags by letter; unknown letters are switches. */
  short: Readonly<Record<string, FlagRole>>;
  /** Long flags by name without dashes; unknown names are switches. */
  long: Readonly<Record<string, FlagRole>>;
  /** Long flags may be abbreviated to any unambiguous prefix (GNU style). */
  longPrefixes: boolean;
  /** Type table used by `type`/`type-not`/`type-list` flags. */
  types: "rg" | "ugrep" | null;
  /** A relative include glob is matched against the path below the search root. */
  pathGlobs: boolean;
}
