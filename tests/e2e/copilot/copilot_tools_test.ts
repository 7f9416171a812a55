/**
 * GateGuard in the real Copilot CLI against Copilot's own edit and typing
 * tools: `apply_patch` (offered to the `gpt-5.5` family, its arguments the
 * raw patch text) and `write_bash` (text typed into a running shell
 * session). Registered by `gateguard init --agent copilot`; skipped, with
 * the reason printed, only when the pinned client cannot be installed.
 *
 * In prompt mode Copilot CLI 1.0.102 offers no `write_bash`, yet it runs the
 * hook for the model's call before it answers that the tool does not exist
 * (tests/fixtures/copilot-1.0.102/README.md): the denial is what the model
 * reads.
 *
 * @module
 */

import { assertEquals } from "../../helpers/assert.ts";
import {
  cleanupAgentRun,
  describeAgentRun,
  metricsDecisions,
  realClientSuite,
  registerByInit,
  runAgentScenario,
} from "../real_client/harness.ts";
import { COPILOT_DRIVER } from "./driver.ts";

const { install, test } = await realClientSuite("copilot");

const BLOCKED = "Denied by preToolUse hook: ";

test("[real-client:copilot] an apply_patch creating a file and a write_bash typing rm -rf are both denied, and neither takes effect", async () => {
  if (!install.ok) return;
  const run = await runAgentScenario(COPILOT_DRIVER, install, {
    files: { "build/a.o": "obj\n" },
    prompt: "add made.txt and clean the build",
    env: { GATEGUARD_METRICS: "1", COPILOT_MODEL: "gpt-5.5" },
    register: (tree, driver) => registerByInit(tree, driver.agent),
    replies: (p) => [
      {
        calls: [{
          name: "apply_patch",
          input: `*** Begin Patch\n*** Add File: ${p}/made.txt\n+new\n*** End Patch\n`,
        }],
      },
      {
        outputs: [{ includes: [BLOCKED, `Before creating ${p}/made.txt, present these facts:`] }],
        paths: { [`${p}/made.txt`]: "missing" },
        calls: [{
          name: "write_bash",
          input: { shellId: "sh1", input: "rm -rf build{enter}", delay: 5 },
        }],
      },
      {
        outputs: [{
          includes: [
            BLOCKED,
            "Destructive command detected. Before running it, present these facts:",
          ],
        }],
        paths: { [`${p}/build/a.o`]: { text: "obj\n" } },
        text: "Done.",
      },
    ],
  });
  const context = describeAgentRun(run);
  assertEquals(run.code, 0, context);
  assertEquals(run.model.failures(), [], context);
  assertEquals(
    await metricsDecisions(run.tree),
    ["deny/first-touch", "destructive-deny/destructive"],
    context,
  );
  await cleanupAgentRun(run);
});

test("[real-client:copilot] a Claude-style hook file (snake_case payloads, Claude Code's tool names) gates as the native one: rm -rf and a first edit are denied", async () => {
  if (!install.ok) return;
  const run = await runAgentScenario(COPILOT_DRIVER, install, {
    files: { "build/a.o": "obj\n", "a.txt": "one\n" },
    prompt: "clean the build and change a.txt",
    register: async (tree, driver) => {
      // init writes the native file; the same command moves into a Claude-style one,
      // which Copilot CLI also reads, sending it Claude-style payloads.
      await registerByInit(tree, driver.agent);
      const path = `${tree.project}/.github/hooks/gateguard.json`;
      const native = JSON.parse(await Deno.readTextFile(path));
      const command = native.hooks.preToolUse[0].bash;
      await Deno.writeTextFile(
        path,
        JSON.stringify({
          hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command }] }] },
        }),
      );
    },
    replies: (p) => [
      { calls: [{ name: "bash", input: { command: "rm -rf build", description: "clean" } }] },
      {
        outputs: [{
          includes: [
            BLOCKED,
            "Destructive command detected. Before running it, present these facts:",
          ],
        }],
        paths: { [`${p}/build/a.o`]: { text: "obj\n" } },
        calls: [{ name: "edit", input: { path: `${p}/a.txt`, old_str: "one", new_str: "two" } }],
      },
      {
        outputs: [{ includes: [BLOCKED, `Before editing ${p}/a.txt, present these facts:`] }],
        paths: { [`${p}/a.txt`]: { text: "one\n" } },
        text: "Done.",
      },
    ],
  });
  const context = describeAgentRun(run);
  assertEquals(run.code, 0, context);
  assertEquals(run.model.failures(), [], context);
  await cleanupAgentRun(run);
});
