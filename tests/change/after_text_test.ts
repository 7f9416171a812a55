/** The text a typed change leaves, applied the way the tool applies it, priced before it is built. */

import { assertEquals } from "../helpers/assert.ts";
import { textAfterChange, UNITS_PER_BUILT_CHARACTER } from "../../src/change/after_text.ts";
import { WorkBudget } from "../../src/platform/budget.ts";

const step = (oldString: string, newString: string, replaceAll = false) => ({
  oldString,
  newString,
  replaceAll,
});

const after = (before: string | null, change: Parameters<typeof textAfterChange>[1]) =>
  textAfterChange(before, change, new WorkBudget());

Deno.test("[claude-settings] a Write leaves its content, replacements apply in order", () => {
  assertEquals(after("old", { kind: "write", content: "new" }), "new");
  assertEquals(after(null, { kind: "write", content: "new" }), "new");
  const edits = [step("a", "b"), step("b", "c", true)];
  assertEquals(after("a b x", { kind: "edits", edits }), "c c x");
  // An empty old text creates a missing file.
  assertEquals(after(null, { kind: "edits", edits: [step("", "{}")] }), "{}");
});

Deno.test("[claude-settings] a replacement the tool would refuse, or content not read, tells nothing", () => {
  assertEquals(after("abc", { kind: "edits", edits: [step("x", "y")] }), "cannot-tell");
  assertEquals(after("a a", { kind: "edits", edits: [step("a", "b")] }), "cannot-tell");
  assertEquals(after("abc", { kind: "edits", edits: [step("", "y")] }), "cannot-tell");
  assertEquals(after(null, { kind: "edits", edits: [step("a", "b")] }), "cannot-tell");
  assertEquals(after("abc", { kind: "opaque" }), "cannot-tell");
  assertEquals(after("abc", { kind: "unreadable" }), "cannot-tell");
});

Deno.test("[self-protection] each replacement is priced from its occurrences before its text is built", () => {
  const before = "ab".repeat(1000);
  const grow = step("a", "x".repeat(400), true);
  const budget = new WorkBudget();
  const text = textAfterChange(before, { kind: "edits", edits: [grow] }, budget);
  const built = 2000 + 1000 * 399;
  assertEquals(typeof text === "string" && text.length, built);
  // Searched twice (pricing, applying), then the built text.
  assertEquals(budget.spent, 2 * 2000 + built * UNITS_PER_BUILT_CHARACTER);
});

Deno.test("[self-protection] a short replace_all that would multiply a large text is refused before anything is built", () => {
  // 4 MiB of quotes and a 402-byte replacement: the text would pass V8's string limit.
  const before = '"'.repeat(4 * 1024 * 1024);
  const budget = new WorkBudget();
  const change = { kind: "edits" as const, edits: [step('"', "y".repeat(400), true)] };
  assertEquals(textAfterChange(before, change, budget), "over-budget");
  // Only the search was paid for; the refused build left the budget spent.
  assertEquals(budget.spent, 2 * before.length);
  assertEquals(budget.exhausted()?.what, "settings");
  // A budget too small even for the search refuses before searching.
  const small = new WorkBudget(100);
  assertEquals(textAfterChange(before, change, small), "over-budget");
  assertEquals(small.spent, 0);
});
