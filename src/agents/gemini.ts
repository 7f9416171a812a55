/**
 * Gemini CLI: `run_shell_command` goes to the shell gate, running in its
 * `dir_path` when one is given; `replace` and `write_file` go to the file
 * gate, a relative `file_path` resolving against the payload's `cwd`.
 *
 * A denial is `{"decision":"deny","reason":…}` with exit 0, which the model
 * reads as the tool's error. GateGuard never answers `continue: false`,
 * which would end the agent's whole loop. BeforeTool has no documented
 * field that reaches the model with a passing call, so a note (credit,
 * comment-only edit) passes silently. Prior-search credit reads the chat
 * log the payload names (`gemini_log.ts`).
 *
 * @module
 */

import { againstBase, type AgentAdapter, type GateCall, stringField } from "./adapter.ts";
import type { Outcome } from "../hook/decision.ts";
import { isRecord } from "../platform/json.ts";

function common(payload: Record<string, unknown>, cwd: unknown): GateCall {
  // The chat log, read by `gemini_log.ts` for prior-search credit.
  return {
    session_id: payload.session_id,
    cwd,
    transcript_path: payload.transcript_path,
    log_kind: "gemini",
  };
}

function call(
  payload: Record<string, unknown>,
  input: Record<string, unknown>,
): GateCall | null {
  switch (payload.tool_name) {
    case "run_shell_command": {
      const cwd = stringField(payload, "cwd");
      const dir = stringField(input, "dir_path");
      const where = dir === null ? cwd : againstBase(dir, cwd);
      return {
        ...common(payload, where),
        tool_name: "Bash",
        tool_input: { command: input.command },
      };
    }
    case "replace":
      return {
        ...common(payload, payload.cwd),
        tool_name: "Edit",
        tool_input: {
          file_path: input.file_path,
          old_string: input.old_string,
          new_string: input.new_string,
          ...(typeof input.allow_multiple === "boolean"
            ? { replace_all: input.allow_multiple }
            : {}),
        },
      };
    case "write_file":
      return {
        ...common(payload, payload.cwd),
        tool_name: "Write",
        tool_input: { file_path: input.file_path, content: input.content },
      };
    default:
      return null;
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
