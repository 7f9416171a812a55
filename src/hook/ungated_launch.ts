/**
 * Commands that start programs GateGuard would no longer gate, or change
 * which hooks an agent's later runs load. Started ungated: any program
 * handed a variable that configures GateGuard (`GATEGUARD_…=… make x`,
 * `export …`, `$env:… = …`), since an agent it starts passes the variable
 * on to its hooks; and an agent's CLI started without GateGuard's hooks
 * (Claude Code's `--bare`, `--setting-sources` or `--settings`, an agent
 * home moved by a variable, Codex's hook feature or config switched by an
 * option, Copilot CLI's `--config-dir`). Reconfigured: the agents' own
 * subcommands that switch plugins, extensions, feature flags or settings
 * (`claude plugin disable`, `codex features disable hooks`, `copilot config
 * disableAllHooks true`), which write control files without naming them.
 * The shell gate answers both as a change to GateGuard's control surface.
 * Names are read as written: a variable whose name the line computes is not
 * seen.
 *
 * @module
 */

import { ownEntry } from "../platform/own_key.ts";
import type { Segment } from "../shell/bash/mod.ts";
import { ENV_VARIABLES, movesGateGuard } from "../config/env.ts";
import { RAW_RUNNERS } from "./shell_words.ts";
import { mayBeAnyOption, PLAIN_COMMANDS } from "../shell/programs/mod.ts";

/** How one agent's CLI is started without GateGuard's hooks, or told to load other ones. */
interface AgentCli {
  /** Options whose mere use drops or replaces the hooks the CLI loads. */
  dropping: readonly string[];
  /** Options whose value drops them when it mentions hooks (Codex's `-c hooks…`, `--disable …hooks`). */
  hookValued: readonly string[];
  /**
   * Subcommands that change which hooks or programs later runs load
   * (plugins, extensions, feature flags, settings, MCP servers, which each
   * session starts before any tool call), with the actions of each that
   * do; null when every use may.
   */
  reconfiguring: Readonly<Record<string, readonly string[] | null>>;
}

const CLAUDE_PLUGIN_CHANGES = [
  "disable",
  "enable",
  "install",
  "i",
  "uninstall",
  "remove",
  "update",
  "marketplace",
  "configure",
  "prune",
  "autoremove",
  "restore-set-aside",
];

const GEMINI_EXTENSION_CHANGES = ["install", "uninstall", "update", "disable", "enable", "link"];

const COPILOT_PLUGIN_CHANGES = [
  "install",
  "uninstall",
  "update",
  "enable",
  "disable",
  "marketplace",
];

/** The agents' CLIs, by program name (npm package names included), as each was checked. */
const AGENT_CLIS: Readonly<Record<string, AgentCli>> = {
  // Claude Code 2.1.332.
  claude: {
    dropping: ["--bare", "--safe-mode", "--setting-sources", "--settings"],
    hookValued: [],
    reconfiguring: {
      plugin: CLAUDE_PLUGIN_CHANGES,
      plugins: CLAUDE_PLUGIN_CHANGES,
      import: null,
      mcp: ["add", "add-json", "add-from-claude-desktop"],
    },
  },
  // Codex CLI 0.171.0: `hooks` is a feature flag.
  codex: {
    dropping: [],
    hookValued: ["-c", "--config", "--disable"],
    reconfiguring: {
      features: ["enable", "disable"],
      plugin: ["add", "remove", "marketplace"],
      mcp: ["add"],
    },
  },
  // Gemini CLI 0.61.0: extensions can carry hooks.
  gemini: {
    dropping: [],
    hookValued: [],
    reconfiguring: {
      hooks: ["migrate"],
      hook: ["migrate"],
      extensions: GEMINI_EXTENSION_CHANGES,
      extension: GEMINI_EXTENSION_CHANGES,
      mcp: ["add", "enable"],
    },
  },
  // Copilot CLI 1.0.102: `config` reads and writes settings, `disableAllHooks` among them.
  copilot: {
    dropping: ["--config-dir"],
    hookValued: [],
    reconfiguring: { plugin: COPILOT_PLUGIN_CHANGES, config: null, mcp: ["add", "enable"] },
  },
  "cursor-agent": { dropping: [], hookValued: [], reconfiguring: {} },
};

/** The npm packages of the agents' CLIs, run through `npx` and the like. */
const AGENT_PACKAGES: Readonly<Record<string, string>> = {
  "@anthropic-ai/claude-code": "claude",
  "@openai/codex": "codex",
  "@google/gemini-cli": "gemini",
  "@github/copilot": "copilot",
};

/** Programs that run an npm package's CLI. */
const PACKAGE_RUNNERS: ReadonlySet<string> = new Set(["npx", "bunx", "pnpx"]);

/** Builtins whose operands set or export variables (`export NAME=…`, `declare -x NAME`). */
const SETTERS: ReadonlySet<string> = new Set(["export", "declare", "typeset", "local", "readonly"]);

/**
 * True for a variable that configures GateGuard: its own prefix, or an ECC
 * name it reads (the wider `configuresGateGuard` of config/env.ts also takes
 * ECC variables of other tools, which a command may set for its own reasons).
 */
function switchesGateGuard(name: string): boolean {
  const upper = name.toUpperCase();
  return upper.startsWith("GATEGUARD_") ||
    (upper.startsWith("ECC_") && (ENV_VARIABLES as readonly string[]).includes(upper));
}

/** The name of a `NAME=value` (or `NAME+=value`) word, or null. */
function assigned(word: string): string | null {
  return /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(word)?.[1] ?? null;
}

/** The program a word names: its base name, lowercase, without `.exe` or `.cmd`. */
export function programName(word: string): string {
  return (word.replaceAll("\\", "/").split("/").pop() ?? "").toLowerCase()
    .replace(/\.(?:exe|cmd)$/, "");
}

/** Programs that complete the command they run with words read from their input. */
const INPUT_COMPLETERS: ReadonlySet<string> = new Set(["xargs", "parallel"]);

/**
 * An agent CLI a command starts: the words after it, and whether a program
 * before it (`xargs`) completes them with words read from its input.
 */
interface AgentRun {
  cli: AgentCli;
  args: readonly string[];
  completed: boolean;
}

/** The `AgentRun` of an agent CLI started at `at` of `words`, with its arguments after `from`. */
function agentRun(cli: AgentCli, words: readonly string[], at: number, from: number): AgentRun {
  const completed = words.slice(0, at).some((w) => INPUT_COMPLETERS.has(programName(w)));
  return { cli, args: words.slice(from), completed };
}

/**
 * The agent CLI `words` (program first) start, or null. Any program may run
 * its arguments (`tini -- claude …`, a project's `./with-env claude …`), so
 * each word is tried as the start, up to a command that takes the words
 * after it as text (`echo claude --bare`).
 */
function agentOf(words: readonly string[]): AgentRun | null {
  for (let at = 0; at < words.length; at++) {
    const name = programName(words[at]);
    if (PACKAGE_RUNNERS.has(name)) {
      const pkg = words.findIndex((w, i) => i > at && !w.startsWith("-"));
      if (pkg < 0) return null;
      const agent = ownEntry(AGENT_PACKAGES, words[pkg].replace(/(?<=.)@[^/]*$/, "").toLowerCase());
      const packaged = agent === undefined ? undefined : ownEntry(AGENT_CLIS, agent);
      if (packaged !== undefined) return agentRun(packaged, words, at, pkg + 1);
      at = pkg;
      continue;
    }
    const cli = ownEntry(AGENT_CLIS, name);
    if (cli !== undefined) return agentRun(cli, words, at, at + 1);
    if (PLAIN_COMMANDS.has(name)) return null;
  }
  return null;
}

/**
 * The variables `NAME=value` words after the program (`words[0]`) may set
 * for what runs after them (`./run env X=1 …`), up to a command that only
 * prints.
 */
function assignedAmong(words: readonly string[]): string[] {
  const names: string[] = [];
  for (const [k, word] of words.entries()) {
    if (PLAIN_COMMANDS.has(programName(word))) break;
    // The first word is the program itself.
    const name = k === 0 || /\s/.test(word) ? null : assigned(word);
    if (name !== null) names.push(name);
  }
  return names;
}

/**
 * Whether the agent CLI's arguments drop GateGuard's hooks. Arguments only
 * known at run time may be the option that does: a word made of expansions
 * (`f=--bare; claude $f`, `claude "$@"`) or words `xargs` adds.
 */
function dropsHooks({ cli, args, completed }: AgentRun): boolean {
  return completed || args.some(mayBeAnyOption) || args.some((arg, i) => {
    const [option, inline] = arg.split(/=(.*)/s);
    if (cli.dropping.includes(option)) return true;
    if (!cli.hookValued.includes(option)) return false;
    return /hook/i.test(inline ?? args[i + 1] ?? "");
  });
}

/**
 * Whether the words of one command (program first) run an agent CLI's
 * subcommand that changes which hooks its later runs load: a plugin,
 * extension or feature switched, a setting written (`claude plugin disable`,
 * `codex features disable hooks`, `copilot config disableAllHooks true`).
 * A subcommand or action only known at run time (`claude $cmd disable x`,
 * `claude plugin "$a" x`, words `xargs` adds) may be any of them.
 */
export function agentReconfigures(words: readonly string[]): boolean {
  const agent = agentOf(words);
  if (agent === null) return false;
  const operands = agent.args.filter((a) => !a.startsWith("-"));
  const [sub, action] = operands;
  // With its subcommand still to come from input, it may be any of them.
  if (sub === undefined) return agent.completed;
  // A lone unknown word is most often a prompt; one followed by more may be a subcommand.
  if (mayBeAnyOption(sub)) return operands.length > 1;
  if (!Object.hasOwn(agent.cli.reconfiguring, sub)) return false;
  const actions = agent.cli.reconfiguring[sub];
  return actions === null ||
    (action !== undefined && (mayBeAnyOption(action) || actions.includes(action)));
}

/**
 * Whether one command's words hand GateGuard's switches on or start an
 * agent without its hooks. `names` are the variables the command sets for
 * what it runs (assignments before it, `env` words, operands of `export`
 * and its kin); `words` start at the program it runs.
 */
function launchesUngated(names: readonly string[], words: readonly string[]): boolean {
  // Assignments among the words (`./run env X=1 make`) may reach what runs after them too.
  const handed = [...names, ...assignedAmong(words)];
  if (handed.some(switchesGateGuard)) return true;
  const agent = agentOf(words);
  if (agent === null) return false;
  return handed.some(movesGateGuard) || dropsHooks(agent);
}

/**
 * Whether the Bash segment starts programs GateGuard would not gate, as
 * above. `commandAt` is the index of the word it runs (after `sudo`, `env
 * X=1` and the like); `-c` code handed to a shell is read by the caller
 * (`segmentOrShellCode` in shell_environment.ts).
 */
export function segmentLaunchesUngated(segment: Segment, commandAt: number): boolean {
  const words = segment.words.map((w) => w.text);
  const names = [
    ...segment.assignments.map((w) => assigned(w.text)),
    ...words.slice(0, commandAt).map(assigned),
    ...(SETTERS.has(words[0] ?? "")
      ? words.slice(1).filter((w) => !w.startsWith("-")).map((w) => assigned(w) ?? w)
      : []),
  ].filter((n): n is string => n !== null);
  // The runner prefix stays: `xargs` there completes the agent's words from input.
  return launchesUngated(names, words);
}

/** PowerShell's and cmd.exe's ways of setting a variable for what the command starts. */
const RAW_SETTERS: readonly RegExp[] = [
  /\$env:([A-Za-z_][A-Za-z0-9_]*)\s*[+]?=(?!=)/gi,
  /\b(?:set-item|new-item|si|ni)\b[^;|&\n]*?\benv:\\?([A-Za-z_][A-Za-z0-9_]*)/gi,
  /SetEnvironmentVariable\s*\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]/gi,
  /(?:^|[\s;&|("'])set\s+"?([A-Za-z_][A-Za-z0-9_]*)=/gi,
];

/**
 * Whether a command the Bash reader cannot take apart (PowerShell,
 * cmd.exe) starts programs GateGuard would not gate: it sets a variable
 * that configures GateGuard, or one statement starts an agent's CLI after
 * moving its home or with an option that drops its hooks.
 */
export function rawLaunchesUngated(command: string): boolean {
  const names = RAW_SETTERS.flatMap((re) => [...command.matchAll(re)].map((m) => m[1]));
  if (names.some(switchesGateGuard)) return true;
  return rawCommands(command).some((words) => launchesUngated(names, words));
}

/**
 * The commands of a line the Bash reader cannot take apart (PowerShell,
 * cmd.exe), one a statement, as words without their quotes, from the
 * program each runs: after `cmd /c`, `start` or `Start-Process` when the
 * statement begins with one of them.
 */
export function rawCommands(command: string): string[][] {
  return command.split(/[;|&\n{}()]+/).flatMap((statement) => {
    const words = statement.trim().split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, ""));
    if (!RAW_RUNNERS.has(words[0]?.toLowerCase() ?? "")) return [words];
    const at = words.findIndex((w, i) => i > 0 && !w.startsWith("/") && !w.startsWith("-"));
    return at < 0 ? [] : [words.slice(at)];
  });
}

/** Whether a command the Bash reader cannot take apart runs an agent subcommand that changes its hooks. */
export function rawAgentReconfigures(command: string): boolean {
  return rawCommands(command).some(agentReconfigures);
}

/** The words that name an agent's CLI or a GateGuard variable, for `-c` code that does not parse. */
export const UNGATED_WORDS = /GATEGUARD_|ECC_|claude|codex|gemini|copilot|cursor-agent/i;
