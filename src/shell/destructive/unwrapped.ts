/**
 * The shape of what unwrapping a command finds (wrappers.ts): the commands
 * that run behind its wrappers, the scripts they hand on, the commands run
 * once per input line. Types only, so the readers and the engine's shared
 * types can name them without loading the wrapper table.
 *
 * @module
 */

import type { Dialect } from "../dialect.ts";

/** A code string a wrapper runs. */
export interface Script {
  dialect: Dialect;
  text: string;
  /** Wrapper depth at which it should be parsed. */
  depth: number;
  /**
   * Given to `eval` or `Invoke-Expression` as an expression: its value,
   * not its text, is the script that runs.
   */
  evaluated?: boolean;
}

/** A command that runs behind the wrappers. */
export interface InnerCommand {
  /** Its argument vector, command word first. */
  words: string[];
  /** It gets the wrapper's stdin as extra arguments (`xargs`). */
  stdinAsArgs: boolean;
}

/**
 * A command `xargs -I` runs once per input line, the line put in place of
 * the token wherever the token appears in its words.
 */
export interface Template {
  words: string[];
  token: string;
}

/** What a command line runs once its wrappers are removed. */
export interface Unwrapped {
  /** The commands that run (the command itself when it is no wrapper). */
  commands: InnerCommand[];
  /** Commands completed per input line (`xargs -I% sh -c %`). */
  templates: Template[];
  /** Code strings run by wrappers, to be parsed again. */
  scripts: Script[];
  /** A shell that reads its script from its stdin, or null. */
  stdinShell: Dialect | null;
  /** Some wrapper's inner command could not be determined (too deep). */
  opaque: boolean;
  /** Script files a shell runs (`sh s.sh`); absent when none. */
  scriptFiles?: string[];
  /** `NAME=value` words a wrapper sets for its command (`env`, `sudo`); absent when none. */
  assignments?: string[];
}
