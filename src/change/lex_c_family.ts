/**
 * Lexer for the languages with C-style comments: JavaScript/TypeScript, Go,
 * Rust, Java, Kotlin, C#, C and C++.
 *
 * One loop over the text with an explicit stack (template and interpolated
 * strings hold code, which may hold strings again), so hostile nesting costs
 * a bounded stack, never recursion. Each dialect is a row of switches
 * (`c_dialects.ts`).
 *
 * @module
 */

import { isDirectiveComment } from "./directives.ts";
import { type Emitter, isWordCode, type LexResult, wordEnd } from "./lex_emitter.ts";
import {
  type CFamilyLanguage,
  CPP_RAW_PREFIXES,
  type Dialect,
  DIALECTS,
  JAVA_DANGEROUS_ESCAPES,
  JSX_KEYWORDS,
  RUST_RAW_PREFIXES,
  TRIGRAPH_ENDS,
} from "./c_dialects.ts";

/** Deepest nesting of strings and holes followed before giving up. */
const MAX_DEPTH = 64;

/** How a string interpolates code. */
type Holes = "none" | "dollarBrace" | "brace" | "kotlin";

/** Code at top level (`hole` false) or inside a string's interpolation hole. */
interface CodeFrame {
  str: false;
  hole: boolean;
  /** Open braces inside the hole. */
  depth: number;
}

/** A string that may hold holes or span lines. */
interface StrFrame {
  str: true;
  close: string;
  escapes: boolean;
  multiline: boolean;
  holes: Holes;
  /** `""` inside is a quote (C# verbatim strings). */
  doubledQuote: boolean;
  /** A run of more quotes than `close` ends with its last ones (Kotlin raw strings). */
  quoteRun: boolean;
}

type Frame = CodeFrame | StrFrame;

const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const DQUOTE = 34;
const DOLLAR = 36;
const APOS = 39;
const RPAREN = 41;
const STAR = 42;
const MINUS = 45;
const SLASH = 47;
const LT = 60;
const GT = 62;
const AT = 64;
const RBRACKET = 93;
const BACKSLASH = 92;
const BACKTICK = 96;
const LBRACE = 123;
const RBRACE = 125;

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** True when the line whose break is at `lineEnd` ends (before blanks) in a backslash. */
function endsInBackslash(em: Emitter, lineEnd: number): boolean {
  const src = em.src;
  let k = lineEnd - 1;
  while (k >= 0) {
    const c = src.charCodeAt(k);
    if (c !== SPACE && c !== TAB && c !== CR) break;
    k--;
  }
  em.work += lineEnd - k;
  return k >= 0 && src.charCodeAt(k) === BACKSLASH;
}

function lineEndFrom(em: Emitter, from: number): number {
  const at = em.find("\n", from);
  return at < 0 ? em.src.length : at;
}

class CLexer {
  private readonly stack: Frame[] = [{ str: false, hole: false, depth: 0 }];
  private readonly n: number;
  /** Last significant code character and identifier, for the JSX heuristic. */
  private lastSig = 0;
  private lastWord = "";

  constructor(
    private readonly src: string,
    private readonly lang: CFamilyLanguage,
    private readonly d: Dialect,
    private readonly em: Emitter,
    private readonly directives: boolean,
  ) {
    this.n = src.length;
  }

  run(): LexResult {
    if (this.prescanLost()) {
      this.em.dumpRest(0);
      return this.em.finish(false);
    }
    let i = 0;
    while (i < this.n && !this.em.lost) {
      const f = this.stack[this.stack.length - 1];
      i = this.em.stepped(i, f.str ? this.strStep(i, f) : this.codeStep(i, f));
    }
    return this.em.finish(this.stack.length === 1);
  }

  /** Trigraphs and Java unicode escapes act before lexing; the ones that can hide a quote or line break defeat it. */
  private prescanLost(): boolean {
    const { src, em } = this;
    if (this.d.trigraphs) {
      for (let at = em.find("??", 0); at >= 0; at = em.find("??", at + 1)) {
        const end = src[at + 2] ?? "";
        if (end !== "" && TRIGRAPH_ENDS.includes(end)) {
          this.em.unclear = true;
          if (end === "/") return true;
        }
      }
    }
    if (this.d.javaUnicode) {
      for (let at = em.find("\\u", 0); at >= 0; at = em.find("\\u", at + 1)) {
        let k = at + 1;
        while (src[k] === "u") k++;
        em.work += k - at;
        const hex = src.slice(k, k + 4);
        if (/^[0-9a-fA-F]{4}$/.test(hex) && JAVA_DANGEROUS_ESCAPES.has(parseInt(hex, 16))) {
          return true;
        }
      }
    }
    return false;
  }

  private push(frame: Frame, at: number): boolean {
    if (this.stack.length >= MAX_DEPTH) {
      this.em.dumpRest(at);
      return false;
    }
    this.stack.push(frame);
    return true;
  }

  private codeStep(i: number, f: CodeFrame): number {
    const { src, em, d } = this;
    const c = src.charCodeAt(i);
    const next = em.blanks(i, this.stack.length === 1);
    if (next >= 0) return next;
    switch (c) {
      case SLASH: {
        const next = src.charCodeAt(i + 1);
        if (next === SLASH) return this.lineComment(i);
        if (next === STAR) return this.blockComment(i);
        if (d.js) return this.jsSlash(i);
        break;
      }
      case DQUOTE:
        return this.doubleQuote(i);
      case APOS:
        return this.apostrophe(i);
      case BACKTICK:
        if (d.backtick === "template") {
          em.unclear = true;
          em.code("`");
          this.push(STRING_FRAMES.template, i);
          return i + 1;
        }
        if (d.backtick === "raw") return this.rawTo(i, i + 1, "`");
        break;
      case LBRACE:
        if (f.hole) f.depth++;
        break;
      case RBRACE:
        if (f.hole) {
          if (f.depth === 0) {
            this.stack.pop();
            em.code("}");
            return i + 1;
          }
          f.depth--;
        }
        break;
      case AT:
      case DOLLAR:
        if (d.csharp) return this.csharpPrefix(i);
        break;
      case LT:
        if (d.js) return this.jsLess(i);
        break;
      case MINUS:
        if (d.js && src.startsWith("-->", i)) {
          em.dumpRest(i);
          return this.n;
        }
        break;
      default:
        if (isWordCode(c)) return this.word(i, c);
    }
    em.code(src[i]);
    this.lastSig = c;
    this.lastWord = "";
    return i + 1;
  }

  private word(i: number, c: number): number {
    const { src, d, em } = this;
    let j = wordEnd(src, i);
    if (d.digitSeparators && isDigit(c)) {
      while (src.charCodeAt(j) === APOS && isWordCode(src.charCodeAt(j + 1))) {
        j = wordEnd(src, j + 1);
      }
    }
    const w = src.slice(i, j);
    const next = src[j];
    if (d.rustRaw && RUST_RAW_PREFIXES.has(w) && (next === '"' || next === "#")) {
      let hashes = 0;
      while (src[j + hashes] === "#") hashes++;
      em.work += hashes;
      if (src[j + hashes] === '"') {
        if (hashes > 255) {
          em.dumpRest(i);
          return this.n;
        }
        return this.rawTo(i, j + hashes + 1, '"' + "#".repeat(hashes));
      }
    }
    if (d.cppRaw && next === '"' && CPP_RAW_PREFIXES.has(w)) return this.cppRaw(i, j);
    em.code(w);
    this.lastSig = src.charCodeAt(j - 1);
    this.lastWord = w;
    return j;
  }

  /** A string from `i` whose contents start at `contentStart` and end at the next `close`, with no escapes. */
  private rawTo(i: number, contentStart: number, close: string): number {
    const { src, em } = this;
    em.unclear = true;
    em.code(src.slice(i, contentStart));
    const end = em.find(close, contentStart);
    if (end < 0) {
      em.strRange(contentStart, this.n);
      em.openAtEnd = true;
      return this.n;
    }
    em.strRange(contentStart, end);
    em.code(close);
    this.lastSig = DQUOTE;
    return end + close.length;
  }

  private cppRaw(i: number, quote: number): number {
    const src = this.src;
    let k = quote + 1;
    while (k < this.n && k - quote <= 17 && !" ()\\\t\n\r\v\f".includes(src[k])) k++;
    this.em.work += k - quote;
    if (src[k] !== "(") {
      this.em.dumpRest(i);
      return this.n;
    }
    return this.rawTo(i, k + 1, ")" + src.slice(quote + 1, k) + '"');
  }

  private lineComment(i: number): number {
    const em = this.em;
    let j = lineEndFrom(em, i);
    if (this.d.lineSplice) {
      while (j < this.n && endsInBackslash(em, j)) j = lineEndFrom(em, j + 1);
    }
    this.comment(i, j);
    return j;
  }

  private blockComment(i: number): number {
    const src = this.src;
    let depth = 1;
    let j = i + 2;
    while (j < this.n) {
      this.em.work++;
      const c = src.charCodeAt(j);
      if (c === STAR && src.charCodeAt(j + 1) === SLASH) {
        j += 2;
        if (--depth === 0) {
          this.comment(i, j);
          return j;
        }
      } else if (c === SLASH && src.charCodeAt(j + 1) === STAR) {
        if (this.d.nestedComments) depth++;
        else this.em.unclear = true;
        j += 2;
      } else {
        j++;
      }
    }
    this.em.openAtEnd = true;
    this.comment(i, this.n);
    return this.n;
  }

  private comment(from: number, to: number): void {
    if (this.directives && isDirectiveComment(this.lang, this.src.slice(from, to))) {
      this.em.strRange(from, to);
    } else {
      this.em.commentRange(from, to);
    }
  }

  /** A quoted string or character that may not hold holes. */
  private simpleString(i: number, quote: number, multiline: boolean): number {
    const { src, em } = this;
    let j = i + 1;
    while (j < this.n) {
      this.em.work++;
      const c = src.charCodeAt(j);
      if (c === quote) {
        this.emitQuoted(i, j, j + 1);
        return j + 1;
      }
      if (c === BACKSLASH) {
        j += src.charCodeAt(j + 1) === CR && src.charCodeAt(j + 2) === LF ? 3 : 2;
        continue;
      }
      if (c === LF) {
        em.unclear = true;
        if (!multiline) {
          // A string cut by the line end: the lexer resumes with code, unless a
          // spliced backslash may carry the string on, or (in JS) the quote was
          // JSX text, which the lexer cannot follow.
          if (this.d.js || endsInBackslash(em, j)) {
            em.dumpRest(i);
            return this.n;
          }
          this.emitQuoted(i, j, j);
          return j;
        }
      }
      j++;
    }
    em.openAtEnd = true;
    this.emitQuoted(i, this.n, this.n);
    return this.n;
  }

  /** Emits the quote at `i`, the contents up to `end`, and the closing quote up to `after`. */
  private emitQuoted(i: number, end: number, after: number): void {
    this.em.code(this.src[i]);
    this.em.strRange(i + 1, end);
    if (after > end) this.em.code(this.src.slice(end, after));
    this.lastSig = DQUOTE;
    this.lastWord = "";
  }

  private doubleQuote(i: number): number {
    const { src, d, em } = this;
    const triple = src.startsWith('"""', i);
    if (triple && d.textBlock !== "none") {
      em.unclear = true;
      em.code('"""');
      this.push(d.textBlock === "java" ? STRING_FRAMES.javaBlock : STRING_FRAMES.kotlinRaw, i);
      return i + 3;
    }
    if (triple && d.csharp) return this.csharpRaw(i, i);
    if (d.kotlinTemplates) {
      em.code('"');
      this.push(STRING_FRAMES.kotlin, i);
      return i + 1;
    }
    return this.simpleString(i, DQUOTE, d.multilineStrings);
  }

  private apostrophe(i: number): number {
    if (this.d.apostrophe !== "rust") return this.simpleString(i, APOS, false);
    const src = this.src;
    // Rust: a character literal, or the quote of a lifetime or label.
    if (src.charCodeAt(i + 1) === BACKSLASH) {
      const close = this.em.find("'", i + 3);
      if (close > 0 && close - i <= 16 && !src.slice(i, close).includes("\n")) {
        this.emitQuoted(i, close, close + 1);
        return close + 1;
      }
    } else {
      const cp = src.codePointAt(i + 1) ?? 0;
      const width = cp > 0xffff ? 2 : 1;
      if (cp !== LF && cp !== APOS && i + 1 < this.n && src.charCodeAt(i + 1 + width) === APOS) {
        this.emitQuoted(i, i + 1 + width, i + 2 + width);
        return i + 2 + width;
      }
    }
    this.em.code("'");
    this.lastSig = APOS;
    return i + 1;
  }

  private csharpPrefix(i: number): number {
    const { src, em } = this;
    let k = i;
    let verbatim = false;
    let dollars = 0;
    if (src[k] === "@") {
      verbatim = true;
      k++;
    }
    while (src[k] === "$") {
      dollars++;
      k++;
    }
    em.work += k - i;
    if (!verbatim && src[k] === "@") {
      verbatim = true;
      k++;
    }
    if (src[k] !== '"') {
      em.code(src[i]);
      this.lastSig = src.charCodeAt(i);
      return i + 1;
    }
    if (!verbatim && src.startsWith('"""', k)) return this.csharpRaw(i, k);
    em.unclear = true;
    em.code(src.slice(i, k + 1));
    const frame: StrFrame = {
      str: true,
      close: '"',
      escapes: !verbatim,
      multiline: verbatim,
      holes: dollars > 0 ? "brace" : "none",
      doubledQuote: verbatim,
      quoteRun: false,
    };
    this.push(frame, i);
    return k + 1;
  }

  /** A C# raw string: three or more quotes, closed by as many. */
  private csharpRaw(i: number, quote: number): number {
    let q = quote;
    while (this.src[q] === '"') q++;
    this.em.work += q - quote;
    return this.rawTo(i, q, '"'.repeat(q - quote));
  }

  private jsSlash(i: number): number {
    const { src, em } = this;
    // Regex or division cannot be told apart lexically. Neither crosses a
    // line, so the rest of the line is skipped as code unless something in it
    // could open a construct that does.
    em.unclear = true;
    const e = lineEndFrom(em, i);
    const rest = src.slice(i, e);
    em.work += 4 * rest.length;
    if (
      rest.includes("`") || rest.includes("/*") || endsInBackslash(em, e) ||
      (this.stack.length > 1 && (rest.includes("{") || rest.includes("}")))
    ) {
      em.dumpRest(i);
      return this.n;
    }
    em.raw(i, e);
    this.lastSig = SLASH;
    return e;
  }

  private jsLess(i: number): number {
    const { src, em } = this;
    if (src.startsWith("<!--", i)) {
      em.dumpRest(i);
      return this.n;
    }
    const next = src.charCodeAt(i + 1);
    if (isLetter(next) || next === SLASH || next === GT) {
      const afterValue = (isWordCode(this.lastSig) || this.lastSig === RPAREN ||
        this.lastSig === RBRACKET) && !JSX_KEYWORDS.has(this.lastWord);
      if (!afterValue) em.unclear = true;
    }
    em.code("<");
    this.lastSig = LT;
    this.lastWord = "";
    return i + 1;
  }

  private strStep(i: number, f: StrFrame): number {
    const { src, em } = this;
    let j = i;
    while (j < this.n) {
      this.em.work++;
      if (src.startsWith(f.close, j)) {
        if (f.doubledQuote && src.charCodeAt(j + 1) === DQUOTE) {
          j += 2;
          continue;
        }
        let end = j;
        if (f.quoteRun) {
          let run = j;
          while (src.charCodeAt(run) === DQUOTE) run++;
          em.work += run - j;
          end = run - f.close.length;
        }
        em.strRange(i, end);
        em.code(f.close);
        this.stack.pop();
        this.lastSig = DQUOTE;
        return end + f.close.length;
      }
      const c = src.charCodeAt(j);
      if (c === BACKSLASH && f.escapes) {
        j += src.charCodeAt(j + 1) === CR && src.charCodeAt(j + 2) === LF ? 3 : 2;
        continue;
      }
      if (c === LF && !f.multiline) {
        em.unclear = true;
        em.strRange(i, j);
        this.stack.pop();
        return j;
      }
      const hole = this.holeAt(j, f.holes);
      if (hole > 0) {
        em.strRange(i, j);
        em.code(src.slice(j, j + hole));
        this.push({ str: false, hole: true, depth: 0 }, j);
        return j + hole;
      }
      if (hole < 0) {
        j -= hole;
        continue;
      }
      j++;
    }
    em.strRange(i, this.n);
    em.openAtEnd = true;
    return this.n;
  }

  /**
   * At `j` inside a string: the length of a hole opener (> 0), minus the
   * length of an escaped brace pair (< 0), or 0.
   */
  private holeAt(j: number, holes: Holes): number {
    const src = this.src;
    const c = src.charCodeAt(j);
    const next = src.charCodeAt(j + 1);
    switch (holes) {
      case "dollarBrace":
        return c === DOLLAR && next === LBRACE ? 2 : 0;
      case "brace":
        if (c === LBRACE) return next === LBRACE ? -2 : 1;
        return c === RBRACE && next === RBRACE ? -2 : 0;
      case "kotlin":
        if (c !== DOLLAR) return 0;
        if (next === LBRACE || isLetter(next) || next === 95) this.em.unclear = true;
        return next === LBRACE ? 2 : 0;
      default:
        return 0;
    }
  }
}

/** The string frames that never change, shared by every lexer run. */
const STRING_FRAMES: Readonly<Record<"template" | "javaBlock" | "kotlinRaw" | "kotlin", StrFrame>> =
  {
    template: {
      str: true,
      close: "`",
      escapes: true,
      multiline: true,
      holes: "dollarBrace",
      doubledQuote: false,
      quoteRun: false,
    },
    javaBlock: {
      str: true,
      close: '"""',
      escapes: true,
      multiline: true,
      holes: "none",
      doubledQuote: false,
      quoteRun: false,
    },
    kotlinRaw: {
      str: true,
      close: '"""',
      escapes: false,
      multiline: true,
      holes: "kotlin",
      doubledQuote: false,
      quoteRun: true,
    },
    kotlin: {
      str: true,
      close: '"',
      escapes: true,
      multiline: false,
      holes: "kotlin",
      doubledQuote: false,
      quoteRun: false,
    },
  };

/** Lexes `src` in one of the C-style languages into `em`. */
export function lexCFamily(
  lang: CFamilyLanguage,
  src: string,
  em: Emitter,
  directives: boolean,
): LexResult {
  return new CLexer(src, lang, DIALECTS[lang], em, directives).run();
}
