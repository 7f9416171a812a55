/**
 * The positional pattern of a search that finds files by name (`fd`), read
 * as an include filter on the name when it can be: a glob as it is, and a
 * regular expression anchored at both ends around a literal name (`^widget\.py$`)
 * as that name. A pattern that can only match the target's own name then
 * makes the search a lookup, like `find -name widget.py`. Other patterns
 * add no filter and are judged by their text, as before.
 *
 * @module
 */

import type { Family } from "./tool_flags.ts";
import { hasGlobChars } from "./filters.ts";

/** How a switch makes the tool read its pattern. */
type Mode = "glob" | "regex" | "fixed" | "full-path";

/** Tools that test their pattern against each file's name, and the switches that choose how. */
const NAME_PATTERN_SWITCHES: Readonly<Partial<Record<Family, Readonly<Record<string, Mode>>>>> = {
  fd: {
    "-g": "glob",
    "--glob": "glob",
    "--regex": "regex",
    "-F": "fixed",
    "--fixed-strings": "fixed",
    "-p": "full-path",
    "--full-path": "full-path",
  },
};

/** Characters a regular expression reads as operators unless escaped. */
const REGEX_OPERATORS = new Set([".", "*", "+", "?", "(", ")", "|", "{", "}", "^", "$", "[", "]"]);

/** The literal text a regular expression body matches, or null when it can match more. */
function regexLiteral(body: string): string | null {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") {
      const next = body[i + 1];
      // `\d`, `\w`, `\b` and friends are classes or assertions, not characters.
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return null;
      out += next;
      i++;
    } else if (c === "[") {
      // A class of one plain character stands for that character.
      if (body[i + 2] !== "]" || "^\\]".includes(body[i + 1] ?? "]")) return null;
      out += body[i + 1];
      i += 2;
    } else if (REGEX_OPERATORS.has(c)) {
      return null;
    } else {
      out += c;
    }
  }
  return out;
}

/** A name read from an anchored regular expression, as a glob; null when it is not one. */
function anchoredName(pattern: string, fullPath: boolean): string | null {
  if (!pattern.endsWith("$") || pattern.endsWith("\\$")) return null;
  if (fullPath) {
    // The whole path is tested: only `…/name$` pins the name.
    const cut = pattern.lastIndexOf("/");
    if (cut < 0) return null;
    const name = regexLiteral(pattern.slice(cut + 1, -1));
    return name && !hasGlobChars(name) ? `**/${name}` : null;
  }
  if (!pattern.startsWith("^")) return null;
  const name = regexLiteral(pattern.slice(1, -1));
  return name && !hasGlobChars(name) && !name.includes("/") ? name : null;
}

/**
 * The include glob a name pattern amounts to, given the switches seen
 * before or after it (the last of glob, regex and fixed wins), or null
 * when the family does not test names or the pattern says nothing exact.
 */
export function namePatternInclude(
  family: Family,
  switches: readonly string[],
  pattern: string,
): { glob: string; fold: boolean } | null {
  const table = NAME_PATTERN_SWITCHES[family];
  if (!table) return null;
  let mode: Mode = "regex";
  let fullPath = false;
  for (const s of switches) {
    const m = Object.hasOwn(table, s) ? table[s] : undefined;
    if (m === "full-path") fullPath = true;
    else if (m !== undefined) mode = m;
  }
  // Smart case: a pattern without capitals matches either case.
  const fold = pattern === pattern.toLowerCase();
  if (mode === "glob") return fullPath || pattern === "" ? null : { glob: pattern, fold };
  if (mode === "fixed") return null;
  const glob = anchoredName(pattern, fullPath);
  return glob === null ? null : { glob, fold };
}
