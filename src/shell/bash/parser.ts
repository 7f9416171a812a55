/**
 * The Bash parser: groups the tokenizer's words into simple commands
 * ("segments"), following compound commands (`if`, `for`, `while`,
 * `until`, `case`, function bodies), subshells, brace groups and the
 * command lists nested in substitutions, which are listed before the
 * segment that contains them. Here-document bodies are data, but the
 * substitutions an unquoted body still runs are read as commands.
 *
 * Input that is too long, unbalanced or too deep is reported with
 * `ok: false` instead of being guessed at. Only those limits are caught:
 * any other exception is a bug and propagates to the caller.
 *
 * @module
 */

import {
  type Collector,
  type Flags,
  type NestedLists,
  ParseFail,
  type Token,
  Tokenizer,
} from "./tokenizer.ts";
import {
  type BashParse,
  MAX_COMMAND_CHARS,
  MAX_LEX_CHARS,
  MAX_NESTING,
  type ParseProblem,
  PIPED_AFTER,
  type RedirectOp,
  type Segment,
  type Separator,
  type Word,
} from "./words.ts";
import { baseName } from "../../platform/path.ts";

/** A word that assigns a variable (`NAME=`, `NAME+=`, `NAME[i]=`). */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

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

/** An open compound construct. */
interface Frame {
  kind: "(" | "{" | "if" | "loop" | "case";
  /** For `case`: reading patterns or commands; the header segment collects the patterns. */
  phase?: "pattern" | "body";
  header?: Segment;
}

/** Parses nested lists for every tokenizer of one parse. */
const NESTED: NestedLists = {
  list: (tokens, level, closer) => parseList(tokens, level, closer, true),
};

/**
 * Reads a command list until the end of the text or, with `closer`, the
 * `)` that ends a command or process substitution.
 */
function parseList(tokens: Tokenizer, depth: number, closer: boolean, inSub: boolean): void {
  if (depth > MAX_NESTING) throw new ParseFail("too-deep");
  const outer = tokens.level;
  tokens.level = depth;
  new ListParser(tokens, depth, closer, inSub).run();
  tokens.level = outer;
}

/** The state of one command list being read: its open constructs and the segment in progress. */
class ListParser {
  private readonly stack: Frame[] = [];
  private sep: Separator = "start";
  private cur: Segment | null = null;
  private curStart = 0;
  /** The current segment has a word or redirection. */
  private started = false;
  /** An operator such as `&&` or `|` needs a command after it. */
  private expectCommand = false;
  /** A command or closed construct came last, so a separator may follow. */
  private afterCommand = false;

  constructor(
    private readonly t: Tokenizer,
    private readonly depth: number,
    private readonly closer: boolean,
    private readonly inSub: boolean,
  ) {}

  private get top(): Frame | null {
    return this.stack.length > 0 ? this.stack[this.stack.length - 1] : null;
  }

  /** The segment in progress, opened at `at` when there is none. */
  private segment(at: number): Segment {
    if (this.cur !== null) return this.cur;
    const sep = this.sep;
    this.cur = {
      words: [],
      assignments: [],
      redirects: [],
      sepBefore: sep,
      piped: PIPED_AFTER.has(sep),
      stdinRedirected: false,
      inputRedirectAt: null,
      stdinTexts: [],
      negated: false,
      depth: this.depth + this.stack.length,
      inSubstitution: this.inSub,
      raw: "",
    };
    this.curStart = at;
    return this.cur;
  }

  /** Ends the segment in progress at `end`, keeping it when it has content. */
  private flush(end = this.t.lastEnd): void {
    const cur = this.cur;
    if (cur !== null && this.started) {
      cur.raw = this.t.s.slice(this.curStart, Math.max(this.curStart, end)).trim();
      this.t.out.segments.push(cur);
      this.afterCommand = true;
    }
    this.cur = null;
    this.started = false;
  }

  /** Drops the segment in progress: a reserved word or group opener stands in its place. */
  private drop(): void {
    this.cur = null;
  }

  private open(kind: Frame["kind"]): void {
    this.stack.push({ kind });
    this.expectCommand = false;
    this.afterCommand = false;
  }

  private pop(kind: Frame["kind"]): void {
    if (this.expectCommand || this.top?.kind !== kind) throw new ParseFail("unbalanced");
    this.stack.pop();
    this.afterCommand = true;
  }

  private requireTop(kind: Frame["kind"]): void {
    if (this.top?.kind !== kind) throw new ParseFail("unbalanced");
    this.afterCommand = false;
  }

  /** Reads tokens until the list ends. */
  run(): void {
    for (;;) {
      const top = this.top;
      if (top !== null && top.kind === "case" && top.phase === "pattern" && this.cur === null) {
        if (this.readCasePatterns(top)) {
          this.stack.pop();
          this.afterCommand = true;
        }
        continue;
      }
      const atCommandStart = this.cur === null || !this.started;
      const seg = this.cur;
      // A segment's source text ends before the operator or `)` that ends it.
      const endBefore = this.t.lastEnd;
      const tok = this.t.next(
        atCommandStart || (seg !== null && seg.words.length === 1 && seg.words[0].raw === "for"),
      );
      this.t.out.steps++;
      switch (tok.kind) {
        case "eof":
          if (this.expectCommand || this.t.inCondition) throw new ParseFail("unbalanced");
          this.flush();
          if (this.stack.length > 0 || this.closer) throw new ParseFail("unbalanced");
          return;
        case "op":
          this.onOperator(tok.op, endBefore);
          continue;
        case "open":
          this.onOpen();
          continue;
        case "close":
          if (this.onClose(endBefore)) return;
          continue;
        case "redirect":
          this.addRedirect(this.segment(tok.at), tok.op, tok.fd, tok.target);
          this.started = true;
          this.expectCommand = false;
          continue;
        case "word":
          if (atCommandStart && !tok.word.quoted && RESERVED.has(tok.word.raw)) {
            this.onReserved(tok.word, tok.at);
          } else this.onWord(tok.word, tok.at);
          continue;
      }
    }
  }

  private onOperator(op: Exclude<Separator, "start">, endBefore: number): void {
    if (op === "\n") {
      this.flush();
      this.afterCommand = false;
      if (!this.expectCommand) this.sep = "\n";
      return;
    }
    if (this.expectCommand || (!this.started && !this.afterCommand)) {
      throw new ParseFail("unbalanced");
    }
    this.flush(endBefore);
    this.afterCommand = false;
    this.sep = op;
    if (op === ";;" || op === ";&" || op === ";;&") {
      const top = this.top;
      if (top === null || top.kind !== "case" || top.phase !== "body") {
        throw new ParseFail("unbalanced");
      }
      top.phase = "pattern";
    } else if (op === "&&" || op === "||" || op === "|" || op === "|&") {
      this.expectCommand = true;
    }
  }

  private onOpen(): void {
    const seg = this.cur;
    if (seg !== null && this.started) {
      // `name ()` opens a function definition; the body follows.
      if (
        seg.words.length === 1 && seg.assignments.length === 0 &&
        seg.redirects.length === 0 && this.t.consumeClose()
      ) {
        this.t.out.functions.push(seg.words[0].text);
        this.drop();
        this.started = false;
        this.afterCommand = false;
        return;
      }
      throw new ParseFail("unbalanced");
    }
    this.drop();
    this.open("(");
  }

  /** A `)`: closes a subshell, or ends the list (true) when it closes the substitution. */
  private onClose(endBefore: number): boolean {
    if (this.expectCommand) throw new ParseFail("unbalanced");
    this.flush(endBefore);
    if (this.top?.kind === "(") {
      this.stack.pop();
      this.afterCommand = true;
      return false;
    }
    if (this.stack.length === 0 && this.closer) return true;
    throw new ParseFail("unbalanced");
  }

  private onReserved(w: Word, at: number): void {
    switch (w.raw) {
      case "!":
        this.segment(at).negated = true;
        return;
      case "{":
        this.drop();
        this.open("{");
        return;
      case "}":
        this.drop();
        this.pop("{");
        return;
      case "if":
      case "while":
      case "until":
        this.drop();
        this.open(w.raw === "if" ? "if" : "loop");
        return;
      case "then":
      case "elif":
      case "else":
        this.drop();
        this.requireTop("if");
        return;
      case "do":
        this.drop();
        this.requireTop("loop");
        return;
      case "fi":
        this.drop();
        this.pop("if");
        return;
      case "done":
        this.drop();
        this.pop("loop");
        return;
      case "esac":
        this.drop();
        this.pop("case");
        return;
      case "function":
        this.drop();
        this.readFunctionHeader();
        this.expectCommand = false;
        this.afterCommand = false;
        return;
    }
    // `for`, `select`, `case` and `[[` start a segment of their own.
    const cur = this.segment(at);
    cur.words.push(w);
    this.started = true;
    this.expectCommand = false;
    if (w.raw === "[[") this.t.inCondition = true;
    else if (w.raw === "case") {
      this.readCaseHeader(cur);
      this.flush();
      this.afterCommand = false;
      this.stack.push({ kind: "case", phase: "pattern", header: cur });
    } else this.stack.push({ kind: "loop" });
  }

  private onWord(w: Word, at: number): void {
    const cur = this.segment(at);
    // The raw test needs `NAME=` unquoted; the value may be quoted (`A='x y' cmd`).
    if (cur.words.length === 0 && ASSIGNMENT.test(w.raw)) cur.assignments.push(w);
    else cur.words.push(w);
    this.started = true;
    this.expectCommand = false;
  }

  private addRedirect(seg: Segment, op: RedirectOp, fd: string | null, target: Word): void {
    seg.redirects.push({ op, fd, target });
    const toStdin = fd === null || fd === "0";
    if (op.startsWith("<") && toStdin) {
      seg.stdinRedirected = true;
      if (seg.inputRedirectAt === null) seg.inputRedirectAt = seg.words.length;
    }
    if (op === "<<" || op === "<<-") {
      this.t.out.flags.heredoc = true;
      this.t.queueHeredoc(target, op === "<<-", seg);
    } else if (op === "<<<") {
      this.t.out.flags.hereString = true;
      seg.stdinTexts.push(target.text);
    }
  }

  /** After `case`: reads the subject word and `in` into the header segment. */
  private readCaseHeader(header: Segment): void {
    for (let n = 0; n < 2; n++) {
      const tok = this.t.nextSkippingNewlines();
      if (tok.kind !== "word") throw new ParseFail("unbalanced");
      header.words.push(tok.word);
    }
    if (header.words[2].raw !== "in") throw new ParseFail("unbalanced");
  }

  /**
   * Reads one `case` item's patterns up to its `)`, adding them to the header
   * segment; returns true when `esac` closed the `case` instead.
   */
  private readCasePatterns(frame: Frame): boolean {
    let first = true;
    for (;;) {
      const tok: Token = this.t.nextSkippingNewlines();
      if (tok.kind === "word") {
        if (first && !tok.word.quoted && tok.word.raw === "esac") return true;
        frame.header!.words.push(tok.word);
      } else if (tok.kind === "open" && first) {
        continue;
      } else if (tok.kind === "close" && !first) {
        frame.phase = "body";
        return false;
      } else if (!(tok.kind === "op" && tok.op === "|" && !first)) {
        throw new ParseFail("unbalanced");
      }
      first = false;
    }
  }

  /** After `function`: the name and an optional `()`. */
  private readFunctionHeader(): void {
    const name = this.t.next(false);
    if (name.kind !== "word") throw new ParseFail("unbalanced");
    this.t.out.functions.push(name.word.text);
    this.t.readFunctionParens();
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
 * Parses a Bash command line. Over `MAX_COMMAND_CHARS` characters,
 * unbalanced quotes/brackets/keywords, unterminated here-documents,
 * nesting past `MAX_NESTING` (or nested `$((` retries past
 * `MAX_REREAD_CHARS`) or a brace expansion past `MAX_BRACE_WORDS` words
 * give `ok: false`. Those limits are the only failures it reports: an
 * unexpected exception is a bug, and it is thrown, not dressed as a limit.
 */
export function parseBash(command: string): BashParse {
  if (typeof command !== "string") return readBash(command);
  const known = RECENT_PARSES.get(command);
  if (known !== undefined) return known;
  const parse = readBash(command);
  if (RECENT_PARSES.size >= RECENT_PARSES_MAX) {
    RECENT_PARSES.delete(RECENT_PARSES.keys().next().value as string);
  }
  RECENT_PARSES.set(command, parse);
  return parse;
}

/**
 * The latest parses, by command text. One call's readers (the read-only
 * check, self-protection, the destructive engine, the allow-list) all ask
 * about the same line, and a parse depends on nothing but the text, so the
 * line is parsed once per call; nested texts (a `bash -c` body, a here-
 * document) are remembered the same way. Callers only read a parse.
 */
const RECENT_PARSES = new Map<string, BashParse>();

/** How many parses are remembered; the oldest goes first. */
const RECENT_PARSES_MAX = 32;

/** Parses `command` (see `parseBash`), without remembering it. */
function readBash(command: string): BashParse {
  const out: Collector = {
    segments: [],
    flags: emptyFlags(),
    reread: 0,
    steps: 0,
    functions: [],
  };
  let problem: ParseProblem | null = null;
  if (typeof command !== "string") problem = "unbalanced";
  else if (command.length > MAX_LEX_CHARS) problem = "too-long";
  else {
    try {
      const tokens = new Tokenizer(command, out, 0, NESTED);
      parseList(tokens, 0, false, false);
      tokens.finish();
    } catch (err) {
      if (!(err instanceof ParseFail)) throw err;
      problem = err.problem;
    }
    if (problem === null && command.length > MAX_COMMAND_CHARS) problem = "too-long";
  }
  return {
    ok: problem === null,
    problem,
    segments: out.segments,
    ...out.flags,
    steps: out.steps,
    functions: out.functions,
  };
}

/** The program a command word names: its last path component, `/bin/rm` is `rm`. */
export function commandName(word: Word | undefined): string {
  if (word === undefined) return "";
  return baseName(word.text);
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
