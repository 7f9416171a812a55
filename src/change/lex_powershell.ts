/**
 * Lexer for PowerShell: `#` line comments at the start of a token, `<# #>`
 * block comments, single- and double-quoted strings (both may span lines,
 * and the typographic quotes count as quotes), `$(...)` subexpressions inside
 * double quotes, here-strings, backtick escapes and `--%`.
 *
 * @module
 */

import { isDirectiveComment } from "./directives.ts";
import { type Emitter, isWordCode, type LexResult, wordEnd } from "./lex_emitter.ts";

/** Code at top level, a `$(...)` subexpression inside a string, or a double-quoted string. */
interface Frame {
  kind: "top" | "sub" | "dq";
  /** Open parentheses inside a subexpression. */
  depth: number;
}

/** Characters PowerShell reads as a single quote. */
const SINGLE_QUOTES = "'\u2018\u2019\u201A\u201B";

/** Characters PowerShell reads as a double quote. */
const DOUBLE_QUOTES = '"\u201C\u201D\u201E';

/** Characters after which `#` starts a comment. */
const TOKEN_BREAKS = " \t\n;(){}|&,=";

const MAX_DEPTH = 64;

class PowerShellLexer {
  private readonly stack: Frame[] = [{ kind: "top", depth: 0 }];
  private readonly n: number;

  constructor(
    private readonly src: string,
    private readonly em: Emitter,
    private readonly directives: boolean,
  ) {
    this.n = src.length;
  }

  run(): LexResult {
    let i = 0;
    while (i < this.n && !this.em.lost) {
      const f = this.stack[this.stack.length - 1];
      i = this.em.stepped(i, f.kind === "dq" ? this.dqStep(i) : this.codeStep(i, f));
    }
    return this.em.finish(this.stack.length === 1);
  }

  private push(kind: Frame["kind"], at: number): void {
    if (this.stack.length >= MAX_DEPTH) this.em.dumpRest(at);
    else this.stack.push({ kind, depth: 0 });
  }

  private codeStep(i: number, f: Frame): number {
    const { src, em } = this;
    const c = src[i];
    const next = em.blanks(i, this.stack.length === 1);
    if (next >= 0) return next;
    if (c === "<" && src[i + 1] === "#") return this.blockComment(i);
    if (c === "#" && (i === 0 || TOKEN_BREAKS.includes(src[i - 1]))) return this.lineComment(i);
    if (c === "@" && (SINGLE_QUOTES.includes(src[i + 1]) || DOUBLE_QUOTES.includes(src[i + 1]))) {
      const here = this.hereString(i);
      if (here >= 0) return here;
    }
    if (SINGLE_QUOTES.includes(c)) return this.singleQuoted(i);
    if (DOUBLE_QUOTES.includes(c)) {
      em.code(c);
      this.push("dq", i);
      return i + 1;
    }
    if (c === "`") {
      // An escape; before a line break it continues the line, which the emitter flags.
      if (src[i + 1] === "\n") {
        em.code(c);
        return i + 1;
      }
      em.code(src.slice(i, i + 2));
      return i + 2;
    }
    if (c === "-" && src.startsWith("--%", i)) {
      // Stop-parsing: the rest of the line goes to the native command as is.
      em.unclear = true;
      const e = em.find("\n", i);
      const end = e < 0 ? this.n : e;
      em.raw(i, end);
      return end;
    }
    if (f.kind === "sub") {
      if (c === "(") f.depth++;
      if (c === ")") {
        if (f.depth === 0) {
          this.stack.pop();
          em.code(")");
          return i + 1;
        }
        f.depth--;
      }
    }
    if (isWordCode(src.charCodeAt(i))) {
      const j = this.wordEndAt(i);
      em.code(src.slice(i, j));
      return j;
    }
    em.code(c);
    return i + 1;
  }

  /** Words end at quotes too, since the typographic quotes are non-ASCII word characters otherwise. */
  private wordEndAt(i: number): number {
    const end = wordEnd(this.src, i);
    let j = i + 1;
    while (
      j < end && !SINGLE_QUOTES.includes(this.src[j]) && !DOUBLE_QUOTES.includes(this.src[j])
    ) {
      j++;
    }
    return j;
  }

  private lineComment(i: number): number {
    const e = this.em.find("\n", i);
    const end = e < 0 ? this.n : e;
    this.comment(i, end);
    return end;
  }

  private blockComment(i: number): number {
    const close = this.em.find("#>", i + 2);
    if (close < 0) {
      this.em.openAtEnd = true;
      this.comment(i, this.n);
      return this.n;
    }
    this.comment(i, close + 2);
    return close + 2;
  }

  private comment(from: number, to: number): void {
    if (this.directives && isDirectiveComment("ps1", this.src.slice(from, to))) {
      this.em.strRange(from, to);
    } else {
      this.em.commentRange(from, to);
    }
  }

  /** `@"` or `@'` then a line break opens a here-string, closed by the quote and `@` at a line start. */
  private hereString(i: number): number {
    const { src, em } = this;
    let j = i + 2;
    while (src[j] === " " || src[j] === "\t" || src[j] === "\r") j++;
    em.work += j - i;
    if (src[j] !== "\n") return -1;
    em.unclear = true;
    const quotes = SINGLE_QUOTES.includes(src[i + 1]) ? SINGLE_QUOTES : DOUBLE_QUOTES;
    em.code(src.slice(i, i + 2));
    let line = j + 1;
    while (line < this.n) {
      this.em.work++;
      if (quotes.includes(src[line]) && src[line + 1] === "@") {
        em.strRange(i + 2, line);
        em.code(src.slice(line, line + 2));
        return line + 2;
      }
      const e = em.find("\n", line);
      if (e < 0) break;
      line = e + 1;
    }
    em.strRange(i + 2, this.n);
    em.openAtEnd = true;
    return this.n;
  }

  private singleQuoted(i: number): number {
    const { src, em } = this;
    let j = i + 1;
    while (j < this.n) {
      this.em.work++;
      if (SINGLE_QUOTES.includes(src[j])) {
        if (SINGLE_QUOTES.includes(src[j + 1] ?? "")) {
          j += 2;
          continue;
        }
        em.code(src[i]);
        em.work += j - i;
        if (src.slice(i + 1, j).includes("\n")) em.unclear = true;
        em.strRange(i + 1, j);
        em.code(src[j]);
        return j + 1;
      }
      j++;
    }
    em.code(src[i]);
    em.strRange(i + 1, this.n);
    em.openAtEnd = true;
    return this.n;
  }

  private dqStep(i: number): number {
    const { src, em } = this;
    let j = i;
    while (j < this.n) {
      this.em.work++;
      const c = src[j];
      if (DOUBLE_QUOTES.includes(c)) {
        if (DOUBLE_QUOTES.includes(src[j + 1] ?? "")) {
          j += 2;
          continue;
        }
        em.strRange(i, j);
        em.code(c);
        this.stack.pop();
        return j + 1;
      }
      if (c === "`") {
        j += 2;
        continue;
      }
      if (c === "\n") em.unclear = true;
      if (c === "$" && src[j + 1] === "(") {
        em.unclear = true;
        em.strRange(i, j);
        em.code("$(");
        this.push("sub", j);
        return j + 2;
      }
      if (c === "$" && src[j + 1] === "{") {
        let k = j + 2;
        while (k < this.n && src[k] !== "}") k += src[k] === "`" ? 2 : 1;
        em.work += k - j;
        j = k + 1;
        continue;
      }
      j++;
    }
    em.strRange(i, this.n);
    em.openAtEnd = true;
    return this.n;
  }
}

/** Lexes a PowerShell script into `em`. */
export function lexPowerShell(src: string, em: Emitter, directives: boolean): LexResult {
  return new PowerShellLexer(src, em, directives).run();
}
