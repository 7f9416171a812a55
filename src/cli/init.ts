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
import { homeDir, projectConfigPath, stateDirFrom } from "../config/settings.ts";
import { STARTER_CONFIG } from "../config/project_config.ts";
import {
  BARE_COMMAND,
  chooseCommand,
  registrationCommand,
  runsFromSource,
} from "../setup/command.ts";
import {
  CLAUDE_CODE_FORMATS,
  FILE_MATCHER,
  pluginHooksJson,
  type Registration,
  registrationsOf,
  settingsFiles,
  type SettingsScope,
  SHELL_MATCHER,
} from "../setup/claude_settings.ts";
import { type EditOutcome, editRegistration } from "../setup/registration_edit.ts";
import { writeBaseline } from "../setup/settings_baseline.ts";
import { unifiedDiff } from "../setup/diff.ts";
import { findOnPath, healthProblems, programOf } from "../setup/health.ts";
import {
  parseSettings,
  programState,
  readSettingsFile,
  readSettingsText,
  writeAtomic,
  type WriteTarget,
  writeTarget,
} from "../setup/settings_io.ts";
import type { JsonValue } from "../config/jsonc.ts";
import { denoFs } from "../platform/fs_port.ts";
import { printable, quoted } from "../platform/terminal_text.ts";
import { cliProjectRoot } from "./project_root.ts";

/** Usage text of `gateguard init`. */
export const INIT_USAGE =
  `Usage: gateguard init [--shared | --local | --user] [--config] [--dry-run]
       gateguard init --remove [--shared | --local | --user] [--dry-run]
       gateguard init --plugin
       gateguard init --agent <codex|gemini|copilot|cursor> [...] (see --agent <name> --help)

Registers GateGuard as a PreToolUse hook (${FILE_MATCHER} and ${SHELL_MATCHER}),
and as a ConfigChange hook that keeps a weakening settings change from applying
to a running session, for the project: CLAUDE_PROJECT_DIR, else the git root above the current
directory (the current directory outside a repository). When \`gateguard\` on
PATH is this binary, the command is that bare name and goes to the shared
<project>/.claude/settings.json; otherwise it names this machine's paths and
goes to <project>/.claude/settings.local.json, which is not shared. Running it
again changes nothing; an older GateGuard entry is updated in place and
everything else in the file is kept as it is.

  --shared    use <project>/.claude/settings.json whatever the command is
  --local     use <project>/.claude/settings.local.json
  --user      use ~/.claude/settings.json instead
  --config    also write a commented starter <project>/.gateguard.jsonc
  --dry-run   print the change as a diff and write nothing
  --remove    take GateGuard out of the settings file (both project files
              when none is named)
  --plugin    print the hooks/hooks.json of the plugin form and exit
  --help      show this text`;

const FLAGS: Readonly<Record<string, string>> = {
  "--user": "user",
  "--local": "local",
  "--shared": "shared",
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
  ["user", "shared"],
  ["local", "shared"],
  ["remove", "config"],
  ["plugin", "user"],
  ["plugin", "local"],
  ["plugin", "shared"],
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
      const { initAgent } =
        await (import(new URL("./init_agent.ts", import.meta.url).href) as Promise<
          typeof import("./init_agent.ts")
        >);
      const { SETUP_AGENTS } =
        await (import(new URL("../setup/agent_registrations.ts", import.meta.url).href) as Promise<
          typeof import("../setup/agent_registrations.ts")
        >);
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
  const windows = Deno.build.os === "windows";
  const machineCommand = registrationCommand(Deno.execPath(), import.meta.url, windows);
  const choice = chooseCommand({
    execPath: Deno.execPath(),
    moduleUrl: import.meta.url,
    windows,
    onPath: findOnPath(BARE_COMMAND, env.PATH, windows, programState, projectRoot),
    realPath: (path) => {
      const real = denoFs.realPath(path);
      return real.ok ? real.path : null;
    },
  });
  const removing = set.has("remove");
  const files = settingsFiles(projectRoot, homeDir(env));
  const fileOf = (scope: SettingsScope) => files.find((f) => f.scope === scope);
  // With no file named, a command only this machine can run stays out of the shared file.
  const scopes: SettingsScope[] = set.has("user")
    ? ["user"]
    : set.has("local")
    ? ["local"]
    : set.has("shared")
    ? ["project"]
    : removing
    ? ["project", "local"]
    : [choice.portable ? "project" : "local"];
  const command = scopes[0] === "project" ? choice.command : machineCommand;
  const why = !choice.portable && !set.has("local") && !set.has("user") && !removing
    ? (set.has("shared")
      ? `Shared anyway (--shared): ${printable(choice.why)}; a teammate's clone may not have it.`
      : `Registered in the local file: ${printable(choice.why)}; a teammate's clone would ` +
        "not have that, so it stays out of the shared .claude/settings.json (--shared puts it " +
        "there anyway).")
    : null;
  const dryRun = set.has("dryRun");

  const edits: FileEdit[] = [];
  for (const scope of scopes) {
    const file = fileOf(scope);
    if (!file) return fail("neither HOME nor USERPROFILE is set, so --user has no settings file");
    const edit = await planEdit(file.path, command, removing);
    if (typeof edit === "string") return fail(edit);
    edits.push(edit);
  }
  // An older init's machine-specific entry in the shared file moves out with it.
  const shared = fileOf("project");
  const moving = why !== null && !set.has("shared") && shared !== undefined &&
    await machineSpecificOnly(shared.path);
  if (moving && shared) {
    const edit = await planEdit(shared.path, command, true);
    if (typeof edit === "string") return fail(edit);
    edits.push(edit);
  }
  const configPath = projectConfigPath(projectRoot);
  // Only a missing path gets the starter; nothing there is ever opened.
  const configStat = denoFs.lstat(configPath);
  const configMissing = set.has("config") && !configStat.ok && configStat.code === "ENOENT";

  if (dryRun) {
    const diffs = edits.map((e) =>
      e.changed
        ? unifiedDiff(
          e.original ?? "",
          e.text ?? "",
          e.original === null ? "/dev/null" : e.path,
          e.target.path,
        )
        : ""
    );
    const configDiff = configMissing
      ? unifiedDiff("", STARTER_CONFIG, "/dev/null", configPath)
      : "";
    if (diffs.every((d) => d === "") && configDiff === "") {
      console.log(edits.map((e) => `${e.shown}: nothing would change.`).join("\n"));
    } else {
      if (why !== null && diffs.some((d) => d !== "")) console.log(why);
      console.log((diffs.join("") + configDiff).trimEnd());
    }
    return 0;
  }

  try {
    for (const e of edits) if (e.changed) await writeAtomic(e.target, e.text as string);
    if (configMissing) await writeAtomic(await writeTarget(configPath), STARTER_CONFIG);
  } catch (err) {
    return fail(`cannot write: ${(err as Error).message}`);
  }
  // The text the ConfigChange hook compares a later change with (setup/settings_baseline.ts).
  // Without it the hook judges the new text by itself, so a failure here is no error.
  for (const e of edits) await writeBaseline(stateDirFrom(env), e.path, e.text).catch(() => {});
  if (removing) {
    const removed = edits.filter((e) => e.changed);
    console.log(
      removed.length > 0
        ? removed.map((e) => `GateGuard removed from ${e.shown}.`).join("\n")
        : edits.map((e) => `${e.shown} does not register GateGuard; nothing to change.`).join("\n"),
    );
    return 0;
  }
  const [edit] = edits;
  const problems = await remainingProblems(edit.path, edit.text, projectRoot, env, command);
  console.log(
    edit.changed
      ? `GateGuard registered in ${edit.shown} for ${FILE_MATCHER} and ${SHELL_MATCHER}.\nCommand: ${command}`
      : problems.length === 0
      ? `${edit.shown} already registers GateGuard; nothing to change.`
      : `${edit.shown} already registers GateGuard.`,
  );
  if (why !== null && edit.changed) console.log(why);
  for (const moved of edits.slice(1).filter((e) => e.changed)) {
    console.log(
      `Moved GateGuard out of the shared ${moved.shown}: its command there names this ` +
        "machine's paths too.",
    );
  }
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
 * True when the settings file at `path` registers GateGuard and every one
 * of those entries names a machine's paths (no bare `gateguard`): what an
 * older init wrote into the shared file. A file that does not parse is
 * never counted (its own edit would refuse it).
 */
async function machineSpecificOnly(path: string): Promise<boolean> {
  const read = await readSettingsFile(denoFs, path);
  if (read.kind !== "parsed") return false;
  const { ours } = registrationsOf(read.value, path, false);
  return ours.length > 0 && ours.every((r) => programOf(r.command).kind !== "bare");
}

/** One settings file's planned change. */
interface FileEdit {
  path: string;
  /** The path as printed (naming the symlink's target when it is one). */
  shown: string;
  target: WriteTarget;
  original: string | null;
  text: string | null;
  changed: boolean;
}

/**
 * Every layout of a registration (the PreToolUse entries, the ConfigChange
 * entry) added to or removed from the text of a settings file, one after the
 * other; the first refusal stops it.
 */
function editAll(original: string | null, command: string, mode: "add" | "remove"): EditOutcome {
  let text = original;
  const leftAlone: string[] = [];
  for (const format of CLAUDE_CODE_FORMATS) {
    const step = editRegistration(format, text, command, mode);
    if (!step.ok) return step;
    text = step.text;
    leftAlone.push(...(step.leftAlone ?? []));
  }
  return { ok: true, text, leftAlone };
}

/**
 * Reads one settings file and works out its edit; a string is the error
 * that leaves it untouched. Prints the entries it leaves alone.
 */
async function planEdit(
  path: string,
  command: string,
  removing: boolean,
): Promise<FileEdit | string> {
  const read = await readSettingsText(denoFs, path);
  if (read.kind === "unreadable") {
    return `cannot read ${printable(path)}: ${read.why}; the file was left untouched.`;
  }
  const original = read.kind === "text" ? read.text : null;
  const outcome = editAll(original, command, removing ? "remove" : "add");
  if (!outcome.ok) {
    return `${
      printable(path)
    }: ${outcome.error}. The file was left untouched; fix it by hand and run init again.`;
  }
  const changed = outcome.text !== null && outcome.text !== original;
  for (const left of outcome.leftAlone ?? []) {
    console.log(
      `Left alone: the hook command ${
        quoted(left)
      } names GateGuard but is not a command init writes; check it by hand.`,
    );
  }
  const target = await writeTarget(path);
  if (changed && target.readOnly) {
    return `${printable(target.path)} is read-only, so init leaves it as it is; fix: make it ` +
      "writable (chmod u+w) and run init again, or add the entries by hand";
  }
  const shown = target.throughSymlink
    ? `${printable(path)} (a symlink to ${printable(target.path)})`
    : printable(path);
  return { path, shown, target, original, text: outcome.text, changed };
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
