/**
 * The effective settings of one hook call: the environment snapshot layered
 * over the optional project file `.gateguard.jsonc`, over the defaults.
 * Parsing happens once here so the decision core only sees typed values;
 * every value remembers where it came from (for `gateguard doctor`), and
 * every malformed value leaves a warning for stderr.
 *
 * The project file is agent-editable, so what in it loosens a gate applies
 * only once the user has trusted its exact content (`trust_rules.ts`,
 * `trust_store.ts`, `gateguard trust`); what only tightens applies at once.
 * Even trusted, it never turns off the destructive shell gate, its exempt
 * globs and its `fileGates: false` leave sensitive and hard-linked targets
 * gated, and any variable that is present in the environment beats it. Its
 * parser is loaded only when the file exists, so projects without one pay a
 * single `stat`.
 *
 * @module
 */

import {
  DEFAULT_FULL_DENIALS,
  type EnvName,
  type EnvSnapshot,
  isOffSwitch,
  isTruthy,
  parseWholeNumber,
} from "./env.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { ConfigIssue, ProjectConfig, ProjectConfigResult } from "./project_config.ts";
import { printable } from "../platform/terminal_text.ts";

/** Hook ids accepted by `ECC_DISABLED_HOOKS`. */
export const HOOK_IDS = {
  editWrite: "pre:edit-write:gateguard-fact-force",
  bash: "pre:bash:gateguard-fact-force",
  powershell: "pre:powershell:gateguard-fact-force",
} as const;

export { DEFAULT_FULL_DENIALS } from "./env.ts";

/** File name of the project file, looked up at the project root. */
export const PROJECT_CONFIG_NAME = ".gateguard.jsonc";

/** A larger project file is ignored as broken (it is meant to be a few lines). */
export const PROJECT_CONFIG_MAX_BYTES = 64 * 1024;

/** Where one effective value came from. */
export type SettingSource =
  | { kind: "env"; variable: EnvName }
  | { kind: "file" }
  | { kind: "default" };

/** The settings whose origin is tracked. */
export type SourcedSetting =
  | "disabled"
  | "disabledHooks"
  | "routineDisabled"
  | "exemptGlobs"
  | "fileExemptGlobs"
  | "fullDenials"
  | "maxDenials"
  | "extraDestructive"
  | "destructiveCommands"
  | "destructivePacks"
  | "fileGates"
  | "destructiveShell"
  | "domainText"
  | "allowDestructive"
  | "stateDir"
  | "metrics"
  | "externalContract";

/**
 * How a loaded project file stands with the user's trust: `not-needed` when
 * no key of it loosens a gate; else `trusted` (its loosening keys apply),
 * `untrusted` or `changed` since it was trusted (they are ignored).
 */
export interface ProjectTrust {
  state: "not-needed" | "trusted" | "untrusted" | "changed";
  /** The keys whose value, or part of it, loosens a gate. */
  looseningKeys: readonly string[];
  /** Why the trust store trusted nothing (a symlink, malformed, …), or null. */
  storeProblem: string | null;
}

/** What became of the project file on this call. */
export type ProjectFileStatus =
  | { state: "absent"; path: string }
  | {
    state: "loaded";
    path: string;
    unknownKeys: ConfigIssue[];
    invalid: ConfigIssue[];
    trust: ProjectTrust;
    /** Every valid value of the file, trusted or not (what applies is in the settings). */
    config: ProjectConfig;
  }
  | { state: "broken"; path: string; message: string; line: number | null; column: number | null };

/** Typed, validated settings for one call. */
export interface Settings {
  /** `ECC_GATEGUARD` off-spelling or `GATEGUARD_DISABLED=1`. */
  disabled: boolean;
  /** Hook ids listed in `ECC_DISABLED_HOOKS`. */
  disabledHooks: ReadonlySet<string>;
  /**
   * The routine shell gate is off: `GATEGUARD_BASH_ROUTINE_DISABLED` when it
   * is present, else the file's `routineShell: false`.
   */
  routineDisabled: boolean;
  /** Raw `GATEGUARD_EXEMPT_GLOBS` (parsed by the exempt module on first use). */
  exemptGlobs: string | undefined;
  /**
   * Exempt globs from the project file. Same matching as the env globs, but
   * they never exempt a sensitive or hard-linked target.
   */
  fileExemptGlobs: readonly string[];
  /** How many denials carry the full fact block. */
  fullDenials: number;
  /** The opt-in denial cap, null when unset or malformed. */
  maxDenials: number | null;
  /** Raw `GATEGUARD_BASH_EXTRA_DESTRUCTIVE` (compiled only on shell calls). */
  extraDestructive: string | undefined;
  /**
   * Literal destructive command phrases from the project file, checked with
   * `matchesDestructiveCommand` of `project_config.ts` (never as regexes).
   */
  destructiveCommands: readonly string[];
  /**
   * Destructive pack switches (`-name` off, `+name` on): the project file's
   * first, then `GATEGUARD_DESTRUCTIVE_PACKS`, so the environment wins.
   */
  destructivePacks: readonly string[];
  /**
   * First-touch file gates are on. False only by the project file, and then
   * sensitive and hard-linked targets are still gated as usual.
   */
  fileGates: boolean;
  /** The destructive shell gate is on; nothing but the off switches turns it off. */
  destructiveShell: boolean;
  /** Project text appended to every denial, or null. */
  domainText: string | null;
  /**
   * Destructive command phrases or path globs the destructive gate may let
   * through, from a trusted project file only (empty otherwise).
   */
  allowDestructive: readonly string[];
  /**
   * `"ask"`: a destructive command is asked of the user where the agent has
   * a person to answer (Claude Code) instead of denied until retried. From
   * the user file or a trusted project file; `"deny"` otherwise.
   */
  destructiveDecision: "deny" | "ask";
  /** Where session state and metrics live. */
  stateDir: string;
  /** `GATEGUARD_METRICS` is truthy. */
  metrics: boolean;
  /** `GATEGUARD_EXTERNAL_CONTRACT_QUESTION` is truthy. */
  externalContract: boolean;
  /** `CLAUDE_PROJECT_DIR` when set and non-empty. */
  projectDirEnv: string | null;
  /** The user's home directory (for `~/.claude` settings files), or null. */
  homeDir: string | null;
  /** Where each value came from. */
  sources: Readonly<Record<SourcedSetting, SettingSource>>;
  /** The project file's fate, or null when no file layer was consulted. */
  projectFile: ProjectFileStatus | null;
  /** Lines to print on stderr (malformed values, an ignored project file). */
  warnings: string[];
  /** The snapshot these settings were read from (where the control surface lies). */
  env: EnvSnapshot;
}

/**
 * The user's home directory, or null when no variable names one. A
 * from-source hook command moves `HOME` into the checkout for Deno's sake
 * and passes the real one as `GATEGUARD_HOME` (platform/permissions.ts).
 */
export function homeDir(env: EnvSnapshot): string | null {
  return env.GATEGUARD_HOME || env.HOME || env.USERPROFILE || null;
}

function nonBlank(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

function stateDirWithSource(env: EnvSnapshot): { dir: string; source: SettingSource } {
  if (nonBlank(env.GATEGUARD_STATE_DIR)) {
    return {
      dir: env.GATEGUARD_STATE_DIR,
      source: { kind: "env", variable: "GATEGUARD_STATE_DIR" },
    };
  }
  // A plugin's data directory survives plugin updates, unlike its install root.
  if (nonBlank(env.CLAUDE_PLUGIN_DATA)) {
    return { dir: env.CLAUDE_PLUGIN_DATA, source: { kind: "env", variable: "CLAUDE_PLUGIN_DATA" } };
  }
  const home = homeDir(env);
  return {
    dir: home ? `${home.replace(/[\\/]+$/, "")}/.gateguard` : ".gateguard",
    source: { kind: "default" },
  };
}

/**
 * `GATEGUARD_STATE_DIR`, else `CLAUDE_PLUGIN_DATA` (set for plugin hooks),
 * else `<home>/.gateguard`, else `.gateguard` in the process dir.
 */
export function stateDirFrom(env: EnvSnapshot): string {
  return stateDirWithSource(env).dir;
}

/** Path of the project file under a project root. */
export function projectConfigPath(projectRoot: string): string {
  const root = projectRoot.replace(/[\\/]+$/, "");
  if (root === "" && projectRoot === "") return PROJECT_CONFIG_NAME;
  return `${root}/${PROJECT_CONFIG_NAME}`;
}

const DEFAULT: SettingSource = { kind: "default" };
const FILE: SettingSource = { kind: "file" };
const fromEnv = (variable: EnvName): SettingSource => ({ kind: "env", variable });

function shortValue(raw: string): string {
  return printable(JSON.stringify(raw).slice(1, -1).slice(0, 64));
}

/**
 * The project file's domain text as it rides on denials: under a label and
 * quoted line by line, so it never reads as GateGuard's own words.
 */
export function projectNote(text: string): string {
  return [
    `Project note (from ${PROJECT_CONFIG_NAME}, not from GateGuard):`,
    ...text.split("\n").map((line) => `> ${line}`),
  ].join("\n");
}

/** The pack switches of `GATEGUARD_DESTRUCTIVE_PACKS`, in order, blanks dropped. */
export function envPackSwitches(env: EnvSnapshot): string[] {
  return (env.GATEGUARD_DESTRUCTIVE_PACKS ?? "").split(",").map((p) => p.trim())
    .filter((p) => p !== "");
}

/** Layers the environment over a validated project file (or none) over the defaults. */
function layer(
  env: EnvSnapshot,
  file: ProjectConfig,
  projectFile: ProjectFileStatus | null,
): Settings {
  const warnings: string[] = [];

  let maxDenials: number | null = null;
  let maxSource = DEFAULT;
  const rawCap = env.GATEGUARD_FACT_FORCE_MAX_DENIALS;
  if (rawCap !== undefined) {
    // A present variable decides even when malformed, so a file cap cannot
    // slip in behind a typo in the operator's setting.
    maxDenials = parseWholeNumber(rawCap);
    maxSource = fromEnv("GATEGUARD_FACT_FORCE_MAX_DENIALS");
    if (maxDenials === null) {
      warnings.push(
        `ignoring malformed GATEGUARD_FACT_FORCE_MAX_DENIALS=${
          shortValue(rawCap)
        }; the denial cap is not active.`,
      );
    }
  } else if (file.maxDenials !== undefined) {
    maxDenials = file.maxDenials;
    maxSource = FILE;
  }

  let fullDenials = DEFAULT_FULL_DENIALS;
  let fullSource = DEFAULT;
  if (env.GATEGUARD_FACT_FORCE_FULL_DENIALS !== undefined) {
    fullDenials = parseWholeNumber(env.GATEGUARD_FACT_FORCE_FULL_DENIALS) ?? DEFAULT_FULL_DENIALS;
    fullSource = fromEnv("GATEGUARD_FACT_FORCE_FULL_DENIALS");
  } else if (file.fullDenials !== undefined) {
    fullDenials = file.fullDenials;
    fullSource = FILE;
  }

  let routineDisabled = false;
  let routineSource = DEFAULT;
  if (env.GATEGUARD_BASH_ROUTINE_DISABLED !== undefined) {
    routineDisabled = isTruthy(env.GATEGUARD_BASH_ROUTINE_DISABLED);
    routineSource = fromEnv("GATEGUARD_BASH_ROUTINE_DISABLED");
  } else if (file.routineShell !== undefined) {
    routineDisabled = !file.routineShell;
    routineSource = FILE;
  }

  let disabledSource = DEFAULT;
  if (isOffSwitch(env.ECC_GATEGUARD)) disabledSource = fromEnv("ECC_GATEGUARD");
  else if (env.GATEGUARD_DISABLED === "1") disabledSource = fromEnv("GATEGUARD_DISABLED");
  else if (env.ECC_GATEGUARD !== undefined) disabledSource = fromEnv("ECC_GATEGUARD");
  else if (env.GATEGUARD_DISABLED !== undefined) disabledSource = fromEnv("GATEGUARD_DISABLED");

  const envOr = (variable: EnvName): SettingSource =>
    env[variable] !== undefined ? fromEnv(variable) : DEFAULT;
  const fileOr = (present: boolean): SettingSource => present ? FILE : DEFAULT;
  const state = stateDirWithSource(env);

  return {
    disabled: isOffSwitch(env.ECC_GATEGUARD) || env.GATEGUARD_DISABLED === "1",
    disabledHooks: new Set(
      (env.ECC_DISABLED_HOOKS ?? "").split(",").map((s) => s.trim()).filter((s) => s !== ""),
    ),
    routineDisabled,
    exemptGlobs: env.GATEGUARD_EXEMPT_GLOBS,
    fileExemptGlobs: file.exemptGlobs ?? [],
    fullDenials,
    maxDenials,
    extraDestructive: env.GATEGUARD_BASH_EXTRA_DESTRUCTIVE,
    destructiveCommands: file.destructiveCommands ?? [],
    destructivePacks: [...(file.destructivePacks ?? []), ...envPackSwitches(env)],
    fileGates: file.fileGates ?? true,
    destructiveShell: true,
    domainText: file.domainText === undefined ? null : projectNote(file.domainText),
    allowDestructive: file.allowDestructive ?? [],
    destructiveDecision: file.destructiveDecision ?? "deny",
    stateDir: state.dir,
    metrics: isTruthy(env.GATEGUARD_METRICS),
    externalContract: isTruthy(env.GATEGUARD_EXTERNAL_CONTRACT_QUESTION),
    projectDirEnv: env.CLAUDE_PROJECT_DIR && env.CLAUDE_PROJECT_DIR !== ""
      ? env.CLAUDE_PROJECT_DIR
      : null,
    homeDir: homeDir(env),
    sources: {
      disabled: disabledSource,
      disabledHooks: envOr("ECC_DISABLED_HOOKS"),
      routineDisabled: routineSource,
      exemptGlobs: envOr("GATEGUARD_EXEMPT_GLOBS"),
      fileExemptGlobs: fileOr(file.exemptGlobs !== undefined),
      fullDenials: fullSource,
      maxDenials: maxSource,
      extraDestructive: envOr("GATEGUARD_BASH_EXTRA_DESTRUCTIVE"),
      destructiveCommands: fileOr(file.destructiveCommands !== undefined),
      destructivePacks: env.GATEGUARD_DESTRUCTIVE_PACKS !== undefined
        ? fromEnv("GATEGUARD_DESTRUCTIVE_PACKS")
        : fileOr(file.destructivePacks !== undefined),
      fileGates: fileOr(file.fileGates !== undefined),
      destructiveShell: fileOr(file.destructiveShell !== undefined),
      domainText: fileOr(file.domainText !== undefined),
      allowDestructive: fileOr(file.allowDestructive !== undefined),
      stateDir: state.source,
      metrics: envOr("GATEGUARD_METRICS"),
      externalContract: envOr("GATEGUARD_EXTERNAL_CONTRACT_QUESTION"),
    },
    projectFile,
    warnings,
    env,
  };
}

/** Derives the settings of one call from the environment alone (no project file). */
export function settingsFrom(env: EnvSnapshot): Settings {
  return layer(env, {}, null);
}

function broken(
  env: EnvSnapshot,
  path: string,
  message: string,
  at: { line: number; column: number } | null,
): Settings {
  const settings = layer(env, {}, {
    state: "broken",
    path,
    message,
    line: at?.line ?? null,
    column: at?.column ?? null,
  });
  const where = at ? `${at.line}:${at.column}: ` : "";
  settings.warnings.push(
    printable(
      `ignoring ${path} (${where}${message}); GateGuard uses its environment settings and defaults.`,
    ),
  );
  return settings;
}

/**
 * The settings of one call with the project file at `projectRoot` layered
 * under the environment. A missing file costs one `stat`; an unreadable or
 * broken file is ignored with one warning, so it can never switch a gate
 * off. Never throws.
 */
export async function resolveSettings(
  env: EnvSnapshot,
  projectRoot: string,
  fs: FsPort,
): Promise<Settings> {
  return withUserConfig(await projectSettings(env, projectRoot, fs), fs);
}

/** Name of the user file in the state directory. */
export const USER_CONFIG_NAME = "config.jsonc";

/** The keys the user file may hold; every one of them can loosen the destructive gate. */
export const USER_CONFIG_KEYS: readonly string[] = ["allowDestructive", "destructiveDecision"];

/**
 * Adds the user file `<state dir>/config.jsonc` to `settings`: its
 * `allowDestructive` entries join the project file's, and its
 * `destructiveDecision: "ask"` applies. The agent cannot write the file (it
 * is a row of the control surface), so it needs no trust. A missing file
 * costs one `stat`; a broken one is ignored with one warning and loosens
 * nothing.
 */
async function withUserConfig(settings: Settings, fs: FsPort): Promise<Settings> {
  const path = `${settings.stateDir.replace(/[\\/]+$/, "")}/${USER_CONFIG_NAME}`;
  const st = fs.stat(path);
  if (!st.ok && (st.code === "ENOENT" || st.code === "ENOTDIR")) return settings;
  const ignore = (why: string): Settings => {
    settings.warnings.push(printable(`ignoring ${path} (${why}); it loosens nothing.`));
    return settings;
  };
  if (!st.ok) return ignore(`cannot be read (${st.code})`);
  if (!st.isFile) return ignore("is not a regular file");
  if (st.size > PROJECT_CONFIG_MAX_BYTES) {
    return ignore(`is larger than ${PROJECT_CONFIG_MAX_BYTES / 1024} KiB`);
  }
  const text = await fs.readTextBoundedAsync(path, PROJECT_CONFIG_MAX_BYTES);
  if (text === null) return ignore("cannot be read");
  const { parseProjectConfig } =
    await (import(new URL("./project_config.ts", import.meta.url).href) as Promise<
      typeof import("./project_config.ts")
    >);
  const result = parseProjectConfig(text);
  if (!result.ok) {
    return ignore(`${result.error.line}:${result.error.column}: ${result.error.message}`);
  }
  const others = Object.keys(result.config).filter((key) => !USER_CONFIG_KEYS.includes(key));
  const unknown = [...others, ...result.unknownKeys.map((issue) => issue.key)];
  if (unknown.length > 0) {
    settings.warnings.push(
      printable(
        `ignoring ${unknown.join(", ")} in ${path}: the user file holds only ${
          USER_CONFIG_KEYS.join(" and ")
        }.`,
      ),
    );
  }
  if (result.invalid.length > 0) {
    settings.warnings.push(
      printable(
        `ignoring invalid entries of ${path}: ${
          [...new Set(result.invalid.map((issue) => issue.key.replace(/\[\d+\]$/, "")))].join(", ")
        }.`,
      ),
    );
  }
  const user = result.config;
  return {
    ...settings,
    allowDestructive: [...settings.allowDestructive, ...(user.allowDestructive ?? [])],
    destructiveDecision: user.destructiveDecision === "ask" ? "ask" : settings.destructiveDecision,
  };
}

/** The settings of one call with the project file layered under the environment. */
async function projectSettings(
  env: EnvSnapshot,
  projectRoot: string,
  fs: FsPort,
): Promise<Settings> {
  const path = projectConfigPath(projectRoot);
  const st = fs.stat(path);
  if (!st.ok && (st.code === "ENOENT" || st.code === "ENOTDIR")) {
    return layer(env, {}, { state: "absent", path });
  }
  if (!st.ok) return broken(env, path, `cannot be read (${st.code})`, null);
  if (!st.isFile) return broken(env, path, "is not a regular file", null);
  if (st.size > PROJECT_CONFIG_MAX_BYTES) {
    return broken(env, path, `is larger than ${PROJECT_CONFIG_MAX_BYTES / 1024} KiB`, null);
  }
  const text = await fs.readTextBoundedAsync(path, PROJECT_CONFIG_MAX_BYTES);
  if (text === null) return broken(env, path, "cannot be read", null);
  let result: ProjectConfigResult;
  try {
    const { parseProjectConfig } =
      await (import(new URL("./project_config.ts", import.meta.url).href) as Promise<
        typeof import("./project_config.ts")
      >);
    result = parseProjectConfig(text);
  } catch {
    return broken(env, path, "cannot be parsed", null);
  }
  if (!result.ok) return broken(env, path, result.error.message, result.error);
  const { config, trust } = await trusted(env, fs, path, text, result.config);
  const settings = layer(env, config, {
    state: "loaded",
    path,
    unknownKeys: result.unknownKeys,
    invalid: result.invalid,
    trust,
    config: result.config,
  });
  if (trust.state === "untrusted" || trust.state === "changed") {
    settings.warnings.push(printable(untrustedLine(path, trust)));
  }
  if (result.invalid.length > 0) {
    // Entries of one list are named once, by the list's key.
    const keys = [...new Set(result.invalid.map((issue) => issue.key.replace(/\[\d+\]$/, "")))];
    settings.warnings.push(
      printable(
        `ignoring invalid entries of ${path}: ${
          keys.join(", ")
        } (run gateguard doctor for details).`,
      ),
    );
  }
  return settings;
}

/**
 * The part of a parsed project file that applies: all of it when nothing in
 * it loosens a gate or the user trusted this exact text, else only what
 * tightens. The trust store is read only for a file that needs it.
 */
async function trusted(
  env: EnvSnapshot,
  fs: FsPort,
  path: string,
  text: string,
  config: ProjectConfig,
): Promise<{ config: ProjectConfig; trust: ProjectTrust }> {
  const { splitByTrust } =
    await (import(new URL("./trust_rules.ts", import.meta.url).href) as Promise<
      typeof import("./trust_rules.ts")
    >);
  const split = splitByTrust(config);
  if (split.looseningKeys.length === 0) {
    return { config, trust: { state: "not-needed", looseningKeys: [], storeProblem: null } };
  }
  const { projectFileTrust } =
    await (import(new URL("./trust_store.ts", import.meta.url).href) as Promise<
      typeof import("./trust_store.ts")
    >);
  const found = await projectFileTrust(fs, stateDirFrom(env), path, text);
  const trust = { ...found, looseningKeys: split.looseningKeys };
  return { config: found.state === "trusted" ? config : split.untrusted, trust };
}

/** The stderr line of a file whose loosening keys wait for the user's trust. */
export function untrustedLine(path: string, trust: ProjectTrust): string {
  const why = trust.state === "changed" ? "changed since the user trusted it" : "not trusted";
  const store = trust.storeProblem === null
    ? ""
    : ` (the trust store ${trust.storeProblem}, so it trusts nothing)`;
  return `ignoring ${trust.looseningKeys.join(", ")} of ${path}: the file is ${why}${store}; ` +
    `the user can run \`gateguard trust ${path}\` after reading it.`;
}
