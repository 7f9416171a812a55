/**
 * The Bash side of the destructive detector: every command is read with
 * the values its line gives (`shell/bash/expansions.ts`: `x=rm; $x -rf /`,
 * `${x,,}`, `printf -v`, `for … in`, `hash -p`), text piped or redirected
 * into a command is handed to it as stdin (what `echo` and `printf` write,
 * here-strings, `< <(…)`, carried along pipelines and into piped groups by
 * `shell/destructive/pipe_flow.ts`), scripts a shell reads from a process
 * substitution are scanned, and a script decoded on the way into a shell
 * or interpreter (`base64 -d`, `rev`, `tr`) or fetched from the network
 * (`curl`, `wget -O -`) is taken as able to do anything. A script file the
 * line writes and then runs (`echo … > s.sh && sh s.sh`) is read from what
 * it wrote (`shell/destructive/line_files.ts`). Every simple command is handed to the engine through the
 * shared wrapper reading.
 *
 * @module
 */

import { argv, parseBash } from "../bash/mod.ts";
import type { Segment } from "../bash/mod.ts";
import { programName } from "../programs/mod.ts";
import { unwrapCommand, type Unwrapped } from "./wrappers.ts";
import { filesRun, LineFiles, type WrittenFile } from "./line_files.ts";
import { afford, deeper, type Engine, spend, type Verdict, type Walk } from "./detect_types.ts";
import { Expander, ExpansionTooLarge, lineValues } from "../bash/mod.ts";
import { producedTexts } from "../bash/mod.ts";
import {
  readsStdinCode,
  stdinUnreadable,
  unreadableHit,
  unreadableMarkers,
  unreadableOutput,
  type UnreadableRule,
  unreadableWord,
} from "./unreadable.ts";
import { codeEnvHit } from "./code_env.ts";
import { PipeFlow, type Stream } from "./pipe_flow.ts";

/** Programs that run a script file named by an operand, which may be a `<( … )`. */
export const SCRIPT_READERS: ReadonlySet<string> = new Set([
  "source",
  ".",
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
]);

/** How the texts fed to a command are read: as written, or with the line's values. */
type Reader = (text: string) => string[];

const AS_WRITTEN: Reader = (text) => [text];

/** Most texts `read` or `mapfile` take their values from; with more, the values stay unknown. */
const MAX_READ_TEXTS = 64;

/**
 * What a command writes into a pipe: the text `echo` or `printf`
 * produces, else its arguments (a program's output is unknown, and its
 * arguments are the closest the line shows), with a marker for output a
 * decoder or fetcher makes that cannot be read from the line.
 */
function written(words: readonly string[]): string[] {
  const produced = producedTexts(words);
  if (produced !== null) return produced;
  const args = words.length > 1 ? [words.slice(1).join(" ")] : [];
  return [...args, ...unreadableMarkers(unreadableOutput(words))];
}

/** Texts a segment feeds its own stdin: here-documents, here-strings and `< <( … )`. */
function ownStdin(seg: Segment, read: Reader, files: LineFiles | null = null): string[] {
  return [
    ...seg.stdinTexts.flatMap(read),
    ...redirectedSubstitutions(seg).flatMap((w) => substitutionOutput(w)),
    // A file the line wrote earlier (`echo … > f; sh < f`), unreadable when fetched or decoded.
    ...redirectedFiles(seg, files).flatMap((f) => [...f.texts, ...unreadableMarkers(f.hidden)]),
  ];
}

/** The files written earlier on the line that a segment's stdin is redirected from. */
function redirectedFiles(seg: Segment, files: LineFiles | null): WrittenFile[] {
  if (files === null || files.empty) return [];
  return seg.redirects
    .filter((r) => r.op === "<" && (r.fd === null || r.fd === "0"))
    .map((r) => files.get(r.target.text))
    .filter((f): f is WrittenFile => f !== undefined);
}

/**
 * The visible input of each `read` or `mapfile`, as the line writes it:
 * the segments are passed in order once, however many ask.
 */
function stdinAsWritten(
  segments: readonly Segment[],
  outer: readonly string[],
): (index: number) => string[] | null {
  const flow = new PipeFlow(outer);
  let next = 0;
  return (index) => {
    let texts: string[] | null = null;
    for (; next <= index && next < segments.length; next++) {
      const seg = segments[next];
      const stream = flow.enter(seg, ownStdin(seg, AS_WRITTEN));
      if (next === index && stream.texts.length <= MAX_READ_TEXTS) texts = [...stream.texts];
      const words = argv(seg);
      flow.wrote(seg.depth, written(words), unreadableOutput(words));
    }
    return texts;
  };
}

/**
 * A script reader (`source`, `.`, a shell) given a `<( … )` operand runs
 * what the substituted command prints; that text is only known as the
 * command's source, so it is read with the fail-closed token scan.
 */
function readsProcessSubstitution(words: readonly string[]): boolean {
  return words.some((w) => SCRIPT_READERS.has(programName(w))) &&
    words.some((w) => w.startsWith("<("));
}

/** The `<( … )` a command's stdin is redirected from (`bash < <(echo …)`). */
function redirectedSubstitutions(seg: Segment): string[] {
  return seg.redirects
    .filter((r) => r.op === "<" && (r.fd === null || r.fd === "0"))
    .map((r) => r.target.text)
    .filter((t) => t.startsWith("<("));
}

/** The command list inside a `<( … )`, `$( … )` or backquoted word; null for any other word. */
function substitutedCommand(word: string): string | null {
  if ((word.startsWith("<(") || word.startsWith("$(")) && word.endsWith(")")) {
    return word.slice(2, -1);
  }
  return word.length > 1 && word.startsWith("`") && word.endsWith("`") ? word.slice(1, -1) : null;
}

/**
 * What a substitution prints, as far as it can be told: what `echo` and
 * `printf` write, the arguments of other commands, and their stdin texts.
 * A program reading such a file (`psql -f <(echo "drop table x")`) or a
 * shell reading it as its stdin consumes that text.
 */
function substitutionOutput(word: string): string[] {
  const inner = substitutedCommand(word);
  if (inner === null) return [];
  return parseBash(inner).segments.flatMap((seg) => [...written(argv(seg)), ...seg.stdinTexts]);
}

/** Whether a Bash command line is destructive. */
export function bashVerdict(
  command: string,
  walk: Walk,
  stdin: readonly string[],
  engine: Engine,
): Verdict {
  const parsed = parseBash(command);
  const segments = parsed.segments;
  let expander: Expander;
  try {
    // `read` and `mapfile` take their values from the input as written.
    const values = lineValues(segments, stdinAsWritten(segments, stdin), new Set(parsed.functions));
    // What the line assigns may reach the programs it runs (`GIT_PAGER=… git log`).
    if (values.vars.size > 0) {
      const given = [...values.vars].map(([name, list]) =>
        [name, list.map((v) => v.join(" "))] as const
      );
      walk = { ...walk, env: new Map([...walk.env ?? [], ...given]) };
      // A variable a program runs as code (`PROMPT_COMMAND`, `EDITOR`, …) runs its value.
      for (const [name, list] of given) {
        for (const value of list) {
          const hit = codeEnvHit(name, value, walk, engine);
          if (hit) return hit;
        }
      }
    }
    const inner = walk;
    expander = new Expander(values, (units) => spend(inner, units));
    const read: Reader = (text) => expander.texts(text);
    const flow = new PipeFlow(stdin);
    const files = new LineFiles();
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i];
      const stream = flow.enter(seg, ownStdin(seg, read, files));
      const readings = expander.argv(seg.words);
      for (const [n, words] of readings.entries()) {
        if (words.length === 0) continue;
        // Each further reading of a command costs another analysis.
        if (n > 0 && !afford(walk, seg.raw.length)) return engine.raw(command, walk);
        const hit = commandVerdict(seg, words, stream, files, walk, engine);
        if (hit) return hit;
      }
      for (const words of readings) {
        const output = written(words);
        const hidden = unreadableOutput(words);
        files.record(seg, words, output, hidden, stream);
        flow.wrote(seg.depth, output, hidden);
      }
    }
  } catch (err) {
    if (!(err instanceof ExpansionTooLarge)) throw err;
    return engine.raw(command, walk);
  }
  return parsed.ok ? null : engine.raw(command, walk);
}

/** One reading of the command `seg`, fed the texts of `stream`. */
function commandVerdict(
  seg: Segment,
  words: readonly string[],
  stream: Stream,
  files: LineFiles,
  walk: Walk,
  engine: Engine,
): Verdict {
  const processSubs = words.filter((w) => w.startsWith("<("));
  const runsProcessSubs = readsProcessSubstitution(words);
  const substituted = processSubs.flatMap(substitutionOutput);
  const stdin = substituted.length === 0 ? stream.texts : [...substituted, ...stream.texts];
  const u = unwrapCommand(words, walk.depth);
  // A program named by a variable may be a shell reading its stdin (`curl … | $SHELL`).
  const readsCode = u.stdinShell !== null || readsStdinCode(words) || /[$`]/.test(words[0]);
  const hit = engine.unwrapped(u, stdin, walk, seg.raw) ?? writtenFilesHit(u, files, walk, engine);
  if (hit) return hit;
  // A script whose text a decoder or fetcher writes cannot be read: from a
  // pipe, a redirected `<( … )` or file, or a `<( … )` a script reader runs.
  const fromFile = redirectedFiles(seg, files).find((f) => f.hidden !== null)?.hidden ?? null;
  const fed = readsCode
    ? stream.hidden ?? stdinUnreadable(stdin) ?? fromFile ??
      firstUnreadable(redirectedSubstitutions(seg))
    : null;
  const unreadable = fed ?? (runsProcessSubs ? firstUnreadable(processSubs) : null);
  if (unreadable !== null) {
    const found = unreadableHit(walk, unreadable);
    if (found) return found;
  }
  if (runsProcessSubs) {
    for (const w of processSubs) {
      const inner = engine.raw(w, walk);
      if (inner) return inner;
    }
  }
  return null;
}

/** A script file the command runs that an earlier command of the line wrote: its text as code. */
function writtenFilesHit(u: Unwrapped, files: LineFiles, walk: Walk, engine: Engine): Verdict {
  if (files.empty) return null;
  for (const run of filesRun(u.commands, u.scriptFiles ?? [])) {
    const file = files.get(run.path);
    if (file === undefined) continue;
    const unreadable = file.hidden === null ? null : unreadableHit(walk, file.hidden);
    if (unreadable) return unreadable;
    for (const text of file.texts) {
      const hit = run.interpreter === null
        ? engine.code("bash", text, deeper(walk), [])
        : engine.rules(run.interpreter.name, [run.interpreter.flag, text], [], walk);
      if (hit) return hit;
    }
  }
  return null;
}

/** The rule of the first of `words` whose substitution a decoder or fetcher writes, or null. */
function firstUnreadable(words: readonly string[]): UnreadableRule | null {
  for (const w of words) {
    const rule = unreadableWord(w);
    if (rule !== null) return rule;
  }
  return null;
}
