/**
 * The data model of the PowerShell reader: what a parsed PowerShell
 * command line is made of (words, redirections, commands and the flags of
 * the whole parse), as the lexer (`lexer.ts`) produces it and the
 * destructive check, the read-only check and the search evidence read it.
 *
 * @module
 */

/** What separated a PowerShell segment from the one before it (`"\n"` is a newline). */
export type PsSeparator = "start" | ";" | "\n" | "|" | "&&" | "||" | "&";

/** Control operators, longest first, as the lexer matches them (a newline is also one). */
export const PS_SEPARATORS: readonly Exclude<PsSeparator, "start" | "\n">[] = [
  "&&",
  "||",
  ";",
  "|",
  "&",
];

/** Why a parse is not `ok`. */
export type PsParseProblem = "too-long" | "unbalanced" | "too-deep";

/** Which construct a nested segment runs in. */
export type PsContainer = "subexpression" | "array" | "group" | "scriptblock" | "hashtable";

/** One word (argument-mode token) after quote and escape removal. */
export interface PsWord {
  /**
   * The value PowerShell would pass: quotes removed, backtick escapes
   * decoded. Variables stay as written (`$x`, `${x}`, `@x`); nested
   * constructs read as `$(…)`, `@(…)`, `(…)`, `{…}` and `@{…}`. A
   * parameter's leading dash, typographic or not, reads as `-`.
   */
  text: string;
  /** The word as written. */
  raw: string;
  /** Some part was quoted or backtick-escaped. */
  quoted: boolean;
  /** Its value is unknown: it holds a variable, splat, subexpression, group or script block. */
  expands: boolean;
  /** An unquoted `-Name` (or `-Name:value`): the parameter binder sees a parameter. */
  parameter: boolean;
  /**
   * The elements of an unquoted comma list (`a,b` is `["a", "b"]`); a word
   * without one is `[text]`. A native program receives each element as a
   * separate argument.
   */
  parts: string[];
}

/** A redirection of a segment. */
export interface PsRedirect {
  /** The operator as written: `>`, `>>`, `2>`, `*>>`, `2>&1`, `<`, … */
  op: string;
  /** The target file; null for a stream merge such as `2>&1` or a missing target. */
  target: PsWord | null;
}

/** One command (pipeline element). */
export interface PsSegment {
  /** The command word and its arguments (invocation operator, assignment target and redirections removed). */
  words: PsWord[];
  /** Redirections, in order. */
  redirects: PsRedirect[];
  /** The control operator before it. */
  sepBefore: PsSeparator;
  /** Its input is another command's output: after `|`, and after `||`, which can only remove evidence. */
  piped: boolean;
  /** A `<` appeared (reserved in PowerShell, an error there, but never read as a plain argument). */
  stdinRedirected: boolean;
  /** Run through the call operator `&` or dot-sourced with `.`; null for a plain invocation. */
  invocation: "&" | "." | null;
  /** The variable a `$x = …` assignment stores the result in, as written; null without one. */
  assignedTo: string | null;
  /** `--%` appeared: the words after it are passed on verbatim, split at blanks. */
  stopParsing: boolean;
  /** Nesting: 0 at top level, one more per enclosing construct. */
  depth: number;
  /** The construct it runs in; null at top level. */
  container: PsContainer | null;
}

/** The parsed command line. */
export interface PsParse {
  /** False when too long, unbalanced or nested too deep. */
  ok: boolean;
  /** Why `ok` is false; null when it is true. */
  problem: PsParseProblem | null;
  /**
   * Every command, nested ones before the command that contains them. When
   * `ok` is false this is what was read and must not be taken as the whole.
   */
  segments: PsSegment[];
  /** A variable (`$x`, `${…}`, `$env:X`) or splat (`@x`) occurred. */
  variables: boolean;
  /** `$( )` or `@( )` occurred. */
  subexpression: boolean;
  /** A parenthesised group `( )` occurred. */
  group: boolean;
  /** A script block `{ }` occurred. */
  scriptBlock: boolean;
  /** A hashtable `@{ }` occurred. */
  hashtable: boolean;
  /** A here-string (`@' … '@` or `@" … "@`) occurred. */
  hereString: boolean;
  /** A backtick escape (outside single quotes) occurred. */
  backtickEscape: boolean;
  /** The stop-parsing token `--%` occurred. */
  stopParsing: boolean;
  /**
   * The work the lexer did, in steps: characters its cursor moved over or
   * looked ahead at (here-string bodies are read twice: once to find their
   * end, once for their expansions) and statements and words read. It
   * never depends on the machine, so tests bound it.
   */
  steps: number;
}

/** Characters PowerShell accepts as a parameter's dash. */
export const DASHES = new Set(["-", "\u2013", "\u2014", "\u2015"]);
