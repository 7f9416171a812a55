/**
 * The Codex harness against the real client, with a probe hook instead of
 * GateGuard: the client sends the payload the adapter is written for, and a
 * denial in the `hookSpecificOutput` form stops the tool and reaches the
 * model. Skipped, with the reason printed, only when the pinned client
 * cannot be installed.
 *
 * @module
 */

import { assertEquals } from "../../helpers/assert.ts";
import {
  cleanupAgentRun,
  describeAgentRun,
  probeCommand,
  probePayloads,
  realClientSuite,
  runAgentScenario,
} from "../real_client/harness.ts";
import { CODEX_DRIVER } from "./driver.ts";

const { install, test } = await realClientSuite("codex");

const PATCH = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch\n";
const DENY = {
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    permissionDecisionReason: "probe says no",
  },
};

test("[real-client:codex] the harness: a hook sees Bash and apply_patch payloads, and its denial reaches the model", async () => {
  if (!install.ok) return;
  const run = await runAgentScenario(CODEX_DRIVER, install, {
    files: { "a.txt": "one\n" },
    prompt: "change a.txt",
    register: (tree, driver) => driver.registerHook(tree, probeCommand(tree, DENY)),
    replies: (p) => [
      { calls: [{ name: "exec_command", input: { cmd: "mkdir made" } }] },
      {
        outputs: [{
          includes: ["Command blocked by PreToolUse hook: probe says no. Command: mkdir made"],
        }],
        paths: { [`${p}/made`]: "missing" },
        calls: [{ name: "apply_patch", input: PATCH }],
      },
      {
        outputs: [{ includes: ["Command blocked by PreToolUse hook: probe says no."] }],
        paths: { [`${p}/a.txt`]: { text: "one\n" } },
        text: "Done.",
      },
    ],
  });
  const context = describeAgentRun(run);
  assertEquals(run.code, 0, context);
  assertEquals(run.model.failures(), [], context);
  const payloads = await probePayloads(run.tree);
  assertEquals(payloads.map((p) => [p.hook_event_name, p.tool_name, p.tool_input]), [
    ["PreToolUse", "Bash", { command: "mkdir made" }],
    ["PreToolUse", "apply_patch", { command: PATCH }],
  ]);
  assertEquals(payloads.map((p) => p.cwd), [run.tree.project, run.tree.project]);
  assertEquals(payloads.map((p) => p.tool_use_id), ["call_000_0", "call_001_0"]);
  for (const p of payloads) {
    assertEquals(typeof p.session_id, "string");
    assertEquals(typeof p.turn_id, "string");
    assertEquals(String(p.transcript_path).startsWith(`${run.tree.home}/.codex/sessions/`), true);
  }
  await cleanupAgentRun(run);
});
