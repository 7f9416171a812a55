/**
 * The Copilot CLI harness against the real client, with a probe hook
 * instead of GateGuard: the client sends the camelCase payloads the adapter
 * is written for, and a `permissionDecision` denial stops the tool and
 * reaches the model. Skipped, with the reason printed, only when the pinned
 * client cannot be installed.
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
import { COPILOT_DRIVER } from "./driver.ts";

const { install, test } = await realClientSuite("copilot");

const DENIED = "Denied by preToolUse hook: probe says no";

test("[real-client:copilot] the harness: a hook sees bash, edit and create payloads, and its denial reaches the model", async () => {
  if (!install.ok) return;
  const run = await runAgentScenario(COPILOT_DRIVER, install, {
    files: { "a.txt": "one\n" },
    prompt: "change a.txt",
    register: (tree, driver) =>
      driver.registerHook(
        tree,
        probeCommand(tree, {
          permissionDecision: "deny",
          permissionDecisionReason: "probe says no",
        }),
      ),
    replies: (p) => [
      { calls: [{ name: "bash", input: { command: "mkdir made", description: "make" } }] },
      {
        outputs: [{ includes: [DENIED] }],
        paths: { [`${p}/made`]: "missing" },
        calls: [{ name: "edit", input: { path: `${p}/a.txt`, old_str: "one", new_str: "two" } }],
      },
      {
        outputs: [{ includes: [DENIED] }],
        calls: [{ name: "create", input: { path: `${p}/b.txt`, file_text: "new\n" } }],
      },
      {
        outputs: [{ includes: [DENIED] }],
        paths: { [`${p}/a.txt`]: { text: "one\n" }, [`${p}/b.txt`]: "missing" },
        text: "Done.",
      },
    ],
  });
  const context = describeAgentRun(run);
  assertEquals(run.code, 0, context);
  assertEquals(run.model.failures(), [], context);
  const payloads = await probePayloads(run.tree);
  const p = run.tree.project;
  assertEquals(payloads.map((x) => [x.toolName, x.toolArgs]), [
    ["bash", { command: "mkdir made", description: "make" }],
    ["edit", { path: `${p}/a.txt`, old_str: "one", new_str: "two" }],
    ["create", { path: `${p}/b.txt`, file_text: "new\n" }],
  ], context);
  for (const x of payloads) {
    assertEquals(x.cwd, p);
    assertEquals(typeof x.sessionId, "string");
    assertEquals(typeof x.timestamp, "number");
  }
  await cleanupAgentRun(run);
});
