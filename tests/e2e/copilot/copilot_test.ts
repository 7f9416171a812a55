/**
 * GateGuard in the real Copilot CLI (pinned in `scripts/install_agents.ts`),
 * registered by `gateguard init --agent copilot`, against the fake Chat
 * Completions API. Copilot CLI reports a hook's denial to the model as a
 * tool message starting `Denied by preToolUse hook:`. Prior-search credit
 * reads the session's `events.jsonl`; Copilot CLI has no field that carries
 * a note on a passing call, so the credit is silent.
 *
 * @module
 */

import { realClientSuite } from "../real_client/harness.ts";
import {
  type AgentMoves,
  registerCreditScenario,
  registerSharedScenarios,
} from "../real_client/scenarios.ts";
import { COPILOT_DRIVER } from "./driver.ts";

const { install, test } = await realClientSuite("copilot");

/** How the fake model spells Copilot CLI's moves; its file tools take absolute paths. */
export const COPILOT_MOVES: AgentMoves = {
  driver: COPILOT_DRIVER,
  shell: (command) => ({ name: "bash", input: { command, description: "run" } }),
  edit: (project, rel, oldText, newText) => ({
    name: "edit",
    input: { path: `${project}/${rel}`, old_str: oldText, new_str: newText },
  }),
  blocked: "Denied by preToolUse hook: ",
  shownPath: (project, rel) => `${project}/${rel}`,
};

registerSharedScenarios(COPILOT_MOVES, install, test);

registerCreditScenario(COPILOT_MOVES, install, test, null);
