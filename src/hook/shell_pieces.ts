/**
 * A shell command cut into the path-like pieces the self-protection reader
 * (`shell_protect.ts`) compares with the control surface: every word of
 * every segment (arguments, assignments, redirection targets, here-texts),
 * with the values the line's own variables give it, each marked live when
 * a program may write or run it. A line the Bash reader cannot take apart
 * (PowerShell, cmd.exe, or past its limits) is cut at every break instead.
 *
 * @module
 */

import {
  Expander,
  ExpansionTooLarge,
  lineValues,
  parseBash,
  type Segment,
} from "../shell/bash/mod.ts";
import { readOnlyKind } from "../shell/readonly/mod.ts";
import type { ShellDialect } from "../shell/dialect.ts";
import type { WorkBudget } from "../platform/budget.ts";
import {
  DIRECTORY_CHANGERS,
  DIRECTORY_OPTIONS,
  EMPTY_MAKERS,
  GIT_INDEX_ONLY,
  makesVenv,
  OWN_HARMLESS,
  OWN_PROGRAMS,
  PRINTERS,
  RUNNERS,
  SOURCERS,
  STDIN_COPIERS,
} from "./shell_words.ts";

/** Characters that end a path-like piece inside code or a long word. */
export const PIECE_BREAK = /[\s'"`(),;<>|&={}]+/;

/**
 * The same inside one Bash word, where a colon also ends a piece
 * (`docker run -v ~/.claude:/c`); the whole word stays a piece too, so a
 * drive letter (`C:\x`) is still read as written.
 */
const WORD_PART_BREAK = /[\s'"`(),;:<>|&={}]+/;

/** One path-like piece of a command, with what the line does with it. */
export interface Piece {
  text: string;
  /** True when a program of the segment runs or writes it (not only prints or reads it). */
  live: boolean;
  /** Set for the arguments of a command that changes directory (`cd ~`). */
  dirChange?: boolean;
  /** Set where a program may stand: a command word, or any piece of code. */
  runs?: boolean;
  /** Set for the first word of a command, where `.` sources a script instead of naming a folder. */
  first?: boolean;
  /** Set for the word that names the program a segment runs, whole (a bare one is found on PATH). */
  program?: boolean;
  /** How a denial shows a path the line writes without spelling it (`folder_writes.ts`). */
  shown?: string;
  /** Set when the piece stands for anything below its folder (`folder_writes.ts`). */
  subtree?: boolean;
  /** For a subtree piece, the file-name patterns of what it writes; absent for any name. */
  names?: readonly string[];
  /** Set for a subtree piece of a program that deletes what it reaches. */
  removes?: boolean;
  /** Set for names that may be any file (`unread_names.ts`): every row of the table. */
  anywhere?: boolean;
  /** Set for the arguments of a program that only deletes or makes empty folders (`EMPTY_MAKERS`). */
  clears?: boolean;
  /** Set for a piece cut from inside a word; the word itself comes just before its parts. */
  part?: boolean;
  /**
   * Set for an absolute part: what stood before it in the word may be its
   * folder (`homedir() + '/.claude/…'`, `$ENV{HOME}/.claude/…`).
   */
  glued?: boolean;
}

/** A text lowercased, for the table's case-folded comparisons. */
export function lower(s: string): string {
  return s.toLowerCase();
}

/** The last name of a path with either separator, lowercased. */
export function baseNameOf(path: string): string {
  const parts = path.replaceAll("\\", "/").split("/");
  return lower(parts[parts.length - 1] ?? "");
}

/** The words of a segment as the matcher reads them, split into path-like pieces. */
export function splitPieces(text: string): string[] {
  const out = [text];
  if (WORD_PART_BREAK.test(text)) {
    for (const piece of text.split(WORD_PART_BREAK)) {
      if (piece !== "" && piece !== text) out.push(piece);
    }
  }
  return out;
}

/** The index of the word a runner prefix (`sudo`, `env X=1`, `timeout 5`) runs. */
export function commandWordAt(segment: Segment): number {
  let at = 0;
  while (at < segment.words.length) {
    const text = segment.words[at].text;
    const runner = RUNNERS.has(baseNameOf(text));
    if (!(runner || text.startsWith("-") || text.includes("=") || /^[0-9.]+[smhd]?$/.test(text))) {
      break;
    }
    at++;
  }
  return at;
}

/** The program a segment runs, as its first word names it. */
export function programOf(segment: Segment): string {
  return baseNameOf(segment.words[0]?.text ?? "");
}

/** True for a segment that only reads, by the read-only check or an index-only git command. */
export function readsOnly(dialect: ShellDialect, segment: Segment): boolean {
  const words = segment.words.map((w) => w.text);
  if (programOf(segment) === "git") {
    const sub = words.slice(1).find((w) => !w.startsWith("-"));
    if (sub !== undefined && GIT_INDEX_ONLY.has(sub) && segment.redirects.length === 0) {
      return true;
    }
  }
  if (OWN_PROGRAMS.has(programOf(segment)) && segment.redirects.length === 0) {
    return words[1] !== undefined && OWN_HARMLESS.has(words[1]);
  }
  return readOnlyKind(dialect, segment.raw) !== null;
}

/** The pieces of a parsed Bash command, each marked live or not. */
function bashPieces(
  dialect: ShellDialect,
  segments: readonly Segment[],
  expand: (text: string) => string[],
): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const next = segments[i + 1];
    const pipedOn = next !== undefined && next.piped && !readsOnly(dialect, next);
    const program = programOf(segment);
    const readOnly = readsOnly(dialect, segment);
    const printer = PRINTERS.has(program);
    const wordsLive = pipedOn || (!readOnly && !printer);
    const dirChange = DIRECTORY_CHANGERS.has(program);
    const runsAt = commandWordAt(segment);
    const sourced = SOURCERS.has(program) ? segment.words[1] : undefined;
    const run = segment.words.slice(runsAt).map((w, k) => k === 0 ? baseNameOf(w.text) : w.text);
    const clears = EMPTY_MAKERS.has(run[0] ?? "") || makesVenv(run);
    for (const word of [...segment.assignments, ...segment.words]) {
      const runs = word === segment.words[0] || word === segment.words[runsAt];
      // A word built from the line's own variables (`p=.cla; rm -rf "${p}ude"`) is also its values.
      const values = expand(word.text).filter((v) => v !== word.text);
      for (const piece of [...splitPieces(word.text), ...values.flatMap(splitPieces)]) {
        out.push({
          text: piece,
          live: word === sourced ? pipedOn : wordsLive,
          dirChange,
          runs: runs || piece !== word.text,
          first: word === segment.words[0] && piece === word.text,
          ...(runs && piece === word.text ? { program: true } : {}),
          ...(clears ? { clears } : {}),
          ...(piece === word.text
            ? {}
            : { part: true, ...(piece.startsWith("/") ? { glued: true } : {}) }),
        });
      }
      for (const braced of word.braces ?? []) {
        out.push({ text: braced, live: wordsLive });
      }
    }
    for (const redirect of segment.redirects) {
      if (redirect.op === "<<" || redirect.op === "<<-" || redirect.op === "<") continue;
      out.push({ text: redirect.target.text, live: true });
    }
    const stdinLive = pipedOn || (!readOnly && !STDIN_COPIERS.has(program));
    for (const text of segment.stdinTexts) {
      for (const piece of splitPieces(text)) out.push({ text: piece, live: stdinLive, runs: true });
    }
  }
  return out;
}

/**
 * The pieces of a command the Bash reader cannot take apart (PowerShell,
 * cmd.exe, or a Bash line past its limits): the whole text, cut at every
 * break, live unless the read-only check accepts the whole command.
 */
function rawPieces(dialect: ShellDialect, command: string): Piece[] {
  const live = readOnlyKind(dialect, command) === null;
  const out: Piece[] = [];
  for (const statement of command.replace(/`(.)/g, "$1").split(/[;|&\n{}()]+/)) {
    const words = statement.split(PIECE_BREAK).filter((p) => p !== "");
    const sourcing = SOURCERS.has(lower(words[0] ?? ""));
    words.forEach((text, at) =>
      out.push({ text, live: live && !(sourcing && at === 1), runs: true, first: at === 0 })
    );
  }
  return out;
}

/**
 * True when the piece at `at` names GateGuard's program and what follows
 * is not one of its reporting subcommands: the hook, `init` or `trust` run
 * by hand, whatever the input.
 */
export function runsOwnHook(pieces: readonly Piece[], at: number): boolean {
  if (!pieces[at].runs || !OWN_PROGRAMS.has(baseNameOf(pieces[at].text))) return false;
  const next = ownSubcommand(pieces, at);
  return next === undefined || !OWN_HARMLESS.has(next);
}

/** The word after GateGuard's program at `at` (its subcommand, or an option), if any. */
export function ownSubcommand(pieces: readonly Piece[], at: number): string | undefined {
  return pieces.slice(at + 1).find((p) => p.text !== pieces[at].text)?.text;
}

/**
 * Whether the line moves to another folder (`cd`, `pushd`, `-C`-style
 * options). `git rev-parse --git-dir` only asks where the git folder is.
 */
export function changesDirectory(pieces: readonly Piece[]): boolean {
  return pieces.some((p, at) =>
    DIRECTORY_CHANGERS.has(lower(p.text)) ||
    (DIRECTORY_OPTIONS.has(p.text) && pieces[at - 1]?.text !== "rev-parse")
  );
}

/**
 * The pieces of `command`, read as Bash when it parses, whether it changes
 * directory, and its Bash segments (null when it was not read as Bash).
 */
export function commandPieces(
  dialect: ShellDialect,
  command: string,
  budget?: WorkBudget,
): CommandPieces {
  // The shell gate reads one command twice (its hits, then where a deletion is aimed):
  // the second read, which charges no budget, reuses the first.
  const known = lastRead;
  if (
    known === null || known.dialect !== dialect || known.command !== command ||
    (budget !== undefined && known.budget !== budget)
  ) {
    const segments = dialect === "bash" ? bashSegments(command) : null;
    const pieces = segments !== null
      ? bashPieces(dialect, segments, expanderOf(segments, budget))
      : rawPieces(dialect, command);
    const read = { pieces, movesDirectory: changesDirectory(pieces), segments };
    lastRead = { dialect, command, budget, read };
    return { ...read, pieces: [...pieces] };
  }
  return { ...known.read, pieces: [...known.read.pieces] };
}

/** A command's pieces, whether it changes directory, and its Bash segments (null unread as Bash). */
export interface CommandPieces {
  pieces: Piece[];
  movesDirectory: boolean;
  segments: readonly Segment[] | null;
}

/** The command `commandPieces` read last, with the budget it was charged to. */
let lastRead: {
  dialect: ShellDialect;
  command: string;
  budget: WorkBudget | undefined;
  read: CommandPieces;
} | null = null;

/**
 * The values a word takes from what the line assigns (`lineValues`), read
 * with the call's work budget; a line whose values grow past the
 * expander's bound is read without them, as the destructive gate reads it.
 */
function expanderOf(segments: readonly Segment[], budget?: WorkBudget): (text: string) => string[] {
  const values = lineValues(
    segments,
    (i) => segments[i].stdinTexts.length > 0 ? [...segments[i].stdinTexts] : null,
  );
  if (values.vars.size === 0 && values.refs.size === 0) return () => [];
  const expander = new Expander(values, (units) => budget?.spend(units, "self-protection") ?? true);
  return (text) => {
    if (!/\$/.test(text)) return [];
    try {
      return expander.texts(text);
    } catch (err) {
      if (err instanceof ExpansionTooLarge) return [];
      throw err;
    }
  };
}

/** Bash code handed to a shell, as segments; null when it does not parse. */
export function bashSegments(code: string): readonly Segment[] | null {
  const parse = parseBash(code);
  return parse.ok ? parse.segments : null;
}
