/**
 * `gateguard doctor`: checks an installation and prints one line per
 * finding, each problem with its fix on the same line. It covers the
 * build, the effective configuration and where every value came from, the
 * project file, the state directory, every place GateGuard is registered
 * (settings files and installed plugins), whether those registrations reach
 * all six gated tools exactly once, and the transcript directory that
 * prior-search credit reads. Each registered command is also run once with
 * a probe payload whose right answer is a GateGuard denial (setup/probe.ts),
 * so a registration that cannot start or answers wrongly shows here. Exit
 * code 1 when anything is wrong.
 *
 * @module
 */

import { configuresGateGuard, ENV_VARIABLES, type EnvSnapshot } from "../config/env.ts";
import { agentEnvFiles, envFilesNaming } from "../config/agent_env_files.ts";
import { movingVariablesIn } from "../setup/env_file_weakening.ts";
import { homeDir, resolveSettings } from "../config/settings.ts";
import { denoFs } from "../platform/fs_port.ts";
import type { JsonValue } from "../config/jsonc.ts";
import { programPaths, registrationCommand } from "../setup/command.ts";
import { bundleState } from "../setup/bundle_state.ts";
import { BUNDLE_ENTRY } from "../platform/permissions.ts";
import { printable } from "../platform/terminal_text.ts";
import { settingsFiles } from "../setup/claude_settings.ts";
import { findOnPath } from "../setup/health.ts";
import { programState, readSettingsFile } from "../setup/settings_io.ts";
import {
  configurationFindings,
  coverageFindings,
  environmentFindings,
  type Finding,
  healthFindings,
  hookEnvironment,
  projectFileFindings,
  registrationFindings,
  stateDirFindings,
  switchedOffFindings,
  transcriptFindings,
} from "../setup/claude_doctor.ts";
import {
  neighbourFindings,
  packSwitchFindings,
  switchSpellingFindings,
} from "../setup/setting_findings.ts";
import { cliProjectRoot } from "./project_root.ts";
import type { Registration } from "../setup/claude_settings.ts";
import type { AgentCommand } from "../setup/agent_doctor.ts";
import type { ProbeTarget } from "../setup/probe.ts";
import type { ProgramLookup } from "../setup/health.ts";
import { versionLine } from "../version.ts";
import { BUILD_INFO } from "../build_info.ts";

/** Usage text of `gateguard doctor`. */
export const DOCTOR_USAGE = `Usage: gateguard doctor

Checks the GateGuard installation: the effective configuration and where each
value comes from, the project file, the state directory, the Claude Code
settings files and plugins that register GateGuard, and the transcript
directory. Prints one line per finding; exits 1 when something needs fixing,
with the fix on the same line.`;

/**
 * The files of GateGuard's control surface that exist here, one line each
 * (control/surface.ts): what the self-protection rule guards.
 */
async function surfaceFindings(
  env: EnvSnapshot,
  projectRoot: string,
  execPath: string,
  windows: boolean,
): Promise<Finding[]> {
  const { presentSurfaceRows } =
    await (import(new URL("../control/surface.ts", import.meta.url).href) as Promise<
      typeof import("../control/surface.ts")
    >);
  const present = presentSurfaceRows({
    env,
    projectRoot,
    processCwd: Deno.cwd(),
    program: programPaths(execPath, import.meta.url, windows),
    fs: denoFs,
    os: Deno.build.os,
  });
  return present.map(({ row, path }) => ({
    level: "info",
    text: `${row.id} (${row.kind}): ${printable(path)}`,
  }));
}

/**
 * The `.env` files Gemini CLI or Codex CLI would load here that name
 * GateGuard's variables (`config/agent_env_files.ts`): under those agents
 * the hook ignores such a setting, since the agent may have written it.
 * Then those that name a variable moving what GateGuard reads or how it
 * starts (`setup/env_file_weakening.ts`), which it cannot ignore.
 */
function envFileFindings(env: EnvSnapshot, projectRoot: string): Finding[] {
  const names = ENV_VARIABLES.filter(configuresGateGuard);
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const agent of ["gemini", "codex"]) {
    for (const found of envFilesNaming(agent, projectRoot, env, denoFs, names)) {
      if (seen.has(found.file)) continue;
      seen.add(found.file);
      out.push({
        level: "WARN",
        text: `${printable(found.file)} sets ${found.names.join(", ")}; Gemini CLI and Codex ` +
          "CLI load it into the environment their hooks inherit, so the hook ignores it there " +
          "(the agent may have written it): set these where the agent is started",
      });
    }
  }
  for (const agent of ["gemini", "codex"]) {
    for (const file of agentEnvFiles(agent, projectRoot, env)) {
      if (seen.has(`runtime:${file}`)) continue;
      seen.add(`runtime:${file}`);
      const text = denoFs.readTextBounded(file, MAX_ENV_READ);
      const names = text === null ? [] : movingVariablesIn(text);
      if (names.length === 0) continue;
      out.push({
        level: "WARN",
        text: `${printable(file)} sets ${names.join(", ")}; Gemini CLI and Codex CLI load it ` +
          "into the environment of every hook they run, where it moves what GateGuard reads " +
          "or how it starts: make sure you set it yourself",
      });
    }
  }
  return out;
}

/** Largest `.env` file doctor reads for runtime variables. */
const MAX_ENV_READ = 256 * 1024;

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

  const files = await Promise.all(
    settingsFiles(projectRoot, home).map(async (f) => ({
      label: `${f.scope} settings`,
      path: f.path,
      outcome: await readSettingsFile(fs, f.path),
    })),
  );
  const parsed: Array<[string, JsonValue]> = files.flatMap((f) =>
    f.outcome.kind === "parsed" ? [[f.path, f.outcome.value] as [string, JsonValue]] : []
  );
  const hookEnv = hookEnvironment(env, parsed);
  const settings = await resolveSettings(hookEnv.env, projectRoot, fs);
  const ownCommand = registrationCommand(execPath, import.meta.url, windows);
  const registered = await registrationFindings(fs, ownCommand, files, home, parsed);
  const lookup = {
    state: programState,
    onPath: (name: string) => findOnPath(name, env.PATH, windows, programState, projectRoot),
  };

  const { gatherPlugins, hashFileBytes, pluginFindings } =
    await (import(new URL("../setup/plugin_doctor.ts", import.meta.url).href) as Promise<
      typeof import("../setup/plugin_doctor.ts")
    >);
  const plugins = pluginFindings(
    await gatherPlugins({ fs, hashFile: hashFileBytes, windows }, home, parsed),
    { denoOnPath: lookup.onPath("deno") !== null, windows },
  );

  const probes = await probeRegistrations(registered.registrations, {
    projectRoot,
    home,
    path: env.PATH,
    lookup,
  }, windows);

  const sections: Array<[string, Finding[]]> = [
    [
      versionLine(BUILD_INFO, Deno.build.target),
      [
        {
          level: "info",
          text: `this build registers: ${ownCommand}`,
        },
        ...await bundleFindings(programPaths(execPath, import.meta.url, windows).checkout),
        { level: "info", text: `project root ${projectRoot}` },
        ...switchedOffFindings(settings, hookEnv),
      ],
    ],
    [
      "Configuration (environment over project file over defaults)",
      [
        ...configurationFindings(settings, hookEnv),
        ...environmentFindings(hookEnv),
        ...projectFileFindings(settings),
        ...switchSpellingFindings(hookEnv),
        ...packSwitchFindings(settings, hookEnv),
        ...envFileFindings(hookEnv.env, projectRoot),
      ],
    ],
    ["State", await stateDirFindings(settings.stateDir)],
    [
      "Registration",
      [
        ...registered.findings,
        ...plugins,
        ...coverageFindings(registered.registrations),
        ...healthFindings(parsed, registered.registrations, lookup),
        ...neighbourFindings(parsed, settings.stateDir, home),
        ...probes,
      ],
    ],
    ["Transcripts", await transcriptFindings(home)],
  ];
  sections.push([
    "Control surface (files whose change could switch GateGuard off)",
    await surfaceFindings(hookEnv.env, projectRoot, execPath, windows),
  ]);
  const { agentCommands, agentFindings } =
    await (import(new URL("../setup/agent_doctor.ts", import.meta.url).href) as Promise<
      typeof import("../setup/agent_doctor.ts")
    >);
  const agents = [
    ...await agentFindings(fs, projectRoot, home, ownCommand),
    ...await probeAgents(
      await agentCommands(fs, projectRoot, home, ownCommand),
      { projectRoot, home, path: env.PATH, lookup },
      windows,
    ),
  ];
  if (agents.length > 0) sections.push(["Other agents", agents]);

  let problems = 0;
  const out: string[] = [];
  for (const [title, findings] of sections) {
    out.push(title);
    for (const f of findings) {
      // A WARN is worth a look but not a failed check.
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

/** Where the probes run and how they find programs. */
interface ProbeWhere {
  projectRoot: string;
  home: string | null;
  path: string | undefined;
  lookup: ProgramLookup;
}

/**
 * Runs each target with doctor's probe (`setup/probe.ts`), each in a private
 * state directory removed afterwards. The agents run hook commands through a
 * POSIX shell there; on Windows the probe is not run.
 */
async function probe(
  targets: (probe: typeof import("../setup/probe.ts")) => ProbeTarget[],
  where: ProbeWhere,
  windows: boolean,
): Promise<Finding[]> {
  const module = await (import(new URL("../setup/probe.ts", import.meta.url).href) as Promise<
    typeof import("../setup/probe.ts")
  >);
  const list = targets(module);
  if (list.length === 0) return [];
  if (windows) return [{ level: "info", text: "registered commands are not test-run on Windows" }];
  const scratch = await Deno.makeTempDir({ prefix: "gateguard-doctor-" });
  try {
    let n = 0;
    return await module.probeTargets(list, {
      ...where,
      stateDir: async () => {
        const dir = `${scratch}/state-${n++}`;
        await Deno.mkdir(dir);
        return dir;
      },
      run: module.runProbe,
    });
  } finally {
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

/** The Claude Code registrations, probed. */
function probeRegistrations(
  registrations: readonly Registration[],
  where: ProbeWhere,
  windows: boolean,
): Promise<Finding[]> {
  return probe((m) => m.claudeTargets(registrations), where, windows);
}

/** The other agents' registered commands, probed with each agent's own payload. */
function probeAgents(
  commands: readonly AgentCommand[],
  where: ProbeWhere,
  windows: boolean,
): Promise<Finding[]> {
  return probe(
    (m) =>
      commands.map((c) => ({
        agent: c.agent,
        client: c.title,
        command: c.command,
        origins: [`${c.title} ${c.path}`],
        timeoutSeconds: m.DEFAULT_PROBE_TIMEOUT_SECONDS,
        failsClosed: c.failsClosed,
        fix: `fix: run \`gateguard init --agent ${c.agent}\` again from the installed binary`,
      })),
    where,
    windows,
  );
}

/**
 * What a from-source checkout's bundle says: the registered command runs it,
 * so a missing one cannot start and one built from other sources (a `git
 * pull` without a rebuild) runs the code of before. Nothing for a binary.
 */
async function bundleFindings(checkout: string | null): Promise<Finding[]> {
  if (checkout === null) return [];
  const entry = `${checkout}/${BUNDLE_ENTRY}`;
  const fix = "fix: run `deno task bundle` in the checkout (any `deno task gateguard` " +
    "command rebuilds it first)";
  switch (await bundleState(checkout)) {
    case "current":
      return [{ level: "ok", text: `the bundle ${entry} is built from the checkout's sources` }];
    case "stale":
      return [{
        level: "WARN",
        text: `the bundle ${entry} was built from other sources than the checkout holds, so the ` +
          `hook runs the code of before; ${fix}`,
      }];
    case "missing":
      return [{
        level: "FAIL",
        text: `the bundle ${entry} is missing, so the registered command cannot start; ${fix}`,
      }];
  }
}
