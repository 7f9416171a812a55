/**
 * Lexer for Windows batch files (`.bat`, `.cmd`).
 *
 * The only comments are `REM` lines (optionally after `@`); `::` labels and
 * `REM` after `&` stay code. Quotes last to the end of the line at most, and
 * a caret escapes the next character (before a line break, it continues the
 * line, which the emitter flags). Whitespace other than indentation is code.
 *
 * @module
 */

import type { Emitter, LexResult } from "./lex_emitter.ts";

/** True when the line starting at `from` is a `REM` comment. */
function isRemLine(em: Emitter, from: number): boolean {
  const src = em.src;
  let k = from;
  while (src[k] === " " || src[k] === "\t" || src[k] === "@") k++;
  em.work += k - from;
  if (src.slice(k, k + 3).toLowerCase() !== "rem") return false;
  const after = src[k + 3];
  return after === undefined || after === " " || after === "\t" || after === "\n" ||
    (after === "\r" && src[k + 4] === "\n");
}

/**
 * Emits one code line `src[from, end)`. Only its indentation is insignificant:
 * `echo` and `set` keep every other space, trailing ones included, so
 * whitespace goes out verbatim as code. A carriage return before the line
 * feed is dropped, as cmd drops it.
 */
function codeLine(src: string, from: number, end: number, em: Emitter): void {
  let start = from;
  while (src[start] === " " || src[start] === "\t") start++;
  em.ws(src.slice(from, start));
  const stop = src[end - 1] === "\r" ? end - 1 : end;
  let run = start;
  let j = start;
  while (j < stop) {
    em.work++;
    const c = src[j];
    if (c === '"') {
      em.code(src.slice(run, j + 1));
      const close = em.find('"', j + 1);
      if (close < 0 || close >= stop) {
        em.unclear = true;
        em.strRange(j + 1, stop);
        run = j = stop;
      } else {
        em.strRange(j + 1, close);
        em.code('"');
        run = j = close + 1;
      }
    } else {
      j += c === "^" ? 2 : 1;
    }
  }
  em.code(src.slice(run, Math.min(j, stop)));
}

/** Lexes a batch file into `em`. */
export function lexBatch(src: string, em: Emitter): LexResult {
  const n = src.length;
  let i = 0;
  while (i < n) {
    const e = em.find("\n", i);
    const end = e < 0 ? n : e;
    if (isRemLine(em, i)) em.gap();
    else codeLine(src, i, end, em);
    if (e < 0) break;
    em.newline(e, true);
    i = e + 1;
  }
  return em.finish(true);
}
