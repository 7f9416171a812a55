/**
 * Shell writes to an agent's `.env` file whose result can be read before
 * the command runs (the `env-file` rows of the control surface). A `.env`
 * file is the agent's ordinary work, and `cp .env.example .env` or
 * `echo KEY=value >> .env` its usual way of writing one, so such a write is
 * judged by the text it leaves, as a file tool's would be
 * (`setup/env_file_weakening.ts`), instead of counting as any write.
 *
 * Only the plainest forms are read, on a line of nothing else: `cp` of one
 * literal file onto the target, `echo` of literal words redirected to it,
 * and a here-document whose body is literal (its delimiter quoted, or no
 * `$`, backquote or backslash in it) given to `cat` redirected to the
 * target or to `tee TARGET`: the agent's usual way of writing a whole file.
 * A line with any other command (another program, a substitution, a write
 * elsewhere) leaves it a write whose result cannot be told. VS Code's
 * settings are judged the same way (`terminalSettingsWeakenings`, which
 * reads a `.env` file's text as `envFileWeakenings` does).
 *
 * @module
 */

import type { Segment, Word } from "../shell/bash/mod.ts";
import type { FsPort } from "../platform/fs_port.ts";
import { absolutePath, formatPath } from "../file_facts/paths.ts";
import { terminalSettingsWeakenings } from "../setup/env_file_weakening.ts";
import { commandWordAt, programOf } from "./shell_pieces.ts";

/** Largest file read as a copy's source or target. */
const MAX_ENV_BYTES = 256 * 1024;

/** Options of `cp` that change nothing about the text written. */
const PLAIN_CP_OPTIONS = /^-[fipv]+$/;

/** A target written with the text it will hold: null text for "cannot tell". */
interface JudgedWrite {
  /** The target as the line spells it. */
  target: string;
  /** The target's text afterwards, given its text before (null: missing). */
  after: (before: string | null) => string;
}

/** Whether a word is one literal name: nothing expanded, no wildcard, no braces. */
function literal(word: Word): boolean {
  return !word.expands && !word.globs && word.braces === null && word.text !== "";
}

/** `cp [-fipv] SOURCE TARGET`, with the source's text read through `fs`. */
function copyWrite(
  segment: Segment,
  args: readonly Word[],
  fs: FsPort,
  cwd: string,
): JudgedWrite | null {
  if (segment.redirects.length > 0) return null;
  let at = 0;
  while (at < args.length && PLAIN_CP_OPTIONS.test(args[at].text)) at++;
  if (args[at]?.text === "--") at++;
  const names = args.slice(at);
  if (names.length !== 2 || !names.every(literal) || names[0].text.startsWith("-")) return null;
  const source = fs.readTextBounded(placed(names[0].text, cwd), MAX_ENV_BYTES);
  if (source === null) return null;
  return { target: names[1].raw, after: () => source };
}

/** `echo [-n] WORDS… > TARGET` or `>> TARGET`, every word literal and free of backslashes. */
function echoWrite(segment: Segment, args: readonly Word[]): JudgedWrite | null {
  const [redirect, ...others] = segment.redirects;
  if (redirect === undefined || others.length > 0 || segment.stdinTexts.length > 0) return null;
  if (!writesTo(redirect.op)) return null;
  if (redirect.fd !== null && redirect.fd !== "1") return null;
  if (!literal(redirect.target)) return null;
  const bare = args[0]?.text === "-n";
  const words = bare ? args.slice(1) : args;
  // `-e`, `-E` and backslashes change what some echo writes (dash reads `\0114` as `L`).
  if (words.some((w) => w.expands || w.globs || w.braces !== null || w.text.includes("\\"))) {
    return null;
  }
  if (words[0]?.text.startsWith("-")) return null;
  const text = words.map((w) => w.text).join(" ") + (bare ? "" : "\n");
  const append = redirect.op === ">>";
  return { target: redirect.target.raw, after: (before) => append ? (before ?? "") + text : text };
}

/** Whether `op` writes its target: `>`, `>>` or `>|`. */
function writesTo(op: string): boolean {
  return op === ">" || op === ">>" || op === ">|";
}

/**
 * The literal body of the segment's one here-document, or null: a body
 * under an unquoted delimiter is read by the shell (`$`, backquotes,
 * backslashes), so it counts only when it holds none of them.
 */
function literalHeredoc(segment: Segment): string | null {
  const docs = segment.redirects.filter((r) => r.op === "<<" || r.op === "<<-");
  if (docs.length !== 1 || segment.stdinTexts.length !== 1) return null;
  const body = segment.stdinTexts[0];
  return docs[0].target.quoted || !/[$`\\]/.test(body) ? body : null;
}

/** `cat <<'EOF' > TARGET` (or `>>`): the here-document's body, written as it is. */
function catWrite(segment: Segment, args: readonly Word[]): JudgedWrite | null {
  if (args.length > 0 && !(args.length === 1 && args[0].text === "-")) return null;
  const body = literalHeredoc(segment);
  const outputs = segment.redirects.filter((r) => !r.op.startsWith("<"));
  if (body === null || outputs.length !== 1 || segment.redirects.length !== 2) return null;
  const [out] = outputs;
  if (!writesTo(out.op) || (out.fd !== null && out.fd !== "1") || !literal(out.target)) {
    return null;
  }
  const append = out.op === ">>";
  return { target: out.target.raw, after: (before) => append ? (before ?? "") + body : body };
}

/** `tee [-a] TARGET <<'EOF'`: the here-document's body, written to the one file named. */
function teeWrite(segment: Segment, args: readonly Word[]): JudgedWrite | null {
  const append = args[0]?.text === "-a" || args[0]?.text === "--append";
  const names = append ? args.slice(1) : args;
  const body = literalHeredoc(segment);
  if (body === null || segment.redirects.length !== 1) return null;
  if (names.length !== 1 || !literal(names[0]) || names[0].text.startsWith("-")) return null;
  return { target: names[0].raw, after: (before) => append ? (before ?? "") + body : body };
}

/** A path of the line made absolute against its folder. */
function placed(text: string, cwd: string): string {
  return formatPath(absolutePath(text, cwd, cwd));
}

/** The judged write a top-level segment makes, if it is one of the forms read. */
function judgedWrite(segment: Segment, fs: FsPort, cwd: string): JudgedWrite | null {
  if (segment.depth !== 0 || segment.inSubstitution || segment.assignments.length > 0) return null;
  if (commandWordAt(segment) !== 0) return null;
  const args = segment.words.slice(1);
  switch (programOf(segment)) {
    case "cp":
      return copyWrite(segment, args, fs, cwd);
    case "echo":
      return echoWrite(segment, args);
    case "cat":
      return catWrite(segment, args);
    case "tee":
      return teeWrite(segment, args);
    default:
      return null;
  }
}

/**
 * The target, as the line spells it, that `segments` write only by the
 * forms read here, leaving a text that gives no variable moving GateGuard
 * to an agent's next start; empty when any segment is of another form or
 * writes another target (a line that first writes the file a copy then
 * reads would be read wrong), or when the target is no plain file (what a
 * link reaches is judged as written). Needs the command's folder: without
 * one, nothing is judged.
 */
export function harmlessEnvWrites(
  segments: readonly Segment[],
  fs: FsPort,
  cwd: string | null,
): Set<string> {
  const none = new Set<string>();
  if (cwd === null || segments.length === 0) return none;
  const writes: JudgedWrite[] = [];
  for (const segment of segments) {
    const write = judgedWrite(segment, fs, cwd);
    if (write === null || (writes.length > 0 && write.target !== writes[0].target)) return none;
    writes.push(write);
  }
  const target = writes[0].target;
  const path = placed(target, cwd);
  const own = fs.lstat(path);
  if (own.ok && !own.isFile) return none;
  let text = own.ok ? fs.readTextBounded(path, MAX_ENV_BYTES) : null;
  if (own.ok && text === null) return none;
  // Each write in turn, from the text the one before left.
  for (const write of writes) {
    const after = write.after(text);
    if (terminalSettingsWeakenings(text, after).length > 0) return none;
    text = after;
  }
  return new Set([target]);
}
