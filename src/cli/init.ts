/**
 * `gateguard init`: registers GateGuard as a PreToolUse command hook in a
 * Claude Code settings file, updates an older registration in place, or
 * takes it out again (`--remove`). It can also write a commented starter
 * `.gateguard.jsonc` (`--config`) and print the plugin form (`--plugin`).
 *
 * Command-line glue only: the registration model and its edits live in
 * `src/setup/`, which `gateguard doctor` shares.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { homeDir, projectConfigPath } from "../config/settings.ts";
import { STARTER_CONFIG } from "../config/project_config.ts";
import { registrationCommand, runsFromSource } from "../setup/command.ts";
import {
  CLAUDE_CODE_FORMAT,
  FILE_MATCHER,
  pluginHooksJson,
  type Registration,
  registrationsOf,
  settingsFiles,
  type SettingsScope,
  SHELL_MATCHER,
} from "../setup/claude_settings.ts";
import { editRegistration } from "../setup/registration_edit.ts";
import { unifiedDiff } from "../setup/diff.ts";
import { findOnPath, healthProblems } from "../setup/health.ts";
import {
  parseSettings,
  programState,
  readSettingsFile,
  readSettingsText,
  writeAtomic,
  writeTarget,
} from "../setup/settings_io.ts";
import type { JsonValue } from "../config/jsonc.ts";
import { denoFs } from "../platform/fs_port.ts";
import { printable, quoted } from "../platform/terminal_text.ts";
import { cliProjectRoot } from "./project_root.ts";

/** Usage text of `gateguard init`. */
export const INIT_USAGE = `Usage: gateguard init [--user | --local] [--config] [--dry-run]
       gateguard init --remove [--user | --local] [--dry-run]
       gateguard init --plugin
       gateguard init --agent <codex|gemini|copilot|cursor> [...] (see --agent <name> --help)

Registers GateGuard as a PreToolUse hook (${FILE_MATCHER} and ${SHELL_MATCHER})
in <project>/.claude/settings.json. The project is CLAUDE_PROJECT_DIR, else the
current directory. Running it again changes nothing; an older GateGuard entry is
updated in place and everything else in the file is kept as it is.

  --user      use ~/.claude/settings.json instead
  --local     use <project>/.claude/settings.local.json instead
  --config    also write a commented starter <project>/.gateguard.jsonc
  --dry-run   print the change as a diff and write nothing
  --remove    take GateGuard out of the settings file
  --plugin    print the hooks/hooks.json of the plugin form and exit
  --help      show this text`;

const FLAGS: Readonly<Record<string, string>> = {
  "--user": "user",
  "--local": "local",
  "--config": "config",
  "--dry-run": "dryRun",
  "--remove": "remove",
  "--plugin": "plugin",
  "--help": "help",
  "-h": "help",
};

/** Flag combinations that contradict each other. */
const CONFLICTS: ReadonlyArray<[string, string]> = [
  ["user", "local"],
  ["remove", "config"],
  ["plugin", "user"],
  ["plugin", "local"],
  ["plugin", "config"],
  ["plugin", "dryRun"],
  ["plugin", "remove"],
];

function usageError(message: string): number {
  console.error(`gateguard init: ${message}\n${INIT_USAGE}`);
  return 2;
}

function fail(message: string): number {
  console.error(`gateguard init: ${message}`);
  return 1;
}

/** Runs `gateguard init`; returns the exit code. */
export async function main(args: string[], env: EnvSnapshot): Promise<number> {
  const at = args.indexOf("--agent");
  if (at >= 0) {
    const agent = args[at + 1];
    const rest = [...args.slice(0, at), ...args.slice(at + 2)];
    if (agent !== "claude") {
      const { initAgent } = await import("./init_agent.ts");
      const { SETUP_AGENTS } = await import("../setup/agent_registrations.ts");
      const known = SETUP_AGENTS.find((name) => name === agent);
      if (!known) return usageError(`--agent takes claude, ${SETUP_AGENTS.join(", ")}`);
      return initAgent(known, rest, env);
    }
    args = rest;
  }
  const set = new Set<string>();
  for (const arg of args) {
    const flag = Object.hasOwn(FLAGS, arg) ? FLAGS[arg] : undefined;
    if (!flag) return usageError(`unknown option '${arg.slice(0, 80)}'`);
    set.add(flag);
  }
  if (set.has("help")) {
    console.log(INIT_USAGE);
    return 0;
  }
  for (const [x, y] of CONFLICTS) {
    if (set.has(x) && set.has(y)) {
      const spell = (f: string): string => Object.keys(FLAGS).find((k) => FLAGS[k] === f) ?? f;
      return usageError(`${spell(x)} and ${spell(y)} cannot be combined`);
    }
  }
  if (set.has("plugin")) {
    console.log(pluginHooksJson().trimEnd());
    return 0;
  }

  const projectRoot = cliProjectRoot(env);
  const scope: SettingsScope = set.has("user") ? "user" : set.has("local") ? "local" : "project";
  const file = settingsFiles(projectRoot, homeDir(env)).find((f) => f.scope === scope);
  if (!file) return fail("neither HOME nor USERPROFILE is set, so --user has no settings file");
  const windows = Deno.build.os === "windows";
  const command = registrationCommand(Deno.execPath(), import.meta.url, windows);
  const dryRun = set.has("dryRun");
  const removing = set.has("remove");

  const read = await readSettingsText(denoFs, file.path);
  if (read.kind === "unreadable") {
    return fail(`cannot read ${printable(file.path)}: ${read.why}; the file was left untouched.`);
  }
  const original = read.kind === "text" ? read.text : null;
  const outcome = editRegistration(
    CLAUDE_CODE_FORMAT,
    original,
    command,
    removing ? "remove" : "add",
  );
  if (!outcome.ok) {
    return fail(
      `${
        printable(file.path)
      }: ${outcome.error}. The file was left untouched; fix it by hand and run init again.`,
    );
  }
  const changed = outcome.text !== null && outcome.text !== original;
  for (const left of outcome.leftAlone ?? []) {
    console.log(
      `Left alone: the hook command ${
        quoted(left)
      } names GateGuard but is not a command init writes; check it by hand.`,
    );
  }
  const target = await writeTarget(file.path);
  if (changed && target.readOnly) {
    return fail(
      `${printable(target.path)} is read-only, so init leaves it as it is; fix: make it ` +
        "writable (chmod u+w) and run init again, or add the entries by hand",
    );
  }
  const shown = target.throughSymlink
    ? `${printable(file.path)} (a symlink to ${printable(target.path)})`
    : printable(file.path);
  const configPath = projectConfigPath(projectRoot);
  // Only a missing path gets the starter; nothing there is ever opened.
  const configStat = denoFs.lstat(configPath);
  const configMissing = set.has("config") && !configStat.ok && configStat.code === "ENOENT";

  if (dryRun) {
    const diff = changed
      ? unifiedDiff(
        original ?? "",
        outcome.text ?? "",
        original === null ? "/dev/null" : file.path,
        target.path,
      )
      : "";
    const configDiff = configMissing
      ? unifiedDiff("", STARTER_CONFIG, "/dev/null", configPath)
      : "";
    if (diff === "" && configDiff === "") console.log(`${shown}: nothing would change.`);
    else console.log((diff + configDiff).trimEnd());
    return 0;
  }

  try {
    if (changed) await writeAtomic(target, outcome.text as string);
    if (configMissing) await writeAtomic(await writeTarget(configPath), STARTER_CONFIG);
  } catch (err) {
    return fail(`cannot write: ${(err as Error).message}`);
  }
  if (removing) {
    console.log(
      changed
        ? `GateGuard removed from ${shown}.`
        : `${shown} does not register GateGuard; nothing to change.`,
    );
    return 0;
  }
  const problems = await remainingProblems(file.path, outcome.text, projectRoot, env, command);
  console.log(
    changed
      ? `GateGuard registered in ${shown} for ${FILE_MATCHER} and ${SHELL_MATCHER}.\nCommand: ${command}`
      : problems.length === 0
      ? `${shown} already registers GateGuard; nothing to change.`
      : `${shown} already registers GateGuard.`,
  );
  if (set.has("config")) {
    console.log(
      configMissing
        ? `Wrote the starter project file ${configPath}.`
        : `${configPath} already exists; left unchanged.`,
    );
  }
  for (const problem of problems) console.log(`Still not gating: ${problem}`);
  console.log(
    `Check the setup with \`${doctorHint(Deno.execPath(), import.meta.url)}\`. ` +
      "Installing GateGuard as a plugin instead? " +
      "`gateguard init --plugin` prints its hooks/hooks.json.",
  );
  return problems.length === 0 ? 0 : 1;
}

/**
 * What would still keep GateGuard from gating once the edited file holds
 * `text`: every settings file's switches, and GateGuard's handlers in them.
 */
async function remainingProblems(
  edited: string,
  text: string | null,
  projectRoot: string,
  env: EnvSnapshot,
  command: string,
): Promise<string[]> {
  const parsed: Array<[string, JsonValue]> = [];
  const registrations: Registration[] = [];
  for (const f of settingsFiles(projectRoot, homeDir(env))) {
    const outcome = f.path === edited
      ? (text === null ? null : parseSettings(text))
      : await readSettingsFile(denoFs, f.path);
    if (outcome?.kind !== "parsed") continue;
    parsed.push([f.path, outcome.value]);
    registrations.push(
      ...registrationsOf(outcome.value, `${f.scope} settings ${printable(f.path)}`, false, command)
        .ours,
    );
  }
  const windows = Deno.build.os === "windows";
  return healthProblems(parsed, registrations, {
    state: programState,
    onPath: (name) => findOnPath(name, env.PATH, windows, programState, projectRoot),
  });
}

/**
 * How to run `doctor` the way `init` itself was run: the binary by name, or
 * from source the `deno task` line of this checkout (no `gateguard` is on
 * the PATH then). `moduleUrl` is this module's URL, two folders below the root.
 */
export function doctorHint(execPath: string, moduleUrl: string): string {
  if (!runsFromSource(execPath)) return "gateguard doctor";
  const config = decodeURIComponent(new URL("../../deno.json", moduleUrl).pathname)
    .replace(/^\/([A-Za-z]:)/, "$1");
  return `deno task -q --config ${config} gateguard doctor`;
}
