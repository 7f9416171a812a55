/**
 * The shapes every read-only dialect shares and the checks that need no
 * option table: what the character screen rejects, the separators allowed
 * between segments, and a program that takes any arguments. Loaded with the
 * read-only check itself; the option rules of `rg`, `find`, `fd`, `tree`
 * and `git` (rules.ts) load only for a command that runs one of them.
 *
 * @module
 */

/** What the screen rejects in one dialect. */
export interface ScreenRules {
  /** Rejected wherever they appear, even inside single quotes. */
  anywhere: string;
  /** Rejected inside double quotes. */
  inDouble: string;
  /** Rejected outside quotes. */
  unquoted: string;
  /** Unquoted `--%` (PowerShell's stop-parsing token) rejects. */
  stopParsing: boolean;
}

/** Separators a read-only command may use between its segments. */
export const ALLOWED_SEPARATORS: ReadonlySet<string> = new Set(["start", ";", "|", "&&", "||"]);

/** One dialect: its screen and how its screened text is split and checked. */
export interface Dialect extends ScreenRules {
  /**
   * The program of every segment of the screened `command` (holding
   * `words` words, lowercased for PowerShell), or null unless each segment
   * is read-only.
   */
  programs(command: string, words: number): string[] | null;
}

/** Decides whether a program's arguments (after quote removal) are read-only. */
export type ArgsCheck = (args: readonly string[]) => boolean;

/** Any arguments at all. */
export function anyArgs(_args: readonly string[]): boolean {
  return true;
}
