/**
 * Tests of the pass that carries what commands write along the pipelines
 * of a Bash line: which texts reach each command's stdin, groups and
 * compounds fed by a pipe, what a group writes as a whole, and the work
 * counted, which stays linear where a look-back from every command of a
 * pipeline was quadratic.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { argv, parseBash } from "../../../src/shell/bash/mod.ts";
import { PipeFlow } from "../../../src/shell/destructive/pipe_flow.ts";
import { destructiveHit, newDetectBudget } from "../../../src/shell/destructive/destructive.ts";
import { loadAllParts } from "../../../src/shell/destructive/mod.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();

/** What reaches each command of `line` when every command writes its arguments. */
function streams(line: string): { flow: PipeFlow; seen: Record<string, string[]> } {
  const flow = new PipeFlow([]);
  const seen: Record<string, string[]> = {};
  for (const seg of parseBash(line).segments) {
    const words = argv(seg);
    seen[words.join(" ")] = [...flow.enter(seg, seg.stdinTexts).texts];
    flow.wrote(seg.depth, words.slice(1), null);
  }
  return { flow, seen };
}

Deno.test("[destructive-bash-gate] a command reads what every command before it in its pipeline wrote", () => {
  const { seen } = streams("echo a | tr b | sh; cat <<< c | sh");
  assertEquals(seen["echo a"], []);
  assertEquals(seen["tr b"], ["a"]);
  assertEquals(seen["sh"], ["c"]);
  assertEquals(streams("echo a | tr b | sh x").seen["sh x"], ["a", "b"]);
});

Deno.test("[destructive-bash-gate] a pipe into a group feeds every command in it; a group writes all its commands wrote", () => {
  const into = streams("echo a | { true x; sh y; }; sh z").seen;
  assertEquals(into["true x"], ["a"]);
  assertEquals(into["sh y"], ["a", "x"]);
  assertEquals(into["sh z"], []);
  const out = streams("{ echo a; echo b; } | sh; (echo c) | sh x").seen;
  assertEquals(out["sh"], ["a", "b"]);
  assertEquals(out["sh x"], ["c"]);
});

Deno.test("[fail-to-deny] the work of carrying pipe texts is linear in the pipeline's length", () => {
  for (const n of [100, 1000, 4000]) {
    const { flow } = streams(`echo a${" | tee x".repeat(n)}`);
    assert(flow.moved <= 2 * n + 2, `${n} commands moved ${flow.moved} texts`);
    const groups = streams(`echo a${" | { tee x; tee y; }".repeat(n)}`).flow;
    assert(groups.moved <= 8 * n + 2, `${n} groups moved ${groups.moved} texts`);
  }
});

Deno.test("[fail-to-deny] a long pipeline is read in full within a bound of its length", () => {
  const tail = "git commit -m 'rm -rf x'";
  // 800 commands stay under the parser's length limit; looking back from each cost 8 MB.
  for (const n of [200, 800]) {
    const benign = `${"grep a | ".repeat(n)}${tail}`;
    const budget = newDetectBudget();
    const before = budget.chars;
    assertEquals(destructiveHit("bash", benign, [], undefined, budget), null);
    assert(before - budget.chars <= 4 * benign.length, `${n}: ${before - budget.chars} units`);
    const piped = `echo 'rm -rf x' | ${"cat | ".repeat(n)}sh`;
    assertEquals(destructiveHit("bash", piped, [])?.rule, "rm-recursive");
  }
});
