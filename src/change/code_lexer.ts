/**
 * The code lexer: reduces a snippet or a whole file in one of the supported
 * languages to its code lines, and says whether its comment and whitespace
 * can be told apart from code with confidence.
 *
 * `lexCode` is linear in the text and never throws on any input. Two texts
 * differ only in comments and whitespace exactly when neither is `unclear`
 * and their `lines` texts are equal. Each result counts the characters it
 * examined (`work`), and `lexWorkSoFar` sums them over the process, so tests
 * check linearity by counting, the same on every machine.
 *
 * @module
 */

import type { Language } from "./language.ts";
import { Emitter, type LexOptions, type LexResult } from "./lex_emitter.ts";
import { lexCFamily } from "./lex_c_family.ts";
import { lexPython } from "./lex_python.ts";
import { lexShell } from "./lex_shell.ts";
import { lexPowerShell } from "./lex_powershell.ts";
import { lexBatch } from "./lex_batch.ts";

export type { CodeLine, LexOptions, LexResult } from "./lex_emitter.ts";

/** Characters that continue a line when they end it, per language. */
const CONTINUATIONS: Readonly<Record<Language, string>> = {
  js: "\\",
  ts: "\\",
  py: "\\",
  go: "\\",
  rs: "\\",
  java: "\\",
  kt: "\\",
  cs: "\\",
  c: "\\",
  cpp: "\\",
  sh: "\\",
  ps1: "`\\",
  bat: "^\\",
};

/**
 * True when the text holds a line break the lexers do not split on: a lone
 * carriage return, U+2028 or U+2029. A shell treats a carriage return as an
 * ordinary character, so there only the Unicode separators count.
 */
function hasForeignLineBreak(language: Language, text: string): boolean {
  if (text.includes("\u2028") || text.includes("\u2029")) return true;
  if (language === "sh") return false;
  for (let at = text.indexOf("\r"); at >= 0; at = text.indexOf("\r", at + 1)) {
    if (text.charCodeAt(at + 1) !== 10) return true;
  }
  return false;
}

/** Characters examined by every `lexCode` call of this process (see `LexResult.work`). */
let workSoFar = 0;

/** The running total of lexing work; a caller that did several lexes reads the difference. */
export function lexWorkSoFar(): number {
  return workSoFar;
}

/**
 * Lexes `text` as `language`. Directive comments are told apart and kept as
 * code unless `options.directives` is false; `options.lineStates` records
 * which physical lines start in plain code.
 */
export function lexCode(language: Language, text: string, options: LexOptions = {}): LexResult {
  const result = lexWith(language, text, options);
  workSoFar += result.work;
  return result;
}

function lexWith(language: Language, text: string, options: LexOptions): LexResult {
  const directives = options.directives ?? true;
  const em = new Emitter(
    text,
    language === "py",
    options.lineStates ?? false,
    CONTINUATIONS[language],
    language !== "sh",
  );
  // The whole-text checks below read the text up to three times.
  em.work += 3 * text.length;
  // `??/` is a backslash to C and C++ (whose lexer gives up on it); no
  // language gets a trivial pass with it.
  if (text.includes("??/")) em.unclear = true;
  if (hasForeignLineBreak(language, text)) {
    em.dumpRest(0);
    return em.finish(false);
  }
  switch (language) {
    case "py":
      return lexPython(text, em, directives);
    case "sh":
      return lexShell(text, em, directives);
    case "ps1":
      return lexPowerShell(text, em, directives);
    case "bat":
      return lexBatch(text, em);
    default:
      return lexCFamily(language, text, em, directives);
  }
}

/** True when two lexed texts hold the same code lines (ignoring where they sit). */
export function sameCodeLines(a: LexResult, b: LexResult): boolean {
  if (a.lines.length !== b.lines.length) return false;
  for (let k = 0; k < a.lines.length; k++) {
    if (a.lines[k].text !== b.lines[k].text) return false;
  }
  return true;
}
