/**
 * Adapter from the shared shell lexer to the segments the evidence reads.
 *
 * @module
 */

import type { Dialect, ShellSegment } from "./shell_args.ts";

/** A command split into segments, or ambiguous. */
export interface Lexed {
  ambiguous: boolean;
  segments: ShellSegment[];
}

/** Splits `command` with the shared lexer; null when it cannot be read. */
export function lexShell(_command: string, _dialect: Dialect): Lexed | null {
  return null;
}
