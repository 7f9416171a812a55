/**
 * The Bash tokenizer: one left-to-right pass over the text that yields
 * operators, parentheses, redirections and words after quote removal.
 * Substitutions inside a word (`$( )`, backticks, `<( )`) hold whole
 * command lists; the tokenizer hands those to the parser through the
 * `NestedLists` port, so it never imports the parser. Here-document bodies
 * are read after the newline that ends their command line.
 *
 * Malformed or over-limit input throws `ParseFail`, and nothing else is
 * thrown on purpose: any other exception is a bug and must surface as one.
 *
 * @module
 */

import { decodeAnsiC } from "./ansi_c.ts";
import { expandBraces } from "./braces.ts";
import {
  type BashParse,
  MAX_BRACE_WORDS,
  MAX_NESTING,
  MAX_REREAD_CHARS,
  type ParseProblem,
  REDIRECT_OPERATORS,
  type RedirectOp,
  type Segment,
  type Separator,
  SEPARATORS,
  type Word,
} from "./words.ts";

const BLANK = new Set([" ", "\t", "\r"]);
/** Characters that end an unquoted word. */
export const META = new Set([" ", "\t", "\r", "\n", ";", "&", "|", "<", ">", "(", ")"]);
const ARRAY_ASSIGNMENT_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*\+?=$/;
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const SPECIAL_PARAMETER = /[0-9@*#?$!-]/;
const FD_WORD = /^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})$/;

/** Why the parse stopped: thrown by the tokenizer and the parser, caught only by `parseBash`. */
export class ParseFail {
  /** Records the problem the parse reports. */
  constructor(readonly problem: ParseProblem) {}
}

/** The construct flags of a parse, collected while it runs. */
export type Flags = Omit<BashParse, "ok" | "problem" | "segments" | "steps" | "functions">;

/** What one parse collects, shared by every tokenizer of nested text. */
export interface Collector {
  /** Simple commands read so far. */
  segments: Segment[];
  /** Constructs seen so far. */
  flags: Flags;
  /** Characters read again so far. */
  reread: number;
  /** Names of the functions defined so far (`name () …`, `function name …`). */
  functions: string[];
  /**
   * Work done so far: one step per character a cursor moved over (again
   * when it is read again), per token and per word a brace expansion made.
   */
  steps: number;
}

/** A word being read. */
export interface WordBuf {
  text: string;
  quoted: boolean;
  globs: boolean;
  expands: boolean;
  /** Offsets in `text` of unquoted `{`, `,` and `}`. */
  braceMarks: number[];
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
  segment: Segment;
}

/** One token. */
export type Token =
  | { kind: "eof" }
  | { kind: "op"; op: Exclude<Separator, "start"> }
  | { kind: "open"; at: number }
  | { kind: "close"; at: number }
  | { kind: "redirect"; op: RedirectOp; fd: string | null; target: Word; at: number }
  | { kind: "word"; word: Word; at: number };

/**
 * The parser as the tokenizer sees it: reads a command list nested in a
 * substitution from `tokens` at `level`, up to the closing `)` when
 * `closer` is set, else to the end of the text.
 */
export interface NestedLists {
  list(tokens: Tokenizer, level: number, closer: boolean): void;
}

/** A fresh, empty word. */
export function newWordBuf(): WordBuf {
  return { text: "", quoted: false, globs: false, expands: false, braceMarks: [] };
}

/** Turns Bash text into tokens; one instance per text (nested backtick text gets its own). */
export class Tokenizer {
  /** The cursor. */
  i = 0;
  /** End offset of the last token read. */
  lastEnd = 0;
  /** Inside `[[ … ]]`: operators are words. */
  inCondition = false;
  /** Substitution depth of the list being read. */
  level: number;
  private pending: PendingHeredoc[] = [];
  /**
   * Offsets of `$((` already found not to be arithmetic. Read again inside
   * an enclosing retry, such a `$((` goes straight to its command list, so
   * nested retries cost one extra reading per level instead of doubling.
   */
  private readonly notArithmetic = new Set<number>();
  /** `${`, `((` and `=(` constructs open around the cursor. */
  private constructs = 0;

  /** Starts at the beginning of `s`, at substitution depth `level`. */
  constructor(
    readonly s: string,
    readonly out: Collector,
    level: number,
    private readonly nested: NestedLists,
  ) {
    this.level = level;
  }

  /**
   * Runs `read` one construct deeper. These constructs nest inside each
   * other without a command list in between, so the list depth bound
   * alone would not stop `${${${…` from exhausting the stack.
   */
  private nest(read: () => void): void {
    if (++this.constructs > MAX_NESTING) throw new ParseFail("too-deep");
    try {
      read();
    } finally {
      this.constructs--;
    }
  }

  /** Queues a here-document whose body follows the next newline. */
  queueHeredoc(delimiter: Word, stripTabs: boolean, segment: Segment): void {
    this.pending.push({ delimiter: delimiter.text, stripTabs, quoted: delimiter.quoted, segment });
  }

  /** After `function NAME`: consumes an optional `()`. */
  readFunctionParens(): void {
    this.skipBlanks();
    if (this.s[this.i] === "(" && this.s[this.i + 1] !== "(") {
      this.i++;
      if (!this.consumeClose()) throw new ParseFail("unbalanced");
    }
  }

  /** Consumes a `)` after optional blanks; false (consuming nothing) otherwise. */
  consumeClose(): boolean {
    const save = this.i;
    this.skipBlanks();
    if (this.s[this.i] === ")") {
      this.i++;
      this.lastEnd = this.i;
      return true;
    }
    this.i = save;
    return false;
  }

  /** Skips blanks and line continuations. */
  skipBlanks(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      this.out.steps++;
      if (BLANK.has(c)) this.i++;
      else if (c === "\\" && s[this.i + 1] === "\n") this.i += 2;
      else break;
    }
  }

  /** The next token that is not a newline. */
  nextSkippingNewlines(): Token {
    for (;;) {
      const tok = this.next(false);
      if (!(tok.kind === "op" && tok.op === "\n")) return tok;
    }
  }

  /** Reads the next token; `arithmetic` allows `((` to start an arithmetic command. */
  next(arithmetic: boolean): Token {
    const s = this.s;
    for (;;) {
      this.out.steps++;
      this.skipBlanks();
      if (this.i >= s.length) return { kind: "eof" };
      const at = this.i;
      const c = s[at];
      if (this.inCondition) {
        if (c === "\n") {
          this.i++;
          continue;
        }
        const after = s[at + 2];
        if (s.startsWith("]]", at) && (after === undefined || META.has(after))) {
          this.i += 2;
          this.inCondition = false;
          return this.wordToken(this.finishWord(newWordBuf(), at), at);
        }
        return this.wordToken(this.readWord(true), at);
      }
      if (c === "#") {
        this.skipComment();
        continue;
      }
      if (c === "\n") {
        this.i++;
        this.lastEnd = at;
        this.readHeredocBodies();
        return { kind: "op", op: "\n" };
      }
      if (arithmetic && c === "(" && s[at + 1] === "(") {
        const w = newWordBuf();
        this.i += 2;
        if (!this.readArithmetic()) throw new ParseFail("unbalanced");
        w.text = s.slice(at, this.i);
        w.expands = true;
        this.out.flags.parameterExpansion = true;
        return this.wordToken(this.finishWord(w, at), at);
      }
      if (c === "(" || c === ")") {
        this.i++;
        this.lastEnd = this.i;
        return { kind: c === "(" ? "open" : "close", at };
      }
      const redirect = this.readRedirect(null, at);
      if (redirect !== null) return redirect;
      for (const op of SEPARATORS) {
        if (op !== "\n" && s.startsWith(op, at)) {
          this.i += op.length;
          this.lastEnd = this.i;
          return { kind: "op", op };
        }
      }
      const word = this.readWord(false);
      if (word.raw === "") throw new ParseFail("unbalanced");
      if (FD_WORD.test(word.raw)) {
        const fdRedirect = this.readRedirect(word.raw, at);
        if (fdRedirect !== null) return fdRedirect;
      }
      return this.wordToken(word, at);
    }
  }

  private wordToken(word: Word, at: number): Token {
    this.lastEnd = this.i;
    return { kind: "word", word, at };
  }

  /** Reads a redirection operator and its target at the cursor, or returns null. */
  private readRedirect(fd: string | null, at: number): Token | null {
    const s = this.s;
    const op = REDIRECT_OPERATORS.find((o) => s.startsWith(o, this.i));
    if (op === undefined) return null;
    // `<(` and `>(` are process substitutions, read as words.
    if ((op === "<" || op === ">") && s[this.i + 1] === "(") return null;
    this.i += op.length;
    this.skipBlanks();
    const c = s[this.i];
    if (
      this.i >= s.length || (META.has(c) && !((c === "<" || c === ">") && s[this.i + 1] === "("))
    ) {
      throw new ParseFail("unbalanced");
    }
    const target = this.readWord(false);
    this.lastEnd = this.i;
    return { kind: "redirect", op, fd, target, at };
  }

  /** After a newline: reads the bodies of the here-documents opened before it. */
  private readHeredocBodies(): void {
    const queue = this.pending;
    this.pending = [];
    const s = this.s;
    for (const h of queue) {
      const lines: string[] = [];
      let closed = false;
      while (this.i < s.length) {
        let end = s.indexOf("\n", this.i);
        if (end < 0) end = s.length;
        let line = s.slice(this.i, end);
        this.out.steps += end + 1 - this.i;
        this.i = Math.min(end + 1, s.length);
        if (h.stripTabs) line = line.replace(/^\t+/, "");
        if (line === h.delimiter) {
          closed = true;
          break;
        }
        lines.push(line);
      }
      if (!closed) throw new ParseFail("unbalanced");
      const body = lines.length > 0 ? lines.join("\n") + "\n" : "";
      h.segment.stdinTexts.push(body);
      if (!h.quoted && (body.includes("$") || body.includes("`"))) {
        // An unquoted delimiter leaves expansions in the body live.
        const sub = new Tokenizer(body, this.out, this.level + 1, this.nested);
        sub.readQuotedText(newWordBuf(), null);
      }
    }
    this.lastEnd = this.i;
  }

  /** Fails when here-documents are still waiting for their bodies. */
  finish(): void {
    if (this.pending.length > 0) throw new ParseFail("unbalanced");
  }

  /** Reads one word at the cursor (may be empty only when the cursor is at a metacharacter). */
  private readWord(cond: boolean): Word {
    const s = this.s;
    const start = this.i;
    const w = newWordBuf();
    if (s[this.i] === "~") w.expands = true;
    while (this.i < s.length) {
      const c = s[this.i];
      this.out.steps++;
      if ((c === "<" || c === ">") && s[this.i + 1] === "(") {
        this.readProcessSubstitution(w);
        continue;
      }
      if (c === "(" && !cond && !w.quoted && ARRAY_ASSIGNMENT_PREFIX.test(w.text)) {
        this.nest(() => this.readArrayValue(w));
        continue;
      }
      if (META.has(c) && (!cond || BLANK.has(c) || c === "\n")) break;
      switch (c) {
        case "\\": {
          const n = s[this.i + 1];
          if (n === "\n") {
            this.i += 2;
            continue;
          }
          w.text += n ?? "\\";
          w.quoted = true;
          this.i += n === undefined ? 1 : 2;
          continue;
        }
        case "'": {
          w.text += this.readSingleQuoted();
          w.quoted = true;
          continue;
        }
        case '"':
          this.i++;
          w.quoted = true;
          this.readQuotedText(w, '"');
          continue;
        case "`":
          this.readBackticks(w);
          continue;
        case "$": {
          const n = s[this.i + 1];
          if (n === "'") {
            this.i += 2;
            w.text += this.readAnsiC();
            w.quoted = true;
            continue;
          }
          if (n === '"') {
            this.i += 2;
            w.quoted = true;
            this.readQuotedText(w, '"');
            continue;
          }
          if (this.readDollar(w, false)) continue;
          break;
        }
        case "*":
        case "?":
        case "[":
          w.globs = true;
          break;
        case "{":
        case ",":
        case "}":
          w.braceMarks.push(w.text.length);
          break;
      }
      w.text += c;
      this.i++;
    }
    return this.finishWord(w, start);
  }

  private finishWord(w: WordBuf, start: number): Word {
    let braces: string[] | null = null;
    if (w.braceMarks.length >= 2) {
      const expanded = expandBraces(w.text, w.braceMarks, MAX_BRACE_WORDS);
      if (expanded === null) throw new ParseFail("too-many-words");
      this.out.steps += expanded.length;
      if (expanded.length !== 1 || expanded[0] !== w.text) braces = expanded;
    }
    return {
      text: w.text,
      raw: this.s.slice(start, this.i),
      quoted: w.quoted,
      globs: w.globs,
      expands: w.expands,
      braces,
    };
  }

  /** `name=( … )`: the array's words become part of the assignment word. */
  private readArrayValue(w: WordBuf): void {
    const s = this.s;
    this.i++;
    const parts: string[] = [];
    for (;;) {
      while (this.i < s.length && (BLANK.has(s[this.i]) || s[this.i] === "\n")) {
        this.out.steps++;
        this.i++;
      }
      if (this.i >= s.length) throw new ParseFail("unbalanced");
      const c = s[this.i];
      this.out.steps++;
      if (c === ")") {
        this.i++;
        break;
      }
      if (c === "#") {
        this.skipComment();
        continue;
      }
      if (META.has(c) && !((c === "<" || c === ">") && s[this.i + 1] === "(")) {
        throw new ParseFail("unbalanced");
      }
      const item = this.readWord(false);
      parts.push(item.text);
      w.expands ||= item.expands;
      w.quoted ||= item.quoted;
    }
    w.text += `(${parts.join(" ")})`;
  }

  /**
   * Reads double-quoted text up to `end`, or a here-document body up to the
   * end of the text when `end` is null, following its substitutions. An
   * `end` of `'` reads a single-quoted part of an arithmetic expression,
   * which bash expands like double-quoted text.
   */
  readQuotedText(w: WordBuf, end: '"' | "'" | null): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      this.out.steps++;
      if (end !== null && c === end) {
        this.i++;
        return;
      }
      if (c === "\\") {
        const n = s[this.i + 1];
        if (n === "\n") {
          this.i += 2;
          continue;
        }
        if (n === "$" || n === "`" || n === "\\" || (n === '"' && end === '"')) {
          w.text += n;
          this.i += 2;
          continue;
        }
        w.text += c;
        this.i++;
        continue;
      }
      if (c === "`") {
        this.readBackticks(w);
        continue;
      }
      if (c === "$" && this.readDollar(w, true)) continue;
      w.text += c;
      this.i++;
    }
    if (end !== null) throw new ParseFail("unbalanced");
  }

  /**
   * Reads an expansion at a `$` into `w`; false when the `$` is a literal
   * character. `inQuotes`: the `$` stands in double-quoted text, a
   * here-document body or arithmetic.
   */
  private readDollar(w: WordBuf, inQuotes: boolean): boolean {
    const s = this.s;
    const start = this.i;
    const next = s[this.i + 1];
    if (next === "(") {
      if (s[this.i + 2] === "(" && !this.notArithmetic.has(start)) {
        this.i += 3;
        const read = this.out.segments.length;
        if (this.readArithmetic()) {
          this.out.flags.parameterExpansion = true;
          w.text += s.slice(start, this.i);
          w.expands = true;
          return true;
        }
        // `$((…) …)` is a command substitution that starts with a subshell;
        // what the arithmetic reading found is read again below.
        this.out.segments.length = read;
        this.notArithmetic.add(start);
        this.out.reread += this.i - start;
        if (this.out.reread > MAX_REREAD_CHARS) throw new ParseFail("too-deep");
        this.i = start;
      }
      this.i += 2;
      this.out.flags.commandSubstitution = true;
      this.nested.list(this, this.level + 1, true);
      w.text += s.slice(start, this.i);
      w.expands = true;
      return true;
    }
    if (next === "{") {
      this.i += 2;
      this.readParameterBraces(inQuotes);
      this.out.flags.parameterExpansion = true;
      w.text += s.slice(start, this.i);
      w.expands = true;
      return true;
    }
    if (next !== undefined && (NAME_START.test(next) || SPECIAL_PARAMETER.test(next))) {
      this.i += 2;
      if (NAME_START.test(next)) {
        while (this.i < s.length && NAME_CHAR.test(s[this.i])) {
          this.out.steps++;
          this.i++;
        }
      }
      this.out.flags.parameterExpansion = true;
      w.text += s.slice(start, this.i);
      w.expands = true;
      return true;
    }
    return false;
  }

  /**
   * Moves the cursor to the `close` that ends a `${…}` or `((…))` body at
   * its own nesting level, following the substitutions inside. With
   * `liveSingleQuotes` single quotes do not quote (arithmetic, and `${…}`
   * inside double quotes or a here-document): bash still runs what they
   * enclose.
   */
  private skipToCloser(open: "{" | "(", close: "}" | ")", liveSingleQuotes: boolean): void {
    const s = this.s;
    const scratch = newWordBuf();
    let level = 0;
    while (this.i < s.length) {
      const c = s[this.i];
      this.out.steps++;
      if (c === "\\") {
        this.i += 2;
        continue;
      }
      if (c === "$" && this.readDollar(scratch, liveSingleQuotes)) continue;
      if (c === "`") {
        this.readBackticks(scratch);
        continue;
      }
      if (c === '"' || (c === "'" && liveSingleQuotes)) {
        this.i++;
        this.readQuotedText(scratch, c);
        continue;
      }
      if (c === "'") {
        this.readSingleQuoted();
        continue;
      }
      if (c === close) {
        if (level === 0) return;
        level--;
      } else if (c === open) level++;
      this.i++;
    }
    throw new ParseFail("unbalanced");
  }

  /** Reads `${…}` after its `${`. */
  private readParameterBraces(inQuotes: boolean): void {
    this.nest(() => this.skipToCloser("{", "}", inQuotes));
    this.i++;
  }

  /**
   * Skips arithmetic text after `((` up to the matching `))`. False (cursor
   * left anywhere) when a `)` closes the first parenthesis alone.
   */
  private readArithmetic(): boolean {
    this.nest(() => this.skipToCloser("(", ")", true));
    if (this.s[this.i + 1] !== ")") return false;
    this.i += 2;
    return true;
  }

  /** Reads `<(…)` or `>(…)`; its commands become segments. */
  private readProcessSubstitution(w: WordBuf): void {
    const start = this.i;
    this.i += 2;
    this.out.flags.processSubstitution = true;
    this.nested.list(this, this.level + 1, true);
    w.text += this.s.slice(start, this.i);
    w.expands = true;
  }

  /** Reads a backtick substitution and parses its inner command. */
  private readBackticks(w: WordBuf): void {
    const s = this.s;
    this.i++;
    let inner = "";
    let closed = false;
    while (this.i < s.length) {
      const c = s[this.i];
      const n = s[this.i + 1];
      this.out.steps++;
      if (c === "\\" && (n === "`" || n === "\\" || n === "$")) {
        inner += n;
        this.i += 2;
        continue;
      }
      if (c === "`") {
        this.i++;
        closed = true;
        break;
      }
      inner += c;
      this.i++;
    }
    if (!closed) throw new ParseFail("unbalanced");
    this.out.flags.commandSubstitution = true;
    this.out.flags.backticks = true;
    const sub = new Tokenizer(inner, this.out, this.level + 1, this.nested);
    this.nested.list(sub, this.level + 1, false);
    sub.finish();
    w.text += `\`${inner}\``;
    w.expands = true;
  }

  /** Skips a comment up to (not including) the newline that ends it. */
  private skipComment(): void {
    let end = this.s.indexOf("\n", this.i);
    if (end < 0) end = this.s.length;
    this.out.steps += end - this.i;
    this.i = end;
  }

  /** Reads a single-quoted part after the cursor's `'`, returning its text. */
  private readSingleQuoted(): string {
    const end = this.s.indexOf("'", this.i + 1);
    if (end < 0) throw new ParseFail("unbalanced");
    this.out.steps += end + 1 - this.i;
    const text = this.s.slice(this.i + 1, end);
    this.i = end + 1;
    return text;
  }

  /** Reads the body of `$'…'`, decoding its escapes. */
  private readAnsiC(): string {
    const body = decodeAnsiC(this.s, this.i);
    if (body === null) throw new ParseFail("unbalanced");
    this.out.steps += body.end - this.i;
    this.i = body.end;
    return body.text;
  }
}
