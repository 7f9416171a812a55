/**
 * Codex CLI: every shell tool arrives as Claude Code's shell tool with
 * `tool_input.command`, every edit as `apply_patch` with the patch text in
 * `tool_input.command`.
 *
 * A patch becomes one file-gate call per file it touches
 * (`patch_calls.ts`). An input without its command text is denied as
 * unreadable. Every call carries the
 * rollout file and the turn and call ids, which `codex_log.ts` reads for
 * prior-search credit and the destructive-retry check. Codex reads the same
 * `hookSpecificOutput` answer as Claude Code, `additionalContext` included.
 *
 * @module
 */

import { type AgentAdapter, type CallOrigin, stringField } from "./adapter.ts";
import { inputObject, malformedCall, shellFieldCall } from "./agent_calls.ts";
import { patchTranslation } from "./patch_calls.ts";
import { agentTool } from "../tools/gated.ts";
import { textField } from "../tools/fields.ts";
import { askAsDeny, renderOutcome } from "../hook/respond.ts";

function originOf(payload: Record<string, unknown>): CallOrigin {
  return {
    sessionId: stringField(payload, "session_id"),
    cwd: stringField(payload, "cwd"),
    transcriptPath: stringField(payload, "transcript_path"),
    toolUseId: stringField(payload, "tool_use_id"),
    // Codex names each turn; its rollout records carry the same id.
    promptId: stringField(payload, "turn_id"),
    logKind: "codex",
  };
}

/** The Codex adapter. */
export const CODEX_ADAPTER: AgentAdapter = {
  translate(payload) {
    const tool = agentTool("codex", payload.tool_name);
    if (tool === null) return { kind: "calls", calls: [] };
    const origin = originOf(payload);
    const input = inputObject(payload, "tool_input");
    if (!input.ok) return { kind: "calls", calls: [malformedCall(origin, tool, input.problem)] };
    if (tool.shape === "shell") {
      return { kind: "calls", calls: [shellFieldCall(origin, tool, input.value)] };
    }
    const patch = textField(input.value, "command");
    if (!patch.ok) return { kind: "calls", calls: [malformedCall(origin, tool, patch.problem)] };
    return patchTranslation(origin, tool.name, patch.value);
  },
  // Codex treats an ask answer as invalid and runs the tool: it is denied instead, every time.
  render: (outcome) => renderOutcome(askAsDeny(outcome)),
};
