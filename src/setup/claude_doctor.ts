/**
 * What `gateguard doctor` finds about a Claude Code installation, one
 * finding per line: the effective configuration and where each value came
 * from, the project file, the state directory, every settings file and
 * plugin that registers GateGuard, whether those registrations reach every
 * gated tool exactly once, and the transcript directory. The command in
 * `cli/doctor.ts` gathers the inputs and prints these findings.
 *
 * @module
 */

import { MCP_CHANGE_EXAMPLES } from "../tools/gated.ts";
import { ENV_VARIABLES, type EnvName, type EnvSnapshot, parseWholeNumber } from "../config/env.ts";
import type { ProjectTrust, Settings, SettingSource, SourcedSetting } from "../config/settings.ts";
import { PACK_MANIFEST, selectPacks } from "../shell/packs/mod.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { JsonValue } from "../config/jsonc.ts";
import { PROJECT_CONFIG_KEYS } from "../config/project_config.ts";
import {
  CONFIG_CHANGE_FORMAT,
  GATED_TOOLS,
  matcherCovers,
  type Registration,
  registrationsOf,
} from "./claude_settings.ts";
import { handlerProblems, healthProblems, type ProgramLookup } from "./health.ts";
import { type ReadOutcome, readSettingsFile } from "./settings_io.ts";
import { printable, quoted } from "../platform/terminal_text.ts";
import { isRecord } from "../platform/json.ts";
import { joinPath } from "../platform/path.ts";
import { fsErrorWords, prepareStateDir } from "../state/state_dir.ts";

/** How a finding reads: fine, for information, worth a look, or a problem (exit 1). */
export type Level = "ok" | "info" | "WARN" | "FAIL";

/** One line of the report. */
export interface Finding {
  level: Level;
  text: string;
}

/**
 * Whether the registrations reach every gated tool, and exactly once. The
 * same command in several settings files runs once; a plugin's copy runs
 * besides any settings copy, and so does a second, different command.
 */
export function coverageFindings(registrations: readonly Registration[]): Finding[] {
  if (registrations.length === 0) {
    return [{
      level: "FAIL",
      text: "GateGuard is not registered in any settings file or plugin; " +
        "fix: run `gateguard init` (or `gateguard init --user` for every project)",
    }];
  }
  const missing: string[] = [];
  const twice: string[] = [];
  const runners = new Set<string>();
  for (const tool of GATED_TOOLS) {
    const reaching = registrations.filter((r) => matcherCovers(r.matcher, tool));
    if (reaching.length === 0) missing.push(tool);
    const distinct = new Set(reaching.map((r) => r.plugin ? "plugin" : `command ${r.command}`));
    if (distinct.size > 1) {
      twice.push(tool);
      for (const r of reaching) runners.add(r.origin);
    }
  }
  const findings: Finding[] = [];
  if (missing.length > 0) {
    findings.push({
      level: "FAIL",
      text: `GateGuard never sees ${missing.join(", ")}: no registered matcher reaches ` +
        `${missing.length === 1 ? "it" : "them"}; fix: run \`gateguard init\` ` +
        "(it registers Edit|Write|MultiEdit|NotebookEdit and Bash|PowerShell)",
    });
  }
  if (twice.length > 0) {
    findings.push({
      level: "FAIL",
      text: `GateGuard runs twice on ${twice.join(", ")} (${[...runners].join("; ")}); ` +
        "fix: keep one registration: uninstall the plugin, or run " +
        "`gateguard init --remove` with --user or --local for the settings copy",
    });
  }
  if (findings.length === 0) {
    findings.push({ level: "ok", text: `registrations reach ${GATED_TOOLS.join(", ")} once each` });
  }
  const foreign = MCP_CHANGE_EXAMPLES.filter((tool) =>
    !registrations.some((r) => matcherCovers(r.matcher, tool))
  );
  if (foreign.length > 0) {
    findings.push({
      level: "WARN",
      text: `MCP tools that may change files (${foreign.join(", ")}) reach no registration, ` +
        "so an MCP server could write GateGuard's own files unseen; fix: run `gateguard init` " +
        "(it registers them, looked at for GateGuard's own files only)",
    });
  }
  return findings;
}

/** The environment a hook would see, and which settings file set each variable. */
export interface HookEnv {
  env: EnvSnapshot;
  setBy: Map<EnvName, string>;
}

const KNOWN_VARIABLES: ReadonlySet<string> = new Set(ENV_VARIABLES);

/** Layers the `env` blocks of the settings files (user, project, local) over the shell's. */
export function hookEnvironment(shell: EnvSnapshot, parsed: Array<[string, JsonValue]>): HookEnv {
  const env: Partial<Record<EnvName, string>> = { ...shell };
  const setBy = new Map<EnvName, string>();
  for (const [path, value] of parsed) {
    const block = isRecord(value) ? value.env : undefined;
    if (!isRecord(block)) continue;
    for (const [name, v] of Object.entries(block)) {
      if (KNOWN_VARIABLES.has(name) && typeof v === "string") {
        env[name as EnvName] = v;
        setBy.set(name as EnvName, path);
      }
    }
  }
  return { env, setBy };
}

/** Plugins named in `installed_plugins.json`, with their install directories. */
function installedPlugins(value: JsonValue): Array<{ id: string; path: string }> {
  const plugins = isRecord(value) ? value.plugins : undefined;
  if (!isRecord(plugins)) return [];
  const found: Array<{ id: string; path: string }> = [];
  for (const [id, entry] of Object.entries(plugins)) {
    for (const install of Array.isArray(entry) ? entry : [entry]) {
      if (isRecord(install) && typeof install.installPath === "string") {
        found.push({ id, path: install.installPath });
      }
    }
  }
  return found;
}

/** `enabledPlugins` of the settings files, the most specific file winning. */
function disabledPlugins(parsed: Array<[string, JsonValue]>): Set<string> {
  const state = new Map<string, boolean>();
  for (const [, value] of parsed) {
    const enabled = isRecord(value) ? value.enabledPlugins : undefined;
    if (!isRecord(enabled)) continue;
    for (const [id, on] of Object.entries(enabled)) {
      if (typeof on === "boolean") state.set(id, on);
    }
  }
  return new Set([...state].filter(([, on]) => !on).map(([id]) => id));
}

function show(value: string): string {
  return quoted(value);
}

const onOff = (on: boolean): string => on ? "on" : "off";
const list = (items: readonly string[]): string =>
  items.length === 0 ? "none" : items.map(show).join(", ");

/** The configuration lines: label and how the value is shown, per tracked setting. */
const SHOWN: ReadonlyArray<[SourcedSetting, string, (s: Settings) => string]> = [
  ["disabled", "GateGuard switched off", (s) => s.disabled ? "yes" : "no"],
  ["disabledHooks", "disabled hook ids", (s) => list([...s.disabledHooks])],
  ["fileGates", "file gates", (s) => onOff(s.fileGates)],
  ["destructiveShell", "destructive shell gate", (s) => onOff(s.destructiveShell)],
  ["routineDisabled", "routine shell gate", (s) => onOff(!s.routineDisabled)],
  [
    "exemptGlobs",
    "exempt globs (environment)",
    (s) => s.exemptGlobs ? show(s.exemptGlobs) : "none",
  ],
  ["fileExemptGlobs", "exempt globs (project file)", (s) => list(s.fileExemptGlobs)],
  ["fullDenials", "full denials before condensing", (s) => String(s.fullDenials)],
  ["maxDenials", "denial cap", (s) => s.maxDenials === null ? "none" : String(s.maxDenials)],
  [
    "extraDestructive",
    "extra destructive patterns (regex)",
    (s) => s.extraDestructive ? show(s.extraDestructive) : "none",
  ],
  ["destructiveCommands", "extra destructive commands", (s) => list(s.destructiveCommands)],
  [
    "destructivePacks",
    "active destructive packs",
    (s) => list(selectPacks(s.destructivePacks).active.map((p) => p.id)),
  ],
  [
    "destructivePacks",
    "inactive destructive packs",
    (s) => {
      const active = selectPacks(s.destructivePacks).active;
      return list(PACK_MANIFEST.filter((p) => !active.includes(p)).map((p) => p.id));
    },
  ],
  [
    "domainText",
    "domain text on denials",
    (s) => s.domainText === null ? "none" : `${s.domainText.length} characters`,
  ],
  ["stateDir", "state dir", (s) => s.stateDir],
  ["metrics", "decision metrics", (s) => onOff(s.metrics)],
  ["externalContract", "external-contract question", (s) => onOff(s.externalContract)],
];

function sourceText(source: SettingSource, settings: Settings, hookEnv: HookEnv): string {
  if (source.kind === "default") return "default";
  if (source.kind === "file") return `file ${settings.projectFile?.path ?? ""}`;
  const from = hookEnv.setBy.get(source.variable);
  return `env ${source.variable}${from ? ` (env block of ${from})` : ""}`;
}

/** The configuration lines, one per setting, with its source. */
export function configurationFindings(settings: Settings, hookEnv: HookEnv): Finding[] {
  const width = Math.max(...SHOWN.map(([, label]) => label.length));
  return SHOWN.map(([key, label, render]) => ({
    level: "info" as const,
    text: `${label.padEnd(width)}  ${render(settings)}  [${
      sourceText(settings.sources[key], settings, hookEnv)
    }]`,
  }));
}

/** Variables that must hold a whole number when present. */
const WHOLE_NUMBER_VARIABLES: ReadonlyArray<[EnvName, string]> = [
  ["GATEGUARD_FACT_FORCE_MAX_DENIALS", "the denial cap is off"],
  ["GATEGUARD_FACT_FORCE_FULL_DENIALS", "the default of 3 full denials applies"],
];

/** The variables set for the hook that are unknown, or hold a value it cannot use. */
export function environmentFindings(hookEnv: HookEnv): Finding[] {
  const findings: Finding[] = [];
  for (const [name, effect] of WHOLE_NUMBER_VARIABLES) {
    const raw = hookEnv.env[name];
    if (raw !== undefined && parseWholeNumber(raw) === null) {
      findings.push({
        level: "FAIL",
        text: `${name}=${show(raw.slice(0, 64))} is not a whole number, so ${effect}; ` +
          "fix: set digits only, or unset it",
      });
    }
  }
  return findings;
}

/** Lines about the project file: where it is, and each mistake in it. */
export function projectFileFindings(settings: Settings): Finding[] {
  const status = settings.projectFile;
  if (status === null) return [];
  if (status.state === "absent") {
    return [{
      level: "info",
      text: `project file ${
        printable(status.path)
      }: none (optional; \`gateguard init --config\` writes a starter)`,
    }];
  }
  if (status.state === "broken") {
    const at = status.line !== null ? `:${status.line}:${status.column}` : "";
    return [{
      level: "FAIL",
      text:
        `project file ${printable(status.path)}${at}: ${
          printable(status.message)
        }; the hook ignores the whole file ` +
        `until it is fixed; fix: correct it${
          status.line !== null ? ` at line ${status.line}, column ${status.column}` : ""
        }`,
    }];
  }
  const findings: Finding[] = [{
    level: "ok",
    text: `project file ${printable(status.path)}: loaded`,
  }, ...trustFindings(status.path, status.trust)];
  for (const issue of status.unknownKeys) {
    findings.push({
      level: "FAIL",
      text: `project file ${printable(status.path)}:${issue.line}:${issue.column}: unknown key ` +
        `${show(issue.key)} is ignored; fix: remove it or use one of ${
          PROJECT_CONFIG_KEYS.join(", ")
        }`,
    });
  }
  for (const issue of status.invalid) {
    findings.push({
      level: "FAIL",
      text:
        `project file ${printable(status.path)}:${issue.line}:${issue.column}: ${
          show(issue.key)
        }: ` +
        `${
          printable(issue.message)
        }, so it is ignored; fix: correct the value (docs/configuration.md)`,
    });
  }
  return findings;
}

/** How the project file's loosening keys stand with the user's trust. */
function trustFindings(path: string, trust: ProjectTrust): Finding[] {
  const keys = trust.looseningKeys.join(", ");
  if (trust.state === "not-needed") return [];
  if (trust.state === "trusted") {
    return [{ level: "info", text: `project file trusted by you, so its ${keys} apply` }];
  }
  const why = trust.state === "changed" ? "changed since you trusted it" : "not trusted";
  const store = trust.storeProblem === null
    ? ""
    : ` (the trust store ${printable(trust.storeProblem)}, so it trusts nothing)`;
  return [{
    level: "WARN",
    text: `project file ${printable(path)}: ${keys} would loosen GateGuard and are ignored: ` +
      `the file is ${why}${store}; if you have read it and want them, run ` +
      `\`gateguard trust ${printable(path)}\``,
  }];
}

/**
 * Checks the state directory is one (creating it, as the hook would) and
 * takes a file; the reasons are the hook's own (`state/state_dir.ts`).
 */
export async function stateDirFindings(dir: string): Promise<Finding[]> {
  const unusable = (reason: string): Finding[] => [{
    level: "FAIL",
    text: `state dir ${printable(dir)} cannot hold GateGuard's state: ${reason}; every call a ` +
      "gate would deny stays denied until it can; fix: make it a writable directory, or set " +
      "GATEGUARD_STATE_DIR to one",
  }];
  const problem = prepareStateDir(dir);
  if (problem !== null) return unusable(problem);
  try {
    const probe = await Deno.makeTempFile({ dir, prefix: ".doctor-", suffix: ".tmp" });
    await Deno.remove(probe);
    return [{ level: "ok", text: `state dir ${printable(dir)} is writable` }];
  } catch (err) {
    return unusable(fsErrorWords(err));
  }
}

/** Whether the transcript directory that prior-search credit reads is there. */
export async function transcriptFindings(home: string | null): Promise<Finding[]> {
  if (home === null) {
    return [{ level: "info", text: "no HOME or USERPROFILE, so no transcript directory to check" }];
  }
  const dir = joinPath(home, ".claude/projects");
  try {
    if (!(await Deno.stat(dir)).isDirectory) throw new Deno.errors.NotADirectory(dir);
    for await (const _ of Deno.readDir(dir)) break;
    return [{ level: "ok", text: `transcript dir ${dir} is readable` }];
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      return [{
        level: "info",
        text: `transcript dir ${dir} does not exist yet (Claude Code creates it)`,
      }];
    }
    return [{
      level: "FAIL",
      text: `transcript dir ${dir} cannot be read, so prior-search credit never applies; ` +
        "fix: make it a directory you can read (chmod u+rx)",
    }];
  }
}

/**
 * A settings file that registers GateGuard's PreToolUse entries should hold
 * its ConfigChange entry too (init writes both), failing closed like them.
 */
function watcherFindings(value: JsonValue, where: string): Finding[] {
  const watchers = registrationsOf(value, where, false, undefined, CONFIG_CHANGE_FORMAT.event).ours;
  if (watchers.length === 0) {
    return [{
      level: "FAIL",
      text: `${where} has no GateGuard ConfigChange entry, so a settings change made during a ` +
        "session that switches GateGuard off applies to it at once; fix: run `gateguard init`",
    }];
  }
  return watchers.flatMap((r) =>
    handlerProblems(r.handler, `${where} (ConfigChange)`).map((text) => ({
      level: "FAIL" as const,
      text,
    }))
  );
}

/** Settings files and plugins: what each registers, and any that cannot be read. */
export async function registrationFindings(
  fs: FsPort,
  ownCommand: string,
  files: Array<{ label: string; path: string; outcome: ReadOutcome }>,
  home: string | null,
  parsed: Array<[string, JsonValue]>,
): Promise<{ findings: Finding[]; registrations: Registration[] }> {
  const findings: Finding[] = [];
  const registrations: Registration[] = [];
  const describe = (
    label: string,
    path: string,
    outcome: ReadOutcome,
    plugin: boolean,
    install?: { id: string; root: string },
  ): void => {
    const where = `${label} ${printable(path)}`;
    if (outcome.kind === "absent") {
      findings.push({ level: "info", text: `${where}: not present` });
    } else if (outcome.kind === "unreadable") {
      findings.push({
        level: "FAIL",
        text: `${where} cannot be read (${outcome.why}); fix: make it a readable file`,
      });
    } else if (outcome.kind === "broken") {
      findings.push({
        level: "FAIL",
        text: `${where}:${outcome.line}:${outcome.column}: ${outcome.message}; ` +
          `Claude Code cannot use this file either; fix: correct it at line ${outcome.line}, ` +
          `column ${outcome.column}`,
      });
    } else {
      const found = registrationsOf(outcome.value, where, plugin, ownCommand);
      registrations.push(
        ...found.ours.map((r) => install ? { ...r, pluginInstall: install } : r),
      );
      const matchers = found.ours.map((r) =>
        r.matcher === undefined ? "(all tools)" : show(String(r.matcher))
      );
      findings.push({
        level: "info",
        text: `${where}: ${
          found.ours.length === 0 ? "no GateGuard entry" : `GateGuard on ${matchers.join(", ")}`
        }`,
      });
      for (const command of found.unsure) {
        findings.push({
          level: "info",
          text: `${where}: the hook command ${
            show(command)
          } names GateGuard but is not GateGuard's command, so it is not counted`,
        });
      }
      if (!plugin && found.ours.length > 0) findings.push(...watcherFindings(outcome.value, where));
    }
  };
  for (const f of files) describe(f.label, f.path, f.outcome, false);

  if (home !== null) {
    const index = joinPath(home, ".claude/plugins/installed_plugins.json");
    const installed = await readSettingsFile(fs, index);
    if (installed.kind === "parsed") {
      const disabled = disabledPlugins(parsed);
      for (const plugin of installedPlugins(installed.value)) {
        const hooksFile = joinPath(plugin.path, "hooks/hooks.json");
        const outcome = await readSettingsFile(fs, hooksFile);
        if (outcome.kind === "absent") continue;
        if (disabled.has(plugin.id)) {
          findings.push({
            level: "info",
            text: `plugin ${printable(plugin.id)} is disabled in settings`,
          });
          continue;
        }
        describe(`plugin ${printable(plugin.id)}`, hooksFile, outcome, true, {
          id: plugin.id,
          root: plugin.path,
        });
      }
    }
  }
  return { findings, registrations };
}

/** GateGuard switched off by the environment doctor runs in (env blocks are in `healthFindings`). */
export function switchedOffFindings(settings: Settings, hookEnv: HookEnv): Finding[] {
  const source = settings.sources.disabled;
  if (!settings.disabled || source.kind !== "env" || hookEnv.setBy.has(source.variable)) return [];
  return [{
    level: "FAIL",
    text:
      `${source.variable}=${
        show(hookEnv.env[source.variable] ?? "")
      } in this environment switches GateGuard off for the sessions started from it; ` +
      `fix: unset ${source.variable}`,
  }];
}

/** Everything that would keep the registered GateGuard from gating, one line per cause. */
export function healthFindings(
  parsed: ReadonlyArray<[string, JsonValue]>,
  registrations: readonly Registration[],
  lookup: ProgramLookup,
): Finding[] {
  return healthProblems(parsed, registrations, lookup).map((text) => ({ level: "FAIL", text }));
}
