/**
 * Names a command hands to a program that may change them, taken from a
 * source the line does not show: a file (`xargs rm -rf < list`, `xargs -a
 * list rm`, `rm -rf $(cat list)`, `while read f; do rm -rf "$f"; done <
 * list`, `mapfile -t a < list`), or the output of a program that reads one
 * (`jq -r '.[]' x.json | xargs rm`, `git diff --name-only | xargs sed -i …`).
 * The agent can write such a file in one call and hand it over in the
 * next, so its names may be any file at all: each hand-over is a write to
 * names anywhere, which reaches every row of the control surface.
 *
 * Names stay visible where the line spells them: the words of `echo` and
 * `printf` (and of programs that print only what they compute, such as
 * `date` or `mktemp`), a here-string or here-document without
 * substitutions, and programs that only pick or reorder the lines they are
 * given (`sort`, `head`). A lister's names (`ls`, `find`, `git ls-files`)
 * are placed below the folder it lists by `found_files.ts`, not here.
 * Variables from the agent's environment are not the line's to know and
 * stay as they are read elsewhere; variables the line fills from a hidden
 * source (`read`, `mapfile`, `X=$(cat list)`, `for f in $(cat list)`) carry
 * that source to every command that uses them.
 *
 * @module
 */

import type { Segment } from "../shell/bash/mod.ts";
import {
  commandKey,
  type FolderWrite,
  type FolderWriteContext,
  programName,
} from "./folder_paths.ts";
import {
  changesWith,
  filledVariables,
  handsOnNames,
  listsFiles,
  LOOP_HEADS,
  NAME_RUNNER_VALUES,
  runnerWords,
  VARIABLE,
  writesWith,
} from "./found_files.ts";
import { LISTED_CHANGES, NAME_FILLERS } from "./folder_writers.ts";
import { PRINTERS } from "./shell_words.ts";
import { SHELLS } from "./shell_environment.ts";
import { UNKNOWN } from "./path_match.ts";

/**
 * Programs whose output comes from their own words or from the machine,
 * never from a file the agent could have written: the line shows the names
 * they make.
 */
export const NAME_MAKERS: ReadonlySet<string> = new Set([
  ...PRINTERS,
  "seq",
  "date",
  "mktemp",
  "pwd",
  "dirname",
  "basename",
  "whoami",
  "id",
  "hostname",
  "uname",
  "nproc",
  "yes",
  "true",
  "false",
  "git rev-parse",
]);

/** A line picker: how many operands it takes before one is a file, and its options with a value. */
interface LinePicker {
  operands: number;
  values: ReadonlySet<string>;
}

const GREP_PICKER: LinePicker = {
  operands: 1,
  values: new Set(["-e", "-f", "-m", "-A", "-B", "-C"]),
};

/**
 * Programs that pass on, pick or reorder the lines they read without making
 * new ones, with how many operands they take before one is a file to read
 * (grep's pattern) and which options take the next word. With more
 * operands, they read a file, whose names are hidden.
 */
export const LINE_PICKERS: Readonly<Record<string, LinePicker>> = {
  sort: { operands: 0, values: new Set(["-k", "-t", "-o", "-S", "-T"]) },
  uniq: { operands: 0, values: new Set(["-f", "-s", "-w"]) },
  head: { operands: 0, values: new Set(["-n", "-c"]) },
  tail: { operands: 0, values: new Set(["-n", "-c"]) },
  shuf: { operands: 0, values: new Set(["-n", "-o"]) },
  tac: { operands: 0, values: new Set() },
  cat: { operands: 0, values: new Set() },
  grep: GREP_PICKER,
  egrep: GREP_PICKER,
  fgrep: GREP_PICKER,
};

/** Words that declare or export variables, each `NAME=value` word an assignment. */
const DECLARERS: ReadonlySet<string> = new Set([
  "export",
  "declare",
  "typeset",
  "local",
  "readonly",
]);

/** xargs and parallel options whose value is a file of names (`xargs -a list`). */
const NAME_FILE_OPTIONS: ReadonlySet<string> = new Set(["-a", "--arg-file"]);

/** parallel's separators before a file of names (`::::`) or literal names (`:::`). */
const PARALLEL_FILES: ReadonlySet<string> = new Set(["::::", "::::+"]);

/** How many characters of a substitution's code are read; longer code is hidden. */
const MAX_CODE = 4096;

/** What a hidden source is, for the denial: `<the names in list.txt>`. */
type Source = string;

/** The command substitutions a word holds, as code: `$(…)` and `` `…` ``, arithmetic left out. */
export function substitutionsIn(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) {
    if (word[i] === "`") {
      const end = word.indexOf("`", i + 1);
      out.push(word.slice(i + 1, end < 0 ? word.length : end));
      i = end < 0 ? word.length : end;
    } else if (word[i] === "$" && word[i + 1] === "(" && word[i + 2] !== "(") {
      let depth = 0;
      let k = i + 1;
      for (; k < word.length; k++) {
        if (word[k] === "(") depth++;
        else if (word[k] === ")" && --depth === 0) break;
      }
      out.push(word.slice(i + 2, k));
      i = k;
    }
  }
  return out;
}

/** A segment's words from its command word on. */
function wordsOf(segment: Segment, ctx: FolderWriteContext): string[] {
  return segment.words.slice(ctx.commandAt(segment)).map((w) => w.text);
}

/** The program key of a segment's command (`git diff`), past `sudo` and the like. */
function keyOf(segment: Segment, ctx: FolderWriteContext): string {
  return commandKey(wordsOf(segment, ctx)).key;
}

/** Whether a word uses one of `hidden`'s variables (`$f`, `"${names[@]}"`). */
function usesHidden(text: string, hidden: ReadonlyMap<string, Source>): Source | null {
  for (const [name, source] of hidden) {
    if (new RegExp(`\\$\\{?[#!]?${name}\\b`).test(text)) return source;
  }
  return null;
}

/** The reading state: variables filled from hidden sources, and the line's segments. */
interface Reading {
  ctx: FolderWriteContext;
  hidden: Map<string, Source>;
  /** How deep substitution code is read inside substitution code. */
  depth: number;
  /** The hidden source of the code's own stdin (`cat list | sh -c 'xargs rm'`), or null. */
  inherited: Source | null;
}

/**
 * Where the text a word stands for comes from, when it holds a hidden
 * source: a substitution of hidden code or a variable filled from one.
 * A substitution that runs a lister is `found_files.ts`'s to place.
 */
function hiddenInWord(text: string, reading: Reading): Source | null {
  const variable = usesHidden(text, reading.hidden);
  if (variable !== null) return variable;
  for (const code of substitutionsIn(text)) {
    const source = hiddenCode(code, reading);
    if (source !== null) return source;
  }
  return null;
}

/** The hidden source of substitution code's output, or null when the line shows it. */
function hiddenCode(code: string, reading: Reading): Source | null {
  if (code.length > MAX_CODE || reading.depth > 2) return "<names the line cannot read>";
  // `$(<list)` is bash's way of reading a file.
  const file = /^\s*<\s*(\S+)\s*$/.exec(code);
  if (file) return `<the names in ${file[1]}>`;
  const segments = reading.ctx.parse(code);
  if (segments === null) return "<names the line cannot read>";
  const inner = { ...reading, depth: reading.depth + 1 };
  const top = segments.filter((s) => !s.inSubstitution);
  return chainSource(top, top.length, inner);
}

/** Content searchers: they print lines of the files they read unless told to print names. */
const CONTENT_SEARCHERS: ReadonlySet<string> = new Set([
  "grep",
  "egrep",
  "fgrep",
  "ugrep",
  "rg",
  "git grep",
]);

/** A searcher's options that make it print file names instead of lines (`grep -l`, `rg --files`). */
const NAMES_ONLY =
  /^(?:-[A-Za-z]*[lL][A-Za-z]*|--files|--files-with(?:out)?-match(?:es)?|--name-only)$/;

/**
 * Whether words run a lister whose output is file names, which
 * `found_files.ts` places below the folder it lists: a content searcher
 * only with an option that prints names (`grep -rl x .`); without one it
 * prints lines of the files it reads (`grep . list`).
 */
function namesLister(words: readonly string[]): boolean {
  if (!listsFiles(words)) return false;
  return !CONTENT_SEARCHERS.has(commandKey(words).key) || words.some((w) => NAMES_ONLY.test(w));
}

/**
 * The hidden source of what the pipeline ending before `segments[at]`
 * prints, or null when the line shows it. Null too for a lister's names
 * passed on only through pickers: they are placed where it lists.
 */
function chainSource(
  segments: readonly Segment[],
  at: number,
  reading: Reading,
): Source | null {
  let start = at - 1;
  while (start > 0 && segments[start].piped) start--;
  const chain = segments.slice(Math.max(0, start), at);
  for (let i = 0; i < chain.length; i++) {
    if (i === 0 && namesLister(wordsOf(chain[i], reading.ctx))) continue;
    const source = segmentSource(chain[i], i === 0, reading);
    if (source !== null) return source;
  }
  return null;
}

/**
 * The hidden source of one segment's output within a pipeline: a file it
 * reads, a program that is neither a name maker nor a line picker, or a
 * word that is itself hidden. `first` is the head of the pipeline (a
 * picker after it reads its stdin, and makers only stand first).
 */
function segmentSource(segment: Segment, first: boolean, reading: Reading): Source | null {
  const { ctx } = reading;
  const key = keyOf(segment, ctx);
  const own = stdinSource(segment, reading);
  if (own !== null) return own;
  const words = wordsOf(segment, ctx);
  for (const word of words) {
    const source = hiddenInWord(word, reading);
    if (source !== null) return source;
  }
  // A runner prints what its command makes of the names (`xargs cat` their contents).
  const runner = runnerWords(segment, ctx);
  if (runner !== null) return `<the names ${runner.slice(0, 2).join(" ")} prints>`;
  if (NAME_MAKERS.has(key)) return first ? null : `<the names ${key} prints>`;
  if (Object.hasOwn(LINE_PICKERS, key)) {
    const { operands, values } = LINE_PICKERS[key];
    const args = words.slice(1);
    const given = args.filter((w, i) => !w.startsWith("-") && !values.has(args[i - 1] ?? ""));
    const patterned = args.some((w) => w === "-e" || w === "-f" || /^--(?:regexp|file)\b/.test(w));
    const allowed = patterned ? 0 : operands;
    if (given.length > allowed) return `<the names in ${given[allowed]}>`;
    // At a pipeline's head it passes on its own stdin.
    return first ? reading.inherited : null;
  }
  if (words.length === 0) return null;
  return `<the names ${key} prints>`;
}

/** The hidden source of a segment's stdin redirections: a file, or a here-text that is hidden. */
function stdinSource(segment: Segment, reading: Reading): Source | null {
  for (const r of segment.redirects) {
    // Here-texts are in `stdinTexts`; any other input is a file (or a descriptor opened on one).
    if (!r.op.startsWith("<") || r.op.startsWith("<<")) continue;
    const process = /^<\((.*)\)$/s.exec(r.target.text);
    const source = process
      ? hiddenCode(process[1], reading)
      : r.op === "<&"
      ? `<the names on descriptor ${r.target.text}>`
      : `<the names in ${r.target.text}>`;
    if (source !== null) return source;
  }
  for (const text of segment.stdinTexts) {
    const source = hiddenInWord(text, reading);
    if (source !== null) return source;
  }
  return null;
}

/** The file a runner is told to read its names from (`xargs -a list`, `parallel … :::: list`). */
function runnerFile(words: readonly string[]): string | null {
  for (let i = 1; i < words.length && words[i].startsWith("-"); i++) {
    const word = words[i];
    const glued = /^(?:--arg-file=|-a)(.+)$/.exec(word);
    if (glued) return glued[1];
    if (NAME_FILE_OPTIONS.has(word)) return words[i + 1] ?? "a file";
    if (NAME_RUNNER_VALUES.has(word)) i++;
  }
  const separator = words.findIndex((w) => PARALLEL_FILES.has(w));
  return separator < 0 ? null : words[separator + 1] ?? "a file";
}

/**
 * Where the names a runner (`xargs`, `parallel`) or a name reader (`read`)
 * at `segments[at]` takes come from, when hidden: a file it is given, its
 * redirected stdin, or the pipeline before it. A loop's stdin
 * (`while read f; …; done < list`) is the redirection after its body.
 */
function namesSource(segments: readonly Segment[], at: number, reading: Reading): Source | null {
  const segment = segments[at];
  const runner = runnerWords(segment, reading.ctx);
  const file = runner === null ? null : runnerFile(runner);
  if (file !== null) return `<the names in ${file}>`;
  const own = stdinSource(segment, reading);
  if (own !== null) return own;
  if (segment.piped) return chainSource(segments, at, reading);
  if (segment.stdinRedirected) return null;
  // A loop's input follows its body as a segment of its own, with no words.
  for (let k = at + 1; k < segments.length; k++) {
    const later = segments[k];
    if (later.words.length === 0 && later.stdinRedirected) return stdinSource(later, reading);
  }
  return reading.inherited;
}

/**
 * The hidden source of what the segment at `at` reads on its stdin: its own
 * redirection, the pipeline before it, or the stdin of the code around it.
 */
function stdinOf(segments: readonly Segment[], at: number, reading: Reading): Source | null {
  return stdinSource(segments[at], reading) ??
    (segments[at].piped ? chainSource(segments, at, reading) : reading.inherited);
}

/**
 * The hidden source of the list a command of `LISTED_CHANGES` is told to
 * change the files of, or null: a list file, or stdin for `-` and `zip -@`.
 */
function listedChangeSource(
  segments: readonly Segment[],
  at: number,
  reading: Reading,
): Source | null {
  const command = commandKey(wordsOf(segments[at], reading.ctx));
  if (!Object.hasOwn(LISTED_CHANGES, command.key)) return null;
  const { options, stdinOptions = [], atOperand = false, when } = LISTED_CHANGES[command.key];
  const args = command.args;
  if (when !== undefined && !args.some((w) => when.test(w))) return null;
  const stdin = () => stdinOf(segments, at, reading);
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (stdinOptions.includes(word)) return stdin();
    if (atOperand && word.length > 1 && word.startsWith("@")) {
      return `<the names in ${word.slice(1)}>`;
    }
    for (const option of options) {
      const glued = word.startsWith(`${option}=`)
        ? word.slice(option.length + 1)
        : !option.startsWith("--") && word.startsWith(option) && word.length > option.length
        ? word.slice(option.length)
        : word === option
        ? args[i + 1]
        : undefined;
      if (glued === undefined) continue;
      return glued === "-" ? stdin() : `<the names in ${glued}>`;
    }
  }
  return null;
}

/** A shell's `-c` option, alone or in a cluster (`bash -lc 'code'`). */
const CODE_OPTION = /^-[A-Za-z]*c[A-Za-z]*$/;

/**
 * For a shell given code (`sh -c 'xargs rm'`) whose stdin is hidden, the
 * writes of hidden names its code makes from that stdin; none otherwise.
 */
function shellCodeWrites(
  segments: readonly Segment[],
  at: number,
  reading: Reading,
): FolderWrite[] {
  const segment = segments[at];
  const words = wordsOf(segment, reading.ctx);
  const option = words.findIndex((w, i) => i > 0 && CODE_OPTION.test(w));
  const code = option < 0 ? undefined : words[option + 1];
  if (!SHELLS.has(programName(words[0] ?? "")) || code === undefined || reading.depth > 2) {
    return [];
  }
  const stdin = stdinOf(segments, at, reading);
  const inner = stdin === null ? null : reading.ctx.parse(code);
  if (inner === null || stdin === null) return [];
  return readWrites(inner, {
    ...reading,
    hidden: new Map(),
    depth: reading.depth + 1,
    inherited: stdin,
  });
}

/** Records the variables a segment fills from a hidden source. */
function noteFilled(segments: readonly Segment[], at: number, reading: Reading): void {
  const segment = segments[at];
  const { ctx, hidden } = reading;
  const words = wordsOf(segment, ctx);
  const key = keyOf(segment, ctx);
  const assignments = [
    ...segment.assignments.map((w) => w.text),
    ...(DECLARERS.has(key) ? words.slice(1) : []),
  ];
  for (const text of assignments) {
    const eq = text.indexOf("=");
    const name = text.slice(0, eq).replace(/\+$/, "");
    if (eq <= 0 || !VARIABLE.test(name)) continue;
    const source = hiddenInWord(text.slice(eq + 1), reading);
    if (source !== null) hidden.set(name, source);
  }
  if (NAME_FILLERS.has(key)) {
    const source = namesSource(segments, at, reading);
    if (source !== null) { for (const name of filledVariables(words)) hidden.set(name, source); }
  }
  if (LOOP_HEADS.has(words[0] ?? "") && words[2] === "in" && VARIABLE.test(words[1] ?? "")) {
    for (const item of words.slice(3)) {
      const source = hiddenInWord(item, reading);
      if (source !== null) hidden.set(words[1], source);
    }
  }
}

/** A write of hidden names, which may be any file, shown by their source. */
export function anywhere(source: string): FolderWrite {
  return { path: UNKNOWN, shown: source, subtree: true, anywhere: true };
}

/**
 * The writes of names from hidden sources that `segments` make: a runner
 * handing them to a command that may write, and a command that may write
 * given a hidden word or a variable filled from a hidden source (through
 * its words, a redirection, or printed into a program that does not only
 * read them). One write per source.
 */
export function unreadNameWrites(
  segments: readonly Segment[],
  ctx: FolderWriteContext,
): FolderWrite[] {
  return readWrites(segments, { ctx, hidden: new Map(), depth: 0, inherited: null });
}

/** `unreadNameWrites` with the reading state of the code around `segments`. */
function readWrites(segments: readonly Segment[], reading: Reading): FolderWrite[] {
  const { ctx } = reading;
  const out = new Map<Source, FolderWrite>();
  const add = (source: Source | null) => {
    if (source !== null && !out.has(source)) out.set(source, anywhere(source));
  };
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    for (const write of shellCodeWrites(segments, i, reading)) add(write.shown);
    noteFilled(segments, i, reading);
    if (handsOnNames(segments, i, ctx)) add(namesSource(segments, i, reading));
    add(listedChangeSource(segments, i, reading));
    const words = wordsOf(segment, ctx);
    if (LOOP_HEADS.has(words[0] ?? "")) continue;
    const names = [...reading.hidden.keys()];
    if (names.length > 0 && writesWith(names, [segment, ...segments.slice(i + 1, i + 2)], ctx)) {
      const used = [...words, ...segment.redirects.map((r) => r.target.text)]
        .map((w) => usesHidden(w, reading.hidden)).find((s) => s !== null);
      add(used ?? null);
    }
    const substituted = words.slice(1).map((w) => hiddenSubstitution(w, reading))
      .find((s) => s !== null) ?? null;
    // Given a plain name in place of each substitution, does the command still write?
    if (substituted !== null && changesWith(words.map(withoutSubstitutions), ctx)) {
      add(substituted);
    }
  }
  return [...out.values()];
}

/** A word with each of its command substitutions written as a plain file name. */
function withoutSubstitutions(word: string): string {
  let out = word;
  for (const code of substitutionsIn(word)) {
    out = out.replace(`$(${code})`, "found").replace(`\`${code}\``, "found");
  }
  return out;
}

/** The hidden source of a word's substitutions (not its variables), or null. */
function hiddenSubstitution(text: string, reading: Reading): Source | null {
  for (const code of substitutionsIn(text)) {
    const source = hiddenCode(code, reading);
    if (source !== null) return source;
  }
  return null;
}
