/**
 * The file gate under the call's work budget: the hostile search turn of
 * issue 12 (a first touch 60 directories deep after ~1000 calls of `rg`
 * with 32 crafted exclusions and 200 path patterns each) is decided within
 * one budget and denied, never credited, and the work grows with the turn,
 * not faster. Counted in work units, never timed.
 *
 * @module
 */

import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { decide } from "../../src/hook/decide.ts";
import { callFromObject } from "../../src/hook/call.ts";
import type { DecideContext } from "../../src/hook/decision.ts";
import { settingsFrom } from "../../src/config/settings.ts";
import { emptyState } from "../../src/state/schema.ts";
import { CALL_WORK_UNITS, WorkBudget } from "../../src/platform/budget.ts";
import { tooComplexLine } from "../../src/questions/messages.ts";
import { MemoryFs, ROOT } from "../transcript/builder.ts";
import { deepTarget, hostileSearchTurn, SEARCH_TURN_PROMPT } from "../helpers/hostile.ts";

const TRANSCRIPT = `${ROOT}/.transcript.jsonl`;
const TARGET = `${ROOT}/${deepTarget(60)}`;

function deepEdit(calls: number, budget: WorkBudget): DecideContext {
  const dirs = [ROOT];
  for (const d of deepTarget(60).split("/").slice(0, -1)) dirs.push(`${dirs.at(-1)}/${d}`);
  const fs = new MemoryFs({
    [TRANSCRIPT]: hostileSearchTurn(calls),
    [TARGET]: "export const widget = 1;\n",
  }, dirs);
  return {
    call: callFromObject({
      session_id: "s1",
      transcript_path: TRANSCRIPT,
      cwd: ROOT,
      prompt_id: SEARCH_TURN_PROMPT,
      tool_use_id: "toolu_absent",
      hook_event_name: "PreToolUse",
      tool_name: "Edit",
      tool_input: { file_path: TARGET, old_string: "= 1", new_string: "= 2" },
    }),
    settings: { ...settingsFrom({ CLAUDE_PROJECT_DIR: ROOT }), metrics: true },
    state: emptyState(0),
    ports: { fs, now: 0, processCwd: ROOT, hostWindows: false },
    budget,
  };
}

Deno.test("[fail-to-deny] the hostile search turn of 999 calls is denied within one call's budget, never credited", async () => {
  const budget = new WorkBudget();
  const decision = await decide(deepEdit(999, budget));
  assertEquals(decision.outcome.kind, "deny");
  if (decision.outcome.kind === "deny") {
    assertStringIncludes(decision.outcome.text, tooComplexLine("searches"));
  }
  assertEquals(decision.events.map((e) => e.reason), ["work-budget"]);
  assert(budget.exhausted() !== null);
  assert(budget.spent <= CALL_WORK_UNITS);
  // Denied like any first touch: the retry of the same file passes.
  assertEquals(decision.delta.check.length, 1);
});

Deno.test("[fail-to-deny] the work of judging a search turn grows in step with the turn", async () => {
  const spent = async (calls: number): Promise<number> => {
    const budget = new WorkBudget(Infinity);
    const decision = await decide(deepEdit(calls, budget));
    assertEquals(decision.outcome.kind, "deny");
    return budget.spent;
  };
  const ten = await spent(10);
  const twenty = await spent(20);
  const forty = await spent(40);
  // Each call of the turn costs the same; nothing is paid per pair of calls.
  const perCall = (twenty - ten) / 10;
  assert(Math.abs((forty - twenty) / 20 - perCall) <= perCall * 0.01, `${ten} ${twenty} ${forty}`);
  // So the 999-call turn needs about 999 calls' worth: far past one budget,
  // which is why it is denied rather than judged.
  assert(perCall * 999 > CALL_WORK_UNITS, `${perCall} per call`);
});
