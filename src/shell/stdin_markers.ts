/**
 * The markers that stand among the texts fed to a program's stdin for text
 * the line does not show: the pipe reader puts them there, the SQL reader
 * and the pack rules read them.
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
