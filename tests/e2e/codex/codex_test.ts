/**
 * GateGuard in the real Codex CLI (pinned in `scripts/install_agents.ts`),
 * registered by `gateguard init --agent codex`, against the fake Responses
 * API. Codex reports a hook's denial to the model as a tool output starting
 * `Command blocked by PreToolUse hook:`.
 *
 * @module
 */

import { assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import {
  cleanupAgentRun,
  describeAgentRun,
  metricsDecisions,
  realClientSuite,
  registerByInit,
  runAgentScenario,
} from "../real_client/harness.ts";
import { type AgentMoves, registerSharedScenarios } from "../real_client/scenarios.ts";
import { CODEX_DRIVER } from "./driver.ts";

const { install, test } = await realClientSuite("codex");

/** How the fake model spells Codex's moves: `exec_command` and a free-form `apply_patch`. */
export const CODEX_MOVES: AgentMoves = {
  driver: CODEX_DRIVER,
  shell: (command) => ({ name: "exec_command", input: { cmd: command } }),
  edit: (_project, rel, oldText, newText) => ({
    name: "apply_patch",
    input:
      `*** Begin Patch\n*** Update File: ${rel}\n@@\n-${oldText}\n+${newText}\n*** End Patch\n`,
  }),
  blocked: "Command blocked by PreToolUse hook: ",
  shownPath: (_project, rel) => rel,
};

registerSharedScenarios(CODEX_MOVES, install, test);

const WIDGET = "export function widget(): number {\n  return 1;\n}\n";

test("[real-client:codex] [prior-search-credit] a grep earlier in the turn, read from the rollout file, credits the patch", async () => {
  if (!install.ok) return;
  const run = await runAgentScenario(CODEX_DRIVER, install, {
    files: { "src/widget.ts": WIDGET, "src/main.ts": 'import { widget } from "./widget.ts";\n' },
    prompt: "make widget return 2",
    env: { GATEGUARD_METRICS: "1" },
    register: (tree) => registerByInit(tree, "codex"),
    replies: (p) => [
      { calls: [CODEX_MOVES.shell("grep -rn widget src")] },
      {
        outputs: [{ includes: ["src/main.ts:1:"] }],
        calls: [CODEX_MOVES.edit(p, "src/widget.ts", "  return 1;", "  return 2;")],
      },
      {
        outputs: [{ excludes: [CODEX_MOVES.blocked] }],
        paths: { [`${p}/src/widget.ts`]: { text: WIDGET.replace("return 1;", "return 2;") } },
        text: "Done.",
      },
    ],
  });
  const context = describeAgentRun(run);
  assertEquals(run.code, 0, context);
  assertEquals(run.model.failures(), [], context);
  assertEquals(await metricsDecisions(run.tree), [
    "routine-readonly/readonly",
    "credit/prior-search",
  ]);
  // Codex hands a PreToolUse hook's additionalContext to the model as a developer message.
  assertStringIncludes(
    JSON.stringify(run.model.turns().at(-1)?.body),
    '"role":"developer","content":[{"type":"input_text","text":"Prior-search credit: the Bash ' +
      "search (grep -rn widget src) earlier this turn already covered src/widget.ts",
  );
  await cleanupAgentRun(run);
});
