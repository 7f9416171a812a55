/**
 * How the real-client tests run Gemini CLI offline: a home-level
 * `settings.json` choosing API-key auth with telemetry and updates off, the
 * fake model as `GOOGLE_GEMINI_BASE_URL`, and the workspace trusted through
 * the environment (project hooks run only in a trusted folder).
 *
 * @module
 */

import { type AgentDriver, type AgentTree, writeJson } from "../real_client/harness.ts";
import { GEMINI_WIRE } from "./gemini_wire.ts";

/** The model the fake answers for. */
export const GEMINI_MODEL = "gemini-2.5-flash";

/** The project settings file Gemini CLI reads hooks from. */
export function geminiSettingsPath(tree: AgentTree): string {
  return `${tree.project}/.gemini/settings.json`;
}

/** The Gemini CLI driver. */
export const GEMINI_DRIVER: AgentDriver = {
  agent: "gemini",
  wire: GEMINI_WIRE,
  async prepare(tree) {
    await writeJson(`${tree.home}/.gemini/settings.json`, {
      security: { auth: { selectedType: "gemini-api-key" } },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    });
  },
  async registerHook(tree, command) {
    await writeJson(geminiSettingsPath(tree), {
      hooksConfig: { enabled: true },
      hooks: {
        BeforeTool: [{
          matcher: "run_shell_command|write_file|replace",
          hooks: [{ type: "command", name: "probe", command, timeout: 30_000 }],
        }],
      },
    });
  },
  invocation(_tree, prompt, modelUrl) {
    return {
      args: ["-m", GEMINI_MODEL, "-p", prompt, "--approval-mode", "yolo", "-o", "text"],
      env: {
        GEMINI_API_KEY: "x",
        GOOGLE_GEMINI_BASE_URL: modelUrl,
        GEMINI_CLI_TRUST_WORKSPACE: "true",
      },
    };
  },
};
