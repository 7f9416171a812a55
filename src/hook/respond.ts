/**
 * Turns an outcome into what Claude Code reads on stdout.
 *
 * A denial carries `permissionDecision: "deny"` and its reason; a note
 * carries only `additionalContext` (GateGuard never answers `allow`, so other
 * hooks and permission rules still apply); a plain pass prints nothing.
 *
 * @module
 */

import type { Outcome } from "./decision.ts";

/** The stdout text for an outcome ("" for a plain pass). */
export function renderOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case "pass":
      return "";
    case "note":
      return JSON.stringify({
        hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: outcome.text },
      });
    case "deny":
      return JSON.stringify({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: outcome.text,
        },
      });
  }
}
