/**
 * The `.env` files an agent loads into its own environment when it starts,
 * which every hook it runs then inherits: Gemini CLI reads the first of
 * `.gemini/.env` and `.env` from its folder upwards, then `~/.gemini/.env`
 * and `~/.env` (0.61.0); Codex CLI reads `$CODEX_HOME/.env` and a `.env`
 * from its folder upwards. The agent can write such a file, so a GateGuard
 * variable that one of them defines could be the agent's own doing: the
 * hook ignores it, and the user sets it where the agent is started instead.
 *
 * A variable counts as defined when its name appears as a word anywhere in
 * a candidate file, whatever the syntax around it (dotenv reads `export`,
 * quotes, `KEY: value` and multi-line values): reading more than dotenv
 * does only ever ignores more.
 *
 * @module
 */

import { configuresGateGuard, type EnvName, type EnvSnapshot } from "./env.ts";
import { homeDir } from "./settings.ts";
import type { FsPort } from "../platform/fs_port.ts";

/** Where one agent looks for `.env` files: names tried in each folder upwards, and fixed files. */
interface EnvFileSearch {
  /** Names tried in the agent's folder and every folder above it. */
  upwards: readonly string[];
  /** Files under the agent's homes, given the environment. */
  homes: (env: EnvSnapshot) => string[];
}

/** The agents that load `.env` files, and where. */
const ENV_FILE_SEARCH: Readonly<Record<string, EnvFileSearch>> = {
  gemini: {
    upwards: [".gemini/.env", ".env"],
    homes: (env) => {
      const home = homeDir(env);
      const moved = env.GEMINI_CLI_HOME?.trim();
      return [
        ...(moved ? [`${moved}/.gemini/.env`] : []),
        ...(home ? [`${home}/.gemini/.env`, `${home}/.env`] : []),
      ];
    },
  },
  codex: {
    upwards: [".env"],
    homes: (env) => {
      const home = homeDir(env);
      const moved = env.CODEX_HOME?.trim();
      return [...(moved ? [`${moved}/.env`] : []), ...(home ? [`${home}/.codex/.env`] : [])];
    },
  },
};

/** Most folders walked up from the agent's folder; deeper trees are cut at their top. */
const MAX_FOLDERS = 64;

/** Largest `.env` file read; a larger one is read as defining every variable. */
const MAX_ENV_FILE_BYTES = 256 * 1024;

/** The candidate files for `agent` started in `cwd`, nearest first. */
export function agentEnvFiles(agent: string, cwd: string, env: EnvSnapshot): string[] {
  const search = ENV_FILE_SEARCH[agent];
  if (search === undefined) return [];
  const out: string[] = [];
  const windows = /^[A-Za-z]:[\\/]/.test(cwd) || cwd.includes("\\");
  const segments = cwd.replaceAll("\\", "/").split("/");
  for (let depth = segments.length; depth >= 1 && out.length < MAX_FOLDERS * 2; depth--) {
    const folder = segments.slice(0, depth).join("/");
    if (folder === "" && depth > 1) continue;
    for (const name of search.upwards) out.push(`${folder}/${name}`);
  }
  out.push(...search.homes(env));
  return windows ? out.map((p) => p.replaceAll("/", "\\")) : out;
}

/** A GateGuard variable of the environment, and the `.env` file that defines it. */
export interface PlantedVariable {
  name: EnvName;
  file: string;
}

/**
 * The GateGuard variables set in `env` that a `.env` file `agent` loads
 * defines. Costs nothing when no such variable is set.
 */
export function plantedVariables(
  agent: string,
  cwd: string,
  env: EnvSnapshot,
  fs: FsPort,
): PlantedVariable[] {
  const names = (Object.keys(env) as EnvName[]).filter(configuresGateGuard);
  if (names.length === 0 || ENV_FILE_SEARCH[agent] === undefined) return [];
  const out: PlantedVariable[] = [];
  for (const found of envFilesNaming(agent, cwd, env, fs, names)) {
    for (const name of found.names) {
      if (!out.some((p) => p.name === name)) out.push({ name, file: found.file });
    }
  }
  return out;
}

/**
 * Each `.env` file `agent` started in `cwd` loads that names any of
 * `names`, with the names it holds (every one, for a file too large or
 * unreadable to tell). `doctor` lists them; the hook ignores those set.
 */
export function envFilesNaming(
  agent: string,
  cwd: string,
  env: EnvSnapshot,
  fs: FsPort,
  names: readonly EnvName[],
): { file: string; names: EnvName[] }[] {
  const out: { file: string; names: EnvName[] }[] = [];
  for (const file of agentEnvFiles(agent, cwd, env)) {
    // A folder named `.env` (a Python virtual environment, often) defines nothing.
    const own = fs.stat(file);
    if (!own.ok || own.isDirectory) continue;
    const text = own.size <= MAX_ENV_FILE_BYTES
      ? fs.readTextBounded(file, MAX_ENV_FILE_BYTES)
      : null;
    const named = names.filter((name) =>
      text === null || new RegExp(`(?:^|[^A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).test(text)
    );
    if (named.length > 0) out.push({ file, names: named });
  }
  return out;
}

/** `env` without the variables named in `planted`. */
export function withoutPlanted(env: EnvSnapshot, planted: readonly PlantedVariable[]): EnvSnapshot {
  if (planted.length === 0) return env;
  const out: Partial<Record<EnvName, string>> = { ...env };
  for (const { name } of planted) delete out[name];
  return out;
}
