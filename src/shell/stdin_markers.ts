/**
 * The markers that stand among the texts fed to a program's stdin for text
 * the line does not show: the pipe reader puts them there, the SQL reader
 * and the pack rules read them. Also the names a program reads its stdin
 * by.
 *
 * @module
 */

/**
 * Stands among the texts fed to a program's stdin for text that cannot be
 * read from the line (it is decoded on the way in). A program that runs
 * what it reads (a SQL client, `redis-cli`) treats it as able to do
 * anything. Contains a NUL, so no real argument equals it.
 */
export const UNREADABLE_STDIN = "\u0000unreadable stdin";

/** Stands beside `UNREADABLE_STDIN` when the text was fetched from the network, not decoded. */
export const FETCHED_STDIN = "\u0000fetched stdin";

/**
 * The names through which a program reads its own stdin as a file: a
 * shell's script, an interpreter's program, a `sed -f`, `make -f` or
 * crontab operand.
 */
export const STDIN_PATHS: ReadonlySet<string> = new Set([
  "/dev/stdin",
  "/dev/fd/0",
  "/proc/self/fd/0",
  "-",
]);
