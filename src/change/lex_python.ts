/**
 * Lexer for Python: `#` comments, string prefixes, triple quotes and
 * f-string (and t-string) replacement fields, which hold code that may hold
 * strings again (Python 3.12 lets them reuse the outer quote).
 *
 * @module
 */

import { isDirectiveComment } from "./directives.ts";
import { type Emitter, isWordCode, type LexResult, wordEnd } from "./lex_emitter.ts";

/** Code at top level, or inside an f-string replacement field. */
interface CodeFrame {
  str: false;
  hole: boolean;
  /** Open brackets of any kind inside the field. */
  depth: number;
}

/** An f-string or t-string being read. */
interface FStringFrame {
  str: true;
  close: string;
  triple: boolean;
}

type Frame = CodeFrame | FStringFrame;

/** String prefixes Python accepts (lowercased). */
const PREFIXES: ReadonlySet<string> = new Set([
  "r",
  "u",
  "b",
  "f",
  "t",
  "br",
  "rb",
  "fr",
  "rf",
  "tr",
  "rt",
]);

const MAX_DEPTH = 64;

const LF = 10;
const CR = 13;
const HASH = 35;
const DQUOTE = 34;
const APOS = 39;
const BACKSLASH = 92;
const OPENERS = "([{";
const CLOSERS = ")]";

class PyLexer {
  private readonly stack: Frame[] = [{ str: false, hole: false, depth: 0 }];
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
      i = this.em.stepped(i, f.str ? this.fstringStep(i, f) : this.codeStep(i, f));
    }
    return this.em.finish(this.stack.length === 1);
  }

  private codeStep(i: number, f: CodeFrame): number {
    const { src, em } = this;
    const c = src.charCodeAt(i);
    const next = em.blanks(i, this.stack.length === 1);
    if (next >= 0) return next;
    if (c === HASH) {
      const e = em.find("\n", i);
      const end = e < 0 ? this.n : e;
      if (this.directives && isDirectiveComment("py", src.slice(i, end))) em.strRange(i, end);
      else em.gap();
      return end;
    }
    if (c === DQUOTE || c === APOS) return this.string(i, i, "");
    if (isWordCode(c)) {
      const j = wordEnd(src, i);
      const w = src.slice(i, j);
      const next = src.charCodeAt(j);
      if ((next === DQUOTE || next === APOS) && PREFIXES.has(w.toLowerCase())) {
        return this.string(i, j, w.toLowerCase());
      }
      em.code(w);
      return j;
    }
    if (f.hole) {
      const ch = src[i];
      if (OPENERS.includes(ch)) f.depth++;
      else if (CLOSERS.includes(ch)) f.depth = Math.max(0, f.depth - 1);
      else if (ch === "}") {
        if (f.depth === 0) {
          this.stack.pop();
          em.code("}");
          return i + 1;
        }
        f.depth--;
      }
    }
    em.code(src[i]);
    return i + 1;
  }

  /** A string whose prefix starts at `i` and whose opening quote is at `q`. */
  private string(i: number, q: number, prefix: string): number {
    const { src, em } = this;
    const quote = src[q];
    const triple = src.startsWith(quote.repeat(3), q);
    const close = triple ? quote.repeat(3) : quote;
    const contentStart = q + close.length;
    if (triple || prefix.includes("r") || prefix.includes("f") || prefix.includes("t")) {
      em.unclear = true;
    }
    em.code(src.slice(i, contentStart));
    if (prefix.includes("f") || prefix.includes("t")) {
      if (this.stack.length >= MAX_DEPTH) {
        em.dumpRest(i);
        return this.n;
      }
      this.stack.push({ str: true, close, triple });
      return contentStart;
    }
    let j = contentStart;
    while (j < this.n) {
      this.em.work++;
      if (src.startsWith(close, j)) {
        em.strRange(contentStart, j);
        em.code(close);
        return j + close.length;
      }
      const c = src.charCodeAt(j);
      if (c === BACKSLASH) {
        j += src.charCodeAt(j + 1) === CR && src.charCodeAt(j + 2) === LF ? 3 : 2;
        continue;
      }
      if (c === LF && !triple) {
        em.unclear = true;
        em.strRange(contentStart, j);
        return j;
      }
      j++;
    }
    em.openAtEnd = true;
    em.strRange(contentStart, this.n);
    return this.n;
  }

  private fstringStep(i: number, f: FStringFrame): number {
    const { src, em } = this;
    let j = i;
    while (j < this.n) {
      this.em.work++;
      if (src.startsWith(f.close, j)) {
        em.strRange(i, j);
        em.code(f.close);
        this.stack.pop();
        return j + f.close.length;
      }
      const c = src[j];
      if (c === "\\") {
        j += src.charCodeAt(j + 1) === CR && src.charCodeAt(j + 2) === LF ? 3 : 2;
        continue;
      }
      if (c === "\n" && !f.triple) {
        em.unclear = true;
        em.strRange(i, j);
        this.stack.pop();
        return j;
      }
      if ((c === "{" || c === "}") && src[j + 1] === c) {
        j += 2;
        continue;
      }
      if (c === "{") {
        em.strRange(i, j);
        em.code("{");
        if (this.stack.length >= MAX_DEPTH) {
          em.dumpRest(j);
          return this.n;
        }
        this.stack.push({ str: false, hole: true, depth: 0 });
        return j + 1;
      }
      j++;
    }
    em.openAtEnd = true;
    em.strRange(i, this.n);
    return this.n;
  }
}

/** Lexes Python source into `em`. */
export function lexPython(src: string, em: Emitter, directives: boolean): LexResult {
  return new PyLexer(src, em, directives).run();
}
