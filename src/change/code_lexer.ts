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

import { type Language, languageOf } from "./language.ts";
import { Emitter, type LexOptions, type LexResult } from "./lex_emitter.ts";

export type { CodeLine, LexOptions, LexResult } from "./lex_emitter.ts";

/** One language family's lexer, fed the text and the emitter. */
type FamilyLexer = (
  language: Language,
  text: string,
  em: Emitter,
  directives: boolean,
) => LexResult;

/** The lexer families, each in a module of its own. */
type Family = "c" | "py" | "sh" | "ps1" | "bat";

/** The family that lexes each language. */
const FAMILY: Readonly<Record<Language, Family>> = {
  js: "c",
  ts: "c",
  go: "c",
  rs: "c",
  java: "c",
  kt: "c",
  cs: "c",
  c: "c",
  cpp: "c",
  py: "py",
  sh: "sh",
  ps1: "ps1",
  bat: "bat",
};

/**
 * How each family's module is loaded: a call changes one file, so it loads
 * one lexer, not the five (`loadLexer`).
 */
const FAMILY_MODULES: Readonly<Record<Family, () => Promise<FamilyLexer>>> = {
  c: async () => {
    const { lexCFamily } =
      await (import(new URL("./lex_c_family.ts", import.meta.url).href) as Promise<
        typeof import("./lex_c_family.ts")
      >);
    // Only the C-style languages map to this family (`FAMILY`).
    return (language, text, em, directives) =>
      lexCFamily(language as Parameters<typeof lexCFamily>[0], text, em, directives);
  },
  py: async () => {
    const { lexPython } =
      await (import(new URL("./lex_python.ts", import.meta.url).href) as Promise<
        typeof import("./lex_python.ts")
      >);
    return (_language, text, em, directives) => lexPython(text, em, directives);
  },
  sh: async () => {
    const { lexShell } = await (import(new URL("./lex_shell.ts", import.meta.url).href) as Promise<
      typeof import("./lex_shell.ts")
    >);
    return (_language, text, em, directives) => lexShell(text, em, directives);
  },
  ps1: async () => {
    const { lexPowerShell } =
      await (import(new URL("./lex_powershell.ts", import.meta.url).href) as Promise<
        typeof import("./lex_powershell.ts")
      >);
    return (_language, text, em, directives) => lexPowerShell(text, em, directives);
  },
  bat: async () => {
    const { lexBatch } = await (import(new URL("./lex_batch.ts", import.meta.url).href) as Promise<
      typeof import("./lex_batch.ts")
    >);
    return (_language, text, em) => lexBatch(text, em);
  },
};

/** The families loaded so far. */
const loaded = new Map<Family, FamilyLexer>();

/**
 * Loads the lexer of `language`, once. `lexCode` reads a language whose
 * lexer is not loaded as unclear: the answer of a text it cannot vouch for,
 * which costs questions, never a pass.
 */
export async function loadLexer(language: Language): Promise<void> {
  const family = FAMILY[language];
  if (!loaded.has(family)) loaded.set(family, await FAMILY_MODULES[family]());
}

/** Loads the lexer of the file at `filePath`'s language, if it has one. */
export async function loadLexerOf(filePath: string): Promise<void> {
  const language = languageOf(filePath);
  if (language !== null) await loadLexer(language);
}

/** Loads every language's lexer (tools and tests that lex many languages). */
export async function loadAllLexers(): Promise<void> {
  for (const language of Object.keys(FAMILY) as Language[]) await loadLexer(language);
}

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
  const lexer = loaded.get(FAMILY[language]);
  if (lexer === undefined || hasForeignLineBreak(language, text)) {
    em.dumpRest(0);
    return em.finish(false);
  }
  return lexer(language, text, em, directives);
}

/** True when two lexed texts hold the same code lines (ignoring where they sit). */
export function sameCodeLines(a: LexResult, b: LexResult): boolean {
  if (a.lines.length !== b.lines.length) return false;
  for (let k = 0; k < a.lines.length; k++) {
    if (a.lines[k].text !== b.lines[k].text) return false;
  }
  return true;
}
