/**
 * Exported names: what other modules call a file's public surface by, read
 * with the same line knowledge as the surface rules of `surface.ts`. One
 * reader per language, over the skeletons of the lines that start in
 * plain code, so a name written only in a comment or a string is never
 * one. Prior-search credit reads these names to credit a search for a
 * symbol the file defines (docs/search-credit.md "Symbol searches").
 *
 * @module
 */

import type { LexResult } from "./lex_emitter.ts";
import { isWordCode } from "./lex_emitter.ts";
import { type Language, languageOf } from "./language.ts";
import { lexCode, loadLexerOf } from "./code_lexer.ts";
import {
  type CharTest,
  hasWord,
  isDunder,
  isPublicAssignment,
  isPublicPythonName,
  jsWordChar,
  nameAfter,
  psWordChar,
  startsUpper,
  startsWithWord,
} from "./surface.ts";

/** Most names `exportedNames` returns for one file; later ones are dropped. */
export const MAX_EXPORTED_NAMES = 512;

/** Reads the names one plain code line (its skeleton) defines, given what came before. */
interface NameReader {
  read(skeleton: string, found: (name: string) => void): void;
}

/** The word after each keyword in `keywords` found at `t`'s start, with modifiers skipped. */
function nameAfterKeywords(
  t: string,
  modifiers: ReadonlySet<string>,
  keywords: ReadonlySet<string>,
  isWordChar: CharTest = isWordCode,
): string | null {
  let at = 0;
  for (let words = 0; words < 8; words++) {
    while (t[at] === " " || t[at] === "\t" || t[at] === "*") at++;
    let end = at;
    while (end < t.length && isWordChar(t.charCodeAt(end))) end++;
    const word = t.slice(at, end);
    if (word === "") return null;
    if (keywords.has(word)) {
      let k = end;
      while (t[k] === " " || t[k] === "\t" || t[k] === "*") k++;
      let e = k;
      while (e < t.length && isWordChar(t.charCodeAt(e))) e++;
      const name = t.slice(k, e);
      // `const enum E`, `const fn f`: the first keyword only qualifies the second.
      if (keywords.has(name) || modifiers.has(name)) {
        at = end;
        continue;
      }
      return name !== "" ? name : null;
    }
    if (!modifiers.has(word)) return null;
    at = end;
  }
  return null;
}

const JS_MODIFIERS: ReadonlySet<string> = new Set([
  "export",
  "default",
  "declare",
  "async",
  "abstract",
]);
const JS_KEYWORDS: ReadonlySet<string> = new Set([
  "function",
  "class",
  "interface",
  "type",
  "enum",
  "namespace",
  "module",
  "const",
  "let",
  "var",
]);

/** The local names of a one-line `export { a, b as c }` (no `from`): the exported spellings. */
function jsExportList(t: string, found: (name: string) => void): void {
  const open = t.indexOf("{");
  const close = t.indexOf("}", open);
  if (open < 0 || close < 0 || hasWord(t.slice(close), "from", jsWordChar)) return;
  for (const entry of t.slice(open + 1, close).split(",")) {
    const parts = entry.trim().split(/\s+/);
    const name = parts.length === 3 && parts[1] === "as" ? parts[2] : parts[0];
    if (parts.length === 1 || parts.length === 3) found(name);
  }
}

const JS_NAMES: NameReader = {
  read(s, found) {
    const t = s.trim();
    if (startsWithWord(t, "export", jsWordChar)) {
      const rest = t.slice(6).trimStart();
      const typeList = startsWithWord(rest, "type", jsWordChar) &&
        rest.slice(4).trimStart().startsWith("{");
      if (rest.startsWith("{") || typeList) return jsExportList(rest, found);
      const name = nameAfterKeywords(t, JS_MODIFIERS, JS_KEYWORDS, jsWordChar);
      if (name !== null) found(name);
      return;
    }
    // CommonJS: `exports.name =` and `module.exports.name =`.
    for (const lead of ["module.exports.", "exports."]) {
      if (!t.startsWith(lead)) continue;
      const { name, end } = nameAfter(t, lead.length);
      if (t.slice(end).trimStart().startsWith("=")) found(name);
      return;
    }
  },
};

const PY_KEYWORDS: ReadonlySet<string> = new Set(["def", "class"]);
const PY_MODIFIERS: ReadonlySet<string> = new Set(["async"]);

const PY_NAMES: NameReader = {
  read(s, found) {
    // Only module-level lines: nested definitions are not importable names.
    if (s.startsWith(" ") || s.startsWith("\t")) return;
    const name = nameAfterKeywords(s, PY_MODIFIERS, PY_KEYWORDS) ??
      (isPublicAssignment(s) ? nameAfter(s, 0).name : null);
    if (name !== null && isPublicPythonName(name) && !isDunder(name)) found(name);
  },
};

const GO_KEYWORDS: ReadonlySet<string> = new Set(["func", "type", "var", "const"]);

/** Go: top-level capitalised declarations, grouped `const (`, `var (`, `type (` lists included. */
class GoNames implements NameReader {
  private depth = 0;
  private group = false;

  read(s: string, found: (name: string) => void): void {
    const t = s.trim();
    if (this.depth === 0 && this.group) {
      if (t.startsWith(")")) this.group = false;
      else {
        const { name } = nameAfter(t, 0);
        if (startsUpper(name)) found(name);
      }
    } else if (this.depth === 0) {
      for (const keyword of GO_KEYWORDS) {
        if (!startsWithWord(t, keyword)) continue;
        let from = keyword.length;
        while (t[from] === " " || t[from] === "\t") from++;
        if (t[from] === "(" && keyword !== "func" && t.slice(from + 1).trim() === "") {
          this.group = true;
        } else if (t[from] === "(") {
          const close = t.indexOf(")", from);
          if (close >= 0) from = close + 1;
          else break;
        }
        const { name } = nameAfter(t, from);
        if (startsUpper(name)) found(name);
        break;
      }
    }
    for (const ch of t) {
      if (ch === "{") this.depth++;
      else if (ch === "}") this.depth = Math.max(0, this.depth - 1);
    }
  }
}

const RS_MODIFIERS: ReadonlySet<string> = new Set(["async", "unsafe", "extern", "default"]);
const RS_KEYWORDS: ReadonlySet<string> = new Set([
  "fn",
  "struct",
  "enum",
  "trait",
  "type",
  "mod",
  "union",
  "static",
  "const",
]);

const RS_NAMES: NameReader = {
  read(s, found) {
    let t = s.trim();
    if (!startsWithWord(t, "pub")) return;
    t = t.slice(3).trimStart();
    if (t.startsWith("(")) {
      const close = t.indexOf(")");
      if (close < 0) return;
      t = t.slice(close + 1);
    }
    // `extern "C" fn` keeps the quotes of its string in the skeleton.
    t = t.replaceAll('""', " ");
    let name = nameAfterKeywords(t, RS_MODIFIERS, RS_KEYWORDS);
    if (name === "mut") {
      name = nameAfterKeywords(t.replace(/\bmut\b/, ""), RS_MODIFIERS, RS_KEYWORDS);
    }
    if (name !== null) found(name);
  },
};

/** Characters of a shell function name the search credit can use. */
const shWordChar: CharTest = (c) => isWordCode(c) || c === 45;

const NO_WORDS: ReadonlySet<string> = new Set();
const SH_KEYWORDS: ReadonlySet<string> = new Set(["function", "export"]);

const SH_NAMES: NameReader = {
  read(s, found) {
    const t = s.trim();
    const keyword = nameAfterKeywords(t, NO_WORDS, SH_KEYWORDS, shWordChar);
    if (keyword !== null) {
      found(keyword);
      return;
    }
    let end = 0;
    while (end < t.length && shWordChar(t.charCodeAt(end))) end++;
    if (end > 0 && /^\s*\(\s*\)/.test(t.slice(end))) found(t.slice(0, end));
  },
};

/** PowerShell scope prefixes of a function name; `private:` keeps it out of the surface. */
const PS_SCOPES = ["global:", "script:", "local:"];

const PS_NAMES: NameReader = {
  read(s, found) {
    const t = s.trim();
    const lower = t.toLowerCase();
    for (const keyword of ["function", "filter"]) {
      if (!startsWithWord(lower, keyword, psWordChar)) continue;
      let rest = t.slice(keyword.length).trimStart();
      const scope = PS_SCOPES.find((p) => rest.toLowerCase().startsWith(p));
      if (scope) rest = rest.slice(scope.length);
      let end = 0;
      while (end < rest.length && shWordChar(rest.charCodeAt(end))) end++;
      if (end > 0 && rest[end] !== ":") found(rest.slice(0, end));
      return;
    }
  },
};

const JAVA_TYPES: ReadonlySet<string> = new Set(["class", "interface", "enum", "record", "struct"]);
const HIDDEN_WORDS = ["private", "protected", "internal"];

/** The last identifier before the first `(`, `=`, `;` or `{` of `t`: a member's name. */
function memberName(t: string): string | null {
  let stop = t.length;
  for (const ch of "(=;{") {
    const at = t.indexOf(ch);
    if (at >= 0 && at < stop) stop = at;
  }
  let end = stop;
  while (end > 0 && (t[end - 1] === " " || t[end - 1] === "\t")) end--;
  let start = end;
  while (start > 0 && isWordCode(t.charCodeAt(start - 1))) start--;
  return start < end ? t.slice(start, end) : null;
}

/** Java and C#: a `public` type's name, or else a `public` member's name. */
const JAVA_NAMES: NameReader = {
  read(s, found) {
    const t = s.trim();
    if (!hasWord(t, "public")) return;
    for (const keyword of JAVA_TYPES) {
      const at = t.indexOf(`${keyword} `);
      if (at < 0 || (at > 0 && isWordCode(t.charCodeAt(at - 1)))) continue;
      const { name } = nameAfter(t, at + keyword.length);
      if (name !== "") found(name);
      return;
    }
    const name = memberName(t);
    if (name !== null) found(name);
  },
};

const KT_KEYWORDS: ReadonlySet<string> = new Set([
  "class",
  "interface",
  "object",
  "fun",
  "val",
  "var",
  "typealias",
]);

/** Kotlin: declarations are public unless marked otherwise; `val`/`var` only at top level. */
class KotlinNames implements NameReader {
  private depth = 0;

  read(s: string, found: (name: string) => void): void {
    const t = s.trim();
    if (!HIDDEN_WORDS.some((w) => hasWord(t, w))) {
      const words = t.split(/[\s(<:]+/);
      const at = words.findIndex((w) => KT_KEYWORDS.has(w));
      const keyword = words[at];
      if (at >= 0 && ((keyword !== "val" && keyword !== "var") || this.depth === 0)) {
        // `fun <T> Receiver.name(`: the generic list and the receiver are not the name.
        const after = t.slice(t.indexOf(keyword) + keyword.length).replace(/^\s*<[^>]*>/, "");
        const paren = after.indexOf("(");
        const dot = after.slice(0, paren < 0 ? undefined : paren).lastIndexOf(".");
        const name = nameAfter(after, dot + 1).name;
        if (name !== "") found(name);
      }
    }
    for (const ch of t) {
      if (ch === "{") this.depth++;
      else if (ch === "}") this.depth = Math.max(0, this.depth - 1);
    }
  }
}

/** A fresh name reader per language; languages without one give no names. */
const NAME_READERS: Readonly<Partial<Record<Language, () => NameReader>>> = {
  js: () => JS_NAMES,
  ts: () => JS_NAMES,
  py: () => PY_NAMES,
  go: () => new GoNames(),
  rs: () => RS_NAMES,
  sh: () => SH_NAMES,
  ps1: () => PS_NAMES,
  java: () => JAVA_NAMES,
  cs: () => JAVA_NAMES,
  kt: () => new KotlinNames(),
};

/**
 * The names the file's public surface defines, in file order without
 * repeats, at most `MAX_EXPORTED_NAMES`: exported JS/TS declarations and
 * local export lists, public module-level Python definitions, capitalised
 * top-level Go declarations, `pub` Rust items, shell and PowerShell
 * functions, public Java/C# types and members, Kotlin declarations not
 * marked private. Only lines that start in plain code are read, from
 * their skeletons, so a name in a comment or a string is never one. `lex`
 * is the file lexed with line states. Never throws; a language without a
 * reader gives none.
 */
export function exportedNames(language: Language, lex: LexResult): string[] {
  const make = NAME_READERS[language];
  if (make === undefined) return [];
  const reader = make();
  const names = new Set<string>();
  const found = (name: string): void => {
    if (names.size < MAX_EXPORTED_NAMES && name !== "") names.add(name);
  };
  try {
    for (const line of lex.lines) {
      if (lex.plainStarts !== null && lex.plainStarts[line.line] !== 1) continue;
      reader.read(line.skeleton, found);
      if (names.size >= MAX_EXPORTED_NAMES) break;
    }
  } catch {
    return [];
  }
  return [...names];
}

/** True when the file's language has a name reader (by its extension). */
export function hasNameReader(filePath: string): boolean {
  const language = languageOf(filePath);
  return language !== null && NAME_READERS[language] !== undefined;
}

/** Loads what reading the names of the file at `filePath` needs: its language's lexer. */
export function prepareNames(filePath: string): Promise<void> {
  return loadLexerOf(filePath);
}

/**
 * The names `text`, the file at `filePath`, exports (see `exportedNames`),
 * lexed with line states; none for a language without a reader. Lexing
 * examines a few characters per character of `text` (`LexResult.work`).
 */
export function fileExportedNames(filePath: string, text: string): string[] {
  const language = languageOf(filePath);
  if (language === null || NAME_READERS[language] === undefined) return [];
  return exportedNames(language, lexCode(language, text, { lineStates: true }));
}
