/**
 * What a shell command does to what runs after it, beyond the files it
 * names: it may store an environment variable for programs started later
 * (Windows' `setx` and its registry key, macOS's `launchctl setenv`, the
 * systemd and D-Bus user environment, .NET's `SetEnvironmentVariable` with
 * a user or machine target, direnv's and mise's approval of a folder's
 * environment file), start programs GateGuard would no longer gate,
 * or change which hooks an agent's CLI loads (both in `ungated_launch.ts`).
 * GateGuard's hook runs with the environment the agent's client was started
 * with, so a stored variable that GateGuard reads can switch it off, or
 * move what it reads, at the next start, without a file the shell reader
 * could match; a variable whose name the line does not spell out counts as
 * one GateGuard reads. `sh -c` code is read for each of these, by one walker.
 *
 * @module
 */

import type { Segment } from "../shell/bash/mod.ts";
import {
  agentReconfigures,
  programName,
  rawAgentReconfigures,
  rawCommands,
  rawLaunchesUngated,
  segmentLaunchesUngated,
  UNGATED_WORDS,
} from "./ungated_launch.ts";
import { configuresGateGuard, ENV_VARIABLES, movesGateGuard } from "../config/env.ts";

/** How one program stores variables, and which of its words name them. */
interface EnvironmentStore {
  /** The program's name, as `programName` gives it. */
  program: string;
  /**
   * The subcommands that store (the first word after the program that is
   * not an option); null when the program stores whatever it is given.
   */
  subcommands: ReadonlySet<string> | null;
  /**
   * The variable names among the words after the program (or subcommand);
   * null when every variable of the caller's environment is stored.
   */
  names(words: readonly string[]): string[] | null;
}

/** `NAME=value` words, or plain `NAME` words, with options left out. */
function assignedNames(words: readonly string[]): string[] | null {
  const names = words.filter((w) => !w.startsWith("-")).map((w) => w.split("=")[0]);
  return names.length === 0 || words.includes("--all") ? null : names;
}

/** `tmux set-environment [-gru] [-t target] NAME [value]`: the name after the options. */
function tmuxNames(words: readonly string[]): string[] | null {
  const rest = words.filter((w, i) => !w.startsWith("-") && words[i - 1] !== "-t");
  return rest.length === 0 ? null : [rest[0]];
}

/** `screen -X setenv NAME value` (or `-X eval 'setenv …'`): what it sets, or any name. */
function screenNames(words: readonly string[]): string[] | null {
  const at = words.findIndex((w) => /^setenv$/i.test(w) || /\bsetenv\b/i.test(w));
  if (at < 0) return [];
  const word = words[at];
  if (!/^setenv$/i.test(word)) return null;
  return words[at + 1] === undefined ? null : [words[at + 1]];
}

/** The programs that store a variable for later sessions. */
const STORES: readonly EnvironmentStore[] = [
  {
    program: "setx",
    subcommands: null,
    // `setx NAME value [/M]`; `/F` and `/K` take the value from a file or the registry.
    names: (words) =>
      words.some((w) => /^\/[fk]$/i.test(w)) ? null : words.filter((w) => !w.startsWith("/"))
        .slice(0, 1),
  },
  {
    program: "launchctl",
    subcommands: new Set(["setenv"]),
    names: (words) => words.filter((_, i) => i % 2 === 0),
  },
  {
    program: "systemctl",
    subcommands: new Set(["set-environment", "import-environment"]),
    names: assignedNames,
  },
  { program: "dbus-update-activation-environment", subcommands: null, names: assignedNames },
  // Approvals of a folder's environment file (`.envrc`, `mise.toml`): whatever it exports is set
  // in every shell that enters the folder, an agent started there among them.
  {
    program: "direnv",
    subcommands: new Set(["allow", "permit", "grant", "edit"]),
    names: () => null,
  },
  { program: "mise", subcommands: new Set(["trust"]), names: () => null },
  // A multiplexer's environment reaches every window it opens next, an agent started there too.
  { program: "tmux", subcommands: new Set(["set-environment", "setenv"]), names: tmuxNames },
  { program: "screen", subcommands: null, names: screenNames },
];

/** The store `program` names, if any. */
function storeOf(program: string): EnvironmentStore | undefined {
  const name = programName(program);
  return STORES.find((s) => s.program === name);
}

/** True for a name GateGuard reads, or one the line does not spell out. */
function mattersToGateGuard(name: string): boolean {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return true;
  const upper = name.toUpperCase();
  return (ENV_VARIABLES as readonly string[]).includes(upper) && upper !== "NO_COLOR" ||
    configuresGateGuard(upper) || movesGateGuard(upper);
}

/** Whether the words of one command (program first) store a variable that matters to GateGuard. */
function wordsStore(words: readonly string[]): boolean {
  const store = storeOf(words[0] ?? "");
  if (store === undefined) return false;
  let rest = words.slice(1);
  if (store.subcommands !== null) {
    const at = rest.findIndex((w) => !w.startsWith("-"));
    if (at < 0 || !store.subcommands.has(rest[at].toLowerCase())) return false;
    rest = rest.slice(at + 1);
  }
  const names = store.names(rest);
  return names === null || names.some(mattersToGateGuard);
}

/** Shells whose `-c` code is read as a command of its own. */
export const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "dash", "zsh", "ksh"]);

/** How deep `sh -c` code inside `sh -c` code is read; deeper code counts as a match. */
const MAX_NESTING = 3;

/** How a segment is judged: with the index of the word it runs. */
export type SegmentTest = (segment: Segment, commandAt: number) => boolean;

/**
 * Whether `test` holds for the Bash segment, or for any segment of the
 * `-c` code it hands to a shell (`sh -c '…'`), read through `parse` (null
 * when the code does not parse: then the raw code is searched for `words`).
 * `commandAt` finds the word a segment runs (after `sudo`, `env X=1`, …).
 */
export function segmentOrShellCode(
  segment: Segment,
  commandAt: (segment: Segment) => number,
  parse: (code: string) => readonly Segment[] | null,
  test: SegmentTest,
  words: RegExp,
  depth = 0,
): boolean {
  const at = commandAt(segment);
  if (test(segment, at)) return true;
  const run = segment.words.slice(at).map((w) => w.text);
  const program = programName(run[0] ?? "");
  const code = run.indexOf("-c");
  if (!SHELLS.has(program) || code < 0 || run[code + 1] === undefined) return false;
  if (depth >= MAX_NESTING) return true;
  const inner = parse(run[code + 1]);
  if (inner === null) return words.test(run[code + 1]);
  return inner.some((s) => segmentOrShellCode(s, commandAt, parse, test, words, depth + 1));
}

/** The words that name a store, for `-c` code that does not parse. */
export const STORE_WORDS =
  /setx|launchctl|systemctl|activation-environment|direnv|mise|tmux|screen/i;

/**
 * Whether the Bash segment's command (from `commandAt`) stores a variable
 * GateGuard reads for later sessions.
 */
export function segmentStoresEnvironment(segment: Segment, commandAt: number): boolean {
  return wordsStore(segment.words.slice(commandAt).map((w) => w.text));
}

/** .NET's call that stores a variable; the target decides whether it outlives the process. */
const SET_VARIABLE = /SetEnvironmentVariable\s*\(([^)]*)\)/gi;

/**
 * The registry keys Windows keeps the user's and the machine's variables
 * in, and cmd.exe's `Command Processor` key, whose `AutoRun` value runs at
 * every start of cmd.exe (so it can set any variable there).
 */
const ENVIRONMENT_KEY =
  /\b(?:HKCU|HKLM|HKEY_CURRENT_USER|HKEY_LOCAL_MACHINE)(?::|\\|\/)[^'"]*?\b(?:environment|command processor)\b|OpenSubKey\s*\(\s*['"][^'"]*\b(?:environment|command processor)['"]/i;

/** The cmdlets, `reg` verbs and .NET calls that change a registry value or key. */
const REGISTRY_WRITE =
  /\b(?:set|new|remove|rename|clear|copy|move)-item(?:property)?\b|\breg(?:\.exe)?\s+(?:add|delete|import|copy|restore|load)\b|\.(?:SetValue|DeleteValue)\s*\(/i;

/**
 * Whether a command the Bash reader cannot take apart (PowerShell, cmd.exe)
 * stores a variable GateGuard reads for later sessions: a `setx`, a
 * `SetEnvironmentVariable` call with a user or machine target, or a write
 * to the registry key the variables live in.
 */
export function rawStoresEnvironment(command: string): boolean {
  if (ENVIRONMENT_KEY.test(command) && REGISTRY_WRITE.test(command)) return true;
  for (const call of command.matchAll(SET_VARIABLE)) {
    const args = call[1];
    if (!/\b(?:user|machine)\b/i.test(args)) continue;
    const name = /^\s*(['"])([^'"]*)\1\s*,/.exec(args)?.[2];
    if (name === undefined || mattersToGateGuard(name)) return true;
  }
  return rawCommands(command).some(wordsStore);
}

/** What a command does to what runs later, as the shell side of self-protection reports it. */
export type LaterEffectHit =
  /** It stores a variable GateGuard reads for later sessions. */
  | { kind: "environment"; piece: string }
  /** It starts programs GateGuard would no longer gate (`ungated_launch.ts`). */
  | { kind: "ungated-launch"; piece: string }
  /** It runs an agent subcommand that changes which hooks the agent loads (`ungated_launch.ts`). */
  | { kind: "agent-config"; piece: string };

/**
 * What the command does to what runs later: the segment (or, unparsed, the
 * command) that stores a variable GateGuard reads for later sessions, the
 * one that starts a program GateGuard would no longer gate, and the one that
 * changes which hooks an agent's CLI loads. `segments` is the command read
 * as Bash (null when it was not); `commandAt` and `parse` as for
 * `segmentOrShellCode`.
 */
export function laterEffectHits(
  command: string,
  segments: readonly Segment[] | null,
  commandAt: (segment: Segment) => number,
  parse: (code: string) => readonly Segment[] | null,
): LaterEffectHit[] {
  const checks: [LaterEffectHit["kind"], (c: string) => boolean, SegmentTest, RegExp][] = [
    ["environment", rawStoresEnvironment, segmentStoresEnvironment, STORE_WORDS],
    ["ungated-launch", rawLaunchesUngated, segmentLaunchesUngated, UNGATED_WORDS],
    [
      "agent-config",
      rawAgentReconfigures,
      (s) => agentReconfigures(s.words.map((w) => w.text)),
      UNGATED_WORDS,
    ],
  ];
  // Each check walks the same `sh -c` code: it is parsed once for all of them.
  const parsed = new Map<string, readonly Segment[] | null>();
  const parseOnce = (code: string): readonly Segment[] | null => {
    if (!parsed.has(code)) parsed.set(code, parse(code));
    return parsed.get(code)!;
  };
  const hits: LaterEffectHit[] = [];
  for (const [kind, raw, test, words] of checks) {
    const piece = segments === null
      ? (raw(command) ? command : undefined)
      : segments.find((s) => segmentOrShellCode(s, commandAt, parseOnce, test, words))?.raw;
    if (piece !== undefined) hits.push({ kind, piece });
  }
  return hits;
}
