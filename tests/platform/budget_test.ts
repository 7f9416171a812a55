import { assert, assertEquals } from "../helpers/assert.ts";
import { CALL_WORK_UNITS, done, WorkBudget } from "../../src/platform/budget.ts";

Deno.test("[fail-to-deny] a budget counts the units it grants and refuses past its limit", () => {
  const budget = new WorkBudget(100);
  assert(budget.spend(60, "transcript"));
  assert(budget.spend(40, "glob"));
  assertEquals(budget.spent, 100);
  assertEquals(budget.remaining, 0);
  assertEquals(budget.exhausted(), null);
  assertEquals(budget.spend(1, "glob"), false);
  assertEquals(budget.exhausted(), { kind: "exhausted", what: "glob" });
  assertEquals(budget.spent, 100);
});

Deno.test("[fail-to-deny] a refused request spends nothing and the budget stays spent", () => {
  const budget = new WorkBudget(100);
  assertEquals(budget.spend(101, "change"), false);
  assertEquals(budget.spent, 0);
  // A smaller request later in the call is still refused: the analysis that
  // ran out must not be quietly skipped by the next one.
  assertEquals(budget.spend(1, "evidence"), false);
  assertEquals(budget.remaining, 0);
  assertEquals(budget.exhausted()?.what, "change");
});

Deno.test("[fail-to-deny] costs that overflowed or went negative are refused", () => {
  for (const units of [NaN, Infinity, -1]) {
    const budget = new WorkBudget(100);
    assertEquals(budget.spend(units, "glob"), false, String(units));
    assertEquals(budget.exhausted()?.what, "glob");
  }
});

Deno.test("[fail-to-deny] the default budget is the per-call allowance", () => {
  const budget = new WorkBudget();
  assertEquals(budget.limit, CALL_WORK_UNITS);
  assert(budget.spend(CALL_WORK_UNITS, "all"));
  assertEquals(budget.spend(1, "more"), false);
  assertEquals(done(3), { kind: "done", value: 3 });
});
