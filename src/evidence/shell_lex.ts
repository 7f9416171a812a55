/**
 * The shared shell lexers, seen from the search evidence: a command split
 * into segments, or marked ambiguous when the text a search saw cannot be
 * known (command or process substitution, here-documents, unbalanced or
 * over-long input).
 *
 * @module
 */

import { parseBash } from "../shell/words.ts";
import type { Dialect, ShellSegment } from "./shell_args.ts";

/** A command split into segments. */
export interface Lexed {
  /** The searched text cannot be known: no evidence and no miss line. */
  ambiguous: boolean;
  segments: ShellSegment[];
}

/** Splits `command` with the project's lexer for `dialect`. Never throws. */
export function lexShell(command: string, dialect: Dialect): Lexed {
  if (dialect === "bash") {
    const parse = parseBash(command);
    const ambiguous = !parse.ok || parse.commandSubstitution || parse.processSubstitution ||
      parse.heredoc;
    return { ambiguous, segments: parse.segments };
  }
  return { ambiguous: true, segments: [] };
}
