/**
 * The filesystem pack: commands that delete or overwrite files beyond the
 * core's recursive `rm`: find's deleting and program-running actions,
 * rsync's deleting options, archivers that delete what they archive
 * (`tar --remove-files`, `zip -m`, `7z -sdel`), truncation to zero,
 * deleting packages run through `npx`, `bunx`, `pnpm dlx` or `npm exec`, and the filesystem
 * makers the core does not name (`mke2fs`, `mkswap`, `blkdiscard`). (`dd
 * of=`, `shred`, `wipefs` and `mkfs` are core rules.)
 *
 * @module
 */

import { FIND_EXEC_PRIMARIES, FIND_PRIMARIES } from "../programs/mod.ts";
import type { Pack, RuleInput } from "./pack.ts";
import { PACKAGE_MANAGERS } from "./package_managers.ts";
import { baseName } from "../../platform/path.ts";

/** find primaries (any spelling the table lists) that delete. */
const FIND_DELETES = Object.keys(FIND_PRIMARIES).filter((k) =>
  FIND_PRIMARIES[k].action === "deletes"
);

/** The commands find's `-exec`-style primaries run, each up to its `;` or `+`. */
function findExecCommands(args: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!FIND_EXEC_PRIMARIES.has(args[i])) continue;
    const words: string[] = [];
    for (i++; i < args.length && args[i] !== ";" && args[i] !== "+"; i++) words.push(args[i]);
    out.push(words);
  }
  return out;
}

/** An `-exec` whose command deletes: read by the same detector, `{}` standing for a path. */
function findExecDeletes(input: RuleInput): boolean {
  return findExecCommands(input.args).some((words) => {
    if (words.length === 0) return false;
    const name = baseName(words[0]);
    // `-exec rm {} +` deletes every file found, recursive option or not.
    if (name === "rm" || name === "unlink" || name === "shred" || name === "rmdir") return true;
    const text = words.map((w) => w === "{}" ? "x" : `'${w.replaceAll("'", "'\\''")}'`).join(" ");
    return input.code("bash", text);
  });
}

/** Whether a `cmake -E` command deletes a tree: `remove_directory`, or `rm` with `-r`/`-R`. */
function cmakeRemoves(input: RuleInput): boolean {
  const at = input.args.indexOf("-E");
  if (at < 0) return false;
  const [tool, ...rest] = input.args.slice(at + 1);
  if (tool === "remove_directory") return rest.length > 0;
  return tool === "rm" && rest.some((a) => /^-[A-Za-z]*[rR]/.test(a));
}

/** rsync options that delete files on the receiving side or the source. */
const RSYNC_DELETES = [
  "delete",
  "delete-before",
  "delete-during",
  "delete-delay",
  "delete-after",
  "delete-excluded",
  "delete-missing-args",
  "del",
  "remove-source-files",
  // The older name of --remove-source-files, still accepted.
  "remove-sent-files",
];

/** Files whose size is zero whatever they hold, as a `--reference` for truncate. */
const EMPTY_REFERENCES = new Set(["/dev/null", "/dev/zero"]);

/**
 * A size of zero, or one that shrinks (`-s 0`, `--size=0`, `-s -10`,
 * `-s <5`), or the size of an always-empty file (`-r /dev/null`).
 */
function shrinksToNothing(input: RuleInput): boolean {
  const references = [
    ...input.scan.shorts.filter((s) => s.letter === "r").map((s) => s.value),
    ...input.scan.longs.filter((l) => "reference".startsWith(l.name) && l.name.length >= 2)
      .map((l) => l.value),
  ];
  if (references.some((v) => v !== null && EMPTY_REFERENCES.has(v))) return true;
  const sizes = [
    ...input.scan.shorts.filter((s) => s.letter === "s").map((s) => s.value),
    ...input.scan.longs.filter((l) => "size".startsWith(l.name) && l.name.length >= 2).map((l) =>
      l.value
    ),
  ];
  return sizes.some((v) => v !== null && /^(0+[KMGTPEZY]?i?B?|[-<][0-9].*)$/i.test(v.trim()));
}

/** Packages that delete the paths they are given, as `pnpm dlx` names them. */
const DELETING_PACKAGES = /^(rimraf|del-cli|trash-cli|trash|rmrf|premove)(@.*)?$/;

/** Programs of those packages, as they run from `npx`, `bunx` or a global install. */
const DELETING_PROGRAMS = ["rimraf*", "del-cli*", "trash", "trash-cli*", "rmrf", "premove"];

/** Programs that write a new filesystem or discard a whole device's blocks. */
const DEVICE_WRITERS = ["mkswap", "mkdosfs", "mkexfatfs", "newfs*", "blkdiscard"];

/** Filesystem makers whose `-n` only shows what they would do (elsewhere `-n` names a label). */
const DEVICE_WRITERS_WITH_DRY_RUN = ["mke2fs", "mkntfs"];

/**
 * The commands `fd -x`/`--exec` and `-X`/`--exec-batch` run: every word
 * after the option up to a `;` (`fd -x sh -c 'rm -rf "$1"' _`), quoted
 * back into one command line with `{}` standing for a file name.
 */
function fdCommands(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const attached = /^--exec(-batch)?=/.test(a) ? a.slice(a.indexOf("=") + 1) : null;
    if (!/^(-[xX]|--exec|--exec-batch)$/.test(a) && attached === null) continue;
    const end = args.indexOf(";", i + 1);
    const words = [
      ...(attached === null ? [] : [attached]),
      ...args.slice(i + 1, end < 0 ? undefined : end),
    ];
    out.push(words.map((w) => `'${w.replaceAll("'", "'\\''").replaceAll("{}", "f")}'`).join(" "));
    if (end < 0) break;
    i = end;
  }
  return out;
}

/** The filesystem pack. */
export const FILESYSTEM_PACK: Pack = {
  id: "filesystem",
  summary:
    "find -delete/-exec rm, rsync --delete, archivers that delete what they archive, truncate -s 0, deleting npx/bunx packages, mke2fs/mkswap",
  defaultOn: true,
  dryRunsAndHelp: true,
  rules: [
    {
      id: "find-delete",
      commands: ["find", "bfs", "gfind"],
      when: [{ test: (input) => input.args.some((a) => FIND_DELETES.includes(a)) }],
      destroys: "deletes every file and directory the expression matches",
    },
    {
      id: "find-exec-delete",
      commands: ["find", "bfs", "gfind"],
      when: [{ test: findExecDeletes }],
      destroys: "runs a deleting command on every file the expression matches",
    },
    {
      id: "fd-exec-delete",
      commands: ["fd", "fdfind"],
      options: {
        short: { x: "value", X: "value" },
        long: { exec: "value", "exec-batch": "value" },
      },
      when: [{
        test: (input) =>
          [
            ...input.scan.shorts.filter((s) => "xX".includes(s.letter)).map((s) => s.value ?? ""),
            ...input.scan.longs.filter((l) => l.name.startsWith("exec")).map((l) => l.value ?? ""),
          ]
            .some((v) => /^(rm|unlink|shred|rmdir)$/.test(baseName(v))) ||
          fdCommands(input.args).some((c) => input.code("bash", c)),
      }],
      destroys: "runs a deleting command on every file it finds",
    },
    {
      id: "rsync-delete",
      commands: ["rsync"],
      when: [{ long: RSYNC_DELETES }],
      unless: [{ short: "n" }],
      destroys: "deletes files in the destination that the source lacks (or the sent source files)",
    },
    {
      id: "tar-remove-files",
      commands: ["tar", "bsdtar", "gtar"],
      when: [{ long: ["remove-files"] }],
      destroys: "deletes each file it archives once it is in the archive",
    },
    {
      id: "zip-move",
      commands: ["zip"],
      when: [{ short: "m", long: ["move"] }],
      destroys: "deletes each file it archives once it is in the archive",
    },
    {
      id: "7z-delete-sources",
      commands: ["7z", "7za", "7zz"],
      when: [{ arg: /^-sdel$/i }],
      destroys: "deletes each file it archives once it is in the archive",
    },
    {
      id: "robocopy-mirror",
      commands: ["robocopy"],
      when: [{ arg: /^\/(mir|purge|mov|move)$/i }],
      unless: [{ arg: /^\/l$/i }],
      destroys: "deletes files in the destination that the source lacks (or moves the source away)",
    },
    {
      id: "truncate-zero",
      commands: ["truncate"],
      options: { short: { s: "value", r: "value" }, long: { size: "value", reference: "value" } },
      when: [{ test: shrinksToNothing }],
      destroys: "cuts files down, discarding their contents",
    },
    {
      // cmake's portable file commands: `cmake -E remove_directory d`, `cmake -E rm -r d`.
      id: "cmake-remove",
      commands: ["cmake"],
      when: [{ test: cmakeRemoves }],
      destroys: "deletes directory trees",
    },
    {
      id: "crontab-remove",
      commands: ["crontab"],
      options: { short: { u: "value" } },
      when: [{ short: "r" }],
      destroys: "deletes the user's crontab",
    },
    {
      // PowerShell's own truncate: every file it names is emptied.
      id: "clear-content",
      commands: ["clear-content", "clc"],
      when: [{ test: (input) => input.args.length > 0 }],
      unless: [{ arg: /^-(wi|whatif)(:\$?true)?$/i }],
      destroys: "empties files, discarding their contents",
    },
    {
      // The bin's files are the last copy of what was deleted before.
      id: "empty-trash",
      commands: ["clear-recyclebin", "trash-empty"],
      unless: [{ arg: /^-(wi|whatif)(:\$?true)?$/i }],
      destroys: "empties the recycle bin or trash, deleting its files for good",
      forms: [{ commands: ["gio"], path: ["trash"], when: [{ long: ["empty"] }] }],
    },
    {
      id: "deleting-package",
      commands: DELETING_PROGRAMS,
      when: [{ test: (input) => input.scan.operands.length > 0 }],
      destroys: "deletes the given paths through a deleting package (rimraf, del-cli, trash)",
      forms: [
        {
          commands: PACKAGE_MANAGERS,
          path: [/^(exec|dlx|x)$/, DELETING_PACKAGES],
          when: [{ test: (input) => input.scan.operands.length > 0 }],
        },
        {
          // `yarn rimraf dist`, `pnpm rimraf dist`: an installed package's program by name.
          commands: PACKAGE_MANAGERS,
          when: [{
            test: (input) =>
              DELETING_PACKAGES.test(input.scan.operands[0] ?? "") &&
              input.scan.operands.length > 1,
          }],
        },
      ],
    },
    {
      id: "device-format",
      commands: DEVICE_WRITERS,
      destroys: "writes a new filesystem or discards every block of a device",
      forms: [
        {
          commands: DEVICE_WRITERS_WITH_DRY_RUN,
          unless: [{ short: "n" }],
        },
      ],
    },
  ],
};
