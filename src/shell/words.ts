/**
 * The one Bash lexer. It splits a command line into simple commands
 * ("segments") the way bash would see them: quotes and escapes removed,
 * separators and pipes recorded, redirections and leading assignments set
 * aside, and the commands inside `$( )`, backticks, `<( )`, `>( )`,
 * subshells, brace groups and compound commands surfaced as segments of
 * their own. Here-document bodies are data, except for the substitutions an
 * unquoted body still runs.
 *
 * The destructive detector, the read-only check and the search evidence all
 * read commands through this module, so they cannot disagree about what a
 * command is. It is a single left-to-right pass (linear time), never throws,
 * and marks over-long or unbalanced input instead of guessing silently.
 *
 * @module
 */

/** Commands longer than this are never trusted as evidence or as read-only. */
export const MAX_COMMAND_CHARS = 8192;

/** Input past this many characters is not lexed at all. */
export const MAX_LEX_CHARS = 256 * 1024;

/** Deepest nesting of substitutions, subshells and groups that is followed. */
export const MAX_NESTING = 32;

/** What separated a segment from the one before it. */
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
export const SEPARATORS: readonly Separator[] = [
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

/** One word after quote removal. */
export interface Word {
  /** The value bash would pass, with expansions left in their source form. */
  text: string;
  /** The word as written. */
  raw: string;
  /** Some part of the word was quoted (its glob characters are literal). */
  quoted: boolean;
  /** An unquoted `*`, `?` or `[` appears: the shell may expand it. */
  globs: boolean;
  /** The word holds an expansion whose value is unknown (`$x`, `${…}`, `$(…)`, backticks, `~`). */
  expands: boolean;
}

/** A redirection of a segment. */
export interface Redirect {
  /** The operator: `<`, `>`, `>>`, `<<`, `<<-`, `<<<`, `<>`, `>|`, `&>`, `&>>`, `>&`, `<&`. */
  op: string;
  /** The file descriptor written before the operator, if any. */
  fd: string | null;
  /** The target word (file, delimiter, here-string); null when missing. */
  target: Word | null;
}

/** One simple command. */
export interface Segment {
  /** The command word and its arguments (assignments and redirections removed). */
  words: Word[];
  /** Leading `NAME=value` words. */
  assignments: Word[];
  /** Redirections, in order. */
  redirects: Redirect[];
  /** What separated it from the previous segment at the same level. */
  sepBefore: Separator;
  /** Its stdin is another command's output (`|`, `|&`, or after `||`). */
  piped: boolean;
  /** Its stdin is redirected (`<`, `<>`, `<&`, a here-document or here-string). */
  stdinRedirected: boolean;
  /** How many words came before the first input redirection; null without one. */
  inputRedirectAt: number | null;
  /** Bodies of its here-documents and here-strings (data fed to its stdin). */
  stdinTexts: string[];
  /** Nesting depth: 0 at top level, deeper inside groups and substitutions. */
  depth: number;
  /** It runs inside a command or process substitution. */
  inSubstitution: boolean;
}

/** The lexed command line. */
export interface BashParse {
  /** False when the input is over `MAX_COMMAND_CHARS`, unbalanced, or nested too deep. */
  ok: boolean;
  /** Why `ok` is false. */
  problem: "too-long" | "unbalanced" | "too-deep" | null;
  /** Every simple command, nested ones before the command that contains them. */
  segments: Segment[];
  /** `$( )` or backticks occurred. */
  commandSubstitution: boolean;
  /** `<( )` or `>( )` occurred. */
  processSubstitution: boolean;
  /** A here-document occurred. */
  heredoc: boolean;
  /** A parameter expansion (`$x`, `${…}`, `$((…))`) occurred. */
  parameterExpansion: boolean;
}

const RESERVED_SKIP = new Set(["if", "then", "else", "elif", "do", "while", "until", "!", "{"]);
const RESERVED_END = new Set(["fi", "done", "}", "esac"]);
const HEADER_WORDS = new Set(["for", "select"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const REDIRECT_OPS = ["<<<", "<<-", "&>>", "<<", "<>", "<&", ">>", ">&", ">|", "&>", "<", ">"];
const BLANK = new Set([" ", "\t", "\r"]);
const META = new Set([" ", "\t", "\r", "\n", ";", "&", "|", "<", ">", "(", ")"]);

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
  segment: Segment;
}

/** Mutable word under construction. */
interface WordBuf {
  text: string;
  quoted: boolean;
  globs: boolean;
  expands: boolean;
}

class Lexer {
  i = 0;
  readonly segments: Segment[] = [];
  unbalanced = false;
  tooDeep = false;
  commandSubstitution = false;
  processSubstitution = false;
  heredoc = false;
  parameterExpansion = false;
  private pending: PendingHeredoc[] = [];
  /** Per open `case`: whether the next command starts with a pattern. */
  private cases: boolean[] = [];

  constructor(readonly s: string) {}

  private skipBlanks(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      if (BLANK.has(c)) this.i++;
      else if (c === "\\" && s[this.i + 1] === "\n") this.i += 2;
      else break;
    }
  }

  private skipComment(): void {
    while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
  }

  private readSeparator(): Separator | null {
    for (const op of SEPARATORS) {
      if (this.s.startsWith(op, this.i)) {
        // `&>` and `&>>` are redirections, not a background `&`.
        if (op === "&" && this.s[this.i + 1] === ">") return null;
        this.i += op.length;
        return op;
      }
    }
    return null;
  }

  /** Reads commands until `closer` (or the end), appending segments. */
  parseList(depth: number, closer: ")" | null, inSub: boolean): void {
    if (depth > MAX_NESTING) {
      this.tooDeep = true;
      this.skipToCloser(closer);
      return;
    }
    let sep: Separator = "start";
    while (this.i < this.s.length) {
      this.skipBlanks();
      if (this.i >= this.s.length) break;
      const c = this.s[this.i];
      if (c === "#") {
        this.skipComment();
        continue;
      }
      if (c === "\n") {
        this.i++;
        this.readHeredocBodies(depth, inSub);
        sep = "\n";
        continue;
      }
      if (c === ")") {
        this.i++;
        if (closer === ")") return;
        this.unbalanced = true;
        continue;
      }
      const op = this.readSeparator();
      if (op !== null) {
        if (op === ";;" || op === ";&" || op === ";;&") {
          if (this.cases.length > 0) this.cases[this.cases.length - 1] = true;
        }
        sep = op;
        continue;
      }
      if (this.cases.length > 0 && this.cases[this.cases.length - 1]) {
        if (this.peekWordIs("esac")) {
          this.i += 4;
          this.cases.pop();
          continue;
        }
        this.skipCasePattern();
        this.cases[this.cases.length - 1] = false;
        continue;
      }
      this.parseCommand(depth, sep, inSub);
      sep = ";";
    }
    if (closer !== null) this.unbalanced = true;
  }

  private skipToCloser(closer: ")" | null): void {
    if (closer === null) {
      this.i = this.s.length;
      return;
    }
    let level = 0;
    while (this.i < this.s.length) {
      const c = this.s[this.i++];
      if (c === "(") level++;
      else if (c === ")") {
        if (level === 0) return;
        level--;
      }
    }
  }

  private peekWordIs(word: string): boolean {
    if (!this.s.startsWith(word, this.i)) return false;
    const next = this.s[this.i + word.length];
    return next === undefined || META.has(next);
  }

  /** Skips a `case` item pattern up to its unquoted `)`. */
  private skipCasePattern(): void {
    const s = this.s;
    if (s[this.i] === "(") this.i++;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === "\\") this.i += 2;
      else if (c === "'" || c === '"') {
        const end = s.indexOf(c, this.i + 1);
        this.i = end < 0 ? s.length : end + 1;
      } else if (c === ")") {
        this.i++;
        return;
      } else if (c === "\n" && s.startsWith("esac", this.i + 1)) return;
      else this.i++;
    }
    this.unbalanced = true;
  }

  private newSegment(sep: Separator, depth: number, inSub: boolean): Segment {
    return {
      words: [],
      assignments: [],
      redirects: [],
      sepBefore: sep,
      piped: sep === "|" || sep === "|&" || sep === "||",
      stdinRedirected: false,
      inputRedirectAt: null,
      stdinTexts: [],
      depth,
      inSubstitution: inSub,
    };
  }

  private parseCommand(depth: number, sep: Separator, inSub: boolean): void {
    const seg = this.newSegment(sep, depth, inSub);
    let header = false;
    const s = this.s;
    while (this.i < s.length) {
      this.skipBlanks();
      if (this.i >= s.length) break;
      const c = s[this.i];
      if (c === "\n" || c === ";" || c === "|" || c === ")") break;
      if (c === "&" && s[this.i + 1] !== ">") break;
      if (c === "#") {
        this.skipComment();
        break;
      }
      const atStart = seg.words.length === 0 && seg.assignments.length === 0 &&
        seg.redirects.length === 0;
      if (c === "(" && s[this.i + 1] !== "(") {
        this.i++;
        if (atStart) {
          // A subshell: its commands are segments of their own.
          this.parseList(depth + 1, ")", inSub);
          continue;
        }
        // `name()` of a function definition: the body follows as a group.
        if (/^[ \t]*\)/.test(s.slice(this.i, this.i + 16))) {
          this.i = s.indexOf(")", this.i) + 1;
          header = true;
          break;
        }
        this.unbalanced = true;
        continue;
      }
      if (c === "(" && atStart) {
        // `(( … ))` arithmetic command.
        this.i += 2;
        this.skipArithmetic();
        this.parameterExpansion = true;
        continue;
      }
      if (this.readRedirect(seg, depth, inSub)) continue;
      const word = this.readWord(depth, inSub);
      if (word === null) {
        this.i++;
        continue;
      }
      if (seg.words.length === 0 && !word.quoted) {
        if (atStart) {
          if (RESERVED_SKIP.has(word.raw) || RESERVED_END.has(word.raw)) continue;
          if (word.raw === "function") {
            // `function name [()]`: a header; the body follows as a group.
            this.skipBlanks();
            this.readWord(depth, inSub);
            this.skipBlanks();
            if (s.startsWith("()", this.i)) this.i += 2;
            header = true;
            break;
          }
          if (HEADER_WORDS.has(word.raw)) {
            header = true;
            continue;
          }
          if (word.raw === "case") {
            this.readCaseHeader(depth, inSub);
            break;
          }
        }
        if (ASSIGNMENT.test(word.raw)) {
          seg.assignments.push(word);
          continue;
        }
      }
      seg.words.push(word);
    }
    if (!header && (seg.words.length > 0 || seg.assignments.length > 0 || seg.redirects.length > 0)) {
      this.segments.push(seg);
    }
  }

  /** Reads `WORD in` after `case`, then expects patterns. */
  private readCaseHeader(depth: number, inSub: boolean): void {
    for (let n = 0; n < 2 && this.i < this.s.length; n++) {
      this.skipBlanks();
      this.readWord(depth, inSub);
    }
    this.cases.push(true);
  }

  private skipArithmetic(): void {
    let level = 0;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === "(") level++;
      else if (c === ")") {
        if (level === 0 && this.s[this.i + 1] === ")") {
          this.i += 2;
          return;
        }
        level--;
      }
      this.i++;
    }
    this.unbalanced = true;
  }

  private readRedirect(seg: Segment, depth: number, inSub: boolean): boolean {
    const s = this.s;
    let j = this.i;
    while (j < s.length && s[j] >= "0" && s[j] <= "9") j++;
    let fd: string | null = j > this.i ? s.slice(this.i, j) : null;
    if (fd === null && s[j] === "{") {
      const close = s.indexOf("}", j);
      if (close > j && /^[A-Za-z_][A-Za-z0-9_]*$/.test(s.slice(j + 1, close))) {
        fd = s.slice(j, close + 1);
        j = close + 1;
      }
    }
    const op = REDIRECT_OPS.find((o) => s.startsWith(o, j));
    if (op === undefined) return false;
    // `<(` and `>(` are process substitutions, read as words.
    if ((op === "<" || op === ">") && s[j + 1] === "(") return false;
    this.i = j + op.length;
    this.skipBlanks();
    const target = this.readWord(depth, inSub);
    seg.redirects.push({ op, fd, target });
    if (op.startsWith("<")) {
      seg.stdinRedirected = true;
      if (seg.inputRedirectAt === null) seg.inputRedirectAt = seg.words.length;
    }
    if (op === "<<" || op === "<<-") {
      this.heredoc = true;
      this.pending.push({
        delimiter: target?.text ?? "",
        stripTabs: op === "<<-",
        quoted: target?.quoted ?? false,
        segment: seg,
      });
    } else if (op === "<<<" && target) {
      seg.stdinTexts.push(target.text);
    }
    return true;
  }

  /** Reads the bodies of here-documents still open when the input ends. */
  finish(depth: number): void {
    if (this.pending.length > 0) this.readHeredocBodies(depth, false);
  }

  /** After a newline: reads the bodies of the here-documents opened on that line. */
  private readHeredocBodies(depth: number, inSub: boolean): void {
    const queue = this.pending;
    this.pending = [];
    for (const h of queue) {
      const lines: string[] = [];
      let closed = false;
      while (this.i < this.s.length) {
        let end = this.s.indexOf("\n", this.i);
        if (end < 0) end = this.s.length;
        let line = this.s.slice(this.i, end);
        this.i = Math.min(end + 1, this.s.length);
        if (h.stripTabs) line = line.replace(/^\t+/, "");
        if (line === h.delimiter) {
          closed = true;
          break;
        }
        lines.push(line);
      }
      const body = lines.join("\n");
      h.segment.stdinTexts.push(body);
      // An unquoted delimiter leaves substitutions in the body live.
      if (!h.quoted && (body.includes("$(") || body.includes("`"))) {
        const sub = new Lexer(body);
        sub.readDoubleQuoted(depth + 1, inSub, null);
        this.absorb(sub, true);
      }
      if (!closed) this.unbalanced = true;
    }
  }

  private absorb(sub: Lexer, inSub: boolean): void {
    for (const seg of sub.segments) {
      this.segments.push(inSub ? { ...seg, inSubstitution: true } : seg);
    }
    this.unbalanced ||= sub.unbalanced;
    this.tooDeep ||= sub.tooDeep;
    this.commandSubstitution ||= sub.commandSubstitution;
    this.processSubstitution ||= sub.processSubstitution;
    this.heredoc ||= sub.heredoc;
    this.parameterExpansion ||= sub.parameterExpansion;
  }

  /** Reads one word; null when the character there cannot start one. */
  private readWord(depth: number, inSub: boolean): Word | null {
    const s = this.s;
    const start = this.i;
    const w: WordBuf = { text: "", quoted: false, globs: false, expands: false };
    if (s[this.i] === "~") w.expands = true;
    while (this.i < s.length) {
      const c = s[this.i];
      if ((c === "<" || c === ">") && s[this.i + 1] === "(") {
        this.i += 2;
        this.processSubstitution = true;
        w.expands = true;
        w.text += `${c}(…)`;
        this.parseList(depth + 1, ")", true);
        continue;
      }
      if (META.has(c)) break;
      if (c === "\\") {
        if (s[this.i + 1] === "\n") {
          this.i += 2;
          continue;
        }
        w.text += s[this.i + 1] ?? "";
        w.quoted = true;
        this.i += 2;
        continue;
      }
      if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        if (end < 0) {
          this.unbalanced = true;
          w.text += s.slice(this.i + 1);
          this.i = s.length;
        } else {
          w.text += s.slice(this.i + 1, end);
          this.i = end + 1;
        }
        w.quoted = true;
        continue;
      }
      if (c === '"') {
        this.i++;
        w.quoted = true;
        const inner = this.readDoubleQuoted(depth, inSub, '"');
        w.text += inner.text;
        w.expands ||= inner.expands;
        continue;
      }
      if (c === "`") {
        w.text += this.readBackticks(depth);
        w.expands = true;
        continue;
      }
      if (c === "$") {
        const next = s[this.i + 1];
        if (next === "'") {
          this.i += 2;
          w.text += this.readAnsiC();
          w.quoted = true;
          continue;
        }
        if (next === '"') {
          this.i += 2;
          w.quoted = true;
          const inner = this.readDoubleQuoted(depth, inSub, '"');
          w.text += inner.text;
          w.expands ||= inner.expands;
          continue;
        }
        const exp = this.readDollar(depth, inSub);
        if (exp !== null) {
          w.text += exp;
          w.expands = true;
          continue;
        }
      }
      if (c === "*" || c === "?" || c === "[") w.globs = true;
      w.text += c;
      this.i++;
    }
    if (this.i === start) return null;
    return { ...w, raw: s.slice(start, this.i) };
  }

  /**
   * Reads double-quoted text up to `end` (or the end of input when null),
   * following the substitutions it contains.
   */
  readDoubleQuoted(depth: number, inSub: boolean, end: '"' | null): { text: string; expands: boolean } {
    const s = this.s;
    let text = "";
    let expands = false;
    while (this.i < s.length) {
      const c = s[this.i];
      if (end !== null && c === end) {
        this.i++;
        return { text, expands };
      }
      if (c === "\\") {
        const n = s[this.i + 1];
        if (n === "\n") {
          this.i += 2;
          continue;
        }
        if (n === "$" || n === "`" || n === '"' || n === "\\") {
          text += n;
          this.i += 2;
          continue;
        }
        text += c;
        this.i++;
        continue;
      }
      if (c === "`") {
        text += this.readBackticks(depth);
        expands = true;
        continue;
      }
      if (c === "$") {
        const exp = this.readDollar(depth, inSub);
        if (exp !== null) {
          text += exp;
          expands = true;
          continue;
        }
      }
      text += c;
      this.i++;
    }
    if (end !== null) this.unbalanced = true;
    return { text, expands };
  }

  /** Reads an expansion at a `$`; null when the `$` is literal. */
  private readDollar(depth: number, inSub: boolean): string | null {
    const s = this.s;
    const start = this.i;
    const next = s[this.i + 1];
    if (next === "(") {
      if (s[this.i + 2] === "(") {
        this.i += 3;
        this.skipArithmetic();
        this.parameterExpansion = true;
        return s.slice(start, this.i);
      }
      this.i += 2;
      this.commandSubstitution = true;
      this.parseList(depth + 1, ")", true);
      return "$(…)";
    }
    if (next === "{") {
      this.i += 2;
      this.parameterExpansion = true;
      let level = 0;
      while (this.i < s.length) {
        const c = s[this.i];
        if (c === "\\") {
          this.i += 2;
          continue;
        }
        if (c === "$" && (s[this.i + 1] === "(" || s[this.i + 1] === "{")) {
          this.readDollar(depth, inSub);
          continue;
        }
        if (c === "`") {
          this.readBackticks(depth);
          continue;
        }
        if (c === "'" || c === '"') {
          const close = s.indexOf(c, this.i + 1);
          this.i = close < 0 ? s.length : close + 1;
          continue;
        }
        if (c === "{") level++;
        if (c === "}") {
          if (level === 0) {
            this.i++;
            return s.slice(start, this.i);
          }
          level--;
        }
        this.i++;
      }
      this.unbalanced = true;
      return s.slice(start);
    }
    if (next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next)) {
      this.i += 2;
      if (/[A-Za-z_]/.test(next)) {
        while (this.i < s.length && /[A-Za-z0-9_]/.test(s[this.i])) this.i++;
      }
      this.parameterExpansion = true;
      return s.slice(start, this.i);
    }
    return null;
  }

  /** Reads a backtick substitution and lexes its inner command. */
  private readBackticks(depth: number): string {
    const s = this.s;
    this.i++;
    let inner = "";
    let closed = false;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === "\\" && (s[this.i + 1] === "`" || s[this.i + 1] === "\\" || s[this.i + 1] === "$")) {
        inner += s[this.i + 1];
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
    if (!closed) this.unbalanced = true;
    this.commandSubstitution = true;
    if (depth + 1 > MAX_NESTING) {
      this.tooDeep = true;
    } else {
      const sub = new Lexer(inner);
      sub.parseList(depth + 1, null, true);
      this.absorb(sub, true);
    }
    return "`…`";
  }

  /** Reads the body of `$'…'` with its escapes. */
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
      const simple: Record<string, string> = {
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
      if (n in simple) out += simple[n];
      else if (n === "x") {
        const m = /^[0-9A-Fa-f]{1,2}/.exec(s.slice(this.i, this.i + 2));
        if (m) {
          out += String.fromCharCode(parseInt(m[0], 16));
          this.i += m[0].length;
        } else out += "\\x";
      } else if (n === "u" || n === "U") {
        const m = /^[0-9A-Fa-f]{1,8}/.exec(s.slice(this.i, this.i + (n === "u" ? 4 : 8)));
        if (m) {
          const cp = parseInt(m[0], 16);
          out += cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
          this.i += m[0].length;
        } else out += `\\${n}`;
      } else if (n >= "0" && n <= "7") {
        const m = /^[0-7]{1,3}/.exec(s.slice(this.i - 1, this.i + 2));
        out += String.fromCharCode(parseInt(m![0], 8) & 0xff);
        this.i += m![0].length - 1;
      } else if (n === "c") {
        const ch = s[this.i] ?? "";
        out += String.fromCharCode(ch.charCodeAt(0) & 0x1f);
        this.i++;
      } else out += `\\${n}`;
    }
    this.unbalanced = true;
    return out;
  }
}

/** Lexes a Bash command line. Never throws. */
export function parseBash(command: string): BashParse {
  const empty: BashParse = {
    ok: false,
    problem: "too-long",
    segments: [],
    commandSubstitution: false,
    processSubstitution: false,
    heredoc: false,
    parameterExpansion: false,
  };
  if (typeof command !== "string") return { ...empty, problem: "unbalanced" };
  if (command.length > MAX_LEX_CHARS) return empty;
  const lx = new Lexer(command);
  try {
    lx.parseList(0, null, false);
    lx.finish(0);
  } catch {
    return { ...empty, problem: "unbalanced", segments: lx.segments };
  }
  const problem = command.length > MAX_COMMAND_CHARS
    ? "too-long"
    : lx.tooDeep
    ? "too-deep"
    : lx.unbalanced
    ? "unbalanced"
    : null;
  return {
    ok: problem === null,
    problem,
    segments: lx.segments,
    commandSubstitution: lx.commandSubstitution,
    processSubstitution: lx.processSubstitution,
    heredoc: lx.heredoc,
    parameterExpansion: lx.parameterExpansion,
  };
}

/** The program name of a command word: its last path component (`/bin/rm` is `rm`). */
export function commandName(word: Word | undefined): string {
  if (!word) return "";
  const text = word.text;
  const cut = Math.max(text.lastIndexOf("/"), text.lastIndexOf("\\"));
  return cut >= 0 ? text.slice(cut + 1) : text;
}

/** Shorthand: the words' texts of a segment. */
export function texts(segment: Segment): string[] {
  return segment.words.map((w) => w.text);
}
