/**
 * Public surface: whether a change declares, exposes or sits inside
 * something other modules can see.
 *
 * Two judgements. Line rules read one code line at a time (an `export`, a
 * public `def`, a capitalised Go name, `pub`, a shell function, ...). Member
 * rules need the file: a line inside an exported JS/TS container or directly
 * in an exported class, a Python module-level or public-class attribute, or
 * a line inside a `pub` Rust enum, struct, trait or `use` list. Languages
 * with member rules count as touching the surface whenever the change cannot
 * be placed in the file.
 *
 * @module
 */

import type { CodeLine, LexResult } from "./lex_emitter.ts";
import { isWordCode } from "./lex_emitter.ts";
import { type Language, lowerBaseName } from "./language.ts";

/** Languages (Java, Kotlin, C#, C, C++, batch) whose every change counts as touching the surface. */
const ALWAYS_PUBLIC: ReadonlySet<Language> = new Set(["java", "kt", "cs", "c", "cpp", "bat"]);

/** File names (lowercased) whose every change counts as touching the surface. */
const PUBLIC_FILE_SUFFIXES: readonly string[] = [".d.ts", ".d.mts", ".d.cts"];
const PUBLIC_FILE_NAMES: ReadonlySet<string> = new Set(["__init__.py", "__init__.pyi"]);

/** Languages whose member rules need the file around the change. */
const MEMBER_LANGUAGES: ReadonlySet<Language> = new Set(["js", "ts", "py", "rs"]);

/** True when every change to this file counts as touching the public surface. */
export function alwaysTouchesSurface(language: Language, filePath: string): boolean {
  if (ALWAYS_PUBLIC.has(language)) return true;
  const base = lowerBaseName(filePath);
  return PUBLIC_FILE_NAMES.has(base) || PUBLIC_FILE_SUFFIXES.some((s) => base.endsWith(s));
}

/** True when the language has member rules, which need the change placed in the file. */
export function needsFileContext(language: Language): boolean {
  return MEMBER_LANGUAGES.has(language);
}

/** Whether a character code continues a word. */
export type CharTest = (c: number) => boolean;

/** JS/TS word characters (`$` included). */
export const jsWordChar: CharTest = (c: number): boolean => isWordCode(c) || c === 36;
/** PowerShell word characters (`-` and `$` included). */
export const psWordChar: CharTest = (c: number): boolean => isWordCode(c) || c === 45 || c === 36;

/** True when `word` occurs in `s` with no word character on either side. */
export function hasWord(s: string, word: string, isWordChar: CharTest = isWordCode): boolean {
  for (let at = s.indexOf(word); at >= 0; at = s.indexOf(word, at + 1)) {
    if (
      (at === 0 || !isWordChar(s.charCodeAt(at - 1))) &&
      !isWordChar(s.charCodeAt(at + word.length))
    ) return true;
  }
  return false;
}

/** The identifier starting at `from` after any blanks, and where it ends. */
export function nameAfter(s: string, from: number): { name: string; end: number } {
  let k = from;
  while (s[k] === " " || s[k] === "\t") k++;
  let end = k;
  while (end < s.length && isWordCode(s.charCodeAt(end))) end++;
  return { name: s.slice(k, end), end };
}

/** A Python dunder name (`__x__`). */
export function isDunder(name: string): boolean {
  return name.length > 4 && name.startsWith("__") && name.endsWith("__");
}

/** A Python name other modules may use: no leading underscore, or a dunder. */
export function isPublicPythonName(name: string): boolean {
  return !name.startsWith("_") || isDunder(name);
}

/** True when `s` starts with an uppercase letter. */
export function startsUpper(s: string): boolean {
  const cp = s.codePointAt(0);
  if (cp === undefined) return false;
  const ch = String.fromCodePoint(cp);
  return ch !== ch.toLowerCase() && ch === ch.toUpperCase();
}

/** A `def` or `class` in the line names something public (a cut-off name counts). */
function pythonDeclaresPublic(s: string): boolean {
  for (const keyword of ["def", "class"]) {
    for (let at = s.indexOf(keyword); at >= 0; at = s.indexOf(keyword, at + 1)) {
      const end = at + keyword.length;
      if (at > 0 && isWordCode(s.charCodeAt(at - 1))) continue;
      if (s[end] !== " " && s[end] !== "\t" && end < s.length) continue;
      const { name } = nameAfter(s, end);
      if (name === "" || isPublicPythonName(name)) return true;
    }
  }
  return hasWord(s, "__all__");
}

/** Go: `package`, a line starting with a capital, or a capitalised func/type/var/const name. */
function goDeclaresPublic(s: string): boolean {
  const t = s.trimStart();
  if (startsWithWord(t, "package")) return true;
  if (startsUpper(t)) return true;
  for (const keyword of ["func", "type", "var", "const"]) {
    if (!t.startsWith(keyword) || isWordCode(t.charCodeAt(keyword.length))) continue;
    let from = keyword.length;
    while (t[from] === " " || t[from] === "\t") from++;
    if (keyword === "func" && t[from] === "(") {
      const close = t.indexOf(")", from);
      if (close < 0) return true;
      from = close + 1;
    }
    const { name } = nameAfter(t, from);
    if (name === "" || startsUpper(name)) return true;
  }
  return false;
}

const RUST_WORDS = ["pub", "impl", "trait", "extern"];
const RUST_ATTRIBUTES = ["macro_export", "#[derive", "#[repr", "no_mangle"];

/** A shell function definition `name()` (blanks allowed inside the parentheses). */
function shellDefinesFunction(s: string): boolean {
  for (let at = s.indexOf("("); at >= 0; at = s.indexOf("(", at + 1)) {
    let k = at + 1;
    while (s[k] === " " || s[k] === "\t") k++;
    if (s[k] !== ")") continue;
    let b = at - 1;
    while (b >= 0 && (s[b] === " " || s[b] === "\t")) b--;
    if (b >= 0 && (isWordCode(s.charCodeAt(b)) || "-.:".includes(s[b]))) return true;
  }
  return false;
}

/** Characters that end a shell option word. */
const OPTION_ENDS = " \t;|&";

/** `declare` or `typeset` with an option cluster holding `x`. */
function shellDeclaresExport(s: string): boolean {
  for (const keyword of ["declare", "typeset"]) {
    for (let at = s.indexOf(keyword); at >= 0; at = s.indexOf(keyword, at + 1)) {
      let k = at + keyword.length;
      for (;;) {
        while (s[k] === " " || s[k] === "\t") k++;
        if (s[k] !== "-" && s[k] !== "+") break;
        for (; k < s.length && !OPTION_ENDS.includes(s[k]); k++) {
          if (s[k] === "x") return true;
        }
      }
    }
  }
  return false;
}

const POWERSHELL_WORDS = ["function", "filter", "param", "export-modulemember"];

/** Line rules per language, on a code line's skeleton (strings and comments left out). */
const LINE_RULES: Readonly<Partial<Record<Language, (s: string) => boolean>>> = {
  js: (s) => ["export", "exports", "public", "declare"].some((w) => hasWord(s, w, jsWordChar)),
  ts: (s) => ["export", "exports", "public", "declare"].some((w) => hasWord(s, w, jsWordChar)),
  py: pythonDeclaresPublic,
  go: goDeclaresPublic,
  rs: (s) => RUST_WORDS.some((w) => hasWord(s, w)) || RUST_ATTRIBUTES.some((a) => s.includes(a)),
  sh: (s) =>
    hasWord(s, "export") || hasWord(s, "function") || shellDefinesFunction(s) ||
    shellDeclaresExport(s),
  ps1: (s) => {
    const lower = s.toLowerCase();
    return POWERSHELL_WORDS.some((w) => hasWord(lower, w, psWordChar)) ||
      lower.includes("[cmdletbinding");
  },
};

/**
 * True when a code line declares or exposes a public name by the line rules
 * of `language`. A language without line rules counts every line.
 */
export function declaresPublicName(language: Language, lines: readonly CodeLine[]): boolean {
  const rule = LINE_RULES[language];
  if (rule === undefined) return lines.length > 0;
  return lines.some((line) => rule(line.skeleton));
}

/**
 * An immutable stack: scanners are cloned at every edit window, so sharing
 * the enclosing scopes keeps a clone constant-time however deep the file nests.
 */
type Stack<T> = { top: T; below: Stack<T> } | null;

/** Walks the code lines of a file in order and says which are exported members. */
interface MemberScanner {
  /** Whether `line` is a member; `plain` says whether it starts in plain code. */
  feed(line: CodeLine, plain: boolean): boolean;
  /** An independent copy of the scanner's position. */
  clone(): MemberScanner;
}

/**
 * What a brace opens: nothing public, a container whose every line counts
 * (exported interface, enum, type, object or export list; `pub` enum,
 * struct, trait or `use` list), or an exported class whose direct lines count.
 */
type Scope = "other" | "container" | "class";

/** The brace-language differences: how a header classifies the brace after it. */
interface BraceRules {
  classify(header: string, enclosing: Scope): Scope;
  /** The statement being read is itself exported, so its continuation lines are public too. */
  exportedHeader(header: string): boolean;
  /** Line breaks may end statements (JavaScript's automatic semicolons). */
  asi: boolean;
}

/** True when `s` starts with `word` as a whole word. */
export function startsWithWord(
  s: string,
  word: string,
  isWordChar: CharTest = isWordCode,
): boolean {
  return s.startsWith(word) && !isWordChar(s.charCodeAt(word.length));
}

function jsExportedHeader(header: string): boolean {
  const h = header.trimStart();
  return startsWithWord(h, "export", jsWordChar) || startsWithWord(h, "declare", jsWordChar) ||
    h.startsWith("module.exports") || h.startsWith("exports.") || h.startsWith("exports[");
}

const JS_RULES: BraceRules = {
  classify(header: string, enclosing: Scope): Scope {
    if (enclosing === "container") return "container";
    if (!jsExportedHeader(header)) return "other";
    if (hasWord(header, "class", jsWordChar)) return "class";
    const h = header.trimEnd();
    if (
      hasWord(h, "function", jsWordChar) || h.includes("=>") || h.endsWith(")") ||
      hasWord(h, "namespace", jsWordChar)
    ) return "other";
    return "container";
  },
  exportedHeader: jsExportedHeader,
  asi: true,
};

function rustExportedHeader(header: string): boolean {
  return startsWithWord(header.trimStart(), "pub");
}

const RUST_CONTAINERS = ["enum", "struct", "trait", "union", "use"];

const RUST_RULES: BraceRules = {
  classify(header: string, enclosing: Scope): Scope {
    if (enclosing === "container") return "container";
    return hasWord(header, "pub") && RUST_CONTAINERS.some((w) => hasWord(header, w))
      ? "container"
      : "other";
  },
  exportedHeader: rustExportedHeader,
  asi: false,
};

/** Characters that cannot end a finished expression, so the statement goes on. */
const OPEN_ENDINGS = ",([{=+-*/%&|^!~?:<>.";
/** Characters that, starting a line, continue the statement before it. */
const CONTINUING_STARTS = ".,)]}?:|&+-*/%=<>!";
const CONTINUING_WORDS = ["extends", "implements"];

/** Longest statement header kept; its start decides the classification. */
const HEADER_CAP = 400;

class BraceScanner implements MemberScanner {
  constructor(
    private readonly rules: BraceRules,
    private stack: Stack<Scope> = null,
    private header = "",
    private lastChar = "",
  ) {}

  clone(): BraceScanner {
    return new BraceScanner(this.rules, this.stack, this.header, this.lastChar);
  }

  feed(line: CodeLine): boolean {
    const s = line.skeleton.trim();
    if (s === "") return false;
    if (this.rules.asi && this.header !== "" && !OPEN_ENDINGS.includes(this.lastChar)) {
      const continues = CONTINUING_STARTS.includes(s[0]) ||
        CONTINUING_WORDS.some((w) => startsWithWord(s, w));
      if (!continues) this.header = "";
    }
    const enclosing = this.stack?.top ?? "other";
    const member = enclosing !== "other" || this.rules.exportedHeader(this.header);
    for (const ch of s) {
      if (ch === "{") {
        const scope = this.rules.classify(this.header, this.stack?.top ?? "other");
        this.stack = { top: scope, below: this.stack };
        this.header = "";
      } else if (ch === "}") {
        this.stack = this.stack?.below ?? null;
        this.header = "";
      } else if (ch === ";") {
        this.header = "";
      } else if (this.header.length < HEADER_CAP && (this.header !== "" || ch !== " ")) {
        this.header += ch;
      }
    }
    if (this.header !== "" && this.header.length < HEADER_CAP) this.header += " ";
    this.lastChar = s[s.length - 1];
    return member;
  }
}

/** Python keywords that may start a line followed by `:` or `=`-like text. */
const PYTHON_KEYWORDS: ReadonlySet<string> = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "case",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "match",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
]);

const AUGMENTED = [
  "+=",
  "-=",
  "*=",
  "/=",
  "//=",
  "%=",
  "**=",
  ">>=",
  "<<=",
  "&=",
  "^=",
  "|=",
  "@=",
];

/** `name = ...`, `name: T`, `name += ...` or a tuple target, for a public name. */
export function isPublicAssignment(body: string): boolean {
  const { name, end } = nameAfter(body, 0);
  if (name === "" || PYTHON_KEYWORDS.has(name) || !isPublicPythonName(name)) return false;
  let k = end;
  while (body[k] === " " || body[k] === "\t") k++;
  const c = body[k];
  const next = body[k + 1];
  if ((c === "=" || c === ":") && next !== "=") return true;
  if (c === ",") return body.includes("=");
  return AUGMENTED.some((op) => body.startsWith(op, k));
}

function indentWidth(s: string): number {
  let width = 0;
  for (const ch of s) {
    if (ch === " ") width++;
    else if (ch === "\t") width += 8 - (width % 8);
    else break;
  }
  return width;
}

/** A block opened by a line ending in `:`. */
interface PyBlock {
  indent: number;
  /** A public class whose direct attributes are public. */
  publicClass: boolean;
}

/** The logical line being read (it may continue over brackets or backslashes). */
interface PyLogical {
  indent: number;
  publicClass: boolean;
  member: boolean;
}

class PythonScanner implements MemberScanner {
  constructor(
    private stack: Stack<PyBlock> = null,
    private depth = 0,
    private continued = false,
    private logical: PyLogical = { indent: 0, publicClass: false, member: false },
  ) {}

  clone(): PythonScanner {
    return new PythonScanner(this.stack, this.depth, this.continued, { ...this.logical });
  }

  feed(line: CodeLine, plain: boolean): boolean {
    const s = line.skeleton;
    const body = s.trimStart();
    if (body === "") return false;
    if (this.depth === 0 && !this.continued && plain) {
      const indent = indentWidth(s);
      while (this.stack !== null && this.stack.top.indent >= indent) this.stack = this.stack.below;
      const top = this.stack?.top ?? null;
      const visible = top === null || top.publicClass;
      const classHeader = startsWithWord(body, "class") &&
        isPublicPythonName(nameAfter(body, 5).name);
      this.logical = {
        indent,
        publicClass: visible && classHeader,
        member: visible && isPublicAssignment(body),
      };
    }
    for (const ch of body) {
      if (ch === "(" || ch === "[" || ch === "{") this.depth++;
      else if (ch === ")" || ch === "]" || ch === "}") this.depth = Math.max(0, this.depth - 1);
    }
    this.continued = body.endsWith("\\");
    if (this.depth === 0 && !this.continued && body.endsWith(":")) {
      this.stack = {
        top: { indent: this.logical.indent, publicClass: this.logical.publicClass },
        below: this.stack,
      };
    }
    return this.logical.member;
  }
}

function scannerFor(language: Language): MemberScanner | null {
  switch (language) {
    case "js":
    case "ts":
      return new BraceScanner(JS_RULES);
    case "rs":
      return new BraceScanner(RUST_RULES);
    case "py":
      return new PythonScanner();
    default:
      return null;
  }
}

/** One edit window placed in a file: its physical lines before the edit, and its text after. */
export interface PlacedWindow {
  /** First and last physical line of the window in the file before the edit. */
  firstLine: number;
  lastLine: number;
  /** The window's text after the edit, lexed on its own with line states. */
  after: LexResult;
}

/**
 * True when a window (in file order) holds an exported member by the member
 * rules, before or after the edit. `file` is the file before the edit,
 * lexed with line states.
 */
export function touchesExportedMember(
  language: Language,
  file: LexResult,
  windows: readonly PlacedWindow[],
): boolean {
  const scanner = scannerFor(language);
  if (scanner === null) return false;
  const plainAt = (lex: LexResult, line: number): boolean =>
    lex.plainStarts === null || lex.plainStarts[line] === 1;
  let next = 0;
  for (const w of windows) {
    while (next < file.lines.length && file.lines[next].line < w.firstLine) {
      scanner.feed(file.lines[next], plainAt(file, file.lines[next].line));
      next++;
    }
    const branch = scanner.clone();
    while (next < file.lines.length && file.lines[next].line <= w.lastLine) {
      if (scanner.feed(file.lines[next], plainAt(file, file.lines[next].line))) return true;
      next++;
    }
    for (const line of w.after.lines) {
      if (branch.feed(line, plainAt(w.after, line.line))) return true;
    }
  }
  return false;
}
