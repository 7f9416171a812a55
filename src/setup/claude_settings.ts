/**
 * What a GateGuard registration looks like in Claude Code's settings: the
 * settings file of each scope, the two `PreToolUse` entries (file tools and
 * shell tools) with their handler, how Claude Code matches a tool name
 * against a matcher, and the `hooks/hooks.json` of the plugin form.
 *
 * `init` writes this shape through `registration_edit.ts`; `doctor` reads
 * it back. Another agent's hook file gets a module of its own beside this
 * one, with its own `HookFormat`.
 *
 * @module
 */

import { MCP_CHANGE_EXAMPLES, MCP_CHANGE_MATCHER } from "../tools/gated.ts";
import type { JsonValue } from "../config/jsonc.ts";
import { classifyCommand, type CommandKind } from "./recognise.ts";
import { type HookFormat, wantedGroups } from "./registration_edit.ts";
import { gateMatcher, toolNames } from "../tools/gated.ts";
import { isRecord } from "../platform/json.ts";
import { joinPath } from "../platform/path.ts";
import {
  PLUGIN_COMMAND,
  PLUGIN_INSTALL_COMMAND,
  PLUGIN_INSTALL_TIMEOUT_SECONDS,
  PLUGIN_SESSION_START_MATCHER,
} from "./plugin_command.ts";

/** The file tools GateGuard gates. */
export const FILE_TOOLS: readonly string[] = toolNames("file");
/** The shell tools GateGuard gates. */
export const SHELL_TOOLS: readonly string[] = toolNames("shell");
/** The tools GateGuard gates; a registration must reach all of them. */
export const GATED_TOOLS: readonly string[] = [...FILE_TOOLS, ...SHELL_TOOLS];
/** Matcher of the file-tool entry. */
export const FILE_MATCHER: string = gateMatcher("file");
/** Matcher of the shell-tool entry. */
export const SHELL_MATCHER: string = gateMatcher("shell");
/** Seconds Claude Code waits for the hook; a timed-out hook does not block, so keep room. */
export const HOOK_TIMEOUT_SECONDS = 10;

/**
 * The PreToolUse command of the plugin form: its launcher (see
 * `plugin_command.ts`). State goes to `CLAUDE_PLUGIN_DATA`, which the
 * settings layer picks up by itself.
 */
export { PLUGIN_COMMAND };

/** Where a registration is written. */
export type SettingsScope = "project" | "local" | "user";

/** One Claude Code settings file GateGuard may be registered in. */
export interface SettingsFile {
  scope: SettingsScope;
  path: string;
}

/** The settings files of each scope for a project root and home directory. */
export function settingsFiles(projectRoot: string, home: string | null): SettingsFile[] {
  const files: SettingsFile[] = [
    { scope: "project", path: joinPath(projectRoot, ".claude/settings.json") },
    { scope: "local", path: joinPath(projectRoot, ".claude/settings.local.json") },
  ];
  if (home) {
    files.unshift({ scope: "user", path: joinPath(home, ".claude/settings.json") });
  }
  return files;
}

/** A matcher made only of these characters is an exact tool name or list of names. */
const NAME_LIST = /^[A-Za-z0-9_\- ,|]+$/;

/**
 * Whether a PreToolUse matcher reaches a tool, the way Claude Code reads it:
 * missing, `""` or `*` match every tool; a list of plain names matches those
 * names exactly; anything else is an unanchored regular expression. The
 * expression is the user's own setting and only ever runs on a fixed tool
 * name; one that does not compile matches nothing.
 */
export function matcherCovers(matcher: unknown, tool: string): boolean {
  if (matcher === undefined || matcher === null || matcher === "" || matcher === "*") return true;
  if (typeof matcher !== "string") return false;
  if (NAME_LIST.test(matcher)) return matcher.split(/[|,]/).some((name) => name.trim() === tool);
  try {
    return new RegExp(matcher).test(tool);
  } catch {
    return false;
  }
}

/**
 * How a hook handler (parsed JSON) relates to GateGuard, judged by its
 * command; `ownCommand` is this build's command, whatever the binary is
 * called. A handler without a command string is someone else's.
 */
export function handlerKind(handler: unknown, ownCommand?: string): CommandKind {
  if (typeof handler !== "object" || handler === null || Array.isArray(handler)) return "other";
  const command = (handler as Record<string, unknown>).command;
  return typeof command === "string" ? classifyCommand(command, ownCommand) : "other";
}

/** True for a handler that is GateGuard's own (see `handlerKind`). */
export function isGateGuardHandler(handler: unknown, ownCommand?: string): boolean {
  return handlerKind(handler, ownCommand) === "ours";
}

/**
 * What a GateGuard handler sets `onFailure` to: a hook that cannot start,
 * crashes, answers oddly or times out then blocks the call (Claude Code
 * 2.1.295 and later) instead of letting it through unchecked.
 */
export const ON_FAILURE = "block";

function handlerFor(command: string): { [key: string]: JsonValue } {
  return { type: "command", command, timeout: HOOK_TIMEOUT_SECONDS, onFailure: ON_FAILURE };
}

/** Claude Code's `hooks.PreToolUse` layout, for the registration editor. */
export const CLAUDE_CODE_FORMAT: HookFormat = {
  event: "PreToolUse",
  entries: [
    { matcher: FILE_MATCHER, tools: FILE_TOOLS },
    { matcher: SHELL_MATCHER, tools: SHELL_TOOLS },
    // MCP tools whose names say they change files: looked at for GateGuard's own files only.
    { matcher: MCP_CHANGE_MATCHER, tools: MCP_CHANGE_EXAMPLES },
  ],
  handler: handlerFor,
  // `args` (exec form) would be appended to the command; `async` and `if` stop it gating.
  strippedKeys: ["args", "async", "if"],
  covers: matcherCovers,
  kindOf: handlerKind,
};

/** The settings sources whose changes GateGuard's ConfigChange hook judges. */
export const CONFIG_CHANGE_SOURCES: readonly string[] = [
  "user_settings",
  "project_settings",
  "local_settings",
];

/**
 * Claude Code's `hooks.ConfigChange` layout: one entry for the settings
 * files, running the same command (the hook tells the event by its payload).
 * A change it blocks is not applied to the running session.
 */
export const CONFIG_CHANGE_FORMAT: HookFormat = {
  event: "ConfigChange",
  entries: [{ matcher: CONFIG_CHANGE_SOURCES.join("|"), tools: CONFIG_CHANGE_SOURCES }],
  handler: handlerFor,
  strippedKeys: ["args", "async", "if"],
  covers: matcherCovers,
  kindOf: handlerKind,
};

/** Every layout `init` writes into a Claude Code settings file, in order. */
export const CLAUDE_CODE_FORMATS: readonly HookFormat[] = [
  CLAUDE_CODE_FORMAT,
  CONFIG_CHANGE_FORMAT,
];

/** The `hooks` object of a registration running `command`: every event init writes. */
export function registrationHooks(command: string): { [event: string]: JsonValue } {
  return Object.fromEntries(
    CLAUDE_CODE_FORMATS.map((format) => [format.event, wantedGroups(format, command)]),
  );
}

/** The two PreToolUse entries of a registration running `command`. */
export function registrationGroups(command: string): JsonValue[] {
  return wantedGroups(CLAUDE_CODE_FORMAT, command);
}

/**
 * The `hooks/hooks.json` of the plugin form, as shipped in the repository:
 * the SessionStart installer, and the two PreToolUse entries running the
 * launcher, failing closed like every entry init writes.
 */
export function pluginHooksJson(): string {
  const plugin = {
    description:
      "GateGuard: a fact-forcing PreToolUse gate. It denies the first edit of each file " +
      "and destructive shell commands until the agent presents concrete facts. Each command " +
      "is read by bash (hooks/*.sh) and by PowerShell (hooks/*.ps1): bash stops at its exec, " +
      "PowerShell skips that line as a here-string.",
    hooks: {
      SessionStart: [{
        matcher: PLUGIN_SESSION_START_MATCHER,
        hooks: [{
          type: "command",
          command: PLUGIN_INSTALL_COMMAND,
          timeout: PLUGIN_INSTALL_TIMEOUT_SECONDS,
        }],
      }],
      PreToolUse: registrationGroups(PLUGIN_COMMAND),
    },
  };
  return `${JSON.stringify(plugin, null, 2)}\n`;
}

/** One GateGuard handler found in a settings file or a plugin's hooks.json. */
export interface Registration {
  /** Where it was found, for the report. */
  origin: string;
  /** Found in an installed plugin rather than a settings file. */
  plugin: boolean;
  /** The matcher of its PreToolUse entry, as written (undefined when missing). */
  matcher: unknown;
  command: string;
  /** The handler object as written. */
  handler: { [key: string]: JsonValue };
  /** For a plugin's handler: the plugin's id and install folder (`CLAUDE_PLUGIN_ROOT`). */
  pluginInstall?: { id: string; root: string };
}

/**
 * The handlers under `hooks.PreToolUse` (or another `event`) of a parsed
 * settings or hooks file: GateGuard's own, and the commands that only name
 * it (left alone).
 */
export function registrationsOf(
  value: JsonValue,
  origin: string,
  plugin: boolean,
  ownCommand?: string,
  event = "PreToolUse",
): { ours: Registration[]; unsure: string[] } {
  const hooks = isRecord(value) ? value.hooks : undefined;
  const pre = isRecord(hooks) ? hooks[event] : undefined;
  const ours: Registration[] = [];
  const unsure: string[] = [];
  if (!Array.isArray(pre)) return { ours, unsure };
  for (const group of pre) {
    if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
    for (const handler of group.hooks) {
      const kind = handlerKind(handler, ownCommand);
      if (kind === "other" || !isRecord(handler)) continue;
      const command = handler.command as string;
      if (kind === "unsure") unsure.push(command);
      else ours.push({ origin, plugin, matcher: group.matcher, command, handler });
    }
  }
  return { ours, unsure };
}
