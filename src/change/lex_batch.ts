/**
 * Lexer for Windows batch files (`.bat`, `.cmd`).
 *
 * The only comments are `REM` lines (optionally after `@`); `::` labels and
 * `REM` after `&` stay code. Quotes last to the end of the line at most, and
 * a caret escapes the next character (before a line break, it continues the
 * line, which the emitter flags).
 *
 * @module
 */

import type { Emitter, LexResult } from "./lex_emitter.ts";

/** True when the line starting at `from` is a `REM` comment. */
function isRemLine(src: string, from: number): boolean {
  let k = from;
  while (src[k] === " " || src[k] === "\t" || src[k] === "@") k++;
  if (src.slice(k, k + 3).toLowerCase() !== "rem") return false;
  const after = src[k + 3];
  return after === undefined || after === " " || after === "\t" || after === "\n" ||
    (after === "\r" && src[k + 4] === "\n");
}

/** Lexes a batch file into `em`. */
export function lexBatch(src: string, em: Emitter): LexResult {
  const n = src.length;
  let i = 0;
  while (i < n) {
    const e = src.indexOf("\n", i);
    const end = e < 0 ? n : e;
    if (isRemLine(src, i)) {
      em.gap();
    } else {
      let j = i;
      let run = i;
      while (j < end) {
        const c = src[j];
        if (c === '"') {
          em.raw(run, j);
          em.code('"');
          const close = src.indexOf('"', j + 1);
          if (close < 0 || close >= end) {
            em.unclear = true;
            em.strRange(j + 1, end);
            run = j = end;
          } else {
            em.strRange(j + 1, close);
            em.code('"');
            run = j = close + 1;
          }
        } else if (c === "^") {
          j += 2;
        } else {
          j++;
        }
      }
      em.raw(run, Math.min(j, end));
    }
    if (e < 0) break;
    em.newline(e, true);
    i = e + 1;
  }
  return em.finish(true);
}
