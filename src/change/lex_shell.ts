/**
 * Lexer for POSIX-style shell scripts (sh, bash, zsh).
 *
 * Comments start with `#` at the start of a word. Quotes, `$'...'`,
 * backticks, `$(...)`, `$((...))`, `${...}` and heredocs are followed on an
 * explicit stack; heredoc bodies are read line by line after the line that
 * announced them, as the shell does. A carriage return is an ordinary
 * character here, as it is to the shell.
 *
 * @module
 */

import { isDirectiveComment } from "./directives.ts";
import { type Emitter, isWordCode, type LexResult, wordEnd } from "./lex_emitter.ts";

/** Where the lexer is: plain code, a substitution, arithmetic, a parameter expansion or double quotes. */
type FrameKind = "top" | "cmdsub" | "arith" | "param" | "dq";

interface Frame {
  kind: FrameKind;
  /** Open parentheses (cmdsub, arith) or braces (param) inside. */
  depth: number;
  /** A parameter expansion opened inside double quotes, where quote rules differ. */
  inDq: boolean;
}

/** A heredoc announced on the current line, waiting for its body. */
interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
}

/** Characters that end a word, so a `#` after them starts a comment. */
const WORD_BREAKS = " \t\n;&|()<>";

/** Characters that end a heredoc delimiter word. */
const DELIMITER_ENDS = " \t\n;&|()<>";

const MAX_DEPTH = 64;

const LF = 10;

class ShellLexer {
  private readonly stack: Frame[] = [{ kind: "top", depth: 0, inDq: false }];
  private pending: PendingHeredoc[] = [];
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
    if (this.pending.length > 0) this.em.openAtEnd = true;
    return this.em.finish(this.stack.length === 1);
  }

  private push(kind: FrameKind, at: number, inDq = false): void {
    if (this.stack.length >= MAX_DEPTH) this.em.dumpRest(at);
    else this.stack.push({ kind, depth: 0, inDq });
  }

  private wordStart(i: number): boolean {
    return i === 0 || WORD_BREAKS.includes(this.src[i - 1]);
  }

  private codeStep(i: number, f: Frame): number {
    const { src, em } = this;
    const c = src[i];
    const commands = f.kind === "top" || f.kind === "cmdsub";
    if (c === "\n") {
      if (!commands) {
        em.newline(i, false);
        return i + 1;
      }
      em.newline(i, this.stack.length === 1 && this.pending.length === 0);
      return this.pending.length > 0 ? this.heredocBodies(i + 1) : i + 1;
    }
    if (c === " " || c === "\t") {
      let j = i + 1;
      while (src[j] === " " || src[j] === "\t") j++;
      em.ws(src.slice(i, j));
      return j;
    }
    switch (c) {
      case "#":
        if (commands && this.wordStart(i)) return this.comment(i);
        break;
      case "'":
        if (f.kind === "param" && f.inDq) {
          em.dumpRest(i);
          return this.n;
        }
        return this.quoted(i, i + 1, "'", false);
      case '"':
        em.code('"');
        this.push("dq", i);
        return i + 1;
      case "`":
        return this.backtick(i);
      case "$":
        return this.dollar(i);
      case "\\":
        // An escaped character; before a line break it continues the line,
        // which the emitter flags.
        if (src.charCodeAt(i + 1) === LF) break;
        em.code(src.slice(i, i + 2));
        return i + 2;
      case "<":
        if (commands) return this.less(i);
        break;
      case ">":
        if (commands && src[i + 1] === "(") {
          em.code(">(");
          this.push("cmdsub", i);
          return i + 2;
        }
        break;
      case "(":
        if (f.kind === "top" && this.wordStart(i) && src[i + 1] === "(") {
          em.code("((");
          this.push("arith", i);
          return i + 2;
        }
        if (f.kind === "cmdsub" || f.kind === "arith") f.depth++;
        break;
      case ")":
        if (f.kind === "cmdsub" || f.kind === "arith") {
          if (f.depth > 0) {
            f.depth--;
          } else if (f.kind === "cmdsub") {
            this.stack.pop();
          } else if (src[i + 1] === ")") {
            this.stack.pop();
            em.code("))");
            return i + 2;
          } else {
            em.dumpRest(i);
            return this.n;
          }
        }
        break;
      case "{":
        if (f.kind === "param") f.depth++;
        break;
      case "}":
        if (f.kind === "param") {
          if (f.depth === 0) this.stack.pop();
          else f.depth--;
        }
        break;
      default:
        if (isWordCode(src.charCodeAt(i))) {
          const j = wordEnd(src, i);
          // `case ... in pat)` leaves a `)` that would close the substitution early.
          if (f.kind === "cmdsub" && this.wordStart(i) && src.slice(i, j) === "case") {
            em.dumpRest(i);
            return this.n;
          }
          em.code(src.slice(i, j));
          return j;
        }
    }
    em.code(c);
    return i + 1;
  }

  private comment(i: number): number {
    const e = this.em.find("\n", i);
    const end = e < 0 ? this.n : e;
    if (this.directives && isDirectiveComment("sh", this.src.slice(i, end))) {
      this.em.strRange(i, end);
    } else {
      this.em.gap();
    }
    return end;
  }

  /** A quoted stretch from `i` whose contents start at `from` and end at `close`. */
  private quoted(i: number, from: number, close: string, escapes: boolean): number {
    const { src, em } = this;
    let j = from;
    while (j < this.n && src[j] !== close) j += escapes && src[j] === "\\" ? 2 : 1;
    em.code(src.slice(i, from));
    if (j >= this.n) {
      em.strRange(from, this.n);
      em.openAtEnd = true;
      return this.n;
    }
    em.work += j - from;
    if (src.slice(from, j).includes("\n")) em.unclear = true;
    em.strRange(from, j);
    em.code(close);
    return j + 1;
  }

  private backtick(i: number): number {
    this.em.unclear = true;
    return this.quoted(i, i + 1, "`", true);
  }

  private dollar(i: number): number {
    const { src, em } = this;
    const next = src[i + 1];
    if (next === "(") {
      const arith = src[i + 2] === "(";
      em.code(arith ? "$((" : "$(");
      this.push(arith ? "arith" : "cmdsub", i);
      return i + (arith ? 3 : 2);
    }
    if (next === "{") {
      em.code("${");
      this.push("param", i);
      return i + 2;
    }
    if (next === "'") {
      em.unclear = true;
      return this.quoted(i, i + 2, "'", true);
    }
    if (next === '"') {
      em.code('$"');
      this.push("dq", i);
      return i + 2;
    }
    em.code("$");
    return i + 1;
  }

  private less(i: number): number {
    const { src, em } = this;
    if (src[i + 1] === "(") {
      em.code("<(");
      this.push("cmdsub", i);
      return i + 2;
    }
    if (src[i + 1] !== "<") {
      em.code("<");
      return i + 1;
    }
    em.unclear = true;
    if (src[i + 2] === "<") {
      em.code("<<<");
      return i + 3;
    }
    let j = i + 2;
    const stripTabs = src[j] === "-";
    if (stripTabs) j++;
    while (src[j] === " " || src[j] === "\t") j++;
    em.work += j - i;
    let delimiter = "";
    while (j < this.n && !DELIMITER_ENDS.includes(src[j])) {
      const c = src[j];
      if (c === "'" || c === '"') {
        const close = em.find(c, j + 1);
        if (close < 0) break;
        delimiter += src.slice(j + 1, close);
        j = close + 1;
      } else if (c === "\\") {
        delimiter += src[j + 1] ?? "";
        j += 2;
      } else {
        delimiter += c;
        j++;
      }
    }
    if (delimiter === "") {
      em.dumpRest(i);
      return this.n;
    }
    this.pending.push({ delimiter, stripTabs });
    em.raw(i, Math.min(j, this.n));
    return Math.min(j, this.n);
  }

  /** Reads the bodies of the pending heredocs, starting at the line that begins at `from`. */
  private heredocBodies(from: number): number {
    const { src, em } = this;
    let at = from;
    const pending = this.pending;
    this.pending = [];
    for (let k = 0; k < pending.length; k++) {
      const { delimiter, stripTabs } = pending[k];
      for (;;) {
        if (at >= this.n) {
          em.openAtEnd = true;
          return this.n;
        }
        const e = em.find("\n", at);
        const end = e < 0 ? this.n : e;
        let start = at;
        if (stripTabs) { while (src[start] === "\t") start++; }
        em.work += end - at;
        const isEnd = src.slice(start, end) === delimiter;
        if (isEnd) em.code(delimiter);
        else em.strRange(at, end);
        if (end < this.n) {
          em.newline(end, isEnd && k === pending.length - 1 && this.stack.length === 1);
        }
        at = end + 1;
        if (isEnd) break;
      }
    }
    return Math.min(at, this.n);
  }

  private dqStep(i: number): number {
    const { src, em } = this;
    let j = i;
    while (j < this.n) {
      this.em.work++;
      const c = src[j];
      if (c === '"') {
        em.strRange(i, j);
        em.code('"');
        this.stack.pop();
        return j + 1;
      }
      if (c === "\\") {
        j += 2;
        continue;
      }
      if (c === "\n") em.unclear = true;
      if (c === "`") {
        em.strRange(i, j);
        return this.backtick(j);
      }
      if (c === "$" && (src[j + 1] === "(" || src[j + 1] === "{")) {
        em.strRange(i, j);
        if (src[j + 1] === "(") {
          em.unclear = true;
          return this.dollar(j);
        }
        em.code("${");
        this.push("param", j, true);
        return j + 2;
      }
      j++;
    }
    em.strRange(i, this.n);
    em.openAtEnd = true;
    return this.n;
  }
}

/** Lexes a shell script into `em`. */
export function lexShell(src: string, em: Emitter, directives: boolean): LexResult {
  return new ShellLexer(src, em, directives).run();
}
