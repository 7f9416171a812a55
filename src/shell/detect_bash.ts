/**
 * The Bash side of the destructive detector: every command is read with
 * the values its line gives (`shell/expansions.ts`: `x=rm; $x -rf /`,
 * `${x,,}`, `printf -v`, `for … in`, `hash -p`), text piped or redirected
 * into a command is handed to it as stdin (what `echo` and `printf` write,
 * here-strings, `< <(…)`), scripts a shell reads from a process
 * substitution are scanned, and a script decoded on the way into a shell
 * or interpreter (`base64 -d`, `rev`, `tr`) is taken as able to do
 * anything. Every simple command is handed to the engine through the
 * shared wrapper reading.
 *
 * @module
 */

import { argv, parseBash } from "./parser.ts";
import type { Segment } from "./words.ts";
import { programName } from "./options.ts";
import { unwrapCommand } from "./wrappers.ts";
import {
  afford,
  type Engine,
  spend,
  UNREADABLE_STDIN,
  type Verdict,
  type Walk,
} from "./detect_types.ts";
import { Expander, ExpansionTooLarge, lineValues } from "./expansions.ts";
import { producedTexts } from "./printf.ts";
import {
  decodedHit,
  decodedIntoInterpreter,
  decodedWord,
  decodesWords,
  readsStdinCode,
} from "./packs/interpreters.ts";

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

/**
 * What a command earlier in a pipeline writes: the text `echo` or `printf`
 * produces, else its arguments (a program's output is unknown, and its
 * arguments are the closest the line shows).
 */
function written(words: readonly string[]): string[] {
  const produced = producedTexts(words);
  if (produced !== null) return produced;
  const args = words.length > 1 ? [words.slice(1).join(" ")] : [];
  // A decoder's output cannot be read from the line (`base64 -d … | psql`).
  return decodesWords(words) ? [...args, UNREADABLE_STDIN] : args;
}

/**
 * Texts that reach the stdin of `segments[index]`: its here-documents and
 * here-strings and, when it is piped, the words and stdin texts of the
 * commands before it in the pipeline (a group or subshell piped into it
 * included). Null once the call's character budget is spent: the command
 * is then read with the fail-closed token scan.
 */
function bashStdin(
  segments: readonly Segment[],
  index: number,
  walk: Walk,
  read: Reader,
  readings: (seg: Segment) => string[][],
): string[] | null {
  const seg = segments[index];
  const out = seg.stdinTexts.flatMap(read);
  out.push(...redirectedSubstitutions(seg).flatMap((w) => substitutionOutput(w)));
  if (seg.sepBefore !== "|" && seg.sepBefore !== "|&") return out;
  for (let j = index - 1; j >= 0; j--) {
    const prev = segments[j];
    if (prev.depth < seg.depth) break;
    for (const words of readings(prev)) out.push(...written(words));
    out.push(...prev.stdinTexts.flatMap(read));
    // Every element of a long pipeline looks back over all the others.
    if ((walk.budget.chars -= prev.raw.length + 1) < 0) return null;
    if (prev.depth === seg.depth && prev.sepBefore !== "|" && prev.sepBefore !== "|&") break;
  }
  return out;
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
    const asWritten = (seg: Segment): string[][] => [argv(seg)];
    const values = lineValues(
      segments,
      (i) => bashStdin(segments, i, walk, AS_WRITTEN, asWritten),
      new Set(parsed.functions),
    );
    // A pipeline too long to follow into `read` leaves variables unknown.
    if (walk.budget.chars < 0) return engine.raw(command, walk);
    // What the line assigns may reach the programs it runs (`GIT_PAGER=… git log`).
    if (values.vars.size > 0) {
      const given = [...values.vars].map(([name, list]) =>
        [name, list.map((v) => v.join(" "))] as const
      );
      walk = { ...walk, env: new Map([...walk.env ?? [], ...given]) };
    }
    const inner = walk;
    expander = new Expander(values, (units) => spend(inner, units));
    // Every element of a pipeline reads the ones before it: each is expanded once.
    const memo = new Map<Segment, string[][]>();
    const readings = (seg: Segment): string[][] => {
      const known = memo.get(seg);
      if (known !== undefined) return known;
      const fresh = expander.argv(seg.words);
      memo.set(seg, fresh);
      return fresh;
    };
    const read: Reader = (text) => expander.texts(text);
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i];
      const piped = bashStdin(segments, i, walk, read, readings);
      if (piped === null) return engine.raw(command, walk);
      for (const [n, words] of readings(seg).entries()) {
        if (words.length === 0) continue;
        // Each further reading of a command costs another analysis.
        if (n > 0 && !afford(walk, seg.raw.length)) return engine.raw(command, walk);
        const hit = commandVerdict(segments, i, words, [...piped, ...stdin], walk, engine);
        if (hit) return hit;
      }
    }
  } catch (err) {
    if (!(err instanceof ExpansionTooLarge)) throw err;
    return engine.raw(command, walk);
  }
  return parsed.ok ? null : engine.raw(command, walk);
}

/** One reading of the command at `segments[index]`, fed `stdin`. */
function commandVerdict(
  segments: readonly Segment[],
  index: number,
  words: readonly string[],
  stdin: readonly string[],
  walk: Walk,
  engine: Engine,
): Verdict {
  const seg = segments[index];
  const segStdin = [
    ...words.filter((w) => w.startsWith("<(")).flatMap(substitutionOutput),
    ...stdin,
  ];
  const u = unwrapCommand(words, walk.depth);
  const readsCode = u.stdinShell !== null || readsStdinCode(words);
  const hit = engine.unwrapped(u, segStdin, walk, seg.raw) ??
    (readsCode ? decodedIntoInterpreter(segments, index, walk) : null) ??
    // A script file or stdin whose text a decoder writes cannot be read.
    ((readsCode && redirectedSubstitutions(seg).some(decodedWord)) ||
        (readsProcessSubstitution(words) && words.some((w) => w.startsWith("<(") && decodedWord(w)))
      ? decodedHit(walk)
      : null);
  if (hit) return hit;
  if (readsProcessSubstitution(words)) {
    for (const w of words) {
      const inner = w.startsWith("<(") ? engine.raw(w, walk) : null;
      if (inner) return inner;
    }
  }
  return null;
}
