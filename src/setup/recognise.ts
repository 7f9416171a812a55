/**
 * Which hook commands are GateGuard's own. A command counts only when it
 * has the shape GateGuard registers: the binary (by any install path, under
 * its own or a release-asset name) or the `deno run … --permission-set=
 * gateguard … .cache/bundle/main.js` (or `… src/main.ts`) line of a source checkout (after the variables
 * such a line sets for Deno, see platform/permissions.ts), followed by nothing
 * or by GateGuard's `hook` subcommand and its plain flags. A word anywhere
 * else in a command never counts: `logger -t gateguard …` is someone
 * else's hook. A command that names GateGuard but has another shape (a
 * pipeline, a wrapper, other arguments) is `unsure`: setup leaves it alone
 * and says so.
 *
 * @module
 */

import { baseName } from "../platform/path.ts";
import { LEGACY_PLUGIN_COMMANDS, PLUGIN_COMMAND } from "./plugin_command.ts";
import { SOURCE_ENV_NAMES } from "../platform/permissions.ts";

/** How a hook command relates to GateGuard. */
export type CommandKind = "ours" | "unsure" | "other";

/** Names the binary is installed under: its own, and the release assets. */
const PROGRAM = /^gateguard(-(linux|macos|windows)-(x64|arm64))?(\.exe)?$/i;
/** Deno itself, when GateGuard runs from source. */
const RUNTIME = /^deno(\.exe)?$/i;
/**
 * The script of a source checkout (or a plugin root), with either separator:
 * the bundle a registration runs (`BUNDLE_ENTRY` in platform/permissions.ts)
 * or the sources themselves, as older registrations and the launcher name them.
 */
const ENTRY = /(^|[\\/])(src[\\/]main\.ts|\.cache[\\/]bundle[\\/]main\.js)$/;
/** The permission set every GateGuard launch names. */
const PERMISSION_FLAG = "--permission-set=gateguard";
/** Deno options of `deno run` that take their value as the next word. */
const VALUE_OPTIONS = new Set(["--config", "-c"]);
/** A flag or value GateGuard's `hook` subcommand may take: no shell syntax at all. */
const PLAIN_WORD = /^[A-Za-z0-9._=:,@%+-]+$/;

/**
 * Splits a command into words the way a POSIX shell would for a simple
 * command of literal words; null when it holds anything else (operators,
 * redirections, substitutions, an open quote). `${NAME}` and `$NAME` inside
 * a word are kept as written: the plugin form needs them.
 */
export function simpleWords(command: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  let k = 0;
  const variable = (from: number): number => {
    const m = /^\$(\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)/.exec(command.slice(from));
    return m ? m[0].length : 0;
  };
  while (k < command.length) {
    const c = command[k];
    if (c === " " || c === "\t") {
      if (word !== null) words.push(word);
      word = null;
      k++;
    } else if (c === "'") {
      const close = command.indexOf("'", k + 1);
      if (close < 0) return null;
      word = (word ?? "") + command.slice(k + 1, close);
      k = close + 1;
    } else if (c === '"') {
      let text = "";
      k++;
      for (;;) {
        if (k >= command.length) return null;
        const d = command[k];
        if (d === '"') break;
        if (d === "\\" && k + 1 < command.length && '"\\$`'.includes(command[k + 1])) {
          text += command[k + 1];
          k += 2;
        } else if (d === "$") {
          const n = variable(k);
          if (n === 0) return null;
          text += command.slice(k, k + n);
          k += n;
        } else if (d === "`") {
          return null;
        } else {
          text += d;
          k++;
        }
      }
      word = (word ?? "") + text;
      k++;
    } else if (c === "\\") {
      if (k + 1 >= command.length || command[k + 1] === "\n") return null;
      word = (word ?? "") + command[k + 1];
      k += 2;
    } else if (c === "$") {
      const n = variable(k);
      if (n === 0) return null;
      word = (word ?? "") + command.slice(k, k + n);
      k += n;
    } else if (";&|<>()`\n\r#*?[]{}~!".includes(c) && !(c === "#" && word !== null)) {
      return null;
    } else {
      word = (word ?? "") + c;
      k++;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** True when `rest` is nothing, or the `hook` subcommand with plain flags. */
function ownArguments(rest: readonly string[]): boolean {
  return rest.length === 0 ||
    (rest[0] === "hook" && rest.slice(1).every((w) => PLAIN_WORD.test(w)));
}

/** How many leading words are the environment a from-source command sets (`sourceEnv`). */
function sourceEnvWords(words: readonly string[]): number {
  let k = 0;
  while (k < words.length && SOURCE_ENV_NAMES.some((name) => words[k].startsWith(`${name}=`))) k++;
  return k;
}

/** A `deno run` line of ours: the config file it names (null for none) and the words after its script. */
interface SourceLine {
  config: string | null;
  after: string[];
}

/** A `deno run` line of ours read from its words, or null when it is not one. */
function sourceLine(all: readonly string[]): SourceLine | null {
  const words = all.slice(sourceEnvWords(all));
  if (words.length < 2 || !RUNTIME.test(baseName(words[0])) || words[1] !== "run") return null;
  let k = 2;
  let permissionSet = false;
  let config: string | null = null;
  for (; k < words.length && words[k].startsWith("-"); k++) {
    if (words[k] === PERMISSION_FLAG) permissionSet = true;
    if (words[k].startsWith("--config=")) config = words[k].slice("--config=".length);
    if (VALUE_OPTIONS.has(words[k])) config = words[++k] ?? "";
  }
  if (!permissionSet || k >= words.length || !ENTRY.test(words[k])) return null;
  return { config, after: words.slice(k + 1) };
}

/**
 * The config file a from-source hook command of ours runs Deno with
 * (`--config FILE`), or null when the command is not one or names none.
 */
export function sourceRunConfig(command: string): string | null {
  const words = simpleWords(command.trim());
  return words === null ? null : sourceLine(words)?.config ?? null;
}

/** Whether some word of the command names GateGuard's program or permission set. */
function namesGateGuard(command: string): boolean {
  return command.split(/[\s"'`;&|<>()=]+/).some((word) =>
    PROGRAM.test(baseName(word)) || word === "gateguard"
  ) || command.includes(PERMISSION_FLAG);
}

/**
 * Classifies a hook command. `ownCommand` (this build's exact command,
 * whatever the binary is called) and the plugin's launcher command are
 * always GateGuard's.
 */
export function classifyCommand(command: string, ownCommand?: string): CommandKind {
  const trimmed = command.trim();
  if (
    (ownCommand !== undefined && trimmed === ownCommand) || trimmed === PLUGIN_COMMAND ||
    LEGACY_PLUGIN_COMMANDS.includes(trimmed)
  ) {
    return "ours";
  }
  const words = simpleWords(command);
  if (words !== null && words.length > 0) {
    if (PROGRAM.test(baseName(words[0])) && ownArguments(words.slice(1))) return "ours";
    const rest = sourceLine(words)?.after ?? null;
    if (rest !== null && ownArguments(rest)) return "ours";
  }
  return namesGateGuard(command) ? "unsure" : "other";
}
