/**
 * The file gate under the call's work budget: the hostile search turn of
 * issue 12 (a first touch 60 directories deep after ~1000 calls of `rg`
 * with 32 crafted exclusions and 200 path patterns each). Calls that repeat
 * one search are parsed and matched once, so the whole turn is judged
 * within one budget and its closest miss named; a turn whose calls share
 * no pattern runs the budget out and is denied as too complex. Neither is
 * ever credited. Counted in work units, never timed.
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
import { resolutionSteps } from "../../src/evidence/arg_collector.ts";
import { MemoryFs, ROOT } from "../session_logs/builder.ts";
import {
  deepCwdSearchTurn,
  deepTarget,
  hostileRg,
  hostileSearchTurn,
  SEARCH_TURN_PROMPT,
} from "../helpers/hostile.ts";
import { CountingBudget } from "../helpers/work.ts";

const TRANSCRIPT = `${ROOT}/.transcript.jsonl`;
const TARGET = `${ROOT}/${deepTarget(60)}`;

/** A first touch of `target`, a file mentioning the stem, decided after the turn `transcript`. */
function editAfter(
  transcript: string,
  target: string,
  dirs: string[],
  budget: WorkBudget,
): DecideContext {
  const fs = new MemoryFs({
    [TRANSCRIPT]: transcript,
    [target]: "export const widget = 1;\n",
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
      tool_input: { file_path: target, old_string: "= 1", new_string: "= 2" },
    }),
    settings: { ...settingsFrom({ CLAUDE_PROJECT_DIR: ROOT }), metrics: true },
    state: emptyState(0),
    ports: { fs, now: 0, processCwd: ROOT, hostWindows: false },
    budget,
  };
}

function deepEdit(calls: number, budget: WorkBudget, distinct = false): DecideContext {
  const dirs = [ROOT];
  for (const d of deepTarget(60).split("/").slice(0, -1)) dirs.push(`${dirs.at(-1)}/${d}`);
  return editAfter(hostileSearchTurn(calls, distinct), TARGET, dirs, budget);
}

Deno.test("[fail-to-deny] the hostile search turn of 999 calls is judged within one call's budget and denied, never credited", async () => {
  const budget = new WorkBudget();
  const decision = await decide(deepEdit(999, budget));
  assertEquals(decision.outcome.kind, "deny");
  // Every search was judged: the closest miss is named, nothing ran out.
  assertEquals(decision.events.map((e) => e.reason), ["near-miss:out-of-scope"]);
  if (decision.outcome.kind === "deny") {
    assertStringIncludes(decision.outcome.text, "Closest search this turn did not count (Bash rg");
  }
  assertEquals(budget.exhausted(), null);
  // The 6 MB walk is most of it; the judging is about one unit per character.
  assert(budget.spent < CALL_WORK_UNITS * 0.7, `${budget.spent}`);
  // Denied like any first touch: the retry of the same file passes.
  assertEquals(decision.delta.check.length, 1);
});

Deno.test("[fail-to-deny] calls that repeat one search are parsed and matched once", async () => {
  const spent = async (calls: number): Promise<CountingBudget> => {
    const budget = new CountingBudget(Infinity);
    const decision = await decide(deepEdit(calls, budget));
    assertEquals(decision.events.map((e) => e.reason), ["near-miss:out-of-scope"]);
    return budget;
  };
  const ten = await spent(10);
  const forty = await spent(40);
  // No glob is compiled or matched again for the thirty more calls...
  assertEquals(forty.units("glob"), ten.units("glob"));
  assertEquals(forty.units("stem"), ten.units("stem"));
  // ...and each costs one unit per character of its input, to find its twin.
  const command = hostileRg(32, 200);
  assertEquals(forty.units("evidence") - ten.units("evidence"), 30 * command.length);
  // The first call paid for its judging many times over what a repeat costs.
  assert(ten.units("glob") > 20 * command.length, `${ten.units("glob")}`);
});

Deno.test("[fail-to-deny] the work of judging a search turn grows in step with the turn", async () => {
  const spent = async (calls: number, distinct: boolean): Promise<number> => {
    const budget = new WorkBudget(Infinity);
    const decision = await decide(deepEdit(calls, budget, distinct));
    assertEquals(decision.outcome.kind, "deny");
    return budget.spent;
  };
  for (const distinct of [false, true]) {
    const ten = await spent(10, distinct);
    const twenty = await spent(20, distinct);
    const forty = await spent(40, distinct);
    // Each call of the turn costs the same; nothing is paid per pair of calls.
    const perCall = (twenty - ten) / 10;
    assert(
      Math.abs((forty - twenty) / 20 - perCall) <= perCall * 0.01,
      `${distinct}: ${ten} ${twenty} ${forty}`,
    );
    // Repeated searches fit 999 calls in one budget; searches that share
    // nothing need far more than one budget, so that turn is denied unjudged.
    if (distinct) assert(perCall * 999 > CALL_WORK_UNITS, `${perCall} per call`);
    else assert(perCall * 999 < CALL_WORK_UNITS, `${perCall} per call`);
  }
});

Deno.test("[fail-to-deny] 999 hostile searches that share no pattern are denied as too complex within one budget", async () => {
  const budget = new WorkBudget();
  const decision = await decide(deepEdit(999, budget, true));
  assertEquals(decision.outcome.kind, "deny");
  if (decision.outcome.kind === "deny") {
    assertStringIncludes(decision.outcome.text, tooComplexLine("searches"));
  }
  assertEquals(decision.events.map((e) => e.reason), ["work-budget"]);
  assert(budget.exhausted() !== null);
  assert(budget.spent <= CALL_WORK_UNITS);
  assertEquals(decision.delta.check.length, 1);
});

Deno.test("[fail-to-deny] searches run 1,300 directories deep cost their characters, not characters times depth", async () => {
  const spent = async (calls: number): Promise<number> => {
    const budget = new WorkBudget(Infinity);
    const joinedBefore = resolutionSteps();
    const target = `${ROOT}/src/widget.ts`;
    const turn = deepCwdSearchTurn(ROOT, calls);
    const decision = await decide(editAfter(turn, target, [ROOT, `${ROOT}/src`], budget));
    assertEquals(decision.outcome.kind, "deny");
    // No operand was joined to a base that deep: each would copy all of it.
    assertEquals(resolutionSteps() - joinedBefore, 0);
    return budget.spent;
  };
  const perCall = (await spent(20) - await spent(10)) / 10;
  // Reading the record and parsing the command, a few dozen units a
  // character: the 900 operands are never each joined to the deep base.
  const record = deepCwdSearchTurn(ROOT, 1).length;
  assert(perCall < 32 * record, `${perCall} units per call`);
  assert(perCall > record, `${perCall} units per call`);
});
