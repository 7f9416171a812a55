/**
 * The program words the shell side of self-protection knows
 * (`shell_protect.ts`): which programs only print or copy what they are
 * given, which run the command after them, which move to another folder,
 * and GateGuard's own program names, and how a command word names its
 * program for all these tables. Data, read by the shell reader.
 *
 * @module
 */

import { baseName, trimSeparators } from "../platform/path.ts";

/** Programs whose arguments are only printed: data, unless piped into a program. */
export const PRINTERS: ReadonlySet<string> = new Set([
  "echo",
  "printf",
  "print",
  "write-output",
  "write-host",
  "echo.exe",
]);

/** Programs that copy what they read to files: a here-document fed to them is data. */
export const STDIN_COPIERS: ReadonlySet<string> = new Set(["cat", "tee"]);

/**
 * git subcommands that write only the index and the object store, never a
 * file of the work tree, whatever their options. Reading commands (`diff`,
 * `log`, `show`, ...) go through the read-only check instead: `--output=`
 * makes them write any file.
 */
export const GIT_INDEX_ONLY: ReadonlySet<string> = new Set(["add", "commit"]);

/** GateGuard's own program names. */
export const OWN_PROGRAMS: ReadonlySet<string> = new Set(["gateguard", "gateguard.exe"]);

/** GateGuard's subcommands that neither decide a call nor change its setup. */
export const OWN_HARMLESS: ReadonlySet<string> = new Set([
  "report",
  "doctor",
  "explain",
  "--version",
  "-V",
  "--help",
  "-h",
  "help",
]);

/** Programs that run the command after them (their options and values skipped). */
export const RUNNERS: ReadonlySet<string> = new Set([
  "sudo",
  "doas",
  "env",
  "nohup",
  "exec",
  "command",
  "time",
  "nice",
  "timeout",
  "setsid",
  "xargs",
  "stdbuf",
]);

/**
 * Commands that read a script into the running shell: the script itself is
 * only read, so naming a start-up file there (`source ~/.bashrc`) writes
 * nothing of the control surface.
 */
export const SOURCERS: ReadonlySet<string> = new Set(["source", "."]);

/**
 * Commands that make a Python virtual environment in the folder they are
 * given (program, then the words that must follow it): they write only the
 * environment's own layout there (`pyvenv.cfg`, `bin/`, `lib/`), so a
 * folder they make where a file row expects a file (`virtualenv .env`)
 * leaves that file missing, like `mkdir .env`. `python -m venv` is not one:
 * `-m` runs a module from the working folder first, so a `venv.py` there
 * may write whatever the line names.
 */
export const VENV_MAKERS: readonly (readonly string[])[] = [
  ["virtualenv"],
  ["uv", "venv"],
];

/** Whether `words` (program first, its name lower-cased) make a virtual environment (`VENV_MAKERS`). */
export function makesVenv(words: readonly string[]): boolean {
  return VENV_MAKERS.some((maker) => maker.every((w, i) => words[i] === w));
}

/** Programs that only delete names or make empty folders: they leave no content anywhere. */
export const EMPTY_MAKERS: ReadonlySet<string> = new Set([
  "rm",
  "rmdir",
  "unlink",
  "mkdir",
  "shred",
]);

/** Words that move the shell (or a program) to another directory. */
export const DIRECTORY_CHANGERS: ReadonlySet<string> = new Set([
  "cd",
  "pushd",
  "popd",
  "chdir",
  "set-location",
  "sl",
  "push-location",
  "pop-location",
]);

/** Options that run a program in another directory. */
export const DIRECTORY_OPTIONS: ReadonlySet<string> = new Set([
  "-C",
  "--directory",
  "--git-dir",
  "--work-tree",
  "--cwd",
  "--prefix",
]);

/** cmd.exe and PowerShell words that run the program after their options (`cmd /c`, `start`). */
export const RAW_RUNNERS: ReadonlySet<string> = new Set([
  "cmd",
  "cmd.exe",
  "start",
  "start-process",
]);

/**
 * The program a command word names as the programs' tables key it: its
 * last name (trailing separators aside), lowercased, without `.exe`.
 */
export function commandProgram(word: string): string {
  return baseName(trimSeparators(word)).toLowerCase().replace(/\.exe$/, "");
}
