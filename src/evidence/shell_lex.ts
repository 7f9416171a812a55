/**
 * The shared shell lexers, seen from the search evidence: a command split
 * into segments of words, or marked ambiguous when the text a search saw
 * cannot be known (command or process substitution, here-documents,
 * PowerShell backtick escapes, subexpressions and script blocks, unbalanced
 * or over-long input). Bash brace expansions are applied, as bash would
 * before running the command.
 *
 * @module
 */

import { commandName, parseBash } from "../shell/bash/mod.ts";
import type { Segment } from "../shell/bash/mod.ts";
import { parsePowerShell } from "../shell/powershell/mod.ts";
import { psCommandName } from "../shell/powershell/mod.ts";
import type { PsSegment } from "../shell/powershell/mod.ts";
import type { Dialect, ShellSegment, ShellWord } from "./types.ts";

/** A command split into segments. */
export interface Lexed {
  /** The searched text cannot be known: no evidence and no miss line. */
  ambiguous: boolean;
  segments: ShellSegment[];
}

function bashSegment(seg: Segment): ShellSegment {
  const words: ShellWord[] = [];
  let inputRedirectAt: number | null = null;
  seg.words.forEach((w, i) => {
    if (seg.inputRedirectAt === i) inputRedirectAt = words.length;
    if (w.braces === null) words.push(w);
    else for (const text of w.braces) words.push({ ...w, text });
  });
  if (seg.inputRedirectAt !== null && seg.inputRedirectAt >= seg.words.length) {
    inputRedirectAt = words.length;
  }
  return {
    name: commandName(seg.words[0]),
    words,
    piped: seg.piped,
    inputRedirectAt,
    sepBefore: seg.sepBefore,
    depth: seg.depth,
  };
}

function powerShellSegment(seg: PsSegment): ShellSegment {
  return {
    name: psCommandName(seg.words[0]),
    words: seg.words.map((w) => ({
      text: w.text,
      quoted: w.quoted,
      expands: w.expands,
      globs: false,
      parts: w.parts,
      parameter: w.parameter,
    })),
    piped: seg.piped,
    inputRedirectAt: seg.stdinRedirected ? 0 : null,
    sepBefore: seg.sepBefore,
    depth: seg.depth,
  };
}

/** Splits `command` with the project's lexer for `dialect`. Never throws. */
export function lexShell(command: string, dialect: Dialect): Lexed {
  if (dialect === "bash") {
    const parse = parseBash(command);
    const ambiguous = !parse.ok || parse.commandSubstitution || parse.processSubstitution ||
      parse.heredoc;
    return { ambiguous, segments: parse.segments.map(bashSegment) };
  }
  const parse = parsePowerShell(command);
  const ambiguous = !parse.ok || parse.backtickEscape || parse.subexpression || parse.group ||
    parse.scriptBlock || parse.hashtable || parse.hereString || parse.stopParsing;
  return { ambiguous, segments: parse.segments.map(powerShellSegment) };
}
