/**
 * Symbol searches: a content search whose pattern is a name the target's
 * public surface defines (`rg parseWidget`, Grep `\bparse_widget\b`). The
 * names are read from the file with the change profile's surface readers
 * (`change/surface_names.ts`, called by the hook, which charges the work);
 * this module decides which of them may credit, and whether a search's patterns are a search for one of them.
 *
 * A pattern counts only when every alternative of it is a plain name, give
 * or take word-boundary marks and a trailing call parenthesis, so a regex
 * that matches everything (`.`, `.*`, `\w+`, `name|.`) is no symbol search.
 * No regular expression is built from the search: alternatives are cut and
 * compared as text. See docs/search-credit.md "Symbol searches".
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";
import type { PatternSyntax, SymbolPatterns } from "./types.ts";
import { GENERIC_STEMS } from "./stem.ts";

/** Shortest name that can credit a file, as for stems. */
export const MIN_SYMBOL_LENGTH = 4;

/** Longest name compared; longer alternatives are not read as names. */
export const MAX_SYMBOL_LENGTH = 128;

/**
 * Names too common to tie a search to the file that defines one: entry
 * points, accessors and the words most modules export something called
 * (compared lowercased; names shorter than `MIN_SYMBOL_LENGTH` never
 * count anyway). `GENERIC_STEMS` count too.
 */
export const COMMON_NAMES: ReadonlySet<string> = new Set([
  "data",
  "test",
  "main",
  "index",
  "default",
  "name",
  "value",
  "type",
  "item",
  "items",
  "list",
  "self",
  "this",
  "error",
  "errors",
  "result",
  "options",
  "props",
  "state",
  "context",
  "handler",
  "handle",
  "create",
  "update",
  "delete",
  "render",
  "start",
  "stop",
  "close",
  "open",
  "read",
  "write",
  "load",
  "save",
  "parse",
  "build",
  "execute",
  "process",
  "apply",
  "call",
  "reset",
  "clear",
  "request",
  "response",
  "client",
  "server",
  "logger",
  "model",
  "node",
  "path",
  "file",
  "text",
  "size",
  "count",
  "string",
  "object",
  "number",
  "tostring",
  "equals",
  "hashcode",
  "constructor",
  "callback",
  "run",
  "get",
  "set",
]);

/**
 * Units charged per character of the file for lexing it and reading its
 * names: the lexer examines 5 to 6.5 characters per character of text
 * (`LexResult.work`, measured on code of each language and on runs of
 * comment and string openers), and the name readers read each skeleton once.
 */
export const UNITS_PER_FILE_CHAR = 7;

/** A name character: letters and digits of any script, `_`. */
function isNameChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ||
    c === 0x5f || c >= 0x80;
}

/**
 * True when `s` is a plain name: a name character run, `-` allowed between
 * runs (PowerShell and shell function names), not starting with a digit.
 */
export function isPlainName(s: string): boolean {
  if (s === "" || s.length > MAX_SYMBOL_LENGTH) return false;
  const first = s.charCodeAt(0);
  if (first >= 0x30 && first <= 0x39) return false;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (isNameChar(c)) continue;
    if (c !== 0x2d || k === 0 || k === s.length - 1 || s.charCodeAt(k - 1) === 0x2d) return false;
  }
  return true;
}

/** True when `name` may credit the file that defines it. */
export function creditableName(name: string): boolean {
  if (name.length < MIN_SYMBOL_LENGTH || !isPlainName(name)) return false;
  const lower = name.toLowerCase();
  return !COMMON_NAMES.has(lower) && !GENERIC_STEMS.has(lower);
}

/** The alternatives of one pattern: lines, then `|` (ERE) or `\|` (BRE) outside escapes. */
function alternatives(pattern: string, syntax: PatternSyntax): string[] {
  const out: string[] = [];
  for (const line of pattern.split("\n")) {
    if (syntax === "fixed") {
      out.push(line);
      continue;
    }
    let from = 0;
    for (let k = 0; k < line.length; k++) {
      if (line[k] === "\\") {
        if (syntax === "bre" && line[k + 1] === "|") {
          out.push(line.slice(from, k));
          from = k + 2;
        }
        k++;
      } else if (syntax === "ere" && line[k] === "|") {
        out.push(line.slice(from, k));
        from = k + 1;
      }
    }
    out.push(line.slice(from));
  }
  return out;
}

/** Word-boundary marks that may wrap a name, and the call parenthesis after it, by syntax. */
const DECORATION: Readonly<
  Record<PatternSyntax, { lead: readonly string[]; trail: readonly string[]; call: string | null }>
> = {
  ere: { lead: ["\\b"], trail: ["\\b"], call: "\\(" },
  bre: { lead: ["\\b", "\\<"], trail: ["\\b", "\\>"], call: "(" },
  fixed: { lead: [], trail: [], call: "(" },
};

/** An alternative without its word-boundary marks and trailing call parenthesis. */
function core(alternative: string, syntax: PatternSyntax): string {
  const { lead, trail, call } = DECORATION[syntax];
  let s = alternative;
  const opening = lead.find((m) => s.startsWith(m));
  if (opening) s = s.slice(opening.length);
  if (call !== null && s.endsWith(call)) s = s.slice(0, s.length - call.length);
  const closing = trail.find((m) => s.endsWith(m));
  if (closing) s = s.slice(0, s.length - closing.length);
  return s;
}

/**
 * True when the search's patterns are a search for one of `names`: every
 * alternative of every pattern is a plain name, and one of them is in
 * `names` exactly as the file spells it. Work is charged to `budget`.
 */
export function searchesSymbol(
  sp: SymbolPatterns | undefined,
  names: ReadonlySet<string>,
  budget?: WorkBudget,
): boolean {
  if (sp === undefined || names.size === 0) return false;
  let chars = 0;
  for (const p of sp.patterns) chars += p.length;
  if (budget && !budget.spend(2 * chars, "symbols")) return false;
  let named = false;
  for (const pattern of sp.patterns) {
    for (const alt of alternatives(pattern, sp.syntax)) {
      const name = core(alt, sp.syntax);
      if (!isPlainName(name)) return false;
      if (names.has(name)) named = true;
    }
  }
  return named;
}

/**
 * The plain-text prefilter of symbol credit: true when `text` holds one of
 * `names` as a run of name characters and dashes. A call that fails it
 * cannot search for any of them.
 */
export function mayNameSymbol(text: string, names: ReadonlySet<string>): boolean {
  let from = -1;
  for (let k = 0; k <= text.length; k++) {
    const c = k < text.length ? text.charCodeAt(k) : 0;
    const inRun = k < text.length && (isNameChar(c) || c === 0x2d);
    if (inRun) {
      if (from < 0) from = k;
      continue;
    }
    if (from >= 0) {
      const run = text.slice(from, k);
      // After a backslash the first letter is an escape (`\bname`), not part of a name.
      const escaped = from > 0 && text[from - 1] === "\\" ? [run, run.slice(1)] : [run];
      for (const r of escaped) {
        if (names.has(r) || (r.includes("-") && r.split("-").some((p) => names.has(p)))) {
          return true;
        }
      }
      from = -1;
    }
  }
  return false;
}
