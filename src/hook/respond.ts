/**
 * Turns an outcome into what Claude Code reads on stdout.
 *
 * A denial carries `permissionDecision: "deny"` and its reason; a question
 * for the user `permissionDecision: "ask"` and its reason; a note
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
    case "ask":
      return JSON.stringify({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: outcome.kind,
          permissionDecisionReason: outcome.text,
        },
      });
  }
}

/**
 * The outcome as an agent without an `ask` answer must get it: a question
 * for the user becomes its denial, given every time.
 */
export function askAsDeny(outcome: Outcome): Outcome {
  return outcome.kind === "ask" ? { kind: "deny", text: outcome.denyText } : outcome;
}
