/**
 * Tests of the hook's edge in process: an internal error in a gate denies
 * the call and records nothing, and a decision that ran is kept as it is.
 *
 * @module
 */

import { assertEquals } from "../helpers/assert.ts";
import { callContext } from "../../src/cli/call_context.ts";
import { decideOrDeny } from "../../src/cli/hook.ts";
import { callFromObject } from "../../src/hook/call.ts";
import { settingsFrom } from "../../src/config/settings.ts";
import type { Decision } from "../../src/hook/decision.ts";
import { emptyDelta } from "../../src/state/schema.ts";
import { internalErrorText } from "../../src/questions/messages.ts";

async function context() {
  const state = Deno.makeTempDirSync({ prefix: "gg-hook-" });
  const env = { CLAUDE_PROJECT_DIR: "/project", GATEGUARD_STATE_DIR: state };
  const call = callFromObject({
    session_id: "s1",
    cwd: "/project",
    hook_event_name: "PreToolUse",
    tool_name: "Edit",
    tool_input: { file_path: "/project/src/app.ts", old_string: "1", new_string: "2" },
  });
  const { ctx } = await callContext(call, env, settingsFrom(env), 0);
  return { ctx, cleanup: () => Deno.removeSync(state, { recursive: true }) };
}

Deno.test("[fail-to-deny] an internal error in a gate denies the call, records nothing and names no off switch", async () => {
  const { ctx, cleanup } = await context();
  try {
    for (const thrown of [new RangeError("Invalid string length"), "a thrown string", null]) {
      const decision = await decideOrDeny(ctx, () => {
        throw thrown;
      });
      assertEquals(decision.outcome, { kind: "deny", text: internalErrorText() });
      assertEquals(decision.delta, emptyDelta());
      assertEquals(decision.events, []);
      const name = thrown instanceof Error ? thrown.name : "Error";
      assertEquals(decision.warnings, [`internal error, the call is denied: ${name}`]);
    }
    assertEquals(
      internalErrorText(),
      "[Fact-Forcing Gate] GateGuard hit an internal error and could not check this call, " +
        "so it is denied. Try a smaller or simpler call; if that fails too, ask the user to run " +
        "`gateguard doctor`.",
    );
  } finally {
    cleanup();
  }
});

Deno.test("[fail-to-deny] a decision that ran is kept as the gate made it", async () => {
  const { ctx, cleanup } = await context();
  try {
    const made: Decision = {
      outcome: { kind: "pass" },
      delta: emptyDelta(),
      events: [],
      warnings: ["kept"],
    };
    assertEquals(await decideOrDeny(ctx, () => Promise.resolve(made)), made);
  } finally {
    cleanup();
  }
});
