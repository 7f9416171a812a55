/**
 * Claude Code: its payload is the one the table of gated tools reads
 * (`tool_name`, `tool_input`), and its answer is the `hookSpecificOutput`
 * form `hook/respond.ts` renders.
 *
 * A payload another agent sent (GateGuard registered without `--agent` in
 * that agent's hook file) names tools this adapter would not gate, so every
 * call would pass unchecked: it is refused instead, naming the fix.
 *
 * @module
 */

import type { AgentAdapter } from "./adapter.ts";
import { callFromObject } from "../hook/call.ts";
import { renderOutcome } from "../hook/respond.ts";
import { payloadAgents } from "../tools/gated.ts";
import { wrongAgentText } from "../questions/messages.ts";

/** The Claude Code adapter: the payload is parsed as it is. */
export const CLAUDE_ADAPTER: AgentAdapter = {
  translate: (payload) => {
    const others = payloadAgents(payload);
    if (others.length > 0) return { kind: "refuse", text: wrongAgentText(others) };
    return { kind: "calls", calls: [callFromObject(payload)] };
  },
  render: renderOutcome,
};
