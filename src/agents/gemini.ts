/**
 * Gemini CLI: `run_shell_command` goes to the shell gate, running in its
 * `dir_path` when one is given; `replace` and `write_file` go to the file
 * gate, a relative `file_path` resolving against the payload's `cwd`.
 *
 * A denial is `{"decision":"deny","reason":…}` with exit 0, which the model
 * reads as the tool's error. GateGuard never answers `continue: false`,
 * which would end the agent's whole loop. BeforeTool has no documented
 * field that reaches the model with a passing call, so a note (credit,
 * comment-only edit) passes silently. Prior-search credit and the
 * destructive-retry check read the chat log the payload names
 * (`gemini_log.ts`).
 *
 * @module
 */

import {
  againstBase,
  type AgentAdapter,
  type CallOrigin,
  fileGateCall,
  shellGateCall,
  stringField,
} from "./adapter.ts";
import type { HookCall } from "../hook/call.ts";
import type { Outcome } from "../hook/decision.ts";
import { agentTool, replaceChange, TOOL, writeChange } from "../tools/gated.ts";
import { isRecord } from "../platform/json.ts";

function call(payload: Record<string, unknown>, input: Record<string, unknown>): HookCall | null {
  const tool = agentTool("gemini", payload.tool_name);
  if (tool === null) return null;
  const cwd = stringField(payload, "cwd");
  const origin: CallOrigin = {
    sessionId: stringField(payload, "session_id"),
    cwd,
    transcriptPath: stringField(payload, "transcript_path"),
    logKind: "gemini",
  };
  const path = stringField(input, "file_path");
  switch (tool.shape) {
    case "shell": {
      const dir = stringField(input, "dir_path");
      const where = dir === null ? cwd : againstBase(dir, cwd);
      return shellGateCall({ ...origin, cwd: where }, "bash", input.command);
    }
    case "replace":
      return fileGateCall(
        origin,
        TOOL.edit,
        path,
        // A mistyped allow_multiple is left out, as Gemini CLI would not honour it.
        replaceChange(
          input.old_string,
          input.new_string,
          typeof input.allow_multiple === "boolean" ? input.allow_multiple : undefined,
        ),
      );
    default:
      return fileGateCall(origin, TOOL.write, path, writeChange(input.content));
  }
}

/** The Gemini CLI adapter. */
export const GEMINI_ADAPTER: AgentAdapter = {
  translate(payload) {
    const one = call(payload, isRecord(payload.tool_input) ? payload.tool_input : {});
    return { kind: "calls", calls: one ? [one] : [] };
  },
  render(outcome: Outcome): string {
    return outcome.kind === "deny"
      ? JSON.stringify({ decision: "deny", reason: outcome.text })
      : "";
  },
};
