/**
 * `gateguard doctor`: checks an installation and prints one line per
 * finding, each problem with its fix on the same line. It covers the
 * build, the effective configuration and where every value came from, the
 * project file, the state directory, every place GateGuard is registered
 * (settings files and installed plugins), whether those registrations reach
 * all six gated tools exactly once, and the transcript directory that
 * prior-search credit reads. Exit code 1 when anything is wrong.
 *
 * @module
 */

import { ENV_VARIABLES, type EnvName, type EnvSnapshot, parseWholeNumber } from "../config/env.ts";
import {
  homeDir,
  resolveSettings,
  type Settings,
  type SettingSource,
  type SourcedSetting,
} from "../config/settings.ts";
import { denoFs, type FsPort } from "../platform/fs_port.ts";
import { type JsonValue, parseJsonc, toValue } from "../config/jsonc.ts";
import { PROJECT_CONFIG_KEYS } from "../config/project_config.ts";
import { registrationCommand } from "../setup/command.ts";
import {
  GATED_TOOLS,
  handlerKind,
  matcherCovers,
  settingsFiles,
} from "../setup/claude_settings.ts";
import { cliProjectRoot } from "./project_root.ts";
import { versionLine } from "../version.ts";
import { BUILD_INFO } from "../build_info.ts";

/** How a finding reads: fine, for information, or a problem (exit 1). */
export type Level = "ok" | "info" | "FAIL";

/** One line of the report. */
export interface Finding {
  level: Level;
  text: string;
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
}

/** Largest settings or plugin file read. */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The GateGuard handlers registered under `hooks.PreToolUse` of a parsed file. */
export function registrationsOf(
  value: JsonValue,
  origin: string,
  plugin: boolean,
  ownCommand: string,
): Registration[] {
  const hooks = isObject(value) ? value.hooks : undefined;
  const pre = isObject(hooks) ? hooks.PreToolUse : undefined;
  if (!Array.isArray(pre)) return [];
  const found: Registration[] = [];
  for (const group of pre) {
    if (!isObject(group) || !Array.isArray(group.hooks)) continue;
    for (const handler of group.hooks) {
      if (handlerKind(handler, ownCommand) === "ours") {
        const command = (handler as Record<string, JsonValue>).command as string;
        found.push({ origin, plugin, matcher: group.matcher, command });
      }
    }
  }
  return found;
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
  return findings;
}

type ReadOutcome =
  | { kind: "absent" }
  | { kind: "unreadable"; why: string }
  | { kind: "broken"; line: number; column: number; message: string }
  | { kind: "parsed"; value: JsonValue };

function readJsonFile(fs: FsPort, path: string): ReadOutcome {
  const st = fs.stat(path);
  if (!st.ok && st.code === "ENOENT") return { kind: "absent" };
  if (!st.ok) return { kind: "unreadable", why: st.code };
  if (!st.isFile) return { kind: "unreadable", why: "not a regular file" };
  const text = fs.readTextBounded(path, MAX_SETTINGS_BYTES);
  if (text === null) return { kind: "unreadable", why: "unreadable or larger than 4 MiB" };
  const parsed = parseJsonc(text, { allowDuplicateKeys: true });
  if (!parsed.ok) return { kind: "broken", ...parsed.error };
  return { kind: "parsed", value: toValue(parsed.root) };
}

/** The environment a hook would see, and which settings file set each variable. */
export interface HookEnv {
  env: EnvSnapshot;
  setBy: Map<EnvName, string>;
}

const KNOWN_VARIABLES: ReadonlySet<string> = new Set(ENV_VARIABLES);

/** Layers the `env` blocks of the settings files (user, project, local) over the shell's. */
function hookEnvironment(shell: EnvSnapshot, parsed: Array<[string, JsonValue]>): HookEnv {
  const env: Partial<Record<EnvName, string>> = { ...shell };
  const setBy = new Map<EnvName, string>();
  for (const [path, value] of parsed) {
    const block = isObject(value) ? value.env : undefined;
    if (!isObject(block)) continue;
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
  const plugins = isObject(value) ? value.plugins : undefined;
  if (!isObject(plugins)) return [];
  const found: Array<{ id: string; path: string }> = [];
  for (const [id, entry] of Object.entries(plugins)) {
    for (const install of Array.isArray(entry) ? entry : [entry]) {
      if (isObject(install) && typeof install.installPath === "string") {
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
    const enabled = isObject(value) ? value.enabledPlugins : undefined;
    if (!isObject(enabled)) continue;
    for (const [id, on] of Object.entries(enabled)) {
      if (typeof on === "boolean") state.set(id, on);
    }
  }
  return new Set([...state].filter(([, on]) => !on).map(([id]) => id));
}

function unquote(word: string): string {
  return word.replace(/^(["'])(.*)\1$/, "$2");
}

/** The program a hook command starts, when it is a literal absolute path. */
function programPath(command: string): string | null {
  const first = command.match(/^\s*("[^"]*"|'[^']*'|\S+)/)?.[1];
  if (!first) return null;
  const program = unquote(first);
  if (program.includes("$")) return null;
  return program.startsWith("/") || /^[A-Za-z]:[\\/]/.test(program) ? program : null;
}

function show(value: string): string {
  return JSON.stringify(value);
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

function environmentFindings(hookEnv: HookEnv): Finding[] {
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
      text:
        `project file ${status.path}: none (optional; \`gateguard init --config\` writes a starter)`,
    }];
  }
  if (status.state === "broken") {
    const at = status.line !== null ? `:${status.line}:${status.column}` : "";
    return [{
      level: "FAIL",
      text:
        `project file ${status.path}${at}: ${status.message}; the hook ignores the whole file ` +
        `until it is fixed; fix: correct it${
          status.line !== null ? ` at line ${status.line}, column ${status.column}` : ""
        }`,
    }];
  }
  const findings: Finding[] = [{ level: "ok", text: `project file ${status.path}: loaded` }];
  for (const issue of status.unknownKeys) {
    findings.push({
      level: "FAIL",
      text: `project file ${status.path}:${issue.line}:${issue.column}: unknown key ` +
        `${show(issue.key)} is ignored; fix: remove it or use one of ${
          PROJECT_CONFIG_KEYS.join(", ")
        }`,
    });
  }
  for (const issue of status.invalid) {
    findings.push({
      level: "FAIL",
      text: `project file ${status.path}:${issue.line}:${issue.column}: ${show(issue.key)}: ` +
        `${issue.message}, so it is ignored; fix: correct the value (docs/configuration.md)`,
    });
  }
  return findings;
}

/** Checks the state directory exists (creating it, as the hook would) and takes a file. */
async function stateDirFindings(dir: string): Promise<Finding[]> {
  try {
    const info = await Deno.stat(dir).catch(async (err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      await Deno.mkdir(dir, { recursive: true });
      return await Deno.stat(dir);
    });
    if (!info.isDirectory) {
      return [{
        level: "FAIL",
        text: `state dir ${dir} is not a directory, so no gate state can be kept; ` +
          "fix: move that file away, or point GATEGUARD_STATE_DIR at a writable directory",
      }];
    }
    const probe = await Deno.makeTempFile({ dir, prefix: ".doctor-", suffix: ".tmp" });
    await Deno.remove(probe);
    return [{ level: "ok", text: `state dir ${dir} is writable` }];
  } catch (err) {
    return [{
      level: "FAIL",
      text: `state dir ${dir} is not usable (${(err as Error).name}); ` +
        "fix: make it a writable directory, or set GATEGUARD_STATE_DIR to one",
    }];
  }
}

async function transcriptFindings(home: string | null): Promise<Finding[]> {
  if (home === null) {
    return [{ level: "info", text: "no HOME or USERPROFILE, so no transcript directory to check" }];
  }
  const dir = `${home.replace(/[\\/]+$/, "")}/.claude/projects`;
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

/** Settings files and plugins: what each registers, and any that cannot be read. */
function registrationFindings(
  fs: FsPort,
  ownCommand: string,
  files: Array<{ label: string; path: string; outcome: ReadOutcome }>,
  home: string | null,
  parsed: Array<[string, JsonValue]>,
): { findings: Finding[]; registrations: Registration[] } {
  const findings: Finding[] = [];
  const registrations: Registration[] = [];
  const describe = (label: string, path: string, outcome: ReadOutcome, plugin: boolean): void => {
    if (outcome.kind === "absent") {
      findings.push({ level: "info", text: `${label} ${path}: not present` });
    } else if (outcome.kind === "unreadable") {
      findings.push({
        level: "FAIL",
        text: `${label} ${path} cannot be read (${outcome.why}); fix: make it a readable file`,
      });
    } else if (outcome.kind === "broken") {
      findings.push({
        level: "FAIL",
        text: `${label} ${path}:${outcome.line}:${outcome.column}: ${outcome.message}; ` +
          `Claude Code cannot use this file either; fix: correct it at line ${outcome.line}, ` +
          `column ${outcome.column}`,
      });
    } else {
      const found = registrationsOf(outcome.value, `${label} ${path}`, plugin, ownCommand);
      registrations.push(...found);
      const matchers = found.map((r) =>
        r.matcher === undefined ? "(all tools)" : show(String(r.matcher))
      );
      findings.push({
        level: "info",
        text: `${label} ${path}: ${
          found.length === 0 ? "no GateGuard entry" : `GateGuard on ${matchers.join(", ")}`
        }`,
      });
    }
  };
  for (const f of files) describe(f.label, f.path, f.outcome, false);

  if (home !== null) {
    const index = `${home.replace(/[\\/]+$/, "")}/.claude/plugins/installed_plugins.json`;
    const installed = readJsonFile(fs, index);
    if (installed.kind === "parsed") {
      const disabled = disabledPlugins(parsed);
      for (const plugin of installedPlugins(installed.value)) {
        const hooksFile = `${plugin.path.replace(/[\\/]+$/, "")}/hooks/hooks.json`;
        const outcome = readJsonFile(fs, hooksFile);
        if (outcome.kind === "absent") continue;
        if (disabled.has(plugin.id)) {
          findings.push({ level: "info", text: `plugin ${plugin.id} is disabled in settings` });
          continue;
        }
        describe(`plugin ${plugin.id}`, hooksFile, outcome, true);
      }
    }
  }
  return { findings, registrations };
}

function commandFindings(registrations: readonly Registration[], fs: FsPort): Finding[] {
  const findings: Finding[] = [];
  for (const command of new Set(registrations.map((r) => r.command))) {
    const program = programPath(command);
    if (program !== null && !fs.stat(program).ok) {
      findings.push({
        level: "FAIL",
        text: `registered command ${show(program)} does not exist, so the hook cannot run; ` +
          "fix: run `gateguard init` again from the installed binary",
      });
    }
  }
  return findings;
}

/** Usage text of `gateguard doctor`. */
export const DOCTOR_USAGE = `Usage: gateguard doctor

Checks the GateGuard installation: the effective configuration and where each
value comes from, the project file, the state directory, the Claude Code
settings files and plugins that register GateGuard, and the transcript
directory. Prints one line per finding; exits 1 when something needs fixing,
with the fix on the same line.`;

/** Runs `gateguard doctor`; returns the exit code. */
export async function main(args: string[], env: EnvSnapshot): Promise<number> {
  for (const arg of args) {
    if (arg === "--help" || arg === "-h") {
      console.log(DOCTOR_USAGE);
      return 0;
    }
    console.error(`gateguard doctor: unknown option '${arg.slice(0, 80)}'\n${DOCTOR_USAGE}`);
    return 2;
  }
  const fs = denoFs;
  const windows = Deno.build.os === "windows";
  const execPath = Deno.execPath();
  const home = homeDir(env);
  const projectRoot = cliProjectRoot(env);

  const files = settingsFiles(projectRoot, home).map((f) => ({
    label: `${f.scope} settings`,
    path: f.path,
    outcome: readJsonFile(fs, f.path),
  }));
  const parsed: Array<[string, JsonValue]> = files.flatMap((f) =>
    f.outcome.kind === "parsed" ? [[f.path, f.outcome.value] as [string, JsonValue]] : []
  );
  const hookEnv = hookEnvironment(env, parsed);
  const settings = await resolveSettings(hookEnv.env, projectRoot, fs);
  const ownCommand = registrationCommand(execPath, import.meta.url, windows);
  const registered = registrationFindings(fs, ownCommand, files, home, parsed);

  const sections: Array<[string, Finding[]]> = [
    [
      versionLine(BUILD_INFO, Deno.build.target),
      [
        {
          level: "info",
          text: `this build registers: ${ownCommand}`,
        },
        { level: "info", text: `project root ${projectRoot}` },
        ...(settings.disabled
          ? [{
            level: "info" as const,
            text: "GateGuard is switched off for sessions with this environment",
          }]
          : []),
      ],
    ],
    [
      "Configuration (environment over project file over defaults)",
      [
        ...configurationFindings(settings, hookEnv),
        ...environmentFindings(hookEnv),
        ...projectFileFindings(settings),
      ],
    ],
    ["State", await stateDirFindings(settings.stateDir)],
    [
      "Registration",
      [
        ...registered.findings,
        ...coverageFindings(registered.registrations),
        ...commandFindings(registered.registrations, fs),
      ],
    ],
    ["Transcripts", await transcriptFindings(home)],
  ];

  let problems = 0;
  const out: string[] = [];
  for (const [title, findings] of sections) {
    out.push(title);
    for (const f of findings) {
      if (f.level === "FAIL") problems++;
      out.push(`  ${f.level.padEnd(4)}  ${f.text}`);
    }
  }
  out.push(
    problems === 0
      ? "No problems found."
      : `${problems} problem${problems === 1 ? "" : "s"} found.`,
  );
  console.log(out.join("\n"));
  return problems === 0 ? 0 : 1;
}
