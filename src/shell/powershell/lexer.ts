/**
 * The PowerShell lexer.
 *
 * PowerShell is read the way its parser sees a command line in argument
 * mode: quotes (including the typographic ones PowerShell accepts) and
 * backtick escapes removed, `;`, newlines, `|`, `&&`, `||` and a trailing
 * `&` as separators, redirections set aside, and the commands inside
 * `$( )`, `@( )`, `( )`, `{ }` script blocks and `@{ }` hashtables surfaced
 * as segments of their own, listed before the segment that contains them.
 * Expression syntax is not evaluated: it is kept as words, with nested
 * constructs replaced by short placeholders.
 *
 * One left-to-right pass with bounded nesting; no exceptions escape, and
 * over-long, unbalanced or too-deep input gives `ok: false`.
 *
 * @module
 */

import { MAX_COMMAND_CHARS, MAX_LEX_CHARS, MAX_NESTING } from "../bash/mod.ts";
import {
  DASHES,
  PS_SEPARATORS,
  type PsContainer,
  type PsParse,
  type PsParseProblem,
  type PsSegment,
  type PsSeparator,
  type PsWord,
} from "./words.ts";

/** Characters PowerShell accepts as single quotes. */
const SINGLE_QUOTES = new Set(["'", "\u2018", "\u2019", "\u201a", "\u201b"]);
/** Characters PowerShell accepts as double quotes. */
const DOUBLE_QUOTES = new Set(['"', "\u201c", "\u201d", "\u201e"]);
const BLANK = new Set([" ", "\t", "\f", "\v", "\u00a0"]);
const NEWLINE = new Set(["\n", "\r"]);
/** Characters that end an argument-mode word. */
const WORD_END = new Set([
  " ",
  "\t",
  "\f",
  "\v",
  "\u00a0",
  "\n",
  "\r",
  ";",
  "|",
  "&",
  ")",
  "}",
  ">",
  "<",
]);
/** Longest type constraint or braced variable name looked at for an assignment. */
const LOOKAHEAD = 256;
/** Separators after which a newline does not end the statement. */
const CONTINUED = new Set<PsSeparator>(["|", "&&", "||"]);
const ASSIGNMENT_OPS = ["??=", "+=", "-=", "*=", "/=", "%=", "="];
/** Decoded backtick escapes inside double quotes; any other escaped character stands for itself. */
const ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};
const VARIABLE_CHAR = /[A-Za-z0-9_?:]/;
const SPECIAL_VARIABLES = new Set(["$", "?", "^", "_"]);

class Fail {
  constructor(readonly problem: PsParseProblem) {}
}

type Flags = Omit<PsParse, "ok" | "problem" | "segments" | "steps">;

/** Mutable word under construction. */
interface WordBuf {
  text: string;
  quoted: boolean;
  expands: boolean;
  parts: string[];
  part: string;
}

class Lexer {
  i = 0;
  /** Work done so far: see `PsParse.steps`. */
  steps = 0;
  /** `matchBrackets` of the text, once something looked ahead for a closer. */
  private closers: Int32Array | null = null;
  readonly segments: PsSegment[] = [];
  readonly flags: Flags = {
    variables: false,
    subexpression: false,
    group: false,
    scriptBlock: false,
    hashtable: false,
    hereString: false,
    backtickEscape: false,
    stopParsing: false,
  };

  constructor(readonly s: string) {}

  /** Skips blanks, line continuations and comments; stops at a newline. */
  private skipBlanks(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      this.steps++;
      if (BLANK.has(c)) this.i++;
      else if (c === "`" && NEWLINE.has(s[this.i + 1])) {
        this.i += s.startsWith("\r\n", this.i + 1) ? 3 : 2;
        this.flags.backtickEscape = true;
      } else if (c === "<" && s[this.i + 1] === "#") {
        const end = s.indexOf("#>", this.i + 2);
        if (end < 0) throw new Fail("unbalanced");
        this.steps += end + 2 - this.i;
        this.i = end + 2;
      } else if (c === "#") {
        while (this.i < s.length && !NEWLINE.has(s[this.i])) {
          this.steps++;
          this.i++;
        }
      } else break;
    }
  }

  private readSeparator(): PsSeparator | null {
    if (NEWLINE.has(this.s[this.i])) {
      this.i++;
      return "\n";
    }
    for (const op of PS_SEPARATORS) {
      if (this.s.startsWith(op, this.i)) {
        this.i += op.length;
        return op;
      }
    }
    return null;
  }

  /** Reads statements until `closer` (or the end of input when null). */
  parseList(depth: number, closer: ")" | "}" | null, container: PsContainer | null): void {
    if (depth > MAX_NESTING) throw new Fail("too-deep");
    let sep: PsSeparator = "start";
    let afterCommand = false;
    const s = this.s;
    while (this.i < s.length) {
      this.steps++;
      this.skipBlanks();
      if (this.i >= s.length) break;
      const c = s[this.i];
      if (c === ")" || c === "}") {
        this.i++;
        if (c === closer) return;
        throw new Fail("unbalanced");
      }
      // A lone `&` backgrounds the command before it but invokes the one after it.
      const callOperator = c === "&" && s[this.i + 1] !== "&" && !afterCommand;
      const op = callOperator ? null : this.readSeparator();
      if (op !== null) {
        // A pipe or chain operator may end a line and carry on in the next one.
        if (!(op === "\n" && CONTINUED.has(sep) && !afterCommand)) sep = op;
        afterCommand = false;
        continue;
      }
      this.parseCommand(depth, sep, container);
      afterCommand = true;
    }
    if (closer !== null) throw new Fail("unbalanced");
  }

  private parseCommand(depth: number, sep: PsSeparator, container: PsContainer | null): void {
    const seg: PsSegment = {
      words: [],
      redirects: [],
      sepBefore: sep,
      piped: sep === "|" || sep === "||",
      stdinRedirected: false,
      invocation: null,
      assignedTo: null,
      stopParsing: false,
      depth,
      container,
    };
    const s = this.s;
    this.readAssignment(seg);
    while (this.i < s.length) {
      this.steps++;
      this.skipBlanks();
      if (this.i >= s.length) break;
      const c = s[this.i];
      if (NEWLINE.has(c) || c === ";" || c === "|" || c === ")" || c === "}") break;
      const atStart = seg.words.length === 0 && seg.invocation === null;
      if (c === "&") {
        if (s[this.i + 1] === "&" || !atStart) break;
        seg.invocation = "&";
        this.i++;
        continue;
      }
      if (c === "." && atStart && (BLANK.has(s[this.i + 1]) || s[this.i + 1] === undefined)) {
        seg.invocation = ".";
        this.i++;
        continue;
      }
      if (this.readRedirect(seg, depth)) continue;
      if (s.startsWith("--%", this.i) && (this.i + 3 === s.length || WORD_END.has(s[this.i + 3]))) {
        this.i += 3;
        this.readVerbatim(seg);
        break;
      }
      const word = this.readWord(depth);
      if (word === null) throw new Fail("unbalanced");
      seg.words.push(word);
    }
    if (seg.words.length > 0 || seg.redirects.length > 0 || seg.invocation !== null) {
      this.segments.push(seg);
    } else if (seg.assignedTo !== null) {
      throw new Fail("unbalanced");
    }
  }

  /** Reads `$x =` (optionally type-constrained, `[int]$x =`) at the start of a statement. */
  private readAssignment(seg: PsSegment): void {
    const s = this.s;
    let j = this.i;
    while (s[j] === "[") {
      const close = this.closeWithin(j, "]");
      if (close < 0) return;
      j = close + 1;
    }
    if (s[j] !== "$") return;
    const start = j;
    j++;
    if (s[j] === "{") {
      const close = this.closeWithin(j, "}");
      if (close < 0) return;
      j = close + 1;
    } else {
      while (j < s.length && VARIABLE_CHAR.test(s[j])) j++;
    }
    if (j === start + 1) return;
    const target = s.slice(start, j);
    while (BLANK.has(s[j])) j++;
    this.steps += j - this.i;
    const op = ASSIGNMENT_OPS.find((o) => s.startsWith(o, j));
    if (op === undefined || s[j + op.length] === "=") return;
    this.i = j + op.length;
    this.flags.variables = true;
    seg.assignedTo = target;
  }

  /**
   * Finds the `close` that matches the opener at `from` within a short
   * window (-1 when absent). The window keeps what may be a type constraint
   * or a braced variable name short; the matches themselves are found for
   * the whole text in one pass on first use, so looking ahead at every
   * statement start costs nothing more.
   */
  private closeWithin(from: number, close: "]" | "}"): number {
    const closers = this.closers ??= this.matchBrackets();
    const at = closers[from];
    return at >= 0 && at < from + LOOKAHEAD && this.s[at] === close ? at : -1;
  }

  /** For every `[` and `{`, the offset of the `]` or `}` that balances it; -1 for none. */
  private matchBrackets(): Int32Array {
    const s = this.s;
    const closers = new Int32Array(s.length).fill(-1);
    const open: Record<string, number[]> = { "[": [], "{": [] };
    for (let j = 0; j < s.length; j++) {
      const c = s[j];
      if (c === "[" || c === "{") open[c].push(j);
      else if (c === "]" || c === "}") {
        const from = open[c === "]" ? "[" : "{"].pop();
        if (from !== undefined) closers[from] = j;
      }
    }
    this.steps += s.length;
    return closers;
  }

  /** After `--%`: the rest, up to a newline or pipe, is passed on verbatim. */
  private readVerbatim(seg: PsSegment): void {
    const s = this.s;
    seg.stopParsing = true;
    this.flags.stopParsing = true;
    while (this.i < s.length) {
      const from = this.i;
      while (BLANK.has(s[this.i])) this.i++;
      const start = this.i;
      while (
        this.i < s.length && !BLANK.has(s[this.i]) && !NEWLINE.has(s[this.i]) && s[this.i] !== "|"
      ) {
        this.i++;
      }
      this.steps += this.i - from + 1;
      if (this.i === start) break;
      const text = s.slice(start, this.i);
      seg.words.push({
        text,
        raw: text,
        quoted: false,
        expands: false,
        parameter: false,
        parts: [text],
      });
    }
  }

  private readRedirect(seg: PsSegment, depth: number): boolean {
    const s = this.s;
    let j = this.i;
    if (/[1-6*]/.test(s[j] ?? "") && s[j + 1] === ">") j++;
    if (s[j] === "<") {
      this.i = j + 1;
      seg.stdinRedirected = true;
      this.skipBlanks();
      seg.redirects.push({ op: "<", target: this.readWord(depth) });
      return true;
    }
    if (s[j] !== ">") return false;
    j += s[j + 1] === ">" ? 2 : 1;
    if (s[j] === "&" && (s[j + 1] === "1" || s[j + 1] === "2")) {
      seg.redirects.push({ op: s.slice(this.i, j + 2), target: null });
      this.i = j + 2;
      return true;
    }
    const op = s.slice(this.i, j);
    this.i = j;
    this.skipBlanks();
    seg.redirects.push({ op, target: this.readWord(depth) });
    return true;
  }

  /** Reads one word; null when nothing could be read at this position. */
  private readWord(depth: number): PsWord | null {
    const s = this.s;
    const start = this.i;
    const w: WordBuf = { text: "", quoted: false, expands: false, parts: [], part: "" };
    const add = (text: string): void => {
      w.text += text;
      w.part += text;
    };
    const dashed = DASHES.has(s[this.i]) && /[A-Za-z_?]/.test(s[this.i + 1] ?? "");
    if (dashed) {
      add("-");
      this.i++;
    }
    while (this.i < s.length) {
      const c = s[this.i];
      this.steps++;
      if (WORD_END.has(c)) break;
      if (c === "`") {
        const n = s[this.i + 1];
        if (n === undefined || NEWLINE.has(n)) break;
        this.flags.backtickEscape = true;
        w.quoted = true;
        add(n);
        this.i += 2;
        continue;
      }
      if (SINGLE_QUOTES.has(c)) {
        this.i++;
        w.quoted = true;
        add(this.readSingleQuoted());
        continue;
      }
      if (DOUBLE_QUOTES.has(c)) {
        this.i++;
        w.quoted = true;
        const inner = this.readDoubleQuoted(depth, false);
        add(inner.text);
        w.expands ||= inner.expands;
        continue;
      }
      if (c === "@" && (SINGLE_QUOTES.has(s[this.i + 1]) || DOUBLE_QUOTES.has(s[this.i + 1]))) {
        const here = this.readHereString(depth);
        if (here !== null) {
          w.quoted = true;
          add(here.text);
          w.expands ||= here.expands;
          continue;
        }
      }
      if (c === "@" && (s[this.i + 1] === "(" || s[this.i + 1] === "{")) {
        const brace = s[this.i + 1] === "{";
        this.i += 2;
        if (brace) this.flags.hashtable = true;
        else this.flags.subexpression = true;
        this.parseList(depth + 1, brace ? "}" : ")", brace ? "hashtable" : "array");
        add(brace ? "@{…}" : "@(…)");
        w.expands = true;
        continue;
      }
      if (c === "@" && /[A-Za-z0-9_?:]/.test(s[this.i + 1] ?? "")) {
        const begin = this.i;
        this.i++;
        while (this.i < s.length && VARIABLE_CHAR.test(s[this.i])) this.i++;
        this.steps += this.i - begin;
        this.flags.variables = true;
        add(s.slice(begin, this.i));
        w.expands = true;
        continue;
      }
      if (c === "$") {
        const exp = this.readDollar(depth);
        if (exp !== null) {
          add(exp);
          w.expands = true;
          continue;
        }
      }
      if (c === "(" || c === "{") {
        this.i++;
        if (c === "{") this.flags.scriptBlock = true;
        else this.flags.group = true;
        this.parseList(depth + 1, c === "{" ? "}" : ")", c === "{" ? "scriptblock" : "group");
        add(c === "{" ? "{…}" : "(…)");
        w.expands = true;
        continue;
      }
      if (c === ",") {
        w.text += c;
        w.parts.push(w.part);
        w.part = "";
        this.i++;
        continue;
      }
      add(c);
      this.i++;
    }
    if (this.i === start) return null;
    w.parts.push(w.part);
    return {
      text: w.text,
      raw: s.slice(start, this.i),
      quoted: w.quoted,
      expands: w.expands,
      parameter: dashed,
      parts: w.parts,
    };
  }

  /** Reads a single-quoted string after its opening quote; a doubled quote is a literal one. */
  private readSingleQuoted(): string {
    const s = this.s;
    let out = "";
    while (this.i < s.length) {
      const c = s[this.i];
      this.steps++;
      if (SINGLE_QUOTES.has(c)) {
        if (SINGLE_QUOTES.has(s[this.i + 1])) {
          out += c;
          this.i += 2;
          continue;
        }
        this.i++;
        return out;
      }
      out += c;
      this.i++;
    }
    throw new Fail("unbalanced");
  }

  /**
   * Reads double-quoted text after its opening quote, or a here-string body
   * to its end when `toEnd` (the caller has cut the body out).
   */
  private readDoubleQuoted(depth: number, toEnd: boolean): { text: string; expands: boolean } {
    const s = this.s;
    let text = "";
    let expands = false;
    while (this.i < s.length) {
      const c = s[this.i];
      this.steps++;
      if (!toEnd && DOUBLE_QUOTES.has(c)) {
        if (DOUBLE_QUOTES.has(s[this.i + 1])) {
          text += c;
          this.i += 2;
          continue;
        }
        this.i++;
        return { text, expands };
      }
      if (c === "`" && this.i + 1 < s.length) {
        const n = s[this.i + 1];
        this.flags.backtickEscape = true;
        text += Object.hasOwn(ESCAPES, n) ? ESCAPES[n] : n;
        this.i += 2;
        continue;
      }
      if (c === "$") {
        const exp = this.readDollar(depth);
        if (exp !== null) {
          text += exp;
          expands = true;
          continue;
        }
      }
      text += c;
      this.i++;
    }
    if (!toEnd) throw new Fail("unbalanced");
    return { text, expands };
  }

  /**
   * Reads `@'…'@` or `@"…"@`: the opening must end its line and the closing
   * must start one. Null when the opening is not followed by a newline (it
   * is then an ordinary `@` followed by a string).
   */
  private readHereString(depth: number): { text: string; expands: boolean } | null {
    const s = this.s;
    const quote = s[this.i + 1];
    let j = this.i + 2;
    while (BLANK.has(s[j])) j++;
    if (!NEWLINE.has(s[j])) return null;
    j += s.startsWith("\r\n", j) ? 2 : 1;
    const double = DOUBLE_QUOTES.has(quote);
    const quotes = double ? DOUBLE_QUOTES : SINGLE_QUOTES;
    let lineStart = j;
    while (lineStart <= s.length) {
      if (quotes.has(s[lineStart]) && s[lineStart + 1] === "@") break;
      const nl = s.indexOf("\n", lineStart);
      if (nl < 0) throw new Fail("unbalanced");
      this.steps += nl + 1 - lineStart;
      lineStart = nl + 1;
    }
    this.flags.hereString = true;
    let bodyEnd = lineStart > j ? lineStart - 1 : j;
    if (s[bodyEnd - 1] === "\r") bodyEnd--;
    const body = s.slice(j, Math.max(j, bodyEnd));
    this.i = lineStart + 2;
    if (!double) return { text: body, expands: false };
    const inner = new Lexer(body);
    const out = inner.readDoubleQuoted(depth, true);
    this.absorb(inner);
    return out;
  }

  /** Takes over the segments and flags of a lexer that read a nested text. */
  private absorb(inner: Lexer): void {
    this.steps += inner.steps + inner.segments.length;
    for (const seg of inner.segments) this.segments.push(seg);
    for (const key of Object.keys(this.flags) as (keyof Flags)[]) {
      this.flags[key] ||= inner.flags[key];
    }
  }

  /** Reads an expansion at `$`; null when the `$` is literal. */
  private readDollar(depth: number): string | null {
    const s = this.s;
    const start = this.i;
    const next = s[this.i + 1];
    if (next === "(") {
      this.i += 2;
      this.flags.subexpression = true;
      this.parseList(depth + 1, ")", "subexpression");
      return "$(…)";
    }
    if (next === "{") {
      this.i += 2;
      while (this.i < s.length && s[this.i] !== "}") this.i += s[this.i] === "`" ? 2 : 1;
      this.steps += this.i - start;
      if (this.i >= s.length) throw new Fail("unbalanced");
      this.i++;
      this.flags.variables = true;
      return s.slice(start, this.i);
    }
    if (next !== undefined && SPECIAL_VARIABLES.has(next)) {
      this.i += 2;
      this.flags.variables = true;
      return s.slice(start, this.i);
    }
    if (next !== undefined && /[A-Za-z0-9_]/.test(next)) {
      this.i += 2;
      while (this.i < s.length && VARIABLE_CHAR.test(s[this.i])) this.i++;
      this.steps += this.i - start;
      this.flags.variables = true;
      return s.slice(start, this.i);
    }
    return null;
  }
}

/**
 * Parses a PowerShell command line. Never throws; over `MAX_COMMAND_CHARS`
 * characters, unbalanced quotes/brackets/comments/here-strings, or nesting
 * past `MAX_NESTING` give `ok: false`.
 */
export function parsePowerShell(command: string): PsParse {
  const lx = new Lexer(typeof command === "string" ? command : "");
  let problem: PsParseProblem | null = null;
  if (typeof command !== "string") problem = "unbalanced";
  else if (command.length > MAX_LEX_CHARS) problem = "too-long";
  else {
    try {
      lx.parseList(0, null, null);
    } catch (err) {
      if (!(err instanceof Fail)) throw err;
      problem = err.problem;
    }
    if (problem === null && command.length > MAX_COMMAND_CHARS) problem = "too-long";
  }
  return { ok: problem === null, problem, segments: lx.segments, ...lx.flags, steps: lx.steps };
}
