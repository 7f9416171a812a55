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
import type { PsSegment } from "../shell/powershell/mod.ts";
import type { Dialect, ShellSegment, ShellWord } from "./types.ts";

/** The PowerShell reader, once `loadPowerShellReader` loaded it. */
let powershell: typeof import("../shell/powershell/mod.ts") | null = null;

/**
 * Loads the PowerShell reader, which only a turn holding a PowerShell call
 * needs: a turn of Bash searches never reads its lexer or its tables.
 */
export async function loadPowerShellReader(): Promise<void> {
  powershell ??=
    await (import(new URL("../shell/powershell/mod.ts", import.meta.url).href) as Promise<
      typeof import("../shell/powershell/mod.ts")
    >);
}

/** The PowerShell reader if `loadPowerShellReader` loaded it, else null. */
export function powershellReader(): typeof import("../shell/powershell/mod.ts") | null {
  return powershell;
}

/** A command split into segments. */
export interface Lexed {
  /** The searched text cannot be known: no evidence and no miss line. */
  ambiguous: boolean;
  segments: ShellSegment[];
}

type Fate = ShellSegment["stdout"];
type Redirect = Segment["redirects"][number];
type PsRedirect = PsSegment["redirects"][number];

/** Bash operators that send one descriptor (standard output unless one is named) to a file. */
const BASH_TO_FILE: ReadonlySet<string> = new Set([">", ">>", ">|"]);

/** Bash operators that send both output and errors to a file. */
const BASH_BOTH_TO_FILE: ReadonlySet<string> = new Set(["&>", "&>>"]);

/**
 * Follows a bash segment's redirections in order, as bash applies them,
 * tracking where descriptors 1 and 2 end. A duplication onto a descriptor
 * other than 1 or 2 leads somewhere the reader cannot see.
 */
function bashStdout(redirects: readonly Redirect[]): Fate {
  const fds: Record<string, Fate> = { "1": "out", "2": "err" };
  for (const r of redirects) {
    const fd = r.fd ?? "1";
    if (BASH_BOTH_TO_FILE.has(r.op)) {
      fds["1"] = "away";
      fds["2"] = "away";
    } else if (BASH_TO_FILE.has(r.op)) {
      fds[fd] = "away";
    } else if (r.op === ">&") {
      const to = r.target.text;
      if (/^[0-9]+$/.test(to)) fds[fd] = Object.hasOwn(fds, to) ? fds[to] : "away";
      else if (r.fd === null) {
        // `>&file` is `&>file`; `>&-` closes the descriptor.
        fds["1"] = "away";
        if (to !== "-") fds["2"] = "away";
      } else fds[fd] = "away";
    }
  }
  return fds["1"];
}

/** PowerShell redirections that take the success stream (1, or all with `*`) to a file. */
const PS_STDOUT_TO_FILE: ReadonlySet<string> = new Set([">", ">>", "1>", "1>>", "*>", "*>>"]);

function psStdout(seg: PsSegment): Fate {
  if (seg.assignedTo !== null) return "away";
  const away = (r: PsRedirect): boolean => r.target !== null && PS_STDOUT_TO_FILE.has(r.op);
  return seg.redirects.some(away) ? "away" : "out";
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
    stdout: bashStdout(seg.redirects),
  };
}

function powerShellSegment(seg: PsSegment): ShellSegment {
  return {
    name: powershell!.psCommandName(seg.words[0]),
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
    stdout: psStdout(seg),
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
  // Unread, a PowerShell command gives no evidence, as one the lexer cannot read.
  if (powershell === null) return { ambiguous: true, segments: [] };
  const parse = powershell.parsePowerShell(command);
  const ambiguous = !parse.ok || parse.backtickEscape || parse.subexpression || parse.group ||
    parse.scriptBlock || parse.hashtable || parse.hereString || parse.stopParsing;
  return { ambiguous, segments: parse.segments.map(powerShellSegment) };
}
