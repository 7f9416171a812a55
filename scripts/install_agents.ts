/**
 * Installs the pinned Codex, Gemini and Copilot CLIs the real-client tests
 * drive, into the same cache as Claude Code (see `npm_cache.ts`), one folder
 * per release.
 *
 * Each client is started through the launcher npm links into
 * `node_modules/.bin`, which needs `node` on `PATH` (npm brings it). Copilot
 * unpacks about 235 MB on its first run into `$XDG_CACHE_HOME/copilot`; the
 * install points that at a folder inside the install, so the unpacking
 * happens once, during the version check, and moves into place with it.
 *
 * Run it directly to warm the cache (CI does so before the tests):
 *
 * ```sh
 * deno run --allow-env --allow-read --allow-write --allow-run scripts/install_agents.ts [codex|gemini|copilot]…
 * ```
 *
 * It prints each binary path; it exits 1 when any install failed.
 *
 * @module
 */

import { ensureInstalled, type InstallResult, isFile, type NpmInstallSpec } from "./npm_cache.ts";

/** The agents with a pinned client. */
export type AgentClient = "codex" | "gemini" | "copilot";

/** One pinned client: package, version, launcher and the check of its version output. */
interface ClientPin {
  packageName: string;
  version: string;
  /** The launcher's name under `node_modules/.bin`. */
  bin: string;
  /** The `--version` output starts like this (after trimming). */
  versionPrefix: string;
  /** Environment every run of the client needs, given its install folder. */
  env(installDir: string): Record<string, string>;
}

/** The pinned releases, the ones `agents-facts` contracts were checked against. */
export const CLIENT_PINS: Readonly<Record<AgentClient, ClientPin>> = {
  codex: {
    packageName: "@openai/codex",
    version: "0.171.0",
    bin: "codex",
    versionPrefix: "codex-cli 0.171.0",
    env: () => ({}),
  },
  gemini: {
    packageName: "@google/gemini-cli",
    version: "0.61.0",
    bin: "gemini",
    versionPrefix: "0.61.0",
    // Without this the launcher starts a second node process with a bigger heap.
    env: () => ({ GEMINI_CLI_NO_RELAUNCH: "true" }),
  },
  copilot: {
    packageName: "@github/copilot",
    version: "1.0.102",
    bin: "copilot",
    versionPrefix: "GitHub Copilot CLI 1.0.102.",
    env: (dir) => ({ XDG_CACHE_HOME: `${dir}/xdg-cache`, COPILOT_AUTO_UPDATE: "false" }),
  },
};

/** A client ready to run: its launcher and the environment it needs beside the scenario's. */
export type ClientInstall =
  | { ok: true; binary: string; env: Record<string, string> }
  | { ok: false; reason: string };

function installSpec(agent: AgentClient): NpmInstallSpec {
  const pin = CLIENT_PINS[agent];
  return {
    folder: `${agent}-${pin.version}`,
    packageSpec: `${pin.packageName}@${pin.version}`,
    findBinary: async (dir) => {
      const launcher = `${dir}/node_modules/.bin/${pin.bin}`;
      return await isFile(launcher) ? launcher : null;
    },
    versionMatches: (stdout) => stdout.trim().startsWith(pin.versionPrefix),
    versionEnv: pin.env,
  };
}

/**
 * Makes sure the pinned client of `agent` is installed. Never throws: a
 * failure carries the reason, so its tests can skip saying why.
 */
export async function ensureAgentClient(agent: AgentClient): Promise<ClientInstall> {
  const result: InstallResult = await ensureInstalled(installSpec(agent));
  if (!result.ok) return result;
  return { ok: true, binary: result.binary, env: CLIENT_PINS[agent].env(result.cacheDir) };
}

if (import.meta.main) {
  const names = Deno.args.length > 0 ? Deno.args : Object.keys(CLIENT_PINS);
  let failed = false;
  for (const name of names) {
    if (!(name in CLIENT_PINS)) {
      console.error(`unknown client ${name}; known: ${Object.keys(CLIENT_PINS).join(", ")}`);
      failed = true;
      continue;
    }
    const agent = name as AgentClient;
    const result = await ensureAgentClient(agent);
    if (result.ok) {
      console.log(`${agent}: ${result.binary}`);
    } else {
      const pin = CLIENT_PINS[agent];
      console.error(`could not install ${pin.packageName}@${pin.version}: ${result.reason}`);
      failed = true;
    }
  }
  if (failed) Deno.exit(1);
}
