/**
 * Programs that act on the files they find or list, whose names the line
 * does not hold: `find … -exec` or `-delete`, fd's `-x` and `-X`, and a
 * lister (`find`, `fd`, `ls`, `git ls-files`) piped into xargs or parallel
 * running a program that may write. What they may change is every file
 * below each folder they search, narrowed by name tests (`-name`, fd's
 * extensions) where the line has them.
 *
 * @module
 */

import { MAPFILE_OPTIONS, READ_OPTIONS, type Segment } from "../shell/bash/mod.ts";
import { type FamilySpec, scanArgs, VALUE_ROLES } from "../shell/programs/mod.ts";
import { NAME_LISTERS, NAME_RUNNERS } from "./folder_writers.ts";
import { PRINTERS } from "./shell_words.ts";
import {
  commandKey,
  folderText,
  type FolderWrite,
  type FolderWriteContext,
  lastSegment,
  placeIn,
  programName,
  runsWrite,
  unknownWrite,
} from "./folder_paths.ts";

/** find's actions that run a program on the files it finds, up to a `;` or `+`. */
const FIND_RUNS: ReadonlySet<string> = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** Whether find's expression deletes what it finds or runs a program that may change it. */
function findChanges(args: readonly string[], ctx: FolderWriteContext): boolean {
  if (args.includes("-delete")) return true;
  return args.some((word, i) => {
    if (!FIND_RUNS.has(word)) return false;
    const rest = args.slice(i + 1);
    const end = rest.findIndex((w) => w === ";" || w === "+");
    return runsWrite(end < 0 ? rest : rest.slice(0, end), ctx);
  });
}

/** find's tests on a file's name, whose pattern is the next word. */
const FIND_NAME_TESTS: ReadonlySet<string> = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
]);

/** find's options before its start folders. */
const FIND_LEADING = /^-(?:[HLP]|D|O\d*)$/;

/**
 * What `find … -exec …` or `find … -delete` may change: every file below
 * each start folder whose name its `-name`-style tests allow (any file when
 * a test is negated or there is none).
 */
function findWrites(
  args: readonly string[],
  here: string | null,
  ctx: FolderWriteContext,
  handedOn: boolean,
): FolderWrite[] {
  if (!handedOn && !findChanges(args, ctx)) return [];
  let at = 0;
  while (at < args.length && FIND_LEADING.test(args[at])) at += args[at] === "-D" ? 2 : 1;
  const starts: string[] = [];
  while (at < args.length && !/^[-(!]/.test(args[at])) starts.push(args[at++]);
  const expression = args.slice(at);
  const names: string[] = [];
  let narrowed = !expression.some((a) => a === "!" || a === "-not");
  expression.forEach((word, i) => {
    if (!FIND_NAME_TESTS.has(word)) return;
    const pattern = expression[i + 1];
    if (pattern === undefined) narrowed = false;
    else names.push(lastSegment(pattern).toLowerCase());
  });
  if (names.length === 0) narrowed = false;
  return (starts.length > 0 ? starts : ["."]).map((start) => {
    const placed = placeIn(here, start);
    const folder = placed === null ? start : folderText(placed);
    const shown = folderText(start);
    const write = { ...unknownWrite(folder, shown, "find changes"), removes: true };
    return narrowed ? { ...write, names } : write;
  });
}

/** A lister's arguments as its table reads them: operands, option values by role, what it runs. */
interface ListerArgs {
  operands: string[];
  values: Map<string, string[]>;
  /** The command an option runs on what it finds (fd's `-x`), up to a `;`; null when none. */
  runs: string[] | null;
}

function listerArgs(spec: FamilySpec, args: readonly string[]): ListerArgs {
  const out: ListerArgs = { operands: [], values: new Map(), runs: null };
  const take = (role: string, value: string | undefined) => {
    if (value !== undefined) out.values.set(role, [...out.values.get(role) ?? [], value]);
  };
  const runFrom = (at: number) => {
    const rest = args.slice(at);
    const end = rest.indexOf(";");
    out.runs = end < 0 ? rest : rest.slice(0, end);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      out.operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const role = spec.long[arg.slice(2, eq < 0 ? undefined : eq)];
      if (role === "exec") {
        runFrom(i + 1);
        return out;
      }
      if (role !== undefined && VALUE_ROLES.has(role)) {
        take(role, eq < 0 ? args[++i] : arg.slice(eq + 1));
      }
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      for (let k = 1; k < arg.length; k++) {
        const role = spec.short[arg[k]];
        if (role === "exec") {
          runFrom(i + 1);
          return out;
        }
        if (role !== undefined && VALUE_ROLES.has(role)) {
          take(role, k + 1 < arg.length ? arg.slice(k + 1) : args[++i]);
          break;
        }
      }
      continue;
    }
    out.operands.push(arg);
  }
  return out;
}

/**
 * What the files a lister names may undergo, every file below each folder
 * it lists (the working folder without one), when they are handed on to a
 * runner that writes (`handedOn`) or fd runs such a command on them; fd's
 * extensions, or a pattern of plain letters, narrow the names.
 */
function listedWrites(
  key: string,
  args: readonly string[],
  here: string | null,
  ctx: FolderWriteContext,
  handedOn: boolean,
): FolderWrite[] {
  const { spec, namesPattern } = NAME_LISTERS[key];
  const read = listerArgs(spec, args);
  if (!handedOn && (read.runs === null || !runsWrite(read.runs, ctx))) return [];
  // The first operand is the pattern unless an option gave it (`grep -e x`).
  const given = read.values.has("pattern") || read.values.has("pattern-file");
  const first = spec.patternFirst && !given ? read.operands.shift() : undefined;
  const pattern = namesPattern === true ? first : undefined;
  const extensions = read.values.get("extension") ?? [];
  const names = extensions.length > 0
    ? extensions.map((e) => `*.${e.replace(/^\./, "").toLowerCase()}`)
    : pattern !== undefined && /^[\w-]+$/.test(pattern)
    ? [`*${pattern.toLowerCase()}*`]
    : null;
  const base = read.values.get("base")?.[0];
  const start = base === undefined ? here : placeIn(here, base);
  const folders = [...read.operands, ...read.values.get("path") ?? []];
  return (folders.length > 0 ? folders : ["."]).map((word) => {
    const placed = placeIn(start, word);
    const write = {
      ...unknownWrite(
        placed === null ? word : folderText(placed),
        folderText(word),
        `${key} lists`,
      ),
      removes: true,
    };
    return names === null ? write : { ...write, names };
  });
}

/** The lister a segment's words run (`git ls-files` by its subcommand), with its arguments and folder. */
function listerOf(
  words: readonly string[],
): { key: string; args: string[]; folder: string | null } | null {
  const command = commandKey(words);
  return Object.hasOwn(NAME_LISTERS, command.key) ? command : null;
}

/** Whether a segment's words name files it finds or lists: `find`, or a lister of the table. */
export function listsFiles(words: readonly string[]): boolean {
  return programName(words[0] ?? "") === "find" || listerOf(words) !== null;
}

/**
 * What the files `find` or a lister names may undergo: handed on to a
 * command that writes (`handedOn`), or changed by the program itself
 * (`find -delete`, `fd -x rm`). Null when the words run neither.
 */
export function foundWrites(
  words: readonly string[],
  here: string | null,
  ctx: FolderWriteContext,
  handedOn: boolean,
): FolderWrite[] | null {
  if (programName(words[0] ?? "") === "find") {
    return findWrites(words.slice(1), here, ctx, handedOn);
  }
  const lister = listerOf(words);
  if (lister === null) return null;
  const start = lister.folder === null ? here : placeIn(here, lister.folder);
  return listedWrites(lister.key, lister.args, start, ctx, handedOn);
}

/** Options of xargs and parallel whose value is the next word. */
export const NAME_RUNNER_VALUES: ReadonlySet<string> = new Set([
  "-I",
  "-n",
  "-P",
  "-d",
  "-E",
  "-L",
  "-s",
  "-a",
  "-j",
]);

/** A runner's own words (`xargs -a list rm` from `xargs`), past `sudo` and the like; null for none. */
export function runnerWords(segment: Segment, ctx: FolderWriteContext): string[] | null {
  // The caller's command word lies past xargs, which runs the real command.
  const runs = ctx.commandAt(segment);
  const all = segment.words.map((w) => w.text);
  const at = all.findIndex((w, i) => i <= runs && NAME_RUNNERS.has(programName(w)));
  return at < 0 ? null : all.slice(at);
}

/**
 * Whether the segment at `at` runs a program that may change the names it
 * is handed: xargs or parallel (behind `sudo` and the like) running a
 * command that may write. One that only prints them (`xargs echo`, and
 * xargs with no command) changes nothing, unless what it prints is piped
 * on to a program that does not only read it (`xargs echo rm -rf | sh`).
 */
export function handsOnNames(
  segments: readonly Segment[],
  at: number,
  ctx: FolderWriteContext,
): boolean {
  const words = runnerWords(segments[at], ctx);
  if (words === null) return false;
  let i = 1;
  while (i < words.length && words[i].startsWith("-")) {
    i += NAME_RUNNER_VALUES.has(words[i]) ? 2 : 1;
  }
  const next = segments[at + 1];
  return changesWith(words.slice(i), ctx) || (next?.piped === true && !ctx.readsOnly(next));
}

/** A shell variable's name. */
export const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The variables a name reader (`words[0]`: `read`, `mapfile`, `readarray`)
 * fills: `read`'s names (`read -r a b`, `read -a names`), the array
 * `mapfile` names; `REPLY` and `MAPFILE` when they name none.
 */
export function filledVariables(words: readonly string[]): string[] {
  const key = programName(words[0] ?? "");
  const read = key === "read";
  const scan = scanArgs(words.slice(1), read ? READ_OPTIONS : MAPFILE_OPTIONS);
  const arrays = scan.shorts.filter((o) => read && o.letter === "a" && o.value !== null);
  const named = read ? [...scan.operands, ...arrays.map((o) => o.value!)] : scan.operands;
  const valid = named.filter((n) => VARIABLE.test(n));
  if (valid.length > 0) return read ? valid : [valid[valid.length - 1]];
  return [read ? "REPLY" : "MAPFILE"];
}

/**
 * Whether a command given names (each written as a plain file name, as `{}`
 * stands in for find -exec) may change them: a printer only prints them, and
 * a command the read-only check vouches for only reads them.
 */
export function changesWith(words: readonly string[], ctx: FolderWriteContext): boolean {
  return !PRINTERS.has(programName(words[0] ?? "")) && runsWrite(words, ctx);
}

/**
 * Whether a later command changes the files `names` hold: it writes to one
 * through a redirection, or takes one as a word and is no command the
 * read-only check vouches for (`rm -rf "$f"`, not `echo "$f"`).
 */
export function writesWith(
  names: readonly string[],
  later: readonly Segment[],
  ctx: FolderWriteContext,
): boolean {
  const uses = new RegExp(
    `\\$\\{?(?:${names.map((n) => n.replace(/\W/g, "")).join("|")})\\b[}]?`,
    "g",
  );
  const using = (text: string) => text.search(uses) >= 0;
  return later.some((s, i) => {
    if (s.redirects.some((r) => !r.op.startsWith("<") && using(r.target.text))) return true;
    const words = s.words.slice(ctx.commandAt(s)).map((w) => w.text);
    if (!words.some(using)) return false;
    // Printed names piped on are code or names for the next program (`echo "rm $f" | sh`),
    // unless that program only reads them.
    const next = later[i + 1];
    return (next?.piped === true && !ctx.readsOnly(next)) ||
      changesWith(words.map((w) => w.replace(uses, "found")), ctx);
  });
}

/**
 * Whether a lister hands its names to a loop that writes with them: piped
 * into `while read f` whose body uses `$f` in a command that may write
 * (`ls -A | while read f; do rm -rf "$f"; done`). The reader sees the
 * loop's parts as the segments after the lister.
 */
function loopHandsOn(
  next: Segment | undefined,
  later: readonly Segment[],
  ctx: FolderWriteContext,
): boolean {
  if (next?.piped !== true) return false;
  const words = next.words.slice(ctx.commandAt(next)).map((w) => w.text);
  return programName(words[0] ?? "") === "read" && writesWith(filledVariables(words), later, ctx);
}

/**
 * The listers a `for` or `select` loop takes its names from
 * (`for f in $(ls -A)`), as words, when a later command that may write
 * uses the loop's variable.
 */
export function forLoopListers(
  words: readonly string[],
  later: readonly Segment[],
  ctx: FolderWriteContext,
): string[][] {
  if (
    !LOOP_HEADS.has(words[0] ?? "") || words[2] !== "in" ||
    !writesWith([words[1] ?? ""], later, ctx)
  ) {
    return [];
  }
  return substitutedListers(words.slice(3), ctx);
}

/** The words that open a loop over a list (`for f in …`, `select f in …`). */
export const LOOP_HEADS: ReadonlySet<string> = new Set(["for", "select"]);

/** A word that is one command substitution, quoted or not: `$(…)` or `` `…` ``. */
const SUBSTITUTION = /^"?(?:\$\((.*)\)|`(.*)`)"?$/s;

/**
 * The listers whose names a command (`words`) takes as arguments and may
 * change: one that only prints or reads them (`wc -l $(git ls-files)`)
 * changes nothing.
 */
export function listersChanged(words: readonly string[], ctx: FolderWriteContext): string[][] {
  // A loop's head is no command: its body is read apart (`forLoopListers`).
  if (LOOP_HEADS.has(words[0] ?? "")) return [];
  const listed = substitutedListers(words.slice(1), ctx);
  if (listed.length === 0) return [];
  return changesWith(words.map((w) => SUBSTITUTION.test(w) ? "found" : w), ctx) ? listed : [];
}

/**
 * The listers whose output stands in for some of `words` through a command
 * substitution (`sed -i s/a/b/ $(grep -rl a .)`, `rm -rf $(ls -A)`), as
 * words: a command given those as arguments changes what they list.
 */
function substitutedListers(words: readonly string[], ctx: FolderWriteContext): string[][] {
  return words.flatMap((item) => {
    const found = SUBSTITUTION.exec(item);
    const code = found?.[1] ?? found?.[2];
    const inner = code === undefined ? null : ctx.parse(code);
    return (inner ?? []).map((s) => s.words.map((w) => w.text)).filter(listsFiles);
  });
}

/**
 * Whether the lister at `segments[at]` hands its names, through the rest of
 * its pipeline and any filters on the way (`ls -A | sort | xargs rm -rf`,
 * `find . | head | xargs rm`), to a runner or a `while read` loop that writes
 * with them.
 */
export function handsOnAlong(
  segments: readonly Segment[],
  at: number,
  ctx: FolderWriteContext,
): boolean {
  for (let k = at + 1; k < segments.length && segments[k].piped; k++) {
    if (handsOnNames(segments, k, ctx)) return true;
    if (loopHandsOn(segments[k], segments.slice(k + 1), ctx)) return true;
  }
  return false;
}
