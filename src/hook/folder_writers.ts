/**
 * The programs that write into a folder without spelling the paths they
 * write there, as data: where each puts its files, which names land there,
 * and when it writes at all. Read by `folder_writes.ts`, which turns a
 * command into those paths, and by `shell_protect.ts`, which loads that
 * reader only for a command that runs one of these programs.
 *
 * @module
 */

import type { ArchiveKind } from "./archive_names.ts";
import { type BashParse, MAX_LEX_CHARS, type Segment } from "../shell/bash/mod.ts";
import type { ShellDialect } from "../shell/dialect.ts";
import { SHELLS } from "./shell_environment.ts";
import { commandProgram } from "./shell_words.ts";
import { PIECE_BREAK } from "./shell_pieces.ts";
import {
  type FamilySpec,
  FD_FLAGS,
  GIT_GREP_FLAGS,
  GIT_LS_FILES_FLAGS,
  GREP_FLAGS,
  LS_FLAGS,
  RG_FLAGS,
  TREE_FLAGS,
  UGREP_FLAGS,
} from "../shell/programs/mod.ts";

/**
 * How a program chooses the folder it writes into and the names it writes
 * there. A copier given one operand (`ln -s /tmp/x/.claude`) writes into the
 * working folder under the operand's name.
 */
export interface FolderWriter {
  /** Options whose value is the folder (`-t DIR`, `--target-directory=DIR`, `-C DIR`). */
  folderOptions: readonly string[];
  /** Options whose value is glued to them (`7z x -oDIR`). */
  gluedFolderOptions?: readonly string[];
  /**
   * With no folder option: the last operand (when there are two or more),
   * the working folder, or the repository's top folder (git's whole-worktree
   * commands; the working folder when the top is not known).
   */
  defaultFolder: "last-operand" | "working" | "repository";
  /** Options whose value is the next word and names no folder (`git clean -e PATTERN`). */
  valueOptions?: readonly string[];
  /** Each operand is a place below which it changes names the line does not hold (`git clean src`). */
  operandsAreFolders?: boolean;
  /** It deletes what it reaches, so a destructive line running it is aimed at its folders. */
  removes?: boolean;
  /** With `operandsAreFolders`: what it does there, as a denial says it (`removes`, the default). */
  verb?: string;
  /** A first operand matching it is a mode, not a path (`chmod -R 000 .`, `chattr -R +i .`). */
  modeOperand?: RegExp;
  /** The first operand is an owner, not a path, unless `--reference` names a file to copy. */
  ownerOperand?: boolean;
  /** Each source leaves its place, and everything below it with it (`mv . ../x`). */
  movesSources?: boolean;
  /** What lands there: each operand's last segment, or names the line does not hold. */
  names: "operands" | "unknown";
  /** When set, the program writes only if one of its words matches (an extraction mode). */
  writesWhen?: RegExp;
  /** When set, a word matching it means the program only lists or tests. */
  readsWhen?: RegExp;
  /** An operand ending in `/` stands for the folder's contents (rsync), not the folder. */
  slashMeansContents?: boolean;
  /**
   * Where the archive or patch whose paths it writes is named, when they can
   * be read from it (`archive_names.ts`): tar's `-f`, the first operand,
   * every operand, or `-i`; each falls back to a file redirected to stdin.
   */
  listing?: { kind: ArchiveKind; from: "tar-file" | "first-operand" | "operands" | "input" };
}

const COPIER: FolderWriter = {
  folderOptions: ["-t", "--target-directory"],
  defaultFolder: "last-operand",
  names: "operands",
};

/** Recursive mode: a permission or ownership change of everything below each operand. */
const RECURSIVE = /^(?:-[A-Za-z]*R[A-Za-z]*|--recursive)$/;

/** A recursive change of every file below each operand (it makes a control file unreadable). */
const TREE_CHANGER: FolderWriter = {
  folderOptions: [],
  defaultFolder: "working",
  names: "unknown",
  operandsAreFolders: true,
  verb: "changes",
  writesWhen: RECURSIVE,
};

const EXTRACTOR: FolderWriter = {
  folderOptions: ["-C", "--directory", "-d"],
  defaultFolder: "working",
  names: "unknown",
};

/**
 * Programs that write into a folder, keyed by name (`git apply` by its
 * subcommand too). Others that name what they write are read as any
 * command is: through the paths they spell.
 */
export const FOLDER_WRITERS: Readonly<Record<string, FolderWriter>> = {
  cp: COPIER,
  mv: { ...COPIER, movesSources: true },
  install: COPIER,
  ln: COPIER,
  rsync: {
    folderOptions: [],
    defaultFolder: "last-operand",
    names: "operands",
    slashMeansContents: true,
  },
  scp: { folderOptions: [], defaultFolder: "last-operand", names: "operands" },
  wget: {
    folderOptions: ["-P", "--directory-prefix"],
    defaultFolder: "working",
    names: "operands",
  },
  curl: {
    folderOptions: ["--output-dir"],
    defaultFolder: "working",
    names: "operands",
    writesWhen: /^(?:-[A-Za-z]*O[A-Za-z]*|--remote-name(?:-all)?)$/,
  },
  tar: {
    ...EXTRACTOR,
    writesWhen: /^(?:-?[A-Za-wyz]*x[A-Za-z]*|--extract|--get)$/,
    listing: { kind: "tar", from: "tar-file" },
  },
  bsdtar: {
    ...EXTRACTOR,
    writesWhen: /^(?:-?[A-Za-wyz]*x[A-Za-z]*|--extract)$/,
    listing: { kind: "tar", from: "tar-file" },
  },
  unzip: {
    ...EXTRACTOR,
    readsWhen: /^-[A-Za-z]*[lvtZ]/,
    listing: { kind: "zip", from: "first-operand" },
  },
  "7z": { ...EXTRACTOR, folderOptions: [], gluedFolderOptions: ["-o"], writesWhen: /^[xe]$/ },
  "7za": { ...EXTRACTOR, folderOptions: [], gluedFolderOptions: ["-o"], writesWhen: /^[xe]$/ },
  "7zz": { ...EXTRACTOR, folderOptions: [], gluedFolderOptions: ["-o"], writesWhen: /^[xe]$/ },
  cpio: {
    ...EXTRACTOR,
    folderOptions: ["-D", "--directory"],
    writesWhen: /^(?:-[A-Za-z]*i[A-Za-z]*|--extract)$/,
  },
  patch: {
    ...EXTRACTOR,
    folderOptions: ["-d", "--directory"],
    readsWhen: /^--dry-run$/,
    listing: { kind: "patch", from: "input" },
  },
  "git apply": {
    ...EXTRACTOR,
    folderOptions: [],
    readsWhen: /^(?:--check|--stat|--numstat|--summary)$/,
    listing: { kind: "patch", from: "operands" },
  },
  "git am": { ...EXTRACTOR, folderOptions: [], listing: { kind: "patch", from: "operands" } },
  // Removes the files git does not track below each pathspec (the working folder without one),
  // a control file among them; which those are is git's index, not the line.
  "git clean": {
    folderOptions: [],
    defaultFolder: "working",
    names: "unknown",
    valueOptions: ["-e", "--exclude"],
    operandsAreFolders: true,
    removes: true,
    readsWhen: /^(?:-[A-Za-z]*n[A-Za-z]*|--dry-run)$/,
  },
  chmod: {
    ...TREE_CHANGER,
    modeOperand: /^(?:[0-7]{1,4}|[ugoa]*[-+=][-+=rwxXstugo,]*)$/,
    valueOptions: ["--reference"],
  },
  chown: { ...TREE_CHANGER, ownerOperand: true },
  chgrp: { ...TREE_CHANGER, ownerOperand: true },
  chattr: { ...TREE_CHANGER, writesWhen: /^-[A-Za-z]*R/, modeOperand: /^[+=][A-Za-z]+$/ },
  setfacl: {
    ...TREE_CHANGER,
    valueOptions: ["-m", "-x", "-M", "-X", "--modify", "--remove", "--set", "--set-file"],
  },
  // Stashing with the untracked files removes them from the whole worktree.
  "git stash": {
    folderOptions: [],
    defaultFolder: "repository",
    names: "unknown",
    writesWhen: /^(?:-[A-Za-z]*[ua][A-Za-z]*|--include-untracked|--all)$/,
    readsWhen: /^(?:list|show)$/,
  },
};

/** A program that names the files below its operands, and how it reads its arguments. */
export interface NameLister {
  spec: FamilySpec;
  /** Its pattern is matched against file names (fd), so a pattern of plain letters narrows them. */
  namesPattern?: boolean;
}

/**
 * Programs that name the files below their operands (the working folder
 * without one): piped into a runner that writes (`ls -A | xargs rm -rf`,
 * `grep -rl gateguard . | xargs sed -i …`), they hand it those names. Hidden
 * names count even for those that skip them by default (`rg`, `fd`, `ls`):
 * an alias from the user's shell (`alias rg='rg --hidden'`) is not on the
 * line. fd also runs a command on what it finds itself (`-x`, `-X`).
 */
export const NAME_LISTERS: Readonly<Record<string, NameLister>> = {
  ls: { spec: LS_FLAGS },
  tree: { spec: TREE_FLAGS },
  fd: { spec: FD_FLAGS, namesPattern: true },
  fdfind: { spec: FD_FLAGS, namesPattern: true },
  "git ls-files": { spec: GIT_LS_FILES_FLAGS },
  // Content searchers name the files that match (`-l`), or lines starting with them.
  grep: { spec: GREP_FLAGS },
  egrep: { spec: GREP_FLAGS },
  fgrep: { spec: GREP_FLAGS },
  ugrep: { spec: UGREP_FLAGS },
  rg: { spec: RG_FLAGS },
  "git grep": { spec: GIT_GREP_FLAGS },
};

/** Programs that run a command on the names they read from stdin. */
export const NAME_RUNNERS: ReadonlySet<string> = new Set(["xargs", "parallel"]);

/**
 * Programs told to change the files a list names (`tar -T list --remove-files`,
 * `git rm --pathspec-from-file=list`): the options that name the list (`-`,
 * or an option without a value, for stdin), an `@list` operand where the
 * program takes one, and the option without which the named files are only
 * read.
 */
interface ListedChange {
  options: readonly string[];
  /** Options that read the names from stdin (`zip -@`). */
  stdinOptions?: readonly string[];
  /** Whether an operand `@file` names a list (7-Zip). */
  atOperand?: boolean;
  /** An option the command needs to change the files it is given; absent: it always does. */
  when?: RegExp;
}

const TAR_LISTS: ListedChange = { options: ["-T", "--files-from"], when: /^--remove-files$/ };
const SEVEN_ZIP_LISTS: ListedChange = { options: [], atOperand: true, when: /^-sdel$/ };
const GIT_LISTS: ListedChange = { options: ["--pathspec-from-file"] };

/** Programs (git by subcommand) that change the files a list names, keyed as `commandKey` gives them. */
export const LISTED_CHANGES: Readonly<Record<string, ListedChange>> = {
  tar: TAR_LISTS,
  bsdtar: TAR_LISTS,
  gtar: TAR_LISTS,
  rsync: { options: ["--files-from"], when: /^--remove-source-files$/ },
  zip: { options: [], stdinOptions: ["-@"], when: /^-[A-Za-z]*m[A-Za-z]*$/ },
  "7z": SEVEN_ZIP_LISTS,
  "7za": SEVEN_ZIP_LISTS,
  "7zz": SEVEN_ZIP_LISTS,
  "git rm": GIT_LISTS,
  "git checkout": GIT_LISTS,
  "git restore": GIT_LISTS,
  "git reset": GIT_LISTS,
  "git stash": GIT_LISTS,
  "git clean": GIT_LISTS,
};

/** Shell builtins that fill variables with the names they read (`read f`, `mapfile -t a`). */
export const NAME_FILLERS: ReadonlySet<string> = new Set(["read", "mapfile", "readarray"]);

/** Options after which a copy writes the source's contents as the destination itself. */
export const CONTENTS_AS_DESTINATION = /^(?:-[A-Za-z]*T[A-Za-z]*|--no-target-directory)$/;

/**
 * Whether a program (its name as a command word, without `.exe`) may write
 * into a folder in a way `folder_writes.ts` reads: a program of the table
 * (`git` by its subcommands), `find` with an action, a lister or a runner
 * of listed names, or a shell whose `-c` code may run one.
 */
function writesIntoFolders(program: string): boolean {
  return Object.hasOwn(FOLDER_WRITERS, program) || program === "git" || program === "find" ||
    SHELLS.has(program) || Object.hasOwn(NAME_LISTERS, program) || NAME_RUNNERS.has(program) ||
    NAME_FILLERS.has(program) || Object.hasOwn(LISTED_CHANGES, program);
}

/**
 * PowerShell's commands (cmdlets and their aliases) that copy, move or
 * extract into a folder: a copier writes each source's name into its
 * destination, `Expand-Archive` whatever the zip holds.
 */
export const POWERSHELL_WRITERS: Readonly<Record<string, "copier" | "zip">> = {
  "copy-item": "copier",
  cpi: "copier",
  copy: "copier",
  cp: "copier",
  "move-item": "copier",
  mi: "copier",
  move: "copier",
  mv: "copier",
  "expand-archive": "zip",
};

/** PowerShell's commands (and aliases) that list items: piped on, they hand over those items. */
export const POWERSHELL_LISTERS: ReadonlySet<string> = new Set([
  "get-childitem",
  "gci",
  "ls",
  "dir",
  "get-item",
  "gi",
]);

/** PowerShell's commands that make links (`New-Item -ItemType SymbolicLink`, cmd's `mklink`). */
export const POWERSHELL_LINK_MAKERS: ReadonlySet<string> = new Set(["new-item", "ni", "mklink"]);

/** PowerShell's commands (and aliases) that read a file's lines, which may be names. */
export const POWERSHELL_CONTENT_READERS: ReadonlySet<string> = new Set([
  "get-content",
  "gc",
  "cat",
  "type",
  "import-csv",
  "ipcsv",
  "import-clixml",
]);

/**
 * PowerShell's commands that delete, move or rewrite the items piped to
 * them (`gci -r -fo | Remove-Item -fo`): after a lister, every item below
 * the listed folder.
 */
export const POWERSHELL_CHANGERS: ReadonlySet<string> = new Set([
  "remove-item",
  "ri",
  "rm",
  "del",
  "erase",
  "rd",
  "rmdir",
  "move-item",
  "mi",
  "move",
  "mv",
  "rename-item",
  "rni",
  "ren",
  "clear-content",
  "clc",
  "set-content",
  "sc",
  "set-itemproperty",
  "sp",
  "set-acl",
]);

/** PowerShell parameters (by full name; a parameter may be shortened) that take a value. */
export const POWERSHELL_VALUE_PARAMETERS: readonly string[] = [
  "path",
  "literalpath",
  "pspath",
  "lp",
  "destination",
  "destinationpath",
  "filter",
  "include",
  "exclude",
  "credential",
  "fromsession",
  "tosession",
];

/**
 * The programs of `FOLDER_WRITERS` (by their first word: `git` for `git
 * clean`), which PowerShell runs as native programs unless a cmdlet alias
 * of `POWERSHELL_WRITERS` takes the name.
 */
export const NATIVE_WRITERS: ReadonlySet<string> = new Set(
  Object.keys(FOLDER_WRITERS).map((key) => key.split(" ")[0]),
);

/** A command of `POWERSHELL_WRITERS` standing as a word of a command. */
const POWERSHELL_WRITER_WORD = new RegExp(
  `(?:^|[\\s;|&{}()/\\\\])(?:${
    [
      ...Object.keys(POWERSHELL_WRITERS),
      ...POWERSHELL_LISTERS,
      ...POWERSHELL_CONTENT_READERS,
      ...POWERSHELL_LINK_MAKERS,
      ...NATIVE_WRITERS,
    ]
      .map((w) => w.replace(/[.+*?]/g, "\\$&")).join("|")
  })(?:\\.exe)?(?=[\\s"']|$)`,
  "i",
);

/**
 * Whether a PowerShell command may run one of `POWERSHELL_WRITERS`, list
 * items to pipe on, or run a native program of `FOLDER_WRITERS`.
 */
function powershellWritesIntoFolders(command: string): boolean {
  return POWERSHELL_WRITER_WORD.test(command);
}

/**
 * Whether a Bash line the reader would not take apart (past its length,
 * nesting or balance limits) may run a program the folder-write reader
 * reads, so that it may write names the reader never sees: it is then too
 * large to check. A line that only passed the length limit is parsed whole
 * all the same (`parse.segments`), so its command words and substitutions
 * are read as the shell runs them, here-document bodies being data; any
 * other is read crudely, every word of it counted.
 */
export function mayWriteUnread(
  command: string,
  parse: BashParse,
  commandAt: (segment: Segment) => number,
): boolean {
  if (parse.problem !== "too-long" || command.length > MAX_LEX_CHARS) {
    return /\$\(|`/.test(command) ||
      command.split(PIECE_BREAK).some((w) => writesIntoFolders(commandProgram(w)));
  }
  return parse.commandSubstitution || parse.processSubstitution ||
    needsFolderReader("bash", "", parse.segments, commandAt);
}

/**
 * Whether `command` runs a program the folder-write reader reads: in
 * PowerShell one of `POWERSHELL_WRITERS` as a word, in Bash a segment whose
 * command word (found by `commandAt`, past `sudo` and the like) names one.
 */
export function needsFolderReader(
  dialect: ShellDialect,
  command: string,
  segments: readonly Segment[] | null,
  commandAt: (segment: Segment) => number,
): boolean {
  if (dialect === "powershell") return powershellWritesIntoFolders(command);
  if (segments === null) return false;
  // Substitutions may hand a writer names from a file (`unread_names.ts`).
  if (/\$\(|`/.test(command)) return true;
  return segments.some((s) => {
    const at = commandAt(s);
    // A runner stands before the command word it runs (`xargs rm`).
    return writesIntoFolders(commandProgram(s.words[at]?.text ?? "")) ||
      s.words.slice(0, at).some((w) => NAME_RUNNERS.has(commandProgram(w.text)));
  });
}
