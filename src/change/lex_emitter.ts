/**
 * The line builder every language lexer writes into, and what a lexer
 * returns.
 *
 * A lexer walks its text once and tells the emitter what each stretch is:
 * code, whitespace, string contents, a removed comment or a directive kept
 * verbatim. The emitter turns that into normalised code lines (comments out,
 * whitespace runs collapsed to one space, blank lines dropped) and records
 * whether each physical line starts in plain top-level code.
 *
 * @module
 */

/** One physical line that holds code, after normalisation. */
export interface CodeLine {
  /** Zero-based index of the physical line in the lexed text. */
  line: number;
  /**
   * The line's code: comments removed (directive comments kept verbatim),
   * strings verbatim, other whitespace runs collapsed to one space, trimmed;
   * Python lines keep their indentation as written.
   */
  text: string;
  /** `text` without string contents and directive comments (quotes kept). */
  skeleton: string;
}

/** What a lexer found in one text. */
export interface LexResult {
  lines: CodeLine[];
  /**
   * The text uses a form whose comment or whitespace edits are never judged
   * trivial (raw or multi-line strings, continuations, heredocs, ...), ends
   * inside an open construct, or could not be followed.
   */
  unclear: boolean;
  /** The end of the text is plain top-level code the lexer followed throughout. */
  endsPlain: boolean;
  /**
   * Per physical line (when requested): 1 when the line starts in plain
   * top-level code: not inside a string, comment, heredoc, substitution or
   * template, not after a continuation, and with the lexer still on track.
   */
  plainStarts: Uint8Array | null;
  /**
   * Characters examined while lexing: every step's advance, every search's
   * span, every range re-read, counted whether or not it was consumed. Tests
   * hold it against the text's length, so "linear" is checked by counting
   * rather than by a clock.
   */
  work: number;
}

/** What a caller asks of a lexer. */
export interface LexOptions {
  /** Tell directive comments apart and keep them as code (default true). */
  directives?: boolean;
  /** Record `plainStarts` (default false). */
  lineStates?: boolean;
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

/** Builds normalised code lines from what a lexer reports. */
export class Emitter {
  /** The code lines finished so far. */
  readonly lines: CodeLine[] = [];
  /** See `LexResult.unclear`. */
  unclear = false;
  /** The lexer lost track of the text; every later line start is not plain. */
  lost = false;
  /** The text ended inside a string, comment, heredoc or other open construct. */
  openAtEnd = false;
  /** See `LexResult.plainStarts`. */
  readonly plainStarts: Uint8Array | null;
  /** See `LexResult.work`; lexers add what they examine outside the emitter's own methods. */
  work = 0;
  private lineNo = 0;
  private text = "";
  private skel = "";
  private indent = "";
  private started = false;
  private space = false;

  /**
   * @param src the whole text being lexed
   * @param keepIndent keep leading whitespace of code lines as written (Python)
   * @param lineStates record `plainStarts`
   * @param continuation characters that continue a line when they end it
   * @param crIsSpace a carriage return before a line feed is whitespace (not in shell scripts)
   */
  constructor(
    readonly src: string,
    private readonly keepIndent: boolean,
    lineStates: boolean,
    private readonly continuation: string,
    private readonly crIsSpace: boolean,
  ) {
    if (lineStates) {
      this.work += src.length;
      let count = 1;
      for (let at = src.indexOf("\n"); at >= 0; at = src.indexOf("\n", at + 1)) count++;
      this.plainStarts = new Uint8Array(count);
      this.plainStarts[0] = 1;
    } else {
      this.plainStarts = null;
    }
  }

  /** Whitespace between tokens (or indentation at the start of a line). */
  ws(s: string): void {
    if (!this.started) {
      if (this.keepIndent) this.indent += s;
    } else {
      this.space = true;
    }
  }

  /** A removed comment: separates tokens like whitespace. */
  gap(): void {
    if (this.started) this.space = true;
  }

  /** Code, kept as given (lexers pass whitespace here only where its amount matters). */
  code(s: string): void {
    this.put(s, s);
  }

  /** String contents or a directive comment: kept verbatim, left out of the skeleton. */
  str(s: string): void {
    this.put(s, "");
  }

  private put(text: string, skeleton: string): void {
    if (text === "") return;
    if (this.space) {
      this.text += " ";
      this.skel += " ";
      this.space = false;
    }
    this.text += text;
    this.skel += skeleton;
    this.started = true;
  }

  /** `src.indexOf(needle, from)`, adding the characters the search covered to `work`. */
  find(needle: string, from: number): number {
    const at = this.src.indexOf(needle, from);
    this.work += Math.max(0, (at < 0 ? this.src.length : at + needle.length) - from);
    return at;
  }

  /** Ends one step of a lexer's main loop that moved from `from` to `to` (at least one unit of work). */
  stepped(from: number, to: number): number {
    this.work += Math.max(1, to - from);
    return to;
  }

  /**
   * Consumes the line break or the run of blanks at `at`, when one starts
   * there, and returns the index after it; -1 otherwise. `plainNext` says
   * whether the next line starts in plain code.
   */
  blanks(at: number, plainNext: boolean): number {
    if (this.src.charCodeAt(at) === LF) {
      this.newline(at, plainNext);
      return at + 1;
    }
    if (!this.isSpaceAt(at)) return -1;
    let end = at + 1;
    while (end < this.src.length && this.isSpaceAt(end)) end++;
    this.work += end - at;
    this.ws(this.src.slice(at, end));
    return end;
  }

  /** True when the character at `at` is whitespace between tokens. */
  isSpaceAt(at: number): boolean {
    const c = this.src.charCodeAt(at);
    return c === SPACE || c === TAB ||
      (c === CR && this.crIsSpace && this.src.charCodeAt(at + 1) === LF);
  }

  /** Emits `src[from, to)` as code, collapsing whitespace; line breaks end lines that are not plain. */
  raw(from: number, to: number): void {
    const src = this.src;
    this.work += Math.max(0, to - from);
    let run = from;
    let at = from;
    while (at < to) {
      if (src.charCodeAt(at) === LF) {
        this.code(src.slice(run, at));
        this.newline(at, false);
        run = ++at;
      } else if (this.isSpaceAt(at)) {
        this.code(src.slice(run, at));
        let end = at + 1;
        while (end < to && this.isSpaceAt(end)) end++;
        this.ws(src.slice(at, end));
        run = at = end;
      } else {
        at++;
      }
    }
    this.code(src.slice(run, to));
  }

  /** Emits `src[from, to)` verbatim as string contents; line breaks end lines that are not plain. */
  strRange(from: number, to: number): void {
    // Searching a slice keeps every search inside the range, so lexing stays linear.
    const part = this.src.slice(from, to);
    this.work += part.length;
    let run = 0;
    for (let at = part.indexOf("\n"); at >= 0; at = part.indexOf("\n", at + 1)) {
      this.str(part.slice(run, at));
      this.newline(from + at, false);
      run = at + 1;
    }
    this.str(part.slice(run));
  }

  /** A removed comment spanning `src[from, to)`, which may cross line breaks. */
  commentRange(from: number, to: number): void {
    this.gap();
    const part = this.src.slice(from, to);
    this.work += part.length;
    for (let at = part.indexOf("\n"); at >= 0; at = part.indexOf("\n", at + 1)) {
      this.newline(from + at, false);
    }
  }

  /**
   * Ends the physical line whose line feed is at `at`. `plainNext` says
   * whether the next line starts in plain top-level code; a line ending in
   * a continuation character makes the text unclear and the next start not
   * plain.
   */
  newline(at: number, plainNext: boolean): void {
    this.flush();
    if (this.continuesAt(at)) {
      this.unclear = true;
      plainNext = false;
    }
    this.lineNo++;
    if (this.plainStarts !== null && this.lineNo < this.plainStarts.length) {
      this.plainStarts[this.lineNo] = plainNext && !this.lost ? 1 : 0;
    }
  }

  /** True when the line ending just before `at` ends (before blanks) in a continuation character. */
  private continuesAt(at: number): boolean {
    let k = at - 1;
    while (k >= 0) {
      const c = this.src.charCodeAt(k);
      if (c !== SPACE && c !== TAB && c !== CR) break;
      k--;
    }
    this.work += at - k;
    return k >= 0 && this.continuation.includes(this.src[k]);
  }

  /** The lexer cannot follow the text from `from` on: the rest is kept as plain code lines. */
  dumpRest(from: number): void {
    this.lost = true;
    this.unclear = true;
    this.raw(from, this.src.length);
  }

  private flush(): void {
    if (this.started) {
      this.lines.push({
        line: this.lineNo,
        text: this.indent + this.text,
        skeleton: this.indent + this.skel,
      });
    }
    this.text = "";
    this.skel = "";
    this.indent = "";
    this.started = false;
    this.space = false;
  }

  /** Finishes the last line; `endsPlain` is the lexer's own view of its final state. */
  finish(endsPlain: boolean): LexResult {
    this.flush();
    const plain = endsPlain && !this.openAtEnd && !this.lost && !this.continuesAt(this.src.length);
    return {
      lines: this.lines,
      unclear: this.unclear || !plain,
      endsPlain: plain,
      plainStarts: this.plainStarts,
      work: this.work,
    };
  }
}

/** True for characters that continue an identifier or number (any non-ASCII counts). */
export function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 ||
    c >= 0x80;
}

/** The index just past the run of word characters starting at `from`. */
export function wordEnd(src: string, from: number): number {
  let at = from;
  while (at < src.length && isWordCode(src.charCodeAt(at))) at++;
  return at;
}
