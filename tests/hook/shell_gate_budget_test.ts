/**
 * The shell gates under the call's work budget (issue 12): the hostile
 * PowerShell and Bash commands are denied, the huge ones as too large to
 * check, and the detector's work grows with the command's length, never
 * with its square. Counted in work units and characters scanned, never timed.
 *
 * @module
 */

import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { decide } from "../../src/hook/decide.ts";
import type { DecideContext } from "../../src/hook/decision.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { tooComplexLine } from "../../src/questions/messages.ts";
import { destructiveHit, newDetectBudget } from "../../src/shell/destructive/mod.ts";
import { contextFor } from "./context.ts";
import { loadAllParts } from "../../src/shell/destructive/mod.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();

function shellCall(
  tool: "Bash" | "PowerShell",
  command: string,
  budget: WorkBudget,
  destructiveCommands: readonly string[] = [],
): DecideContext {
  const ctx = contextFor(tool, { command });
  return { ...ctx, settings: { ...ctx.settings, metrics: true, destructiveCommands }, budget };
}

/** The PowerShell command of issue 12: thousands of expression segments, then a recursive delete. */
function psHostile(repeats: number): string {
  return `${"$null;".repeat(repeats)}gci C:\\x -Recurse | Remove-Item`;
}

Deno.test("[fail-to-deny] expression segments do not make PowerShell rescan the whole command per segment", () => {
  const scanned = (repeats: number): number => {
    const budget = newDetectBudget();
    const hit = destructiveHit("powershell", psHostile(repeats), [], undefined, budget);
    assertEquals(hit?.rule, "remove-item-recurse");
    return budget.scanned;
  };
  const small = scanned(2_000);
  const large = scanned(9_000);
  // Linear: 4.5 times the text costs at most 4.5 times the scanning (plus a constant).
  assert(large <= small * 4.5 + 1_000, `${small} then ${large}`);
  assert(large <= 2 * psHostile(9_000).length, `${large} for ${psHostile(9_000).length}`);
});

Deno.test("[fail-to-deny] the same PowerShell text run by pwsh -Command from Bash is scanned linearly", () => {
  const command = `pwsh -NoProfile -Command '${psHostile(9_000)}'`;
  const budget = newDetectBudget();
  assertEquals(destructiveHit("bash", command, [], undefined, budget)?.pack, "core");
  assert(budget.scanned <= 4 * command.length, `${budget.scanned} for ${command.length}`);
});

Deno.test("[fail-to-deny] the 54 KB PowerShell command is denied within one call's budget", async () => {
  const budget = new WorkBudget();
  const decision = await decide(shellCall("PowerShell", psHostile(9_000), budget));
  assertEquals(decision.outcome.kind, "deny");
  assertEquals(decision.events.map((e) => e.reason), ["destructive"]);
  assert(budget.exhausted() === null);
});

Deno.test("[fail-to-deny] a Bash command too large to read within the budget is denied as too large, never passed", async () => {
  const command = `echo a;${"a;".repeat(500_000)} rm -rf x`;
  const budget = new WorkBudget(4 * command.length);
  const decision = await decide(shellCall("Bash", command, budget));
  assertEquals(decision.outcome.kind, "deny");
  if (decision.outcome.kind === "deny") {
    assertStringIncludes(decision.outcome.text, tooComplexLine("command"));
  }
  assertEquals(decision.events.map((e) => e.reason), ["work-budget"]);
  // Refused before any analysis: nothing was spent.
  assertEquals(budget.spent, 0);
  // A benign command of the same size is refused the same way: doubt denies.
  const benign = await decide(
    shellCall("Bash", `echo a;${"a;".repeat(500_000)}`, new WorkBudget(4 * command.length)),
  );
  assertEquals(benign.outcome.kind, "deny");
});

Deno.test("[fail-to-deny] a long Bash command within the budget is read in work linear in its length", () => {
  const scanned = (n: number): number => {
    // The whole command is parsed once; the raw scan, which counts, never runs.
    const budget = newDetectBudget();
    assertEquals(
      destructiveHit("bash", `echo a;${"a;".repeat(n)} rm -rf x`, [], undefined, budget)?.rule,
      "rm-recursive",
    );
    return budget.scanned;
  };
  // Both within the lexing limit: read in full, so nothing is left to the raw scan.
  const a = scanned(50_000);
  const b = scanned(100_000);
  assertEquals([a, b], [0, 0]);
});

Deno.test("[fail-to-deny] project-file phrases matched against a huge command draw on the call budget and fail closed", async () => {
  // Within the lexing bound, so the packs read it in full and find nothing.
  const command = "deploy ".repeat(25_000);
  const phrases = Array.from({ length: 512 }, (_, k) => `deploy x${k}`);
  const budget = new WorkBudget();
  const decision = await decide(shellCall("Bash", command, budget, phrases));
  assertEquals(decision.outcome.kind, "deny");
  if (decision.outcome.kind === "deny") {
    assertStringIncludes(decision.outcome.text, tooComplexLine("command"));
  }
  assertEquals(decision.events.map((e) => e.reason), ["work-budget"]);
  assertEquals(budget.exhausted()?.what, "phrases");
  // With room for the work the same command matches no phrase: only the budget denied it.
  const roomy = new WorkBudget(Number.MAX_SAFE_INTEGER);
  const passed = await decide(shellCall("Bash", command, roomy, phrases));
  assertEquals(passed.events.map((e) => e.reason), ["first-command"]);
  assert(roomy.spent > budget.limit, `${roomy.spent}`);
});
