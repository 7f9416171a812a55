/**
 * GateGuard in the real Codex CLI (pinned in `scripts/install_agents.ts`),
 * registered by `gateguard init --agent codex`, against the fake Responses
 * API. Codex reports a hook's denial to the model as a tool output starting
 * `Command blocked by PreToolUse hook:`.
 *
 * @module
 */

import { assertStringIncludes } from "../../helpers/assert.ts";
import { realClientSuite } from "../real_client/harness.ts";
import {
  type AgentMoves,
  registerCreditScenario,
  registerSharedScenarios,
} from "../real_client/scenarios.ts";
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

registerCreditScenario(CODEX_MOVES, install, test, (last) => {
  // Codex hands a PreToolUse hook's additionalContext to the model as a developer message.
  assertStringIncludes(
    last,
    '"role":"developer","content":[{"type":"input_text","text":"Prior-search credit: the Bash ' +
      "search (grep -rn widget src) earlier this turn already covered src/widget.ts",
  );
});
