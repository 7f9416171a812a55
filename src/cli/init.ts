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
import { registrationCommand } from "../setup/command.ts";
import {
  CLAUDE_CODE_FORMAT,
  FILE_MATCHER,
  pluginHooksJson,
  settingsFiles,
  type SettingsScope,
  SHELL_MATCHER,
} from "../setup/claude_settings.ts";
import { editRegistration } from "../setup/registration_edit.ts";
import { unifiedDiff } from "../setup/diff.ts";
import { readIfPresent, writeAtomic } from "../setup/settings_io.ts";
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

  let original: string | null;
  try {
    original = await readIfPresent(file.path);
  } catch (err) {
    return fail(`cannot read ${file.path}: ${(err as Error).message}`);
  }
  const outcome = editRegistration(
    CLAUDE_CODE_FORMAT,
    original,
    command,
    removing ? "remove" : "add",
  );
  if (!outcome.ok) {
    return fail(
      `${file.path}: ${outcome.error}. The file was left untouched; fix it by hand and run init again.`,
    );
  }
  const changed = outcome.text !== null && outcome.text !== original;
  for (const command of outcome.leftAlone) {
    console.log(
      `Left alone: the hook command ${
        JSON.stringify(command.slice(0, 200))
      } names GateGuard but is not a command init writes; check it by hand.`,
    );
  }
  const configPath = projectConfigPath(projectRoot);
  let configMissing = false;
  if (set.has("config")) {
    try {
      configMissing = (await readIfPresent(configPath)) === null;
    } catch (err) {
      return fail(`cannot read ${configPath}: ${(err as Error).message}`);
    }
  }

  if (dryRun) {
    const diff = changed
      ? unifiedDiff(
        original ?? "",
        outcome.text ?? "",
        original === null ? "/dev/null" : file.path,
        file.path,
      )
      : "";
    const configDiff = configMissing
      ? unifiedDiff("", STARTER_CONFIG, "/dev/null", configPath)
      : "";
    if (diff === "" && configDiff === "") console.log(`${file.path}: nothing would change.`);
    else console.log((diff + configDiff).trimEnd());
    return 0;
  }

  try {
    if (changed) await writeAtomic(file.path, outcome.text as string);
    if (configMissing) await writeAtomic(configPath, STARTER_CONFIG);
  } catch (err) {
    return fail(`cannot write: ${(err as Error).message}`);
  }
  if (removing) {
    console.log(
      changed
        ? `GateGuard removed from ${file.path}.`
        : `${file.path} does not register GateGuard; nothing to change.`,
    );
    return 0;
  }
  console.log(
    changed
      ? `GateGuard registered in ${file.path} for ${FILE_MATCHER} and ${SHELL_MATCHER}.\nCommand: ${command}`
      : `${file.path} already registers GateGuard; nothing to change.`,
  );
  if (set.has("config")) {
    console.log(
      configMissing
        ? `Wrote the starter project file ${configPath}.`
        : `${configPath} already exists; left unchanged.`,
    );
  }
  console.log(
    "Check the setup with `gateguard doctor`. Installing GateGuard as a plugin instead? " +
      "`gateguard init --plugin` prints its hooks/hooks.json.",
  );
  return 0;
}
