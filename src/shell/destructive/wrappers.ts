/**
 * Wrapper unwrapping: the command(s) that actually run behind `sudo`,
 * `env`, `nice`, `timeout`, `xargs`, `find -exec`, `sh -c '…'`, `eval`,
 * `pwsh -Command`, `cmd /c`, package and project runners (`npm exec`,
 * `pnpm dlx`, `yarn exec`, `bun x`, `bundle exec`, `uv run`) and the like.
 *
 * Wrappers that take an argument vector are peeled off repeatedly; those
 * that take a code string (`sh -c`, `eval`, `su -c`, `ssh host cmd`,
 * `watch`, `trap`, `env -S`, `pwsh -Command`, `Invoke-Expression`,
 * `cmd /c`) hand it back as a script for the caller to parse again, one
 * level deeper. A shell started without a script reads it from stdin,
 * which is reported too, since only the caller knows what the stdin is.
 * Past `MAX_WRAPPER_DEPTH` levels the result is marked opaque.
 *
 * @module
 */

import { ownEntry } from "../../platform/own_key.ts";
import { STDIN_PATHS } from "../stdin_markers.ts";
import {
  hasRole,
  isDynamic,
  longsMatching,
  namesWithRole,
  optionRole,
  programName,
  scanArgs,
  type ScannedArgs,
} from "../programs/mod.ts";
import { part } from "./parts.ts";
import { type ArgvWrapper, type Wrapper, WRAPPERS } from "./wrapper_table.ts";
import type { Dialect } from "../dialect.ts";
import type { InnerCommand, Script, Template, Unwrapped } from "./unwrapped.ts";
import { FIND_EXEC_PRIMARIES } from "../programs/mod.ts";

export type { Dialect };
export type { InnerCommand, Script, Template, Unwrapped };

/** Deepest chain of wrappers and re-parsed scripts that is followed. */
export const MAX_WRAPPER_DEPTH = 8;

/**
 * The token `xargs -I R`, `-i[R]` or `--replace[=R]` replaces by each
 * input line (`{}` unless given); null when none of them is given.
 */
function replaceToken(options: readonly string[], scan: ScannedArgs): string | null {
  const capital = scan.shorts.find((s) => s.letter === "I" && s.value !== null);
  if (capital) return capital.value;
  for (const word of options) {
    if (/^-[^-]*i/.test(word)) return word.slice(word.indexOf("i") + 1) || "{}";
    if (word === "--replace" || word.startsWith("--replace=")) return word.slice(10) || "{}";
  }
  return null;
}

/** A PowerShell parameter and its aliases. */
interface PsParam {
  name: string;
  aliases?: readonly string[];
}

/** A parameter word bound to a known name (null when unknown or ambiguous) and its `:value`. */
interface BoundParam {
  name: string | null;
  value: string | null;
}

/** Binds a `-Name[:value]` word against `params`; null when the word is no parameter. */
function bindPs(word: string, params: readonly PsParam[]): BoundParam | null {
  const { bindParameter, splitColonArg } = part("powershell");
  const split = splitColonArg(word);
  if (split === null) return null;
  const aliases: Record<string, string> = {};
  for (const p of params) for (const a of p.aliases ?? []) aliases[a] = p.name;
  const name = bindParameter(word, params.map((p) => p.name), aliases);
  return { name, value: split.value === "" ? null : split.value };
}

/**
 * A PowerShell CLI parameter as the CLI reads it: `--name` and `/name` are
 * `-name`, and a prefix shared by `-Command` and `-CommandWithArgs`
 * (`-Comm`) is `-Command`, which the CLI tries first.
 */
function pwshSpelling(word: string): string {
  const dashed = /^(--|\/)[A-Za-z]/.test(word) ? `-${word.replace(/^(--|\/)/, "")}` : word;
  const name = dashed.slice(1).split(":")[0].toLowerCase();
  return name.length >= 2 && "command".startsWith(name) && dashed.startsWith("-")
    ? `-Command${dashed.slice(1 + name.length)}`
    : dashed;
}

/** Parameters of the PowerShell CLI (`pwsh`, `powershell.exe`). */
const PWSH_PARAMS: readonly PsParam[] = [
  { name: "Command", aliases: ["c"] },
  { name: "CommandWithArgs", aliases: ["cwa"] },
  { name: "EncodedCommand", aliases: ["e", "ec"] },
  { name: "File", aliases: ["f"] },
  { name: "ExecutionPolicy", aliases: ["ex", "ep"] },
  { name: "InputFormat", aliases: ["inp", "if"] },
  { name: "OutputFormat", aliases: ["o", "of"] },
  { name: "WindowStyle", aliases: ["w"] },
  { name: "WorkingDirectory", aliases: ["wd"] },
  { name: "ConfigurationName", aliases: ["config"] },
  { name: "ConfigurationFile" },
  { name: "CustomPipeName" },
  { name: "SettingsFile", aliases: ["settings"] },
  { name: "Version", aliases: ["v"] },
  { name: "PSConsoleFile" },
  { name: "NoProfile", aliases: ["nop"] },
  { name: "NoLogo", aliases: ["nol"] },
  { name: "NonInteractive", aliases: ["noni"] },
  { name: "NoExit", aliases: ["noe"] },
  { name: "NoProfileLoadTime" },
  { name: "Login", aliases: ["l"] },
  { name: "Interactive", aliases: ["i"] },
  { name: "MTA" },
  { name: "STA" },
  { name: "SSHServerMode", aliases: ["sshs"] },
  { name: "NamedPipeServerMode", aliases: ["namedpipes"] },
  { name: "SocketServerMode", aliases: ["sockets"] },
  { name: "ServerMode", aliases: ["server"] },
];

/** PowerShell CLI parameters that take the next word as value. */
const PWSH_VALUE_PARAMS = new Set([
  "ExecutionPolicy",
  "InputFormat",
  "OutputFormat",
  "WindowStyle",
  "WorkingDirectory",
  "ConfigurationName",
  "ConfigurationFile",
  "CustomPipeName",
  "SettingsFile",
  "Version",
  "PSConsoleFile",
]);

const START_PROCESS_PARAMS: readonly PsParam[] = [
  { name: "FilePath", aliases: ["PSPath", "Path", "LP"] },
  { name: "ArgumentList", aliases: ["Args"] },
  { name: "Credential", aliases: ["RunAs"] },
  { name: "WorkingDirectory" },
  { name: "LoadUserProfile", aliases: ["Lup"] },
  { name: "NoNewWindow", aliases: ["nnw"] },
  { name: "PassThru" },
  { name: "RedirectStandardError", aliases: ["RSE"] },
  { name: "RedirectStandardInput", aliases: ["RSI"] },
  { name: "RedirectStandardOutput", aliases: ["RSO"] },
  { name: "Verb" },
  { name: "WindowStyle" },
  { name: "Wait" },
  { name: "UseNewEnvironment" },
  { name: "Environment" },
];

const START_PROCESS_SWITCHES = new Set([
  "LoadUserProfile",
  "NoNewWindow",
  "PassThru",
  "Wait",
  "UseNewEnvironment",
]);

/** `env` takes any word with `=` before the command as an assignment (`BASH_FUNC_f%%=…`). */
const ENVIRONMENT_ASSIGNMENT = /^[^=/-][^=/]*=/;

/** Decodes a PowerShell `-EncodedCommand` value (base64 of UTF-16LE); null when malformed. */
export function decodePowerShellCommand(value: string): string | null {
  try {
    const binary = atob(value.trim());
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder("utf-16le", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

class Unwrapper {
  readonly result: Unwrapped = {
    commands: [],
    templates: [],
    scripts: [],
    stdinShell: null,
    opaque: false,
  };

  walk(words: readonly string[], depth: number, stdinAsArgs: boolean): void {
    if (words.length === 0) return;
    if (depth >= MAX_WRAPPER_DEPTH) {
      this.result.opaque = true;
      return;
    }
    const name = programName(words[0]);
    // The table is looked up by a word the command chose: only its own keys count.
    const wrapper = isDynamic(words[0]) || !Object.hasOwn(WRAPPERS, name)
      ? undefined
      : WRAPPERS[name];
    if (wrapper === undefined) {
      this.result.commands.push({ words: [...words], stdinAsArgs });
      return;
    }
    this.apply(wrapper, words, depth + 1, stdinAsArgs);
  }

  /** Runs `words` (command word first) through `wrapper`, one level deeper at `next`. */
  private apply(wrapper: Wrapper, words: readonly string[], next: number, stdinAsArgs: boolean) {
    const args = words.slice(1);
    switch (wrapper.kind) {
      case "argv":
        return this.argv(wrapper, programName(words[0]), args, next, stdinAsArgs);
      case "subcommand": {
        // The program is a command itself (`npm install`), and some subcommands run others.
        this.result.commands.push({ words: [...words], stdinAsArgs });
        const scan = scanArgs(args, wrapper.options);
        const word = args[scan.stop] ?? "";
        if (Object.hasOwn(wrapper.subcommands, word)) {
          this.apply(wrapper.subcommands[word], args.slice(scan.stop), next, stdinAsArgs);
        }
        return;
      }
      case "shell":
        return this.shell(args, next, stdinAsArgs);
      case "eval":
        return this.script(wrapper.dialect, args.join(" "), next, true);
      case "joined": {
        const scan = scanArgs(args, wrapper.options);
        const rest = (scan.dashDash ? scan.operands : args.slice(scan.stop)).slice(
          wrapper.operands,
        );
        if (rest.length > 0) this.script("bash", rest.join(" "), next);
        return;
      }
      case "trap":
        if (args.length > 0 && !args[0].startsWith("-")) this.script("bash", args[0], next);
        return;
      case "find":
        return this.find(words[0], args, next, stdinAsArgs);
      case "applet":
        return this.walk(args, next, stdinAsArgs);
      case "pwsh":
        return this.pwsh(args, next);
      case "cmd":
        return this.cmd(args, next);
      case "wsl":
        return this.wsl(args, next, stdinAsArgs);
      case "start-process":
        return this.startProcess(args, next);
    }
  }

  private script(dialect: Dialect, text: string, depth: number, evaluated = false): void {
    if (depth >= MAX_WRAPPER_DEPTH) this.result.opaque = true;
    else this.result.scripts.push({ dialect, text, depth, ...evaluated ? { evaluated } : {} });
  }

  private argv(
    w: ArgvWrapper,
    name: string,
    args: string[],
    depth: number,
    stdinAsArgs: boolean,
  ): void {
    const scan = scanArgs(args, w.options);
    if (hasRole(scan, w.options, "no-run")) return;
    const codesOf = (s: ScannedArgs): (string | null)[] => [
      ...s.shorts.filter((o) => optionRole(w.options.short, o.letter) === "runs-value")
        .map((o) => o.value),
      ...namesWithRole(w.options.long, "runs-value").flatMap((full) =>
        longsMatching(s, full).map((l) => l.value)
      ),
    ];
    const codes = codesOf(scan);
    let rest = scan.dashDash ? [...scan.operands] : args.slice(scan.stop);
    if (w.assignments) {
      while (rest.length > 0 && ENVIRONMENT_ASSIGNMENT.test(rest[0])) {
        (this.result.assignments ??= []).push(rest[0]);
        rest = rest.slice(1);
      }
    }
    rest = rest.slice(w.operands ?? 0);
    const shellMode = hasRole(scan, w.options, "shell-mode");
    if (shellMode && rest.length > 0) return this.script("bash", rest.join(" "), depth);
    if (w.operands && codes.length === 0) {
      // Options may also follow the operand: `flock file -c cmd`, `su root -c cmd`.
      const after = scanArgs(rest, w.options);
      const more = codesOf(after);
      if (more.length > 0) {
        codes.push(...more);
        rest = after.dashDash ? [...after.operands] : rest.slice(after.stop);
      }
    }
    if (codes.length > 0) {
      // `env -S` splits its string into the command, later words are appended.
      for (const code of codes) {
        if (code !== null) {
          this.script("bash", [code, ...(w.assignments ? rest : [])].join(" "), depth);
        }
      }
      return;
    }
    if (rest.length === 0) {
      if (w.shellWithoutCommand) this.result.stdinShell ??= "bash";
      // Under `xargs` the words read from stdin complete the command
      // (`… | xargs env`): the wrapper is handed back with them to come.
      if (stdinAsArgs) this.result.commands.push({ words: [name, ...args], stdinAsArgs: true });
      return;
    }
    const token = name === "xargs" ? replaceToken(args.slice(0, scan.stop), scan) : null;
    if (token !== null) {
      // Input lines replace the token instead of being appended.
      this.result.templates.push({ words: rest, token });
      return this.walk(rest, depth, false);
    }
    this.walk(rest, depth, stdinAsArgs || name === "xargs");
  }

  private shell(args: string[], depth: number, stdinAsArgs: boolean): void {
    let command = false;
    let fromStdin = false;
    let i = 0;
    for (; i < args.length; i++) {
      const a = args[i];
      if (a === "--" || a === "-") {
        i++;
        break;
      }
      if (a.startsWith("--")) {
        if (a === "--rcfile" || a === "--init-file") i++;
        continue;
      }
      if (!(a.startsWith("-") || a.startsWith("+")) || a.length < 2) break;
      for (const letter of a.slice(1)) {
        if (letter === "c") command = true;
        else if (letter === "s") fromStdin = true;
        else if (letter === "o" || letter === "O") i++;
      }
    }
    const operands = args.slice(i);
    // A script path that names the shell's own stdin reads the script from there.
    if (!command && STDIN_PATHS.has(operands[0] ?? "")) fromStdin = true;
    if (command) {
      if (operands.length > 0) this.script("bash", operands[0], depth);
      else if (stdinAsArgs) this.result.stdinShell ??= "bash";
      return;
    }
    if (fromStdin || operands.length === 0) this.result.stdinShell ??= "bash";
    else (this.result.scriptFiles ??= []).push(operands[0]);
  }

  /** find runs its `-exec` commands, and is a command itself (`-delete`). */
  private find(name: string, args: string[], depth: number, stdinAsArgs: boolean): void {
    this.result.commands.push({ words: [name, ...args], stdinAsArgs });
    for (let i = 0; i < args.length; i++) {
      if (!FIND_EXEC_PRIMARIES.has(args[i])) continue;
      let end = i + 1;
      while (
        end < args.length && args[end] !== ";" && !(args[end] === "+" && args[end - 1] === "{}")
      ) end++;
      this.walk(args.slice(i + 1, end), depth, false);
      i = end;
    }
  }

  private pwsh(args: string[], depth: number): void {
    for (let i = 0; i < args.length; i++) {
      const a = pwshSpelling(args[i]);
      if (a === "-") {
        this.result.stdinShell ??= "powershell";
        return;
      }
      const bound = a.startsWith("-") ? bindPs(a, PWSH_PARAMS) : null;
      if (bound === null || bound.name === null) {
        // A script path, or a parameter the CLI would reject: read the rest as code.
        this.script("powershell", args.slice(i).join(" "), depth);
        return;
      }
      const value = bound.value ?? args[i + 1] ?? null;
      switch (bound.name) {
        case "Command":
        case "CommandWithArgs": {
          const rest = bound.value !== null
            ? [bound.value, ...args.slice(i + 1)]
            : args.slice(i + 1);
          if (rest.length === 1 && rest[0] === "-") this.result.stdinShell ??= "powershell";
          else if (rest.length > 0) this.script("powershell", rest.join(" "), depth);
          return;
        }
        case "EncodedCommand": {
          const decoded = value === null ? null : decodePowerShellCommand(value);
          if (decoded === null) this.result.opaque = true;
          else this.script("powershell", decoded, depth);
          return;
        }
        case "File":
          if (value === "-") this.result.stdinShell ??= "powershell";
          return;
      }
      if (PWSH_VALUE_PARAMS.has(bound.name) && bound.value === null) i++;
    }
    this.result.stdinShell ??= "powershell";
  }

  private cmd(args: string[], depth: number): void {
    for (let i = 0; i < args.length; i++) {
      const lower = args[i].toLowerCase().replace(/^\/\//, "/");
      // `/r` is the old spelling of `/c`.
      if (lower.startsWith("/c") || lower.startsWith("/k") || lower.startsWith("/r")) {
        const text = [args[i].slice(args[i].startsWith("//") ? 3 : 2), ...args.slice(i + 1)]
          .join(" ").trim();
        if (text !== "") this.script("cmd", text, depth);
        return;
      }
      if (!lower.startsWith("/")) break;
    }
    this.result.stdinShell ??= "cmd";
  }

  private wsl(args: string[], depth: number, stdinAsArgs: boolean): void {
    const valued = new Set(["-d", "--distribution", "-u", "--user", "--cd", "--shell-type"]);
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === "-e" || a === "--exec") return this.walk(args.slice(i + 1), depth, stdinAsArgs);
      if (a === "--") return this.joinedBash(args.slice(i + 1), depth);
      if (valued.has(a)) {
        i++;
        continue;
      }
      if (a.startsWith("-")) continue;
      return this.joinedBash(args.slice(i), depth);
    }
    this.result.stdinShell ??= "bash";
  }

  private joinedBash(rest: string[], depth: number): void {
    if (rest.length > 0) this.script("bash", rest.join(" "), depth);
    else this.result.stdinShell ??= "bash";
  }

  private startProcess(args: string[], depth: number): void {
    const positional: string[] = [];
    let file: string | null = null;
    const argList: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const bound = args[i].startsWith("-") ? bindPs(args[i], START_PROCESS_PARAMS) : null;
      if (bound === null) {
        positional.push(args[i]);
        continue;
      }
      if (bound.name === null) continue;
      const value = bound.value ??
        (START_PROCESS_SWITCHES.has(bound.name) ? null : args[++i] ?? null);
      if (bound.name === "FilePath") file = value;
      if (bound.name === "ArgumentList" && value !== null) argList.push(value);
    }
    if (file === null) file = positional.shift() ?? null;
    // Further positionals are the rest of a comma list (`-ArgumentList 'a','b'`) or
    // the list given by position: either way the program receives them.
    argList.push(...positional);
    if (file === null) return;
    const words = [file];
    for (const item of argList) {
      for (const part of item.split(/[\s,]+/)) {
        if (part !== "") words.push(part.replace(/^['"]|['"]$/g, ""));
      }
    }
    this.walk(words, depth, false);
  }
}

/**
 * The commands behind the wrappers of one argument vector. `depth` is the
 * wrapper depth already used by the caller (0 for a command as typed).
 */
export function unwrapCommand(words: readonly string[], depth = 0): Unwrapped {
  const u = new Unwrapper();
  u.walk(words, depth, false);
  return u.result;
}

// ---------------------------------------------------------------------------
// Keys typed into a terminal session by a multiplexer (`tmux send-keys`,
// `screen -X stuff`): the shell there runs them as a command line once a
// line ends. Keys split across arguments are typed one after the other, so
// they are joined before reading.

/** tmux key names that type a character rather than text. */
const TMUX_KEYS: Readonly<Record<string, string>> = {
  enter: "\n",
  "c-m": "\n",
  "c-j": "\n",
  kpenter: "\n",
  space: " ",
  tab: "\t",
};

/** `send-keys` options that take the next word as their value. */
const SEND_KEYS_VALUED = new Set(["-t", "-N", "-c"]);

/** Most arguments read as keys, so the work stays linear. */
const MAX_KEYS = 256;

/** The text typed by `tmux … send-keys …` after the subcommand, or null when it types none. */
function tmuxKeys(args: readonly string[]): string | null {
  const at = args.findIndex((a) => a === "send-keys" || a === "send");
  if (at < 0) return null;
  let text = "";
  let literal = false;
  for (let i = at + 1; i < Math.min(args.length, at + 1 + MAX_KEYS); i++) {
    const a = args[i];
    // `\;` ends the tmux command; another may follow.
    if (a === ";") break;
    if (SEND_KEYS_VALUED.has(a)) {
      i++;
      continue;
    }
    if (/^-[lRMXHK]+$/.test(a)) {
      literal ||= a.includes("l");
      continue;
    }
    const key = literal ? undefined : ownEntry(TMUX_KEYS, a.toLowerCase());
    text += key ?? a;
  }
  return text === "" ? null : text;
}

/** The text typed by `screen … -X stuff 'text'`: `^M` and `\n` end a line. */
function screenStuff(args: readonly string[]): string | null {
  const at = args.findIndex((a, i) => a === "stuff" && i > 0 && args[i - 1] === "-X");
  if (at < 0 || args[at + 1] === undefined) return null;
  return args[at + 1].replace(/\^M|\\n|\\r/g, "\n");
}

/** The text a multiplexer named `name` types into a session, or null when it types none. */
export function typedKeys(name: string, args: readonly string[]): string | null {
  if (name === "tmux" || name === "byobu") return tmuxKeys(args);
  if (name === "screen") return screenStuff(args);
  return null;
}
