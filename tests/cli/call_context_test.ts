/**
 * Tests of the context a hook call is decided in: the payload's reading is
 * work of the call, so the call's budget starts with it spent.
 */

import { tempDirSync } from "../helpers/temp.ts";
import { assertEquals } from "../helpers/assert.ts";
import { callContext } from "../../src/cli/call_context.ts";
import { callFromObject } from "../../src/hook/call.ts";
import { settingsFrom } from "../../src/config/settings.ts";
import { CALL_WORK_UNITS } from "../../src/platform/budget.ts";

const ROOT = "/project";

function context(payloadChars: number) {
  const env = { CLAUDE_PROJECT_DIR: ROOT, GATEGUARD_STATE_DIR: tempDirSync() };
  const call = callFromObject({
    session_id: "s1",
    cwd: ROOT,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
  });
  return callContext(call, env, settingsFrom(env), payloadChars);
}

Deno.test("[fail-to-deny] the call's work budget starts with the payload's characters spent", async () => {
  const { ctx } = await context(1234);
  assertEquals(ctx.budget.spent, 1234);
  assertEquals(ctx.budget.remaining, CALL_WORK_UNITS - 1234);
  assertEquals(ctx.budget.exhausted(), null);
});

Deno.test("[fail-to-deny] a payload larger than the budget leaves it spent, so every gate fails closed", async () => {
  const { ctx } = await context(CALL_WORK_UNITS + 1);
  assertEquals(ctx.budget.exhausted()?.what, "payload");
  assertEquals(ctx.budget.remaining, 0);
});
