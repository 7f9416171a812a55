/**
 * The shell gates' texts: the routine and destructive denials, the question
 * put to the user about a destructive command, the answer to one aimed at a
 * protected place, and the lines of a shell command that reaches
 * GateGuard's control surface or runs its hook by hand.
 *
 * @module
 */

import { HEADER } from "./messages.ts";

/** The last line of the routine shell denial (see `FILE_RECOVERY` on why it names no switch). */
export const ROUTINE_RECOVERY = "One sentence for each fact is enough.";

/**
 * The last line of a destructive denial: the rule that matched, and the
 * user as the one to ask (see `FILE_RECOVERY` on why it names no switch).
 */
export function destructiveRecovery(pack: string, rule: string): string {
  return `Matched rule: ${pack}/${rule}. If this must run and the user has not asked for it, ` +
    "ask the user first.";
}

/** The destructive shell denial's fixed part: its questions (`destructiveDenialText` adds the rest). */
export const DESTRUCTIVE_TEXT: string = [
  HEADER,
  "",
  "Destructive command detected. Before running it, present these facts:",
  "",
  "1. List all files/data this command will modify or delete",
  "2. Write a one-line rollback procedure",
  "3. Quote the user's current instruction verbatim",
  "",
  "Present the facts, then retry the same command.",
].join("\n");

/** The routine shell denial (once per session). */
export const ROUTINE_TEXT: string = [
  HEADER,
  "",
  "Before the first shell command of this session, present these facts:",
  "",
  "1. The current user request in one sentence",
  "2. What this specific command verifies or produces",
  "",
  "Present the facts, then retry the same command.",
  ROUTINE_RECOVERY,
].join("\n");

/** The line of a destructive denial that names the rule that fired and what it destroys. */
export function destroysLine(pack: string, rule: string, destroys: string): string {
  return `What it destroys (${pack}/${rule}): ${destroys}.`;
}

/**
 * The destructive denial: the fixed text, the rule that matched with whom
 * to ask, then the line on what the command destroys.
 */
export function destructiveDenialText(pack: string, rule: string, destroys: string): string {
  return [DESTRUCTIVE_TEXT, destructiveRecovery(pack, rule), destroysLine(pack, rule, destroys)]
    .join("\n");
}

/**
 * The narrow hatch a destructive denial names when one fits: the
 * `allowDestructive` entry (already a plain glob such as `dist/**`) that
 * would let this rule's command through for these paths only. The user,
 * not the agent, adds it.
 */
export function allowDestructiveHint(pack: string, rule: string, entry: string): string {
  return `If the user wants ${pack}/${rule} to run on these paths without a denial each time, ` +
    `the user (not the agent) can add "${entry}" to allowDestructive in the GateGuard user ` +
    "file (config.jsonc in its state folder) or in a trusted .gateguard.jsonc.";
}

/**
 * The question put to the user about a destructive command when the user
 * chose `destructiveDecision: "ask"`: no facts to gather and no retry, the
 * user decides whether it runs.
 */
export function destructiveAskText(pack: string, rule: string, destroys: string): string {
  return [
    HEADER,
    "",
    'Destructive command: the user decides whether it runs (destructiveDecision is "ask").',
    destroysLine(pack, rule, destroys),
  ].join("\n");
}

/** What a shell command that reaches a control file may do to it. */
export const SHELL_WRITE_LINE = "a shell command may write, move, delete, link or replace it, " +
  "and what it would leave behind cannot be read before it runs";

/**
 * The line said of a control file that a tool GateGuard does not read (an
 * MCP server's) names: what the tool would leave there cannot be read.
 */
export function foreignWriteLine(tool: string): string {
  return `the tool ${tool}, which GateGuard does not read, may write, move or delete it, and ` +
    "what it would leave behind cannot be read before it runs";
}

/** What running GateGuard's own hook by hand can forge. */
export const OWN_HOOK_LINE = "running GateGuard's hook by hand can record a decision no one was " +
  "shown, so that a later command passes on its first try";

/**
 * What a shell command does to what runs after it (`hook/shell_environment.ts`),
 * as a self-protection answer names it: what it reaches, and what that can
 * switch off. No text names a variable.
 */
export const LATER_EFFECT_TEXTS: Readonly<
  Record<"environment" | "ungated-launch" | "agent-config", { controls: string; line: string }>
> = {
  environment: {
    controls:
      "the variables every program started later begins with, the agent and GateGuard's hook among them",
    line: "a variable stored for later sessions reaches GateGuard's hook when the agent next " +
      "starts, and can switch it off or move what it reads",
  },
  "ungated-launch": {
    controls:
      "the programs this command starts, whose agents GateGuard gates like the agent itself",
    line: "the programs it starts would run with GateGuard switched off or without its hooks, so " +
      "an agent among them would act ungated",
  },
  "agent-config": {
    controls:
      "the plugins, extensions, MCP servers and settings that decide which hooks and programs an agent's CLI runs",
    line: "it changes which hooks the agent's CLI loads, so it can switch GateGuard off or bring " +
      "in a hook that undoes it",
  },
};

/** How GateGuard's own hook is named in a self-protection answer. */
export const OWN_HOOK_CONTROLS = "the program that decides every gated tool call";

/**
 * What running GateGuard's program by hand reaches, by the subcommand
 * that names it (the hook's texts for the hook and any other word): its
 * trust store (`trust`) or its registrations (`init`).
 */
export const OWN_PROGRAM_TEXTS: Readonly<
  Record<"trust" | "init", { file: string; controls: string; line: string }>
> = {
  trust: {
    file: "GateGuard's trust store",
    controls: "the hashes of the project files the user trusted to loosen GateGuard",
    line: "trusting a project file by hand lets its loosening keys apply without the user " +
      "having read them",
  },
  init: {
    file: "GateGuard's registrations",
    controls: "GateGuard's hook entries in the agents' settings and hook files",
    line: "registering GateGuard by hand can remove or replace the hook entries that run it",
  },
};

/** The places a destructive command may not be aimed at without the user's say, in words. */
export const PROTECTED_PLACES: Readonly<Record<"home" | "root" | "project" | "git", string>> = {
  home: "the home directory",
  root: "a filesystem root",
  project: "the project root",
  git: "the project's .git folder",
};

/**
 * The answer to a destructive command aimed at a protected place: never
 * passed on a retry, asked of the user (`asked`) or denied every time.
 * `piece` is the command's word that names the place, sanitized.
 */
export function protectedTargetText(
  place: keyof typeof PROTECTED_PLACES,
  piece: string,
  asked: boolean,
  hit: { pack: string; rule: string; destroys: string },
): string {
  return [
    HEADER,
    "",
    `Destructive command aimed at ${PROTECTED_PLACES[place]} (${piece}). GateGuard never ` +
    "passes it on a retry.",
    "",
    asked
      ? "Only the user can allow it, and they are asked now."
      : "It is denied every time here, because no one can be asked to approve it. If it must " +
        "run, ask the user to run it themselves.",
    destroysLine(hit.pack, hit.rule, hit.destroys),
  ].join("\n");
}
