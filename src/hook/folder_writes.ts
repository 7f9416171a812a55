/**
 * Files a shell command writes into a folder without spelling their paths:
 * `cp -r /tmp/x/.claude .` writes `./.claude`, `ln -s /tmp/x/.claude`
 * links it, `wget https://host/.gateguard.jsonc` saves it, and `tar -xf
 * a.tar`, `unzip a.zip`, `rsync -a /tmp/x/ ./` or `git apply p.diff` write
 * whatever the archive, the folder or the patch holds. Each such write
 * becomes one more path for the self-protection reader (`shell_protect.ts`)
 * to match against the control surface: `<folder>/<name>` when the name is
 * on the line (a source's last segment, a URL's file name), and
 * `<folder>/<unknown>` when it is not, which reaches every control file
 * in that folder or below it (for `find -exec`, those its `-name` tests
 * allow).
 *
 * The folder is placed as the line goes: the payload's working folder,
 * moved by each `cd` of the line (an unknown `cd` leaves it unplaced), or
 * the folder an option names. Code handed to a shell (`sh -c '…'`) is read
 * the same way.
 *
 * @module
 */

import { ownEntry } from "../platform/own_key.ts";
import type { Segment } from "../shell/bash/mod.ts";
import { commandProgram, DIRECTORY_CHANGERS } from "./shell_words.ts";
import { SHELLS } from "./shell_environment.ts";
import {
  commandKey,
  folderText,
  type FolderWrite,
  type FolderWriteContext,
  lastSegment,
  namedWrite,
  parameterName,
  placeIn,
  powershellWords,
  programName,
  unknownWrite,
} from "./folder_paths.ts";
import {
  forLoopListers,
  foundWrites,
  handsOnAlong,
  listersChanged,
  listsFiles,
} from "./found_files.ts";
import { anywhere, unreadNameWrites } from "./unread_names.ts";
import { lineLinks, powershellLinks, throughLinks } from "./line_links.ts";
import type { ShellDialect } from "../shell/dialect.ts";
import {
  CONTENTS_AS_DESTINATION,
  FOLDER_WRITERS,
  type FolderWriter,
  NATIVE_WRITERS,
  POWERSHELL_CHANGERS,
  POWERSHELL_CONTENT_READERS,
  POWERSHELL_LISTERS,
  POWERSHELL_VALUE_PARAMETERS,
  POWERSHELL_WRITERS,
} from "./folder_writers.ts";

export type { FolderWrite, FolderWriteContext } from "./folder_paths.ts";
/**
 * The paths a written path reaches through the symbolic links a command
 * makes (`line_links.ts`), read in its dialect; null when it makes none.
 */
export function linkReach(
  dialect: ShellDialect,
  command: string,
  segments: readonly Segment[] | null,
  commandAt: (segment: Segment) => number,
): ((text: string) => string[]) | null {
  const links = dialect === "powershell"
    ? powershellLinks(command)
    : segments === null
    ? []
    : lineLinks(segments, commandAt);
  return links.length === 0 ? null : (text) => throughLinks(text, links);
}

/** How deep `sh -c` code inside `sh -c` code is read. */
const MAX_NESTING = 3;

/** The folder after `cd ARG` from `folder` (null: the line no longer knows where it is). */
function changedFolder(folder: string | null, args: readonly string[]): string | null {
  const target = args.find((a) => !a.startsWith("-"));
  if (target === undefined) return "~";
  if (/[$`]/.test(target)) return null;
  return placeIn(folder, target);
}

/** The program's table entry, with where its words start. */
function writerOf(
  words: readonly string[],
): { key: string; writer: FolderWriter; args: string[]; folder: string | null } | null {
  const command = commandKey(words);
  const writer = FOLDER_WRITERS[command.key];
  return writer === undefined ? null : { ...command, writer };
}

/** The folder an option of `writer` names, or undefined when none does. */
function optionFolder(writer: FolderWriter, args: readonly string[]): string | undefined {
  let found: string | undefined;
  args.forEach((arg, i) => {
    for (const option of writer.folderOptions) {
      if (arg === option && args[i + 1] !== undefined) found = args[i + 1];
      else if (option.startsWith("--") && arg.startsWith(`${option}=`)) {
        found = arg.slice(option.length + 1);
      }
    }
    for (const option of writer.gluedFolderOptions ?? []) {
      if (arg.startsWith(option) && arg.length > option.length) found = arg.slice(option.length);
    }
  });
  return found;
}

/**
 * The archives or patches a command reads its paths from (`listing.from`
 * of its table entry), or null when none is named on the line; a file
 * redirected to stdin stands in where the command reads stdin.
 */
function listingFiles(
  from: NonNullable<FolderWriter["listing"]>["from"],
  args: readonly string[],
  operands: readonly string[],
  stdinFile: string | null,
): string[] | null {
  const orStdin = (file: string | undefined): string[] | null =>
    file !== undefined && file !== "-" ? [file] : stdinFile === null ? null : [stdinFile];
  switch (from) {
    case "tar-file": {
      const glued = args.find((a) => a.startsWith("--file="));
      if (glued !== undefined) return orStdin(glued.slice("--file=".length));
      // `-f X`, `--file X`, or a cluster holding f (`-xzf X`, `xf X`): the next word.
      const at = args.findIndex((a, i) =>
        a === "--file" || /^-[A-Za-z]*f[A-Za-z]*$/.test(a) ||
        (i === 0 && /^[A-Za-z]*f[A-Za-z]*$/.test(a))
      );
      return at < 0 ? orStdin(undefined) : orStdin(args[at + 1]);
    }
    case "first-operand":
      return operands.length > 0 ? [operands[0]] : null;
    case "operands":
      return operands.length > 0 ? [...operands] : orStdin(undefined);
    case "input": {
      const glued = args.find((a) => a.startsWith("--input="));
      if (glued !== undefined) return orStdin(glued.slice("--input=".length));
      const at = args.findIndex((a) => a === "-i" || a === "--input");
      if (at >= 0) return orStdin(args[at + 1]);
      return operands.length >= 2 ? [operands[1]] : orStdin(undefined);
    }
  }
}

/** The writes of one segment's command, from the folder it runs in. */
function segmentWrites(
  words: readonly string[],
  here: string | null,
  moved: boolean,
  ctx: FolderWriteContext,
  stdinFile: string | null,
): FolderWrite[] {
  const acting = foundWrites(words, here, ctx, false);
  if (acting !== null) return acting;
  const found = writerOf(words);
  if (found === null) return [];
  const { writer, args } = found;
  const start = found.folder === null ? here : placeIn(here, found.folder);
  if (writer.writesWhen && !args.some((a) => writer.writesWhen!.test(a))) return [];
  if (writer.readsWhen && args.some((a) => writer.readsWhen!.test(a))) return [];
  const valueAt = new Set<number>();
  args.forEach((arg, i) => {
    if (writer.folderOptions.includes(arg) || writer.valueOptions?.includes(arg)) {
      valueAt.add(i + 1);
    }
  });
  const operands = args.filter((a, i) => !a.startsWith("-") && !valueAt.has(i));
  // `git -C dir …` works on dir's repository, not the project's.
  const top = found.folder === null ? ctx.repository ?? null : null;
  if (writer.operandsAreFolders === true) {
    const first = operands[0];
    const valued = first !== undefined && (writer.modeOperand?.test(first) === true ||
      (writer.ownerOperand === true && !args.some((a) => a.startsWith("--reference"))));
    const places = valued ? operands.slice(1) : operands;
    return (places.length > 0 ? places : ["."]).map((word) => {
      // A pathspec with magic (`:/src`, `:!keep`) starts from the top of the worktree.
      const magic = word.startsWith(":") && top !== null;
      const placed = magic
        ? placeIn(top, /^:\/[^:]/.test(word) ? word.slice(2) : ".")
        : placeIn(start, word);
      const shown = word === "." && moved ? (here ?? ".") : word;
      const write = unknownWrite(
        placed === null ? word : folderText(placed),
        folderText(shown),
        `${found.key} ${writer.verb ?? "removes"}`,
      );
      return writer.removes === true ? { ...write, removes: true } : write;
    });
  }
  const named = optionFolder(writer, args);
  let folderWord: string;
  let sources: string[];
  if (named !== undefined) {
    folderWord = named;
    sources = operands;
  } else if (writer.defaultFolder === "last-operand" && operands.length >= 2) {
    folderWord = operands[operands.length - 1];
    sources = operands.slice(0, -1);
  } else {
    folderWord = writer.defaultFolder === "repository" && top ? top : ".";
    sources = operands;
  }
  const placed = placeIn(start, folderWord);
  const folder = placed === null ? null : folderText(placed);
  // After a `cd`, the working folder is shown where the line took it.
  const shownWord = folderWord === "." && moved ? (here ?? ".") : folderWord;
  const shownFolder = folderText(shownWord);
  const out: FolderWrite[] = [];
  const unknown = () =>
    out.push(unknownWrite(folder ?? folderWord, shownFolder, `${found.key} writes`));
  if (writer.names === "unknown" || args.some((a) => CONTENTS_AS_DESTINATION.test(a))) {
    const files = writer.listing && ctx.list
      ? listingFiles(writer.listing.from, args, operands, stdinFile)
      : null;
    for (const file of files ?? [null]) {
      const archive = file === null ? null : placeIn(here, file);
      const paths = archive === null ? null : ctx.list!(archive, writer.listing!.kind);
      if (paths === null) {
        unknown();
        continue;
      }
      for (const path of paths) {
        out.push(namedWrite(folder ?? folderWord, shownFolder, path));
      }
    }
    return out;
  }
  for (const source of sources) {
    const from = writer.movesSources === true ? placeIn(start, source) : null;
    if (from !== null) {
      out.push({
        ...unknownWrite(folderText(from), folderText(source), `${found.key} moves away`),
        removes: true,
      });
    }
    const name = lastSegment(source.replace(/[?#].*$/, ""));
    const contents = name === "" || name === "." || name === ".." ||
      (writer.slashMeansContents === true && /[\\/]$/.test(source));
    if (contents) {
      unknown();
      continue;
    }
    out.push(namedWrite(folder ?? folderWord, shownFolder, name));
  }
  return out;
}

/**
 * How many segments of the line, and of the shell code it hands on, may
 * write: all but the read-only ones, the `cd`s and the shells carrying
 * code (code that does not parse counts as two).
 */
function writingSegments(
  segments: readonly Segment[],
  ctx: FolderWriteContext,
  depth: number,
): number {
  let count = 0;
  for (const segment of segments) {
    const words = segment.words.slice(ctx.commandAt(segment)).map((w) => w.text);
    const program = programName(words[0] ?? "");
    if (DIRECTORY_CHANGERS.has(program)) continue;
    const code = words.indexOf("-c");
    if (SHELLS.has(program) && code > 0 && words[code + 1] !== undefined && depth < MAX_NESTING) {
      const inner = ctx.parse(words[code + 1]);
      count += inner === null ? 2 : writingSegments(inner, ctx, depth + 1);
      continue;
    }
    if (!ctx.readsOnly(segment)) count++;
  }
  return count;
}

/**
 * Every write into a folder that `segments` make without spelling the
 * written paths, in order. Read-only segments write nothing.
 */
export function folderWrites(
  segments: readonly Segment[],
  given: FolderWriteContext,
  depth = 0,
): FolderWrite[] {
  // An archive or patch is read before the line runs, so what it holds is
  // known only while nothing else on the line may write: `cp evil.tar
  // a.tar; tar -xf a.tar` extracts another archive than the one read.
  const ctx = depth === 0 && writingSegments(segments, given, 0) > 1
    ? { ...given, list: undefined }
    : given;
  let here = ctx.cwd;
  // Names handed over from a file or a program's output may be any file at all.
  const out: FolderWrite[] = unreadNameWrites(segments, ctx);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const at = ctx.commandAt(segment);
    const words = segment.words.slice(at).map((w) => w.text);
    const program = programName(words[0] ?? "");
    const lists = listsFiles(words);
    // `find … | xargs sed -i` changes what find lists, as `-exec` would; so does a
    // `while read` loop fed by it, or a `for` loop over its output.
    const handed = lists && handsOnAlong(segments, i, ctx)
      ? [words]
      : forLoopListers(words, segments.slice(i + 1), ctx);
    if (handed.length > 0) {
      for (const listed of handed) out.push(...foundWrites(listed, here, ctx, true) ?? []);
      if (lists) continue;
    }
    if (DIRECTORY_CHANGERS.has(program)) {
      here = program === "popd" ? null : changedFolder(here, words.slice(1));
      continue;
    }
    const code = words.indexOf("-c");
    if (SHELLS.has(program) && code > 0 && words[code + 1] !== undefined && depth < MAX_NESTING) {
      const inner = ctx.parse(words[code + 1]);
      if (inner !== null) out.push(...folderWrites(inner, { ...ctx, cwd: here }, depth + 1));
      continue;
    }
    // `sed -i s/a/b/ $(grep -rl a .)`: its arguments are what the lister names.
    for (const listed of listersChanged(words, ctx)) {
      out.push(...foundWrites(listed, here, ctx, true) ?? []);
    }
    if (ctx.readsOnly(segment)) continue;
    const stdinFile = segment.redirects.find((r) => r.op === "<")?.target.text ?? null;
    out.push(...segmentWrites(words, here, here !== ctx.cwd, ctx, stdinFile));
  }
  return out;
}

/** Whether a PowerShell command word runs a native program of the Bash table (`git`, `tar.exe`). */
function nativeWriter(word: string): boolean {
  const program = commandProgram(word);
  return !Object.hasOwn(POWERSHELL_WRITERS, program) && NATIVE_WRITERS.has(program);
}

/**
 * Every write into a folder that a PowerShell command makes without
 * spelling the written paths: `Copy-Item`, `Move-Item` and their aliases
 * write each source's name into the destination (a source ending in `*`
 * its contents), `Expand-Archive` what the zip holds (any name when it
 * cannot be read). The folder follows the line's `Set-Location`s.
 */
export function powershellFolderWrites(command: string, given: FolderWriteContext): FolderWrite[] {
  const statements = command.replace(/`(.)/g, "$1").split(/[;|&\n{}()]+/).map(powershellWords)
    .filter((words) => words.length > 0);
  // As in Bash: a zip is read before the line runs, so only a line that does nothing else keeps it.
  const others = statements.filter((words) => !DIRECTORY_CHANGERS.has(words[0].toLowerCase()));
  const ctx = others.length > 1 ? { ...given, list: undefined } : given;
  let here = ctx.cwd;
  const out: FolderWrite[] = [];
  for (const words of statements) {
    const program = (words[0] ?? "").toLowerCase();
    if (DIRECTORY_CHANGERS.has(program)) {
      here = program.startsWith("pop") ? null : changedFolder(here, words.slice(1));
      continue;
    }
    const kind = ownEntry(POWERSHELL_WRITERS, program);
    if (kind === undefined) {
      // A native program (`git clean`, `tar -x`) is read as in Bash; PowerShell's own
      // aliases (`cp`, `mv`, `ls`) are the cmdlets above.
      if (nativeWriter(program)) {
        out.push(...segmentWrites(words, here, here !== ctx.cwd, ctx, null));
      }
      continue;
    }
    if (words.some((w) => /^-whatif$/i.test(w))) continue;
    const sources: string[] = [];
    let destination: string | null = null;
    const positional: string[] = [];
    for (let i = 1; i < words.length; i++) {
      const name = parameterName(words[i], POWERSHELL_VALUE_PARAMETERS);
      if (words[i].startsWith("-")) {
        const glued = words[i].includes(":") ? words[i].slice(words[i].indexOf(":") + 1) : null;
        const value = glued ?? (name !== null ? words[++i] : undefined);
        if (value === undefined || name === null) continue;
        if (name.startsWith("destination")) destination = value;
        else if (["path", "literalpath", "pspath", "lp"].includes(name)) {
          sources.push(...value.split(","));
        }
        continue;
      }
      positional.push(words[i]);
    }
    if (sources.length === 0 && positional.length > 0) {
      sources.push(...positional.shift()!.split(","));
    }
    destination ??= positional[0] ?? ".";
    const placed = placeIn(here, destination);
    const folder = placed === null ? null : folderText(placed);
    const shown = folderText(destination);
    const unknown = () =>
      out.push(unknownWrite(folder ?? destination, shown, `${words[0]} writes`));
    for (const source of sources) {
      if (kind === "zip") {
        const archive = placeIn(here, source);
        const paths = archive !== null && ctx.list ? ctx.list(archive, "zip") : null;
        if (paths === null) unknown();
        for (const path of paths ?? []) {
          out.push(namedWrite(folder ?? destination, shown, path));
        }
        continue;
      }
      const name = lastSegment(source);
      if (name === "" || name === "." || name.includes("*")) {
        unknown();
        continue;
      }
      out.push(namedWrite(folder ?? destination, shown, name));
    }
  }
  return [
    ...out,
    ...powershellListedChanges(command, given.cwd),
    ...powershellReadNames(command),
  ];
}

/**
 * The names a PowerShell line reads from a file and hands to a command that
 * changes the items it is given (`Get-Content list | Remove-Item`,
 * `Remove-Item (gc list)`, `$n = gc list; ri $n`): they may be any file.
 * `Set-Content` takes piped text as content, not as names.
 */
function powershellReadNames(command: string): FolderWrite[] {
  const hidden = new Map<string, string>();
  const out = new Map<string, FolderWrite>();
  for (const line of command.replace(/`(.)/g, "$1").split(/[;&\n]+/)) {
    const words = powershellWords(line.replace(/[{}()|]/g, " "));
    const lower = words.map((w) => w.toLowerCase());
    const reader = lower.findIndex((w) => POWERSHELL_CONTENT_READERS.has(w));
    const file = words.slice(reader + 1).find((w) => !w.startsWith("-"));
    const read = reader < 0 ? null : `<the names in ${file ?? "a file"}>`;
    const assigned = /^\s*\$(\w+)\s*=/.exec(line)?.[1]?.toLowerCase();
    if (assigned !== undefined && read !== null) hidden.set(assigned, read);
    if (!lower.some((w) => POWERSHELL_CHANGERS.has(w) && w !== "set-content" && w !== "sc")) {
      continue;
    }
    const used = read ??
      [...hidden].find(([name]) => new RegExp(`\\$${name}\\b`, "i").test(line))?.[1];
    if (used !== undefined && !out.has(used)) out.set(used, anywhere(used));
  }
  return [...out.values()];
}

/**
 * What a PowerShell pipeline changes through a lister (`gci -r -fo |
 * Remove-Item -fo`, `ls | % { ri $_ }`): every item below the listed folder
 * (the working folder without one), when a command of the pipeline after
 * the lister deletes, moves or rewrites what it is given.
 */
function powershellListedChanges(command: string, cwd: string | null): FolderWrite[] {
  let here = cwd;
  const out: FolderWrite[] = [];
  for (const line of command.replace(/`(.)/g, "$1").split(/[;&\n]+/)) {
    const stages = line.split("|").map((stage) => powershellWords(stage.replace(/[{}()]/g, " ")));
    const first = (stages[0]?.[0] ?? "").toLowerCase();
    if (DIRECTORY_CHANGERS.has(first)) {
      here = first.startsWith("pop") ? null : changedFolder(here, stages[0].slice(1));
      continue;
    }
    stages.forEach((words, at) => {
      if (!POWERSHELL_LISTERS.has((words[0] ?? "").toLowerCase())) return;
      const later = stages.slice(at + 1).flat().map((w) => w.toLowerCase());
      if (!later.some((w) => POWERSHELL_CHANGERS.has(w))) return;
      const { path, names } = listedItems(words.slice(1));
      const placed = placeIn(here, path);
      const write = {
        ...unknownWrite(
          placed === null ? path : folderText(placed),
          folderText(path),
          `${words[0]} lists`,
        ),
        removes: true,
      };
      out.push(names.length > 0 ? { ...write, names } : write);
    });
  }
  return out;
}

/**
 * What a PowerShell lister lists: its `-Path` (or first positional, else the
 * working folder), and the name patterns of its `-Filter` or `-Include`
 * (lowercased; none when it lists every name or excludes some).
 */
function listedItems(args: readonly string[]): { path: string; names: string[] } {
  let path: string | null = null;
  const names: string[] = [];
  let narrowed = true;
  for (let i = 0; i < args.length; i++) {
    const name = parameterName(args[i], POWERSHELL_VALUE_PARAMETERS);
    if (!args[i].startsWith("-")) {
      if (path === null) path = args[i].split(",")[0];
      else names.push(...args[i].toLowerCase().split(","));
      continue;
    }
    if (name === null) continue;
    const glued = args[i].includes(":") ? args[i].slice(args[i].indexOf(":") + 1) : null;
    const value = glued ?? args[++i] ?? "";
    if (["path", "literalpath", "pspath", "lp"].includes(name)) path = value.split(",")[0];
    else if (name === "filter" || name === "include") names.push(...value.toLowerCase().split(","));
    else if (name === "exclude") narrowed = false;
  }
  return { path: path ?? ".", names: narrowed ? names : [] };
}
