/**
 * The cmd.exe side of the destructive detector: `rd /s` and `del /s` (also
 * `rmdir`, `erase`, switches run together as `/s/q` or glued to the name
 * as `rd/s/q`), `for /r` and `forfiles /s` running a delete in every
 * subdirectory, `format` of a drive, and every other command handed to the engine through the
 * shared wrapper reading.
 *
 * The line is read the way cmd.exe reads it: `^` escapes, `"…"` quotes,
 * `&`, `|`, newlines and parentheses end commands, and `,`, `;` and `=`
 * separate words like blanks. Variables set on the line (`set x=rd`) are
 * substituted where `%x%` or `!x!` is written, and are handed to the
 * programs the line runs as their environment. Keywords that run a later
 * command (`if`, `for … do`, `else`, `call`, `start`, `@`) are read by
 * trying every word after them as the start of that command, stopping at
 * a command that only prints or sets something; a command named by a
 * variable the line does not set is read as the worst of the commands it
 * could be.
 *
 * @module
 */

import { programName } from "../programs/mod.ts";
import { unwrapCommand } from "./wrappers.ts";
import { afford, deeper, type Engine, type Verdict, type Walk } from "./detect_types.ts";

/** cmd.exe's own deleting commands (PowerShell's names are read by the PowerShell reader). */
const CMD_REMOVERS = new Set(["rd", "rmdir", "del", "erase"]);

/** A word of cmd.exe switches, possibly run together or with values: `/s`, `/s/q`, `/a:h/s`. */
const SWITCHES = /^(\/[A-Za-z](:[^/\s]*)?)+$/;

/** `/s` among a remover's switches, possibly run together (`/s/q`): a recursive delete in cmd.exe. */
function cmdRemoveDestructive(args: readonly string[]): boolean {
  return args.some((a) => SWITCHES.test(a) && a.split("/").some((p) => /^s(:|$)/i.test(p)));
}

/** Whether `name` run with `args` is `rd /s` or `del /s` (`rmdir`, `erase`). */
export function cmdRemovesTree(name: string, args: readonly string[]): boolean {
  return CMD_REMOVERS.has(name) && cmdRemoveDestructive(args);
}

/** Characters that separate words outside quotes, as blanks do. */
const CMD_BLANKS = new Set([" ", "\t", "\r", ",", ";", "="]);

/** Characters that end a command outside quotes. */
const CMD_ENDS = new Set(["&", "|", "\n", "(", ")"]);

/** Splits a cmd.exe command line into commands of words (`^` escapes, `"…"` quotes). */
function cmdCommands(text: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let cur = "";
  let quoted = false;
  const endWord = (): void => {
    if (cur !== "") words.push(cur);
    cur = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "^") cur += text[++i] ?? "";
    else if (!quoted && CMD_ENDS.has(c)) {
      endWord();
      if (words.length > 0) commands.push(words);
      words = [];
    } else if (!quoted && CMD_BLANKS.has(c)) endWord();
    else cur += c;
  }
  endWord();
  if (words.length > 0) commands.push(words);
  return commands;
}

/** Most values remembered per variable set on the line. */
const MAX_VALUES = 8;

/**
 * Variables `set NAME=value` (also `set "NAME=value"`) gives on the line,
 * by upper-cased name. Read before words are split, since `=` separates
 * words everywhere else.
 */
function setVariables(text: string): Map<string, string[]> {
  const vars = new Map<string, string[]>();
  for (const m of text.matchAll(/(?:^|[&|(\n]|\s)@*set\s+"?([^\s="&|/]+)=([^"&|\n)]*)/gi)) {
    const name = m[1].toUpperCase();
    const list = vars.get(name) ?? [];
    if (list.length < MAX_VALUES) list.push(m[2].trimEnd());
    vars.set(name, list);
  }
  return vars;
}

/** `%NAME%` and `!NAME!` (delayed expansion) references. */
const VARIABLE_REF = /%([^%\s]+)%|!([^!\s]+)!/g;

/** `text` with every reference to a variable set on the line replaced by its last value. */
function substitute(text: string, vars: ReadonlyMap<string, readonly string[]>): string {
  if (vars.size === 0) return text;
  return text.replace(VARIABLE_REF, (ref, a?: string, b?: string) => {
    const values = vars.get((a ?? b ?? "").toUpperCase());
    return values === undefined ? ref : values[values.length - 1];
  });
}

/** Keywords after which a later word starts the command that runs. */
const CMD_RUNNERS = new Set(["if", "for", "do", "else", "call", "start", "not", "exist"]);

/** Commands that only print or set something: words after them are their arguments. */
const CMD_PLAIN = new Set([
  "echo",
  "rem",
  "set",
  "title",
  "type",
  "dir",
  "cd",
  "chdir",
  "pushd",
  "popd",
  "ver",
  "vol",
  "color",
  "prompt",
  "path",
  "cls",
  "pause",
  "exit",
  "goto",
  "shift",
  "setlocal",
  "endlocal",
  "mkdir",
  "md",
  "copy",
  "move",
  "ren",
  "rename",
  "mklink",
  "assoc",
  "ftype",
]);

/** Most start positions tried inside one command. */
const MAX_STARTS = 64;

/**
 * A command's words as cmd.exe runs them: `@` (echo off) and the quotes of
 * a `for /f` command set dropped, and a remover's switches split from its
 * name (`rd/s/q x` is `rd /s/q x`).
 */
function cmdWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const word = w.replace(/^@+/, "").replace(/^'+|'+$/g, "");
    const slash = word.indexOf("/");
    if (slash > 0 && CMD_REMOVERS.has(word.slice(0, slash).toLowerCase())) {
      out.push(word.slice(0, slash), word.slice(slash));
    } else if (word !== "") out.push(word);
  }
  return out;
}

/** A drive, as `format` takes it. */
const DRIVE = /^[a-z]:\\?$/i;

/**
 * Whether `words`, run as one command starting at its first word, is one
 * of cmd.exe's own destructive forms; null when it is none of them.
 */
function builtinHit(words: readonly string[], engine: Engine): Verdict {
  const name = programName(words[0]);
  const args = words.slice(1);
  if (cmdRemovesTree(name, args)) return engine.core("cmd-remove-tree");
  if (name === "format" && args.some((a) => DRIVE.test(a))) return engine.core("disk-wipe");
  return null;
}

/** `for /r … do del …`: the body runs in every subdirectory of the tree. */
function recursiveForDelete(commands: readonly string[][], index: number): boolean {
  const words = commands[index];
  if (words[0].toLowerCase() !== "for" || !words.some((w) => w.toLowerCase() === "/r")) {
    return false;
  }
  // The body follows `do`, here or in a later command (the set in parentheses splits them).
  for (let j = index; j < commands.length; j++) {
    const lower = commands[j].map((w) => w.toLowerCase());
    const at = lower.indexOf("do");
    if (at >= 0) return lower.slice(at + 1).some((w) => CMD_REMOVERS.has(programName(w)));
  }
  return false;
}

/** A command word only known at run time: a variable the line does not set. */
const UNKNOWN_WORD = /^(%[^%]+%|![^!]+!)$/;

/**
 * `forfiles … /c "command"` runs the command for every file it finds, in
 * every subdirectory with `/s`: a delete there removes a tree.
 */
function forfilesHit(words: readonly string[], walk: Walk, engine: Engine): Verdict {
  const lower = words.map((w) => w.toLowerCase());
  const at = lower.indexOf("/c");
  const command = at < 0 ? undefined : words[at + 1];
  if (command === undefined) return null;
  const deletes = command.split(/[\s,;=]+/).some((w) => CMD_REMOVERS.has(programName(w)));
  if (lower.includes("/s") && deletes) return engine.core("cmd-remove-tree");
  return engine.code("cmd", command, deeper(walk), []);
}

/** One command started at its first word: cmd's own forms, then the shared wrapper reading. */
function commandHit(words: readonly string[], walk: Walk, engine: Engine): Verdict {
  const builtin = builtinHit(words, engine);
  if (builtin) return builtin;
  if (programName(words[0]) === "forfiles") return forfilesHit(words, walk, engine);
  if (CMD_REMOVERS.has(programName(words[0]))) return null;
  // A program cmd would never glob: `*` in a `for` set is no command.
  if (/[*?]/.test(words[0])) return null;
  if (UNKNOWN_WORD.test(words[0])) {
    // It could be a remover or cmd itself (`%COMSPEC% /c …`).
    const args = words.slice(1);
    if (cmdRemoveDestructive(args)) return engine.core("cmd-remove-tree");
    return engine.unwrapped(unwrapCommand(["cmd", ...args], walk.depth), [], walk, words.join(" "));
  }
  return engine.unwrapped(unwrapCommand(words, walk.depth), [], walk, words.join(" "));
}

/**
 * Where the command that runs may start: at the first word, and after a
 * keyword that runs a later command at every word up to the first plain
 * command.
 */
function commandStarts(words: readonly string[]): number[] {
  if (!CMD_RUNNERS.has(words[0].toLowerCase())) return [0];
  const starts: number[] = [];
  for (let k = 1; k < words.length && starts.length < MAX_STARTS; k++) {
    starts.push(k);
    if (CMD_PLAIN.has(programName(words[k]))) break;
  }
  return starts;
}

/** Whether a cmd.exe command line is destructive. */
export function cmdVerdict(text: string, walk: Walk, engine: Engine): Verdict {
  const vars = setVariables(text);
  const scoped: Walk = vars.size === 0
    ? walk
    : { ...walk, env: new Map([...walk.env ?? [], ...vars]) };
  const commands = cmdCommands(substitute(text, vars)).map(cmdWords).filter((w) => w.length > 0);
  for (let i = 0; i < commands.length; i++) {
    const words = commands[i];
    if (recursiveForDelete(commands, i)) return engine.core("cmd-remove-tree");
    // Past the starts it tries, the rest of a long command is read with the fail-closed scan.
    if (CMD_RUNNERS.has(words[0].toLowerCase()) && words.length > MAX_STARTS) {
      const hit = engine.raw(words.join(" "), scoped);
      if (hit) return hit;
    }
    for (const k of commandStarts(words)) {
      const rest = words.slice(k);
      // Each start reads the rest of the command again: it costs its length.
      if (k > 0 && !afford(scoped, rest.join(" ").length)) return engine.raw(text, scoped);
      const hit = commandHit(rest, scoped, engine);
      if (hit) return hit;
    }
  }
  return null;
}
