/**
 * The git side of the destructive detector: a `git` command read the way
 * git itself reads it before the subcommand's rules apply.
 *
 * Configuration can change what a git command does, and it can come from
 * the command line (`-c`, `--config-env`), from the environment
 * (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`) and from
 * files the hook cannot see. So:
 * - aliases defined on the line are expanded (names compared without
 *   case; a `!` alias is a shell script), and an alias whose definition is
 *   only known at run time counts as destructive;
 * - a subcommand git does not know may be an alias from a file or a typo
 *   `help.autocorrect` runs as the nearest command: it is read as every
 *   command git would consider close enough;
 * - values git runs as commands (pagers, editors, `core.sshCommand`,
 *   `core.fsmonitor`, `GIT_SSH_COMMAND`, …) are read with the same
 *   detector;
 * - `remote.<name>.mirror` or a forced `remote.<name>.push` turns a plain
 *   `git push` into a mirror or forced push;
 * - commands git runs for a subcommand (`submodule foreach`, `rebase
 *   --exec`, `bisect run`, `--upload-pack`) are read as commands;
 * - `git config` that stores a destructive alias, command or push setting
 *   is destructive itself: a later `git` runs it without a trace on the
 *   line.
 *
 * @module
 */

import { hasLong, roleValues, scanArgs } from "../programs/mod.ts";
import { unwrapCommand } from "./wrappers.ts";
import {
  AUTOCORRECT_FLOOR,
  autocorrectScore,
  GIT_CODE_OPTIONS,
  GIT_COMMAND_ENV,
  GIT_COMMAND_KEYS,
  GIT_COMMANDS,
  gitGlobalOption,
} from "../programs/mod.ts";
import { afford, deeper, type Engine, type Verdict, type Walk } from "./detect_types.ts";

/** Most aliases followed in a row (git itself stops at a loop). */
const MAX_ALIASES = 8;

/** Most configuration entries read from the environment. */
const MAX_ENV_ENTRIES = 64;

/** One configuration entry; a null value is only known at run time. */
interface Setting {
  readonly key: string;
  readonly value: string | null;
}

/** Spellings git reads as true for a boolean. */
const GIT_TRUE = new Set(["true", "yes", "on", "1", ""]);

/** Commands whose arguments git hands to the shell or runs (`submodule foreach`, `bisect run`). */
const RUNNER_PATHS: readonly (readonly string[])[] = [["submodule", "foreach"], ["bisect", "run"]];

/** The values the line gave environment variable `name` (none when it gave none). */
function envValues(walk: Walk, name: string): readonly string[] {
  return walk.env?.get(name) ?? [];
}

/** `key=value` split at the first `=`; a key alone is a boolean true. */
function splitSetting(text: string): Setting {
  const eq = text.indexOf("=");
  return eq < 0
    ? { key: text.toLowerCase(), value: "" }
    : { key: text.slice(0, eq).toLowerCase(), value: text.slice(eq + 1) };
}

/**
 * The entries of `GIT_CONFIG_PARAMETERS`: single-quoted `'key'='value'`
 * (or the older `'key=value'`) pairs separated by blanks, `'\''` for a
 * quote inside.
 */
export function parseConfigParameters(text: string): Setting[] {
  const out: Setting[] = [];
  let i = 0;
  while (i < text.length && out.length < MAX_ENV_ENTRIES) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) break;
    let key: string | null = null;
    let cur = "";
    while (i < text.length && !/\s/.test(text[i])) {
      const c = text[i];
      if (c === "'") {
        const end = text.indexOf("'", i + 1);
        cur += text.slice(i + 1, end < 0 ? text.length : end);
        i = end < 0 ? text.length : end + 1;
      } else if (c === "\\") {
        cur += text[i + 1] ?? "";
        i += 2;
      } else if (c === "=" && key === null) {
        key = cur;
        cur = "";
        i++;
      } else {
        cur += c;
        i++;
      }
    }
    out.push(key === null ? splitSetting(cur) : { key: key.toLowerCase(), value: cur });
  }
  return out;
}

/** Configuration the environment of the line gives git. */
function environmentSettings(walk: Walk): Setting[] {
  const out: Setting[] = [];
  for (const text of envValues(walk, "GIT_CONFIG_PARAMETERS")) {
    out.push(...parseConfigParameters(text));
  }
  for (const [name, keys] of walk.env ?? []) {
    const m = /^GIT_CONFIG_KEY_(\d+)$/.exec(name);
    if (m === null) continue;
    const values = envValues(walk, `GIT_CONFIG_VALUE_${m[1]}`);
    for (const key of keys) {
      if (values.length === 0) out.push({ key: key.toLowerCase(), value: null });
      for (const value of values) out.push({ key: key.toLowerCase(), value });
    }
    if (out.length >= MAX_ENV_ENTRIES) break;
  }
  return out;
}

/** `--config-env=name=VAR`: the value is VAR's, known only when the line assigns it. */
function configEnvSettings(spec: string, walk: Walk): Setting[] {
  const eq = spec.lastIndexOf("=");
  if (eq <= 0) return [];
  const key = spec.slice(0, eq).toLowerCase();
  const values = envValues(walk, spec.slice(eq + 1));
  return values.length === 0 ? [{ key, value: null }] : values.map((value) => ({ key, value }));
}

/** A git command line read past its global options. */
interface GitLine {
  readonly settings: Setting[];
  /** The subcommand and its arguments. */
  readonly rest: readonly string[];
}

/** Reads the global options of `args`, collecting the configuration they set. */
function readGlobals(args: readonly string[], walk: Walk): GitLine {
  const settings = environmentSettings(walk);
  let i = 0;
  while (i < args.length && args[i].startsWith("-")) {
    const a = args[i];
    const next = args[i + 1] ?? "";
    if (a === "-c") settings.push(splitSetting(next));
    else if (a.startsWith("-c") && !a.startsWith("--")) settings.push(splitSetting(a.slice(2)));
    else if (a === "--config-env") settings.push(...configEnvSettings(next, walk));
    else if (a.startsWith("--config-env=")) {
      settings.push(...configEnvSettings(a.slice("--config-env=".length), walk));
    }
    i += gitGlobalOption(a)?.value ? 2 : 1;
  }
  return { settings, rest: args.slice(i) };
}

/**
 * The alias named `name` among `settings` (`alias.name` or
 * `alias.name.command`), case-insensitive. A definition holding an
 * expansion the line left unresolved (`"$a"`, `"$(…)"`) is only known at
 * run time; a `!` alias is a script, read with its expansions.
 */
function aliasValues(settings: readonly Setting[], name: string): (string | null)[] {
  const lower = name.toLowerCase();
  return settings
    .filter((s) => s.key === `alias.${lower}` || s.key === `alias.${lower}.command`)
    .map((s) =>
      s.value !== null && !s.value.startsWith("!") && /[$`]/.test(s.value) ? null : s.value
    );
}

/** Splits an alias value into words as git does: blanks separate, quotes and `\` group. */
function splitAlias(value: string): string[] {
  const words: string[] = [];
  let cur = "";
  let quote: string | null = null;
  let started = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') cur += value[++i] ?? "";
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
    } else if (c === "\\") {
      cur += value[++i] ?? "";
      started = true;
    } else if (/\s/.test(c)) {
      if (started || cur !== "") words.push(cur);
      cur = "";
      started = false;
    } else cur += c;
  }
  if (started || cur !== "") words.push(cur);
  return words;
}

/** Whether `settings` make a plain `git push` mirror or force its refs. */
function pushRewritten(settings: readonly Setting[]): boolean {
  return settings.some((s) =>
    (/^remote\..+\.mirror$/.test(s.key) && GIT_TRUE.has((s.value ?? "").toLowerCase())) ||
    (/^remote\..+\.push$/.test(s.key) && /^[+:]/.test(s.value ?? ""))
  );
}

/** Reads a value git runs as a shell command. */
function commandValue(value: string, walk: Walk, engine: Engine): Verdict {
  const hit = engine.code("bash", value.replace(/^!/, ""), deeper(walk), []);
  // A value built by a substitution the line left unresolved is scanned as written.
  return hit ?? (/[$`]/.test(value) ? engine.raw(value, walk) : null);
}

/** The first command-running setting or environment value that is destructive. */
function commandSettingsHit(settings: readonly Setting[], walk: Walk, engine: Engine): Verdict {
  for (const s of settings) {
    if (s.value === null || !GIT_COMMAND_KEYS.some((re) => re.test(s.key))) continue;
    const hit = commandValue(s.value, walk, engine);
    if (hit) return hit;
  }
  for (const name of GIT_COMMAND_ENV) {
    for (const value of envValues(walk, name)) {
      const hit = commandValue(value, walk, engine);
      if (hit) return hit;
    }
  }
  return null;
}

/**
 * What a setting stored by `git config` makes a later git command do: run
 * a destructive alias or command, or mirror or force a push.
 */
function storedSettingHit(setting: Setting, walk: Walk, engine: Engine): Verdict {
  const { key, value } = setting;
  if (value === null) return null;
  if (/^alias\./.test(key)) {
    return value.startsWith("!")
      ? commandValue(value, walk, engine)
      : subcommandHit([], splitAlias(value), [], deeper(walk), engine);
  }
  if (GIT_COMMAND_KEYS.some((re) => re.test(key))) return commandValue(value, walk, engine);
  return pushRewritten([setting]) ? engine.rules("git", ["push", "--mirror"], [], walk) : null;
}

/** The settings `git config` stores: `key value`, `set key value`, `--add key value`. */
function configStores(args: readonly string[]): Setting[] {
  const scan = scanArgs(args, {
    short: { f: "value" },
    long: {
      file: "value",
      blob: "value",
      type: "value",
      default: "value",
      comment: "value",
      value: "value",
    },
  });
  // Reading, listing, removing and editing store nothing.
  if (hasLong(scan, "get", "get-all", "get-regexp", "get-urlmatch", "list", "unset", "unset-all")) {
    return [];
  }
  const ops = scan.operands;
  const [key, value] = ops[0] === "set" ? ops.slice(1) : ops;
  return key !== undefined && value !== undefined ? [{ key: key.toLowerCase(), value }] : [];
}

/** Commands run by `submodule foreach` and `bisect run`, and code in subcommand options. */
function runsHit(
  sub: string,
  rest: readonly string[],
  walk: Walk,
  engine: Engine,
): Verdict {
  for (const [first, second] of RUNNER_PATHS) {
    const at = rest.indexOf(second);
    if (sub !== first || at < 0) continue;
    const command = rest.slice(at + 1).filter((w, k, all) =>
      !(w.startsWith("-") && all.slice(0, k).every((p) => p.startsWith("-")))
    );
    // One word is a shell script; several are a command and its arguments.
    if (command.length === 1) return engine.code("bash", command[0], deeper(walk), []);
    const raw = command.join(" ");
    if (command.length > 0 && afford(walk, raw.length)) {
      return engine.unwrapped(unwrapCommand(command, walk.depth + 1), [], deeper(walk), raw);
    }
  }
  if (!Object.hasOwn(GIT_CODE_OPTIONS, sub)) return null;
  const code = GIT_CODE_OPTIONS[sub];
  for (const value of roleValues(scanArgs(rest, code), code, "runs-value")) {
    const hit = value === null ? null : commandValue(value, walk, engine);
    if (hit) return hit;
  }
  return null;
}

/**
 * The subcommand `sub` with `rest`: the rules of the active packs, the
 * commands it runs, the settings it stores, and a forced push through
 * configuration.
 */
function knownSubcommandHit(
  sub: string,
  rest: readonly string[],
  settings: readonly Setting[],
  stdin: readonly string[],
  walk: Walk,
  engine: Engine,
): Verdict {
  if (sub === "push" && pushRewritten(settings)) {
    return engine.rules("git", ["push", "--mirror", ...rest], stdin, walk);
  }
  if (sub === "config") {
    for (const stored of configStores(rest)) {
      const hit = storedSettingHit(stored, walk, engine);
      if (hit) return hit;
    }
  }
  return runsHit(sub, rest, walk, engine) ?? engine.rules("git", [sub, ...rest], stdin, walk);
}

/** Longest unknown subcommand compared with git's commands; longer ones are close to none. */
const MAX_TYPED = 40;

/**
 * The git commands `help.autocorrect` could run for the unknown word
 * `typed`: the best-scoring ones, when close enough. Ties are all kept,
 * since commands the hook does not list may change which one git prefers.
 */
function closeCommands(typed: string, walk: Walk): string[] {
  if (typed.length > MAX_TYPED) return [];
  // Each candidate costs a small edit-distance table.
  if (!afford(walk, typed.length * GIT_COMMANDS.size)) return [...GIT_COMMANDS];
  const scored = [...GIT_COMMANDS].map((c) => ({ c, score: autocorrectScore(typed, c) }));
  const best = Math.min(...scored.map((s) => s.score));
  return best < AUTOCORRECT_FLOOR ? scored.filter((s) => s.score === best).map((s) => s.c) : [];
}

/** The subcommand at the head of `words`, expanded through aliases, then judged. */
function subcommandHit(
  settings: readonly Setting[],
  words: readonly string[],
  stdin: readonly string[],
  walk: Walk,
  engine: Engine,
): Verdict {
  let sub = words[0];
  let rest = words.slice(1);
  for (let n = 0; sub !== undefined && n < MAX_ALIASES; n++) {
    const values = aliasValues(settings, sub);
    if (values.length === 0) break;
    if (values.includes(null)) return engine.core("git-alias-unknown");
    // git runs the last definition; any of them may be it when the line is ambiguous.
    for (const value of values.slice(0, -1)) {
      const words = [...splitAlias(value!), ...rest];
      const hit = subcommandHit(settings, words, stdin, deeper(walk), engine);
      if (hit) return hit;
    }
    const value = values.at(-1)!;
    if (value.startsWith("!")) {
      return engine.code("bash", `${value.slice(1)} ${rest.join(" ")}`, deeper(walk), []);
    }
    [sub, ...rest] = [...splitAlias(value), ...rest];
  }
  if (sub === undefined) return null;
  // A chain longer than the hook follows ends somewhere it did not read.
  if (aliasValues(settings, sub).length > 0) return engine.core("git-alias-unknown");
  // git finds `git-RESET` as `git-reset` on a case-insensitive file system.
  const name = sub.toLowerCase();
  const hit = knownSubcommandHit(name, rest, settings, stdin, walk, engine);
  if (hit || GIT_COMMANDS.has(name)) return hit;
  // An alias from a file the hook cannot see, or a typo autocorrect runs.
  for (const close of closeCommands(name, walk)) {
    const near = knownSubcommandHit(close, rest, settings, stdin, walk, engine);
    if (near) return near;
  }
  return null;
}

/** Whether `git` run with `args` (and `stdin` fed to it) is destructive. */
export function gitVerdict(
  args: readonly string[],
  stdin: readonly string[],
  walk: Walk,
  engine: Engine,
): Verdict {
  const line = readGlobals(args, walk);
  return commandSettingsHit(line.settings, walk, engine) ??
    subcommandHit(line.settings, line.rest, stdin, walk, engine);
}
