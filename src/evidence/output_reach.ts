/**
 * Whether a search segment surely ran and its output reached the model:
 * a search whose listing went to a file, to `/dev/null`, into a command
 * that drops or only counts its lines, or that a condition before it may
 * have skipped, proves nothing about what the agent saw. See
 * docs/search-credit.md "Output that never reached the model".
 *
 * @module
 */

import type { Dialect, ShellSegment } from "./types.ts";

/**
 * Commands that pass the lines they are piped on to their own output,
 * lowercased, by dialect. Any other consumer (`wc`, `grep -q`, `awk`,
 * `Measure-Object`, `Out-Null`) may drop or only count them.
 */
export const PASS_THROUGH_CONSUMERS: Readonly<Record<Dialect, ReadonlySet<string>>> = {
  bash: new Set(["head", "tail", "sort", "uniq", "cat", "less", "more", "tee", "nl", "column"]),
  powershell: new Set([
    "select-object",
    "select",
    "sort-object",
    "sort",
    "format-table",
    "ft",
    "format-list",
    "fl",
    "format-wide",
    "fw",
    "out-host",
    "oh",
    "out-string",
    "out-default",
    "write-output",
    "echo",
    "tee-object",
    "tee",
  ]),
};

/**
 * Commands that always succeed, so a search after `cmd &&` surely runs
 * (a directory change is read separately: a plain `cd` that fails makes
 * the whole call fail).
 */
export const ALWAYS_SUCCEED: ReadonlySet<string> = new Set([
  "true",
  ":",
  "echo",
  "printf",
  "pwd",
  "write-host",
  "write-output",
]);

/**
 * Words that open a conditional or loop body in bash. The lexer drops
 * them and reports only the body's nesting, which a subshell shares, so a
 * nested search in a command holding one of them may not have run.
 */
const CONDITIONAL_WORDS: readonly string[] = [
  "if",
  "elif",
  "else",
  "while",
  "until",
  "case",
  "for",
  "select",
];

/** Separators that feed a segment's output to the next one. */
const PIPES: ReadonlySet<string> = new Set(["|", "|&"]);

/** A count of zero (`head -n 0`, `-0`, `-n0`, `--lines=0`, `-First 0`) caps a consumer at nothing. */
function capsAtZero(segment: ShellSegment): boolean {
  return segment.words.slice(1).some((w) => /^(-{1,2}[a-z-]*=?)?0+$/i.test(w.text));
}

/**
 * The segment after `i` that closes the group `i` is nested in: the first
 * later segment at a smaller depth, or null when none follows.
 */
function groupEnd(segments: readonly ShellSegment[], i: number, depth: number): number | null {
  for (let j = i + 1; j < segments.length; j++) if (segments[j].depth < depth) return j;
  return null;
}

/**
 * True when what segment `i` writes reaches the model: its standard output
 * is not sent away, and every command it is piped into passes lines on.
 * A group's own redirection and pipe apply to the segments inside it.
 */
export function outputReaches(
  segments: readonly ShellSegment[],
  i: number,
  dialect: Dialect,
): boolean {
  let at = i;
  for (let steps = 0; steps <= segments.length; steps++) {
    const seg = segments[at];
    if (seg.stdout === "away") return false;
    // Sent to the error stream, it reaches the model whatever follows.
    if (seg.stdout === "err") return true;
    const next = segments[at + 1];
    if (next !== undefined && next.depth < seg.depth) {
      // Leaving a group: what follows its close decides, redirection or pipe.
      const end = groupEnd(segments, at, seg.depth);
      if (end === null) return true;
      const carrier = segments[end];
      if (carrier.words.length === 0) {
        if (carrier.stdout !== "out") return carrier.stdout === "err";
        if (!PIPES.has(segments[end + 1]?.sepBefore ?? "")) return true;
        at = end;
        continue;
      }
      if (!PIPES.has(carrier.sepBefore)) return true;
      if (!passesOn(carrier, dialect)) return false;
      at = end;
      continue;
    }
    if (next === undefined || !PIPES.has(next.sepBefore)) return true;
    if (next.depth > seg.depth || !passesOn(next, dialect)) return false;
    at += 1;
  }
  return false;
}

function passesOn(consumer: ShellSegment, dialect: Dialect): boolean {
  return PASS_THROUGH_CONSUMERS[dialect].has(consumer.name) && !capsAtZero(consumer);
}

/**
 * True when segment `i` may not have run: it follows `&&` after a command
 * that may fail (`test -f x && rg …`), or sits in a nested
 * body of a command that holds a conditional or loop. `isDirChange`
 * tells which segments change directory: a search after `cd x &&` is
 * read as running, since a failed change fails the whole call.
 */
export function maySkip(
  segments: readonly ShellSegment[],
  i: number,
  isDirChange: (j: number) => boolean,
  conditional: boolean,
): boolean {
  if (conditional && segments[i].depth > 0) return true;
  for (let j = i; j > 0; j--) {
    // After `||` the segment already counts as reading piped input.
    if (segments[j].sepBefore !== "&&") return false;
    const before = segments[j - 1];
    if (before.depth !== segments[j].depth) return true;
    if (!isDirChange(j - 1) && !ALWAYS_SUCCEED.has(before.name)) return true;
  }
  return false;
}

/** True when a bash command holds a word that opens a conditional or loop body. */
export function holdsConditional(command: string): boolean {
  const words = command.toLowerCase().split(/[\s;&|()]+/);
  return words.some((w) => CONDITIONAL_WORDS.includes(w));
}
