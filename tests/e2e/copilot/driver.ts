/**
 * How the real-client tests run Copilot CLI offline: the fake model as an
 * OpenAI-type provider through `COPILOT_PROVIDER_*`, offline mode, and repo
 * hooks allowed in prompt mode (they do not run under `-p` otherwise).
 *
 * @module
 */

import { type AgentDriver, type AgentTree, writeJson } from "../real_client/harness.ts";
import { shellQuote } from "../claude_code/harness.ts";
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
  async awaitLogBeforeHook(tree) {
    // Every command init wrote, run through the wrapper that waits for the log.
    const path = `${tree.project}/.github/hooks/gateguard.json`;
    const file = JSON.parse(await Deno.readTextFile(path));
    const wrapper = new URL("./log_settled.ts", import.meta.url).pathname;
    for (const handler of file.hooks.preToolUse) {
      handler.bash = [
        Deno.execPath(),
        "run",
        "--quiet",
        "--no-prompt",
        "--no-config",
        "--allow-all",
        wrapper,
      ]
        .map(shellQuote).concat(shellQuote(handler.bash)).join(" ");
      delete handler.powershell;
    }
    await writeJson(path, file);
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
