/**
 * The comment-and-whitespace judgement: two texts differ only in comments
 * and whitespace when both lex cleanly and hold the same code lines. In the
 * file, the window around the change must also start in plain code.
 *
 * @module
 */

import { sameCodeLines } from "./code_lexer.ts";
import type { LexResult } from "./lex_emitter.ts";
import { type EditWindow, type LineIndex, startsPlain } from "./file_context.ts";

/**
 * Sequences a string replacement may expand (`$&` is the match, `$'` the text
 * after it, ...): with one in the new text, what the file ends up holding is
 * not certain, so the change is never judged trivial.
 */
const REPLACEMENT_PATTERNS: readonly string[] = ["$$", "$&", "$`", "$'"];

/** True when `before` and `after` lex cleanly and differ only in comments and whitespace. */
export function isCommentOnlyChange(before: LexResult, after: LexResult): boolean {
  return !before.unclear && !after.unclear && sameCodeLines(before, after);
}

/** True when the new text holds no replacement pattern. */
export function replacementIsLiteral(newString: string): boolean {
  return !REPLACEMENT_PATTERNS.some((p) => newString.includes(p));
}

/**
 * True when one edit window of a file is a comment or whitespace-only
 * change: it starts in plain code of `file` (the file before the edit, lexed
 * with line states) and its text before and after differ only in comments
 * and whitespace.
 */
export function windowIsCommentOnly(
  file: LexResult,
  index: LineIndex,
  window: EditWindow,
  before: LexResult,
  after: LexResult,
): boolean {
  return startsPlain(file, index, window.start) && isCommentOnlyChange(before, after);
}
