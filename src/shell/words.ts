/**
 * The one Bash lexer and parser. It reads a command line the way bash
 * would and returns its simple commands ("segments"): words after quote
 * removal, what separated each from the previous one, whether its stdin is
 * piped or redirected, its redirections and leading assignments, plus
 * flags for every construct whose run-time value is unknown.
 *
 * Commands inside `$( )`, backticks, `<( )`, `>( )`, subshells, brace
 * groups and compound commands (`if`, `for`, `while`, `until`, `case`,
 * function bodies) are segments of their own, listed before the segment
 * that contains them. Here-document bodies are data, but the substitutions
 * an unquoted body still runs are read as commands.
 *
 * The destructive detector, the read-only check and the search evidence
 * all read commands through this module so they cannot disagree about what
 * a command is. One left-to-right pass (substitution nesting is bounded),
 * no exceptions escape, and input that is too long, unbalanced or too deep
 * is reported with `ok: false` instead of being guessed at.
 *
 * @module
 */

import { expandBraces } from "./braces.ts";

/** Commands longer than this are never `ok` (never trusted as evidence or as read-only). */
export const MAX_COMMAND_CHARS = 8192;

/** Input longer than this is not lexed at all. */
export const MAX_LEX_CHARS = 256 * 1024;

/** Deepest nesting of substitutions that is followed. */
export const MAX_NESTING = 32;

/**
 * Most characters read again, in all, after a `$((` turned out not to be
 * arithmetic. Nested, each retry re-reads the retries inside it, so without
 * a bound the work doubles per level.
 */
export const MAX_REREAD_CHARS = 8 * MAX_COMMAND_CHARS;

/** Most words one brace expansion may produce before the parse gives up. */
export const MAX_BRACE_WORDS = 256;

/** What separated a segment from the one before it (`"\n"` is a newline). */
export type Separator =
  | "start"
  | ";"
  | "\n"
  | "&"
  | "&&"
  | "||"
  | "|"
  | "|&"
  | ";;"
  | ";&"
  | ";;&";

/** Control operators, longest first, as the lexer matches them. */
export const SEPARATORS: readonly Exclude<Separator, "start">[] = [
  ";;&",
  ";;",
  ";&",
  "&&",
  "||",
  "|&",
  ";",
  "&",
  "|",
  "\n",
];

/**
 * Separators after which the next segment counts as reading another
 * command's output. `||` is included on purpose: treating it as a pipe can
 * only remove evidence, never add it.
 */
export const PIPED_AFTER: ReadonlySet<Separator> = new Set<Separator>(["|", "|&", "||"]);

/** Redirection operators, longest first. */
export const REDIRECT_OPERATORS = [
  "<<<",
  "<<-",
  "&>>",
  "<<",
  "<>",
  "<&",
  ">>",
  ">&",
  ">|",
  "&>",
  "<",
  ">",
] as const;

/** One redirection operator. */
export type RedirectOp = typeof REDIRECT_OPERATORS[number];

/** Why a parse is not `ok`. */
export type ParseProblem = "too-long" | "unbalanced" | "too-deep" | "too-many-words";

/** One word after quote removal. */
export interface Word {
  /**
   * The value bash would pass: quotes removed, escapes and `$'…'` decoded.
   * Expansions (`$x`, `${…}`, `$(…)`, backticks, `<(…)`) stay in their
   * source form, so `$(echo rm)` reads as `$(echo rm)`.
   */
  text: string;
  /** The word as written. */
  raw: string;
  /** Some part of the word was quoted or escaped (its glob characters are then literal). */
  quoted: boolean;
  /** An unquoted `*`, `?` or `[` appears: the shell may expand it to file names. */
  globs: boolean;
  /** The word holds an expansion whose value is unknown (`$x`, `${…}`, `$(…)`, backticks, `<(…)`, `~`). */
  expands: boolean;
  /** The words an unquoted brace expansion turns it into (`{a,b}`), null when there is none. */
  braces: readonly string[] | null;
}

/** A redirection of a segment. */
export interface Redirect {
  /** The operator. */
  op: RedirectOp;
  /** The descriptor written before the operator (`2`, `{fd}`), null when none. */
  fd: string | null;
  /** The target: file, descriptor, here-document delimiter or here-string. */
  target: Word;
}

/** One simple command. */
export interface Segment {
  /** The command word and its arguments (reserved words, assignments and redirections removed). */
  words: Word[];
  /** Leading `NAME=value` words. */
  assignments: Word[];
  /** Redirections, in order. */
  redirects: Redirect[];
  /** The control operator before it; reserved words and group openers in between do not count. */
  sepBefore: Separator;
  /** Its stdin is another command's output: `sepBefore` is in `PIPED_AFTER`. */
  piped: boolean;
  /** Its stdin is redirected: `<`, `<>`, `<&`, a here-document or a here-string. */
  stdinRedirected: boolean;
  /** How many words came before the first input redirection; null without one. */
  inputRedirectAt: number | null;
  /** Bodies of its here-documents and texts of its here-strings: data fed to its stdin. */
  stdinTexts: string[];
  /** Preceded by `!`. */
  negated: boolean;
  /** Nesting: 0 at top level, one more per enclosing substitution, group or compound command. */
  depth: number;
  /** It runs inside a command or process substitution (or a here-document body's substitution). */
  inSubstitution: boolean;
  /** Its source text (of the substitution it came from, for backticks). */
  raw: string;
}

/** The parsed command line. */
export interface BashParse {
  /** False when too long, unbalanced, nested too deep, or a brace expansion is too large. */
  ok: boolean;
  /** Why `ok` is false; null when it is true. */
  problem: ParseProblem | null;
  /**
   * Every simple command, nested ones before the command that contains
   * them. When `ok` is false this holds what was read before the problem
   * and must not be taken as the whole command.
   */
  segments: Segment[];
  /** `$( )` or backticks occurred. */
  commandSubstitution: boolean;
  /** Backticks occurred. */
  backticks: boolean;
  /** `<( )` or `>( )` occurred. */
  processSubstitution: boolean;
  /** A here-document occurred. */
  heredoc: boolean;
  /** A here-string (`<<<`) occurred. */
  hereString: boolean;
  /** A parameter or arithmetic expansion (`$x`, `$1`, `${…}`, `$((…))`, `((…))`) occurred. */
  parameterExpansion: boolean;
}

const BLANK = new Set([" ", "\t", "\r"]);
const META = new Set([" ", "\t", "\r", "\n", ";", "&", "|", "<", ">", "(", ")"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const ARRAY_ASSIGNMENT_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*\+?=$/;
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const SPECIAL_PARAMETER = /[0-9@*#?$!-]/;
const FD_WORD = /^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})$/;

/** Simple `$'…'` escapes. */
const ANSI_C_ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Reserved words the parser acts on when they start a command. */
const RESERVED = new Set([
  "!",
  "{",
  "}",
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "while",
  "until",
  "for",
  "select",
  "do",
  "done",
  "case",
  "esac",
  "function",
  "[[",
]);

/** Internal abort: the parse stops and reports `problem`. */
class Fail {
  constructor(readonly problem: ParseProblem) {}
}

/** The construct flags of a parse, collected while it runs. */
type Flags = Omit<BashParse, "ok" | "problem" | "segments">;

interface Collector {
  segments: Segment[];
  flags: Flags;
  /** Characters read again so far, shared by every lexer of one parse. */
  reread: number;
}

interface WordBuf {
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

type Token =
  | { kind: "eof" }
  | { kind: "op"; op: Exclude<Separator, "start"> }
  | { kind: "open"; at: number }
  | { kind: "close"; at: number }
  | { kind: "redirect"; op: RedirectOp; fd: string | null; target: Word; at: number }
  | { kind: "word"; word: Word; at: number };

/** An open compound construct. */
interface Frame {
  kind: "(" | "{" | "if" | "loop" | "case";
  /** For `case`: reading patterns or commands; the header segment collects the patterns. */
  phase?: "pattern" | "body";
  header?: Segment;
}

function newWordBuf(): WordBuf {
  return { text: "", quoted: false, globs: false, expands: false, braceMarks: [] };
}

class Lexer {
  i = 0;
  /** Inside `[[ … ]]`: operators are words. */
  private cond = false;
  private pending: PendingHeredoc[] = [];

  /** Substitution depth of the list being parsed. */
  private level: number;

  constructor(readonly s: string, readonly out: Collector, level: number) {
    this.level = level;
  }

  // ---- the parser ------------------------------------------------------

  /**
   * Reads a command list until the end of the text or, with `closer`, the
   * `)` that ends a command or process substitution.
   */
  parseList(depth: number, closer: boolean, inSub: boolean): void {
    if (depth > MAX_NESTING) throw new Fail("too-deep");
    const outer = this.level;
    this.level = depth;
    this.parseCommands(depth, closer, inSub);
    this.level = outer;
  }

  private parseCommands(depth: number, closer: boolean, inSub: boolean): void {
    const stack: Frame[] = [];
    let sep: Separator = "start";
    let cur: Segment | null = null;
    let curStart = 0;
    let started = false;
    let expectCommand = false;
    let afterCommand = false;
    const newSegment = (at: number): Segment => {
      const seg: Segment = {
        words: [],
        assignments: [],
        redirects: [],
        sepBefore: sep,
        piped: PIPED_AFTER.has(sep),
        stdinRedirected: false,
        inputRedirectAt: null,
        stdinTexts: [],
        negated: false,
        depth: depth + stack.length,
        inSubstitution: inSub,
        raw: "",
      };
      curStart = at;
      return seg;
    };
    const flush = (end = this.lastEnd): void => {
      if (cur !== null && started) {
        cur.raw = this.s.slice(curStart, Math.max(curStart, end)).trim();
        this.out.segments.push(cur);
        afterCommand = true;
      }
      cur = null;
      started = false;
    };
    const pop = (kind: Frame["kind"]): void => {
      if (expectCommand || stack.length === 0 || stack[stack.length - 1].kind !== kind) {
        throw new Fail("unbalanced");
      }
      stack.pop();
      afterCommand = true;
    };
    const requireTop = (kind: Frame["kind"]): void => {
      if (stack.length === 0 || stack[stack.length - 1].kind !== kind) throw new Fail("unbalanced");
      afterCommand = false;
    };

    for (;;) {
      const top = stack.length > 0 ? stack[stack.length - 1] : null;
      if (top !== null && top.kind === "case" && top.phase === "pattern" && cur === null) {
        if (this.readCasePatterns(top)) {
          stack.pop();
          afterCommand = true;
        }
        continue;
      }
      const atCommandStart = cur === null || !started;
      const seg: Segment | null = cur;
      // A segment's source text ends before the operator or `)` that ends it.
      const endBefore = this.lastEnd;
      const tok = this.next(
        atCommandStart ||
          (seg !== null && seg.words.length === 1 && seg.words[0].raw === "for"),
      );
      switch (tok.kind) {
        case "eof":
          if (expectCommand || this.cond) throw new Fail("unbalanced");
          flush();
          if (stack.length > 0 || closer) throw new Fail("unbalanced");
          return;
        case "op": {
          const op = tok.op;
          if (op === "\n") {
            flush();
            afterCommand = false;
            if (!expectCommand) sep = "\n";
            continue;
          }
          if (expectCommand || (!started && !afterCommand)) throw new Fail("unbalanced");
          flush(endBefore);
          afterCommand = false;
          sep = op;
          if (op === ";;" || op === ";&" || op === ";;&") {
            if (top === null || top.kind !== "case" || top.phase !== "body") {
              throw new Fail("unbalanced");
            }
            top.phase = "pattern";
          } else if (op === "&&" || op === "||" || op === "|" || op === "|&") {
            expectCommand = true;
          }
          continue;
        }
        case "open": {
          if (seg !== null && started) {
            // `name ()` opens a function definition; the body follows.
            if (
              seg.words.length === 1 && seg.assignments.length === 0 &&
              seg.redirects.length === 0 && this.consumeClose()
            ) {
              cur = null;
              started = false;
              afterCommand = false;
              continue;
            }
            throw new Fail("unbalanced");
          }
          cur = null;
          stack.push({ kind: "(" });
          expectCommand = false;
          afterCommand = false;
          continue;
        }
        case "close": {
          if (expectCommand) throw new Fail("unbalanced");
          flush(endBefore);
          if (top !== null && top.kind === "(") {
            stack.pop();
            afterCommand = true;
            continue;
          }
          if (stack.length === 0 && closer) return;
          throw new Fail("unbalanced");
        }
        case "redirect": {
          if (cur === null) cur = newSegment(tok.at);
          this.addRedirect(cur, tok.op, tok.fd, tok.target);
          started = true;
          expectCommand = false;
          continue;
        }
        case "word": {
          const w = tok.word;
          if (atCommandStart && !w.quoted && RESERVED.has(w.raw)) {
            switch (w.raw) {
              case "!":
                if (cur === null) cur = newSegment(tok.at);
                cur.negated = true;
                continue;
              case "{":
                cur = null;
                stack.push({ kind: "{" });
                expectCommand = false;
                afterCommand = false;
                continue;
              case "}":
                cur = null;
                pop("{");
                continue;
              case "if":
              case "while":
              case "until":
                cur = null;
                stack.push({ kind: w.raw === "if" ? "if" : "loop" });
                expectCommand = false;
                afterCommand = false;
                continue;
              case "then":
              case "elif":
              case "else":
                cur = null;
                requireTop("if");
                continue;
              case "do":
                cur = null;
                requireTop("loop");
                continue;
              case "fi":
                cur = null;
                pop("if");
                continue;
              case "done":
                cur = null;
                pop("loop");
                continue;
              case "esac":
                cur = null;
                pop("case");
                continue;
              case "function":
                cur = null;
                this.readFunctionHeader();
                expectCommand = false;
                afterCommand = false;
                continue;
              case "for":
              case "select":
              case "case":
              case "[[": {
                if (cur === null) cur = newSegment(tok.at);
                cur.words.push(w);
                started = true;
                expectCommand = false;
                if (w.raw === "[[") this.cond = true;
                else if (w.raw === "case") {
                  const header = cur;
                  this.readCaseHeader(header);
                  flush();
                  afterCommand = false;
                  stack.push({ kind: "case", phase: "pattern", header });
                } else stack.push({ kind: "loop" });
                continue;
              }
            }
          }
          if (cur === null) cur = newSegment(tok.at);
          // The raw test needs `NAME=` unquoted; the value may be quoted (`A='x y' cmd`).
          if (cur.words.length === 0 && ASSIGNMENT.test(w.raw)) {
            cur.assignments.push(w);
          } else {
            cur.words.push(w);
          }
          started = true;
          expectCommand = false;
          continue;
        }
      }
    }
  }

  private addRedirect(seg: Segment, op: RedirectOp, fd: string | null, target: Word): void {
    seg.redirects.push({ op, fd, target });
    const toStdin = fd === null || fd === "0";
    if (op.startsWith("<") && toStdin) {
      seg.stdinRedirected = true;
      if (seg.inputRedirectAt === null) seg.inputRedirectAt = seg.words.length;
    }
    if (op === "<<" || op === "<<-") {
      this.out.flags.heredoc = true;
      this.pending.push({
        delimiter: target.text,
        stripTabs: op === "<<-",
        quoted: target.quoted,
        segment: seg,
      });
    } else if (op === "<<<") {
      this.out.flags.hereString = true;
      seg.stdinTexts.push(target.text);
    }
  }

  /** After `case`: reads the subject word and `in` into the header segment. */
  private readCaseHeader(header: Segment): void {
    for (let n = 0; n < 2; n++) {
      const tok = this.nextSkippingNewlines();
      if (tok.kind !== "word") throw new Fail("unbalanced");
      header.words.push(tok.word);
    }
    if (header.words[2].raw !== "in") throw new Fail("unbalanced");
  }

  /**
   * Reads one `case` item's patterns up to its `)`, adding them to the header
   * segment; returns true when `esac` closed the `case` instead.
   */
  private readCasePatterns(frame: Frame): boolean {
    let first = true;
    for (;;) {
      const tok = this.nextSkippingNewlines();
      if (tok.kind === "word") {
        if (first && !tok.word.quoted && tok.word.raw === "esac") return true;
        frame.header!.words.push(tok.word);
      } else if (tok.kind === "open" && first) {
        continue;
      } else if (tok.kind === "close" && !first) {
        frame.phase = "body";
        return false;
      } else if (!(tok.kind === "op" && tok.op === "|" && !first)) {
        throw new Fail("unbalanced");
      }
      first = false;
    }
  }

  /** After `function`: the name and an optional `()`. */
  private readFunctionHeader(): void {
    const tok = this.next(false);
    if (tok.kind !== "word") throw new Fail("unbalanced");
    this.skipBlanks();
    if (this.s[this.i] === "(" && this.s[this.i + 1] !== "(") {
      this.i++;
      if (!this.consumeClose()) throw new Fail("unbalanced");
    }
  }

  /** Consumes a `)` after optional blanks; false (consuming nothing) otherwise. */
  private consumeClose(): boolean {
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

  // ---- the tokenizer ---------------------------------------------------

  /** End offset of the last token read. */
  lastEnd = 0;

  private skipBlanks(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      if (BLANK.has(c)) this.i++;
      else if (c === "\\" && s[this.i + 1] === "\n") this.i += 2;
      else break;
    }
  }

  private nextSkippingNewlines(): Token {
    for (;;) {
      const tok = this.next(false);
      if (!(tok.kind === "op" && tok.op === "\n")) return tok;
    }
  }

  /** Reads the next token; `arithmetic` allows `((` to start an arithmetic command. */
  private next(arithmetic: boolean): Token {
    const s = this.s;
    for (;;) {
      this.skipBlanks();
      if (this.i >= s.length) return { kind: "eof" };
      const at = this.i;
      const c = s[at];
      if (this.cond) {
        if (c === "\n") {
          this.i++;
          continue;
        }
        const after = s[at + 2];
        if (s.startsWith("]]", at) && (after === undefined || META.has(after))) {
          this.i += 2;
          this.cond = false;
          return this.wordToken(this.finishWord(newWordBuf(), at), at);
        }
        return this.wordToken(this.readWord(true), at);
      }
      if (c === "#") {
        while (this.i < s.length && s[this.i] !== "\n") this.i++;
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
        if (!this.readArithmetic()) throw new Fail("unbalanced");
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
      if (word.raw === "") throw new Fail("unbalanced");
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
      throw new Fail("unbalanced");
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
        this.i = Math.min(end + 1, s.length);
        if (h.stripTabs) line = line.replace(/^\t+/, "");
        if (line === h.delimiter) {
          closed = true;
          break;
        }
        lines.push(line);
      }
      if (!closed) throw new Fail("unbalanced");
      const body = lines.length > 0 ? lines.join("\n") + "\n" : "";
      h.segment.stdinTexts.push(body);
      if (!h.quoted && (body.includes("$") || body.includes("`"))) {
        // An unquoted delimiter leaves expansions in the body live.
        const sub = new Lexer(body, this.out, this.level + 1);
        sub.readQuotedText(newWordBuf(), null);
      }
    }
    this.lastEnd = this.i;
  }

  /** Fails when here-documents are still waiting for their bodies. */
  finish(): void {
    if (this.pending.length > 0) throw new Fail("unbalanced");
  }

  /** Reads one word at the cursor (may be empty only when the cursor is at a metacharacter). */
  private readWord(cond: boolean): Word {
    const s = this.s;
    const start = this.i;
    const w = newWordBuf();
    if (s[this.i] === "~") w.expands = true;
    while (this.i < s.length) {
      const c = s[this.i];
      if ((c === "<" || c === ">") && s[this.i + 1] === "(") {
        this.readProcessSubstitution(w);
        continue;
      }
      if (c === "(" && !cond && !w.quoted && ARRAY_ASSIGNMENT_PREFIX.test(w.text)) {
        this.readArrayValue(w);
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
          const end = s.indexOf("'", this.i + 1);
          if (end < 0) throw new Fail("unbalanced");
          w.text += s.slice(this.i + 1, end);
          w.quoted = true;
          this.i = end + 1;
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
      if (expanded === null) throw new Fail("too-many-words");
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
      while (this.i < s.length && (BLANK.has(s[this.i]) || s[this.i] === "\n")) this.i++;
      if (this.i >= s.length) throw new Fail("unbalanced");
      const c = s[this.i];
      if (c === ")") {
        this.i++;
        break;
      }
      if (c === "#") {
        while (this.i < s.length && s[this.i] !== "\n") this.i++;
        continue;
      }
      if (META.has(c) && !((c === "<" || c === ">") && s[this.i + 1] === "(")) {
        throw new Fail("unbalanced");
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
    if (end !== null) throw new Fail("unbalanced");
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
      if (s[this.i + 2] === "(") {
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
        this.out.reread += this.i - start;
        if (this.out.reread > MAX_REREAD_CHARS) throw new Fail("too-deep");
        this.i = start;
      }
      this.i += 2;
      this.out.flags.commandSubstitution = true;
      this.parseList(this.level + 1, true, true);
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
        while (this.i < s.length && NAME_CHAR.test(s[this.i])) this.i++;
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
        const end = s.indexOf("'", this.i + 1);
        if (end < 0) throw new Fail("unbalanced");
        this.i = end + 1;
        continue;
      }
      if (c === close) {
        if (level === 0) return;
        level--;
      } else if (c === open) level++;
      this.i++;
    }
    throw new Fail("unbalanced");
  }

  /** Reads `${…}` after its `${`. */
  private readParameterBraces(inQuotes: boolean): void {
    this.skipToCloser("{", "}", inQuotes);
    this.i++;
  }

  /**
   * Skips arithmetic text after `((` up to the matching `))`. False (cursor
   * left anywhere) when a `)` closes the first parenthesis alone.
   */
  private readArithmetic(): boolean {
    this.skipToCloser("(", ")", true);
    if (this.s[this.i + 1] !== ")") return false;
    this.i += 2;
    return true;
  }

  /** Reads `<(…)` or `>(…)`; its commands become segments. */
  private readProcessSubstitution(w: WordBuf): void {
    const start = this.i;
    this.i += 2;
    this.out.flags.processSubstitution = true;
    this.parseList(this.level + 1, true, true);
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
    if (!closed) throw new Fail("unbalanced");
    this.out.flags.commandSubstitution = true;
    this.out.flags.backticks = true;
    const sub = new Lexer(inner, this.out, this.level + 1);
    sub.parseList(this.level + 1, false, true);
    sub.finish();
    w.text += `\`${inner}\``;
    w.expands = true;
  }

  /** Reads the body of `$'…'`, decoding its escapes. */
  private readAnsiC(): string {
    const s = this.s;
    let out = "";
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === "'") {
        this.i++;
        return out;
      }
      if (c !== "\\") {
        out += c;
        this.i++;
        continue;
      }
      const n = s[this.i + 1] ?? "";
      this.i += 2;
      if (n in ANSI_C_ESCAPES) out += ANSI_C_ESCAPES[n];
      else if (n === "x" || n === "u" || n === "U") {
        const max = n === "x" ? 2 : n === "u" ? 4 : 8;
        let digits = "";
        while (digits.length < max && /[0-9A-Fa-f]/.test(s[this.i] ?? "")) digits += s[this.i++];
        if (digits === "") out += `\\${n}`;
        else {
          const cp = parseInt(digits, 16);
          out += cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
        }
      } else if (n >= "0" && n <= "7") {
        let digits = n;
        while (digits.length < 3 && /[0-7]/.test(s[this.i] ?? "")) digits += s[this.i++];
        out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      } else if (n === "c") {
        out += String.fromCharCode((s[this.i] ?? "@").charCodeAt(0) & 0x1f);
        this.i++;
      } else out += `\\${n}`;
    }
    throw new Fail("unbalanced");
  }
}

function emptyFlags(): Flags {
  return {
    commandSubstitution: false,
    backticks: false,
    processSubstitution: false,
    heredoc: false,
    hereString: false,
    parameterExpansion: false,
  };
}

/**
 * Parses a Bash command line. Never throws; over `MAX_COMMAND_CHARS`
 * characters, unbalanced quotes/brackets/keywords, unterminated
 * here-documents, nesting past `MAX_NESTING` (or nested `$((` retries
 * past `MAX_REREAD_CHARS`) or a brace expansion past `MAX_BRACE_WORDS`
 * words give `ok: false`.
 */
export function parseBash(command: string): BashParse {
  const out: Collector = { segments: [], flags: emptyFlags(), reread: 0 };
  let problem: ParseProblem | null = null;
  if (typeof command !== "string") problem = "unbalanced";
  else if (command.length > MAX_LEX_CHARS) problem = "too-long";
  else {
    try {
      const lx = new Lexer(command, out, 0);
      lx.parseList(0, false, false);
      lx.finish();
    } catch (err) {
      problem = err instanceof Fail ? err.problem : "too-deep";
    }
    if (problem === null && command.length > MAX_COMMAND_CHARS) problem = "too-long";
  }
  return { ok: problem === null, problem, segments: out.segments, ...out.flags };
}

/** The program a command word names: its last path component, `/bin/rm` is `rm`. */
export function commandName(word: Word | undefined): string {
  if (word === undefined) return "";
  const text = word.text;
  const cut = Math.max(text.lastIndexOf("/"), text.lastIndexOf("\\"));
  return cut >= 0 ? text.slice(cut + 1) : text;
}

/** The argument vector of a segment: word texts, with brace expansions applied. */
export function argv(segment: Segment): string[] {
  const out: string[] = [];
  for (const w of segment.words) {
    if (w.braces === null) out.push(w.text);
    else out.push(...w.braces);
  }
  return out;
}
