/**
 * How the real-client tests run Codex CLI offline: a home-level
 * `config.toml` naming the fake model as a Responses API provider (and
 * trusting the project, which project hooks need), then `codex exec` with
 * hook trust bypassed, since nobody can approve a hook in `/hooks` here.
 *
 * @module
 */

import { type AgentDriver, type AgentTree, writeJson } from "../real_client/harness.ts";
import { RESPONSES_WIRE } from "./responses_wire.ts";

/** The project hooks file Codex reads. */
export function codexHooksPath(tree: AgentTree): string {
  return `${tree.project}/.codex/hooks.json`;
}

/** Where Codex writes its rollout files under the run's home. */
export function codexSessionsDir(tree: AgentTree): string {
  return `${tree.home}/.codex/sessions`;
}

/** The Codex driver. */
export const CODEX_DRIVER: AgentDriver = {
  agent: "codex",
  wire: RESPONSES_WIRE,
  async prepare(tree, modelUrl) {
    await Deno.mkdir(`${tree.home}/.codex`, { recursive: true });
    // gpt-5.5 is a slug the client knows; an unknown one offers no apply_patch tool.
    await Deno.writeTextFile(
      `${tree.home}/.codex/config.toml`,
      [
        `model = "gpt-5.5"`,
        `model_provider = "mock"`,
        `check_for_update_on_startup = false`,
        ``,
        `[model_providers.mock]`,
        `name = "mock"`,
        `base_url = "${modelUrl}/v1"`,
        `env_key = "MOCK_KEY"`,
        `wire_api = "responses"`,
        `request_max_retries = 0`,
        `stream_max_retries = 0`,
        ``,
        `[analytics]`,
        `enabled = false`,
        ``,
        `[projects."${tree.project}"]`,
        `trust_level = "trusted"`,
        ``,
      ].join("\n"),
    );
  },
  async registerHook(tree, command) {
    await writeJson(codexHooksPath(tree), {
      hooks: {
        PreToolUse: [{
          matcher: "Bash|apply_patch",
          hooks: [{ type: "command", command, timeout: 30 }],
        }],
      },
    });
  },
  invocation(_tree, prompt) {
    return {
      args: [
        "exec",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        "--dangerously-bypass-hook-trust",
        "--disable",
        "plugins",
        "--disable",
        "remote_plugin",
        prompt,
      ],
      env: { MOCK_KEY: "x" },
    };
  },
};
