/**
 * Claude Code: its payload is the one the table of gated tools reads
 * (`tool_name`, `tool_input`), and its answer is the `hookSpecificOutput`
 * form `hook/respond.ts` renders.
 *
 * @module
 */

import type { AgentAdapter } from "./adapter.ts";
import { callFromObject } from "../hook/call.ts";
import { renderOutcome } from "../hook/respond.ts";

/** The Claude Code adapter: the payload is parsed as it is. */
export const CLAUDE_ADAPTER: AgentAdapter = {
  translate: (payload) => ({ kind: "calls", calls: [callFromObject(payload)] }),
  render: renderOutcome,
};
