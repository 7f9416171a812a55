/**
 * The data model of the Bash reader: what a parsed command line is made of
 * (words, redirections, simple commands and the flags of the whole parse)
 * and the limits every reader of Bash text shares. The tokenizer
 * (`tokenizer.ts`) turns text into these words, the parser (`parser.ts`)
 * groups them into segments; the destructive detector, the read-only check
 * and the search evidence all read commands through that one parse so they
 * cannot disagree about what a command is.
 *
 * @module
 */

/** Commands longer than this are never `ok` (never trusted as evidence or as read-only). */
export const MAX_COMMAND_CHARS = 8192;

/** Input longer than this is not lexed at all. */
export const MAX_LEX_CHARS = 256 * 1024;

/** Deepest nesting of substitutions that is followed. */
export const MAX_NESTING = 32;

/**
 * Most characters read again, in all, after a `$((` turned out not to be
 * arithmetic. Nested, each retry re-reads the retries inside it, so without
 * a bound the work doubles per level.
 */
export const MAX_REREAD_CHARS = 8 * MAX_COMMAND_CHARS;

/** Most words one brace expansion may produce before the parse gives up. */
export const MAX_BRACE_WORDS = 256;

/** What separated a segment from the one before it (`"\n"` is a newline). */
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
export const SEPARATORS: readonly Exclude<Separator, "start">[] = [
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

/**
 * Separators after which the next segment counts as reading another
 * command's output. `||` is included on purpose: treating it as a pipe can
 * only remove evidence, never add it.
 */
export const PIPED_AFTER: ReadonlySet<Separator> = new Set<Separator>(["|", "|&", "||"]);

/** Redirection operators, longest first. */
export const REDIRECT_OPERATORS = [
  "<<<",
  "<<-",
  "&>>",
  "<<",
  "<>",
  "<&",
  ">>",
  ">&",
  ">|",
  "&>",
  "<",
  ">",
] as const;

/** One redirection operator. */
export type RedirectOp = typeof REDIRECT_OPERATORS[number];

/** Why a parse is not `ok`. */
export type ParseProblem = "too-long" | "unbalanced" | "too-deep" | "too-many-words";

/** One word after quote removal. */
export interface Word {
  /**
   * The value bash would pass: quotes removed, escapes and `$'…'` decoded.
   * Expansions (`$x`, `${…}`, `$(…)`, backticks, `<(…)`) stay in their
   * source form, so `$(echo rm)` reads as `$(echo rm)`.
   */
  text: string;
  /** The word as written. */
  raw: string;
  /** Some part of the word was quoted or escaped (its glob characters are then literal). */
  quoted: boolean;
  /** An unquoted `*`, `?` or `[` appears: the shell may expand it to file names. */
  globs: boolean;
  /** The word holds an expansion whose value is unknown (`$x`, `${…}`, `$(…)`, backticks, `<(…)`, `~`). */
  expands: boolean;
  /** The words an unquoted brace expansion turns it into (`{a,b}`), null when there is none. */
  braces: readonly string[] | null;
}

/** A redirection of a segment. */
export interface Redirect {
  /** The operator. */
  op: RedirectOp;
  /** The descriptor written before the operator (`2`, `{fd}`), null when none. */
  fd: string | null;
  /** The target: file, descriptor, here-document delimiter or here-string. */
  target: Word;
}

/** One simple command. */
export interface Segment {
  /** The command word and its arguments (reserved words, assignments and redirections removed). */
  words: Word[];
  /** Leading `NAME=value` words. */
  assignments: Word[];
  /** Redirections, in order. */
  redirects: Redirect[];
  /** The control operator before it; reserved words and group openers in between do not count. */
  sepBefore: Separator;
  /** Its stdin is another command's output: `sepBefore` is in `PIPED_AFTER`. */
  piped: boolean;
  /** Its stdin is redirected: `<`, `<>`, `<&`, a here-document or a here-string. */
  stdinRedirected: boolean;
  /** How many words came before the first input redirection; null without one. */
  inputRedirectAt: number | null;
  /** Bodies of its here-documents and texts of its here-strings: data fed to its stdin. */
  stdinTexts: string[];
  /** Preceded by `!`. */
  negated: boolean;
  /** Nesting: 0 at top level, one more per enclosing substitution, group or compound command. */
  depth: number;
  /** It runs inside a command or process substitution (or a here-document body's substitution). */
  inSubstitution: boolean;
  /** Its source text (of the substitution it came from, for backticks). */
  raw: string;
}

/** The parsed command line. */
export interface BashParse {
  /** False when too long, unbalanced, nested too deep, or a brace expansion is too large. */
  ok: boolean;
  /** Why `ok` is false; null when it is true. */
  problem: ParseProblem | null;
  /**
   * Every simple command, nested ones before the command that contains
   * them. When `ok` is false this holds what was read before the problem
   * and must not be taken as the whole command.
   */
  segments: Segment[];
  /** `$( )` or backticks occurred. */
  commandSubstitution: boolean;
  /** Backticks occurred. */
  backticks: boolean;
  /** `<( )` or `>( )` occurred. */
  processSubstitution: boolean;
  /** A here-document occurred. */
  heredoc: boolean;
  /** A here-string (`<<<`) occurred. */
  hereString: boolean;
  /** A parameter or arithmetic expansion (`$x`, `$1`, `${…}`, `$((…))`, `((…))`) occurred. */
  parameterExpansion: boolean;
  /** Names of the functions the line defines; their bodies are among the segments. */
  functions: readonly string[];
  /**
   * The work the parse did, in steps: characters its cursors moved over
   * (again when text is read again: backtick bodies, here-document bodies,
   * a `$((` retried as a substitution), tokens, and words a brace expansion
   * made. It never depends on the machine, so tests bound it.
   */
  steps: number;
}
