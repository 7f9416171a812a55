/**
 * How the real-client tests run Copilot CLI offline: the fake model as an
 * OpenAI-type provider through `COPILOT_PROVIDER_*`, offline mode, and repo
 * hooks allowed in prompt mode (they do not run under `-p` otherwise).
 *
 * @module
 */

import { type AgentDriver, type AgentTree, writeJson } from "../real_client/harness.ts";
import { CHAT_WIRE } from "./chat_wire.ts";

/** The repo hooks file the probe is registered in. */
export function copilotProbeHooksPath(tree: AgentTree): string {
  return `${tree.project}/.github/hooks/probe.json`;
}

/** The Copilot CLI driver. */
export const COPILOT_DRIVER: AgentDriver = {
  agent: "copilot",
  wire: CHAT_WIRE,
  async prepare() {},
  async registerHook(tree, command) {
    await writeJson(copilotProbeHooksPath(tree), {
      version: 1,
      hooks: { preToolUse: [{ type: "command", bash: command, timeoutSec: 30 }] },
    });
  },
  invocation(_tree, prompt, modelUrl) {
    return {
      args: ["-p", prompt, "--allow-all-tools"],
      env: {
        COPILOT_OFFLINE: "true",
        COPILOT_PROVIDER_BASE_URL: `${modelUrl}/v1`,
        COPILOT_PROVIDER_TYPE: "openai",
        COPILOT_PROVIDER_API_KEY: "x",
        COPILOT_MODEL: "fake-model",
        COPILOT_AUTO_UPDATE: "false",
        GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: "true",
      },
    };
  },
};
