/**
 * Where everyday programs take a command to run besides their own
 * arguments: options whose value is a command (tar's compressor and
 * checkpoint actions, rsync's remote shell, man's pager, zip's test
 * command, nodemon's `--exec`), and the shell escapes of programs with a
 * command language of their own (gdb's and lldb's `shell`, ed's `!`; the
 * SQL clients' are the databases pack's), in their arguments or in what
 * they read on stdin. Each names a command the line does not run itself.
 * Also the other end: commands that never run any of their words.
 *
 * @module
 */

import { ownEntry } from "../../platform/own_key.ts";
import { type OptionSpec, roleValues, scanArgs, takesValue } from "./options.ts";

/**
 * Commands that take their arguments as text and never run them (`echo`,
 * `man`, `grep`, …): a reader that looks for a command among another
 * program's words stops after one.
 */
export const PLAIN_COMMANDS: ReadonlySet<string> = new Set([
  "echo",
  "printf",
  "true",
  "false",
  ":",
  "cat",
  "ls",
  "test",
  "[",
  "[[",
  // Documentation and lookups, given a command's name and often its options.
  "man",
  "info",
  "tldr",
  "help",
  "whatis",
  "apropos",
  "which",
  "whereis",
  "type",
  // Messages and banners.
  "logger",
  "say",
  "figlet",
  "toilet",
  "cowsay",
  "banner",
  "notify-send",
  "wall",
  // Searches and filters, whose patterns are text.
  "grep",
  "egrep",
  "fgrep",
  "zgrep",
  "rg",
  "ag",
  "ack",
  "jq",
  "yq",
  "wc",
  "head",
  "tail",
]);

/** Per program, the options whose value is a command it runs (`runs-value`), with those that take other values. */
const COMMAND_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  tar: {
    short: {
      I: "runs-value",
      F: "runs-value",
      f: "value",
      C: "value",
      b: "value",
      g: "value",
      K: "value",
      L: "value",
      N: "value",
      T: "value",
      V: "value",
      X: "value",
      H: "value",
    },
    long: {
      "use-compress-program": "runs-value",
      "to-command": "runs-value",
      "checkpoint-action": "runs-value",
      "info-script": "runs-value",
      "new-volume-script": "runs-value",
      file: "value",
      directory: "value",
    },
  },
  rsync: { short: { e: "runs-value" }, long: { rsh: "runs-value", "rsync-path": "runs-value" } },
  man: {
    short: { P: "runs-value", H: "runs-value" },
    long: { pager: "runs-value", html: "runs-value" },
  },
  nodemon: { short: { x: "runs-value" }, long: { exec: "runs-value" } },
  zip: { long: { "unzip-command": "runs-value" } },
};

/**
 * tar's old style (`tar cIf PROG a.tar`): a first word of letters, each
 * letter that takes a value taking the next word in turn, rewritten as
 * separate options.
 */
function tarOldStyle(args: readonly string[], spec: OptionSpec): readonly string[] {
  const [first, ...rest] = args;
  if (first === undefined || !/^[A-Za-z]+$/.test(first)) return args;
  const out: string[] = [];
  for (const letter of first) {
    out.push(`-${letter}`);
    if (takesValue(spec.short, letter) && rest.length > 0) out.push(rest.shift()!);
  }
  return [...out, ...rest];
}

/** Other names of those programs. */
const SAME_AS: Readonly<Record<string, string>> = { gtar: "tar", bsdtar: "tar" };

/**
 * The commands `name` run with `args` takes from its options; a value
 * spelled as an action (`exec=CMD`, tar's checkpoint action) is its command.
 */
export function optionCommands(name: string, args: readonly string[]): string[] {
  const program = ownEntry(SAME_AS, name) ?? name;
  const spec = ownEntry(COMMAND_OPTIONS, program);
  if (spec === undefined) return [];
  const read = program === "tar" ? tarOldStyle(args, spec) : args;
  const values = roleValues(scanArgs(read, spec), spec, "runs-value");
  // zip's `-TT` is one option of two letters, which no cluster reading finds.
  if (name === "zip") {
    values.push(...args.flatMap((a, i) => a === "-TT" ? [args[i + 1] ?? ""] : []));
  }
  return values.flatMap((v) => v === null ? [] : [v.replace(/^exec=/, "")]);
}

/** Per program, its shell escape: the command is the first group, to the end of its line. */
const SHELL_ESCAPES: Readonly<Record<string, RegExp>> = {
  gdb: /(?:^|\n)[ \t]*(?:shell[ \t]+|!)([^\n]+)/g,
  lldb: /(?:^|\n)[ \t]*(?:platform[ \t]+)?shell[ \t]+([^\n]+)/g,
  ed: /(?:^|\n)[ \t]*[.$\d,]*(?:[rwe][ \t]*)?!([^\n]+)/g,
};

/** The commands the shell escapes of `name` run, from its arguments and what it reads on stdin. */
export function escapedCommands(
  name: string,
  args: readonly string[],
  stdin: readonly string[],
): string[] {
  const escape = ownEntry(SHELL_ESCAPES, name);
  if (escape === undefined) return [];
  return [...args, ...stdin].flatMap((text) => [...text.matchAll(escape)].map((m) => m[1]));
}
