/**
 * The languages with C-style comments as data: one row of switches per
 * dialect (how `/`, backticks, apostrophes, raw strings, text blocks and
 * line splices read), and the word and prefix sets the lexer consults.
 * `lex_c_family.ts` runs one loop over these rows.
 *
 * @module
 */

import type { Language } from "./language.ts";

/** The languages the C-family lexer reads. */
export type CFamilyLanguage = Exclude<Language, "py" | "sh" | "ps1" | "bat">;

/** How a dialect differs from plain C-style lexing. */
export interface Dialect {
  /** `/` outside comments (regex or division), JSX-like tags, HTML-like comments. */
  js: boolean;
  /** A backslash before a line break joins the lines everywhere, comments included. */
  lineSplice: boolean;
  /** Block comments nest. */
  nestedComments: boolean;
  /** What a backtick opens. */
  backtick: "template" | "raw" | "code";
  /** What an apostrophe opens. */
  apostrophe: "string" | "char" | "rust";
  /** `'` between digits separates them (`1'000`). */
  digitSeparators: boolean;
  /** Ordinary double-quoted strings may span lines. */
  multilineStrings: boolean;
  /** What `"""` opens. */
  textBlock: "java" | "kotlin" | "none";
  /** `"` strings hold `$name` and `${...}` templates. */
  kotlinTemplates: boolean;
  /** `@"`, `$"`, `$@"` and `"""` raw strings. */
  csharp: boolean;
  /** `r"..."`, `r#"..."#`, `br"..."` raw strings. */
  rustRaw: boolean;
  /** `R"delim(...)delim"` raw strings. */
  cppRaw: boolean;
  /** `??/` and the other trigraphs. */
  trigraphs: boolean;
  /** `\uXXXX` is decoded before anything else, even in comments. */
  javaUnicode: boolean;
}

const BASE: Dialect = {
  js: false,
  lineSplice: false,
  nestedComments: false,
  backtick: "code",
  apostrophe: "char",
  digitSeparators: false,
  multilineStrings: false,
  textBlock: "none",
  kotlinTemplates: false,
  csharp: false,
  rustRaw: false,
  cppRaw: false,
  trigraphs: false,
  javaUnicode: false,
};

const JS_DIALECT: Dialect = { ...BASE, js: true, backtick: "template", apostrophe: "string" };

/** The switches of each language the lexer reads. */
export const DIALECTS: Readonly<Record<CFamilyLanguage, Dialect>> = {
  js: JS_DIALECT,
  ts: JS_DIALECT,
  go: { ...BASE, backtick: "raw" },
  rs: {
    ...BASE,
    nestedComments: true,
    apostrophe: "rust",
    multilineStrings: true,
    rustRaw: true,
  },
  java: { ...BASE, textBlock: "java", javaUnicode: true },
  kt: { ...BASE, nestedComments: true, textBlock: "kotlin", kotlinTemplates: true },
  cs: { ...BASE, csharp: true },
  c: { ...BASE, lineSplice: true, trigraphs: true },
  cpp: { ...BASE, lineSplice: true, trigraphs: true, digitSeparators: true, cppRaw: true },
};

/** Prefixes that turn `"` into a C++ raw string. */
export const CPP_RAW_PREFIXES: ReadonlySet<string> = new Set(["R", "u8R", "uR", "UR", "LR"]);

/** Prefixes that may open a Rust raw string. */
export const RUST_RAW_PREFIXES: ReadonlySet<string> = new Set(["r", "br", "cr"]);

/** Words after which `<` starts JSX rather than a comparison or type arguments. */
export const JSX_KEYWORDS: ReadonlySet<string> = new Set([
  "return",
  "yield",
  "await",
  "case",
  "default",
  "in",
  "of",
  "typeof",
  "void",
  "delete",
  "throw",
  "new",
  "else",
  "do",
]);

/** Characters a trigraph ends in (`??/` is a backslash, so it can join lines). */
export const TRIGRAPH_ENDS: string = "=/'()!<>-";

/** Java unicode escapes that would change how the rest of the text lexes. */
export const JAVA_DANGEROUS_ESCAPES: ReadonlySet<number> = new Set([
  0x0a,
  0x0d,
  0x22,
  0x27,
  0x2a,
  0x2f,
  0x5c,
]);
