/**
 * Claude Code: its payload is GateGuard's own input dialect, and its answer
 * is the `hookSpecificOutput` form `hook/respond.ts` renders.
 *
 * @module
 */

import type { AgentAdapter } from "./adapter.ts";
import { renderOutcome } from "../hook/respond.ts";

/** The Claude Code adapter: the payload passes through unchanged. */
export const CLAUDE_ADAPTER: AgentAdapter = {
  translate: (payload) => ({ kind: "calls", calls: [payload] }),
  render: renderOutcome,
};
