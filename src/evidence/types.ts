/**
 * The shapes the search evidence is built from and handed on in: shell
 * words and segments as the evidence reads them, a search's operands and
 * scope, and what one call offers. Every evidence module imports these
 * from here, so the readers of each tool never import each other for a
 * type.
 *
 * @module
 */

import type { PathParts } from "../file_facts/paths.ts";
import type { ShellDialect } from "../shell/dialect.ts";
import type { Word } from "../shell/bash/mod.ts";
import type { SearchFilters } from "./filters.ts";
import type { PatternSyntax } from "./tool_flags.ts";

export type { PatternSyntax };

/** A path argument of a shell search. */
export type Operand =
  /** A literal path, resolved. */
  | { kind: "path"; place: PathParts }
  /**
   * A path with glob characters: the literal directories before the first
   * glob segment, resolved, and the glob for the rest. `gitStyle` lets `*`
   * match `/` and lets the glob match any directory above the target.
   */
  | { kind: "glob"; anchor: PathParts; glob: string; gitStyle: boolean; fold: boolean }
  /** A variable, `~`, a backslash spelling, or relative to an unknown cwd: scopes nothing. */
  | { kind: "unresolvable" };

/** Where a target must lie for a search to cover it. */
export type Scope =
  /** Strictly inside `root` (Grep, LS). */
  | { kind: "below"; root: PathParts }
  /** Strictly inside `root`, with `pattern` matching the path below it (Glob). */
  | { kind: "glob"; root: PathParts; pattern: string }
  /** Directly in `dir`, but not `except` (a Glob without glob characters). */
  | { kind: "dir-files"; dir: PathParts; except: PathParts }
  /**
   * Inside one operand, or inside `cwd` without operands (shell; null cwd is
   * unknown), at a depth `depth` allows below it.
   */
  | { kind: "operands"; operands: Operand[]; cwd: PathParts | null; depth: DepthLimit };

/**
 * How deep below its paths a shell search reads, counted in path segments
 * (1: the files directly in a directory operand). `max` null is unbounded.
 */
export interface DepthLimit {
  min: number;
  max: number | null;
}

/** A directory a search named exactly, for new-file credit. */
export interface NamedDir {
  place: PathParts;
  /** The directory must exist now (shell operands). */
  mustExist: boolean;
}

/** What a content search looked for, when it can be read as written. */
export interface SymbolPatterns {
  /** The patterns as given, each matched on its own. */
  patterns: readonly string[];
  syntax: PatternSyntax;
}

/** One search: a Glob, Grep or LS call, or one shell segment led by a search command. */
export interface SearchEvidence {
  /** Lowercased texts the stem must appear in as a word. */
  stemTexts: string[];
  filters: SearchFilters;
  scope: Scope;
  namedDirs: NamedDir[];
  /** It read piped input or had no tree operand. */
  stdinOnly: boolean;
  /** What the tool skips by default and was not told to list: hidden files, ignored files. */
  skips?: { hidden: boolean; ignored: boolean };
  /**
   * What it listed never reached the model: a quiet or count-only option,
   * a zero match cap, only directories listed, output discarded, or a
   * condition before it that may have skipped it.
   */
  unseen: boolean;
  /**
   * A content search's patterns, for symbol credit: absent for searches of
   * file names, patterns the hook cannot read (from a file or a variable),
   * and searches that show what does not match.
   */
  symbol?: SymbolPatterns;
  /**
   * The same search read under a second account of where the shell stood
   * (see `ParseContext.ownMoveOnly`): it credits only when both do.
   */
  twin?: SearchEvidence;
}

/** Everything one call offers. */
export interface CallEvidence {
  /** The tool name shown in notes. */
  tool: string;
  /** The sanitized tool input shown in notes. */
  detail: string;
  /** A shell command whose searched text cannot be known: no evidence, no miss line. */
  ambiguous: boolean;
  searches: SearchEvidence[];
  /** Lowercased texts of shell segments that are not searches. */
  otherTexts: string[];
  /** The file a `Read` opened. */
  readPath: PathParts | null;
}

/** Where a call's relative paths resolve, and what the rest of the turn did to the cwd. */
export interface ParseContext {
  /** Absolute directory relative paths resolve against. */
  base: string;
  /** Anchor for a base that is itself relative. */
  processCwd: string;
  /**
   * Where a shell call started is unknown (its record has no `cwd`, and a
   * shell call of the turn changed directory): its relative operands scope
   * nothing and its operands name no directory.
   */
  shellCwdUnknown: boolean;
  /**
   * The call has no recorded start and is the turn's only shell call that
   * changes directory: it started in `base` unless the client kept its own
   * directory change, in which case `base` is where that change left it.
   * Its searches must cover the target under both accounts.
   */
  ownMoveOnly?: boolean;
}

/** One word of a segment, as the shared lexers report it. */
export type ShellWord = Pick<Word, "text" | "quoted" | "globs" | "expands"> & {
  /** PowerShell: the elements of an unquoted comma list. */
  parts?: readonly string[];
  /** PowerShell: an unquoted `-Name` the parameter binder sees. */
  parameter?: boolean;
};

/** One simple command of a shell line, as the shared lexers report it. */
export interface ShellSegment {
  /** The program it runs, as the lexer names it (lowercased for PowerShell). */
  name: string;
  words: ShellWord[];
  /** Its input is another command's output (`|`, or after `||`). */
  piped: boolean;
  /** How many words came before the first input redirection; null without one. */
  inputRedirectAt: number | null;
  /** The control operator before it (`"start"` for the first). */
  sepBefore: string;
  /** Nesting: 0 at top level, more inside a subshell, group or compound command. */
  depth: number;
  /**
   * Where its standard output ends after its own redirections: the
   * command's output stream (`out`, the next command's input after a pipe),
   * the error stream (`err`, which the client shows the model too), or
   * somewhere the model never sees (`away`: a file, `/dev/null`, a
   * variable, a closed or unknown descriptor).
   */
  stdout: "out" | "err" | "away";
}

/** The shell a command was written for. */
export type Dialect = ShellDialect;

/** What the arguments are read against. */
export interface ArgsContext {
  dialect: Dialect;
  /** Absolute directory relative operands resolve against; null when unknown. */
  base: string | null;
  /** Anchor for making paths absolute. */
  processCwd: string;
  /** Shell operands may serve as directory evidence. */
  dirEvidence: boolean;
}
