/**
 * The Gemini CLI harness against the real client, with a probe hook instead
 * of GateGuard: the client sends the BeforeTool payloads the adapter is
 * written for, and a `{"decision":"deny"}` answer stops the tool and
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
import { GEMINI_DRIVER } from "./driver.ts";

const { install, test } = await realClientSuite("gemini");

const BLOCKED = "Tool execution blocked: probe says no";

test("[real-client:gemini] the harness: a hook sees shell, replace and write_file payloads, and its denial reaches the model", async () => {
  if (!install.ok) return;
  const run = await runAgentScenario(GEMINI_DRIVER, install, {
    files: { "a.txt": "one\n" },
    prompt: "change a.txt",
    register: (tree, driver) =>
      driver.registerHook(tree, probeCommand(tree, { decision: "deny", reason: "probe says no" })),
    replies: (p) => [
      { calls: [{ name: "run_shell_command", input: { command: "mkdir made" } }] },
      {
        outputs: [{ includes: [BLOCKED] }],
        paths: { [`${p}/made`]: "missing" },
        calls: [{
          name: "replace",
          input: { file_path: "a.txt", old_string: "one", new_string: "two", instruction: "i" },
        }],
      },
      {
        outputs: [{ includes: [BLOCKED] }],
        calls: [{ name: "write_file", input: { file_path: "b.txt", content: "new\n" } }],
      },
      {
        outputs: [{ includes: [BLOCKED] }],
        paths: { [`${p}/a.txt`]: { text: "one\n" }, [`${p}/b.txt`]: "missing" },
        text: "Done.",
      },
    ],
  });
  const context = describeAgentRun(run);
  assertEquals(run.code, 0, context);
  assertEquals(run.model.failures(), [], context);
  const payloads = await probePayloads(run.tree);
  assertEquals(payloads.map((p) => [p.hook_event_name, p.tool_name, p.tool_input]), [
    ["BeforeTool", "run_shell_command", { command: "mkdir made" }],
    ["BeforeTool", "replace", {
      file_path: "a.txt",
      old_string: "one",
      new_string: "two",
      instruction: "i",
    }],
    ["BeforeTool", "write_file", { file_path: "b.txt", content: "new\n" }],
  ], context);
  for (const p of payloads) {
    assertEquals(p.cwd, run.tree.project);
    assertEquals(typeof p.session_id, "string");
    assertEquals(String(p.transcript_path).startsWith(`${run.tree.home}/.gemini/tmp/`), true);
  }
  await cleanupAgentRun(run);
});
