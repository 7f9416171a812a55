/**
 * GateGuard in the real Gemini CLI (pinned in `scripts/install_agents.ts`),
 * registered by `gateguard init --agent gemini`, against the fake Gemini
 * API. Gemini CLI reports a hook's denial to the model as a function
 * response error starting `Tool execution blocked:`.
 *
 * @module
 */

import { realClientSuite } from "../real_client/harness.ts";
import {
  type AgentMoves,
  registerCreditScenario,
  registerSharedScenarios,
} from "../real_client/scenarios.ts";
import { GEMINI_DRIVER } from "./driver.ts";

const { install, test } = await realClientSuite("gemini");

/** How the fake model spells Gemini CLI's moves; file paths relative to the project, as models write them. */
export const GEMINI_MOVES: AgentMoves = {
  driver: GEMINI_DRIVER,
  shell: (command) => ({ name: "run_shell_command", input: { command, description: "run" } }),
  edit: (_project, rel, oldText, newText) => ({
    name: "replace",
    input: { file_path: rel, old_string: oldText, new_string: newText, instruction: "edit" },
  }),
  blocked: "Tool execution blocked: ",
  shownPath: (_project, rel) => rel,
};

registerSharedScenarios(GEMINI_MOVES, install, test);

// BeforeTool has no field that reaches the model with a passing call: the credit is silent.
registerCreditScenario(GEMINI_MOVES, install, test, null);
