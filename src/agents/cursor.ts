/**
 * Cursor (from its documentation; no client to check against here):
 * `preToolUse` with `Shell` `{command, working_directory}` to the shell
 * gate, `Write` `{file_path, content}` to the file gate, and `Delete` to
 * both the file gate and the destructive gate (see `deletionCommand`).
 * The session is the `conversation_id`.
 *
 * A denial is `{"permission":"deny","agent_message":…,"user_message":…}`;
 * `agent_message` is what the agent reads. GateGuard is registered with
 * `failClosed: true`, so a crashed hook blocks rather than passes. No
 * documented field carries a note with a passing call: notes pass silently.
 *
 * @module
 */

import {
  againstBase,
  type AgentAdapter,
  deletionCommand,
  type GateCall,
  stringField,
} from "./adapter.ts";
import type { Outcome } from "../hook/decision.ts";
import { isRecord } from "../platform/json.ts";

/** The path a Write or Delete names: `file_path`, or `path` as some versions spell it. */
function pathOf(input: Record<string, unknown>): string | null {
  return stringField(input, "file_path") ?? stringField(input, "path");
}

function calls(payload: Record<string, unknown>, input: Record<string, unknown>): GateCall[] {
  const cwd = stringField(payload, "cwd");
  const base: GateCall = { session_id: payload.conversation_id, cwd };
  switch (payload.tool_name) {
    case "Shell": {
      const dir = stringField(input, "working_directory");
      const where = dir === null ? cwd : againstBase(dir, cwd);
      return [{ ...base, cwd: where, tool_name: "Bash", tool_input: { command: input.command } }];
    }
    case "Write":
      return [{
        ...base,
        tool_name: "Write",
        tool_input: { file_path: pathOf(input), content: input.content },
      }];
    case "Delete": {
      const path = pathOf(input);
      if (path === null) return [];
      return [
        { ...base, tool_name: "Bash", tool_input: { command: deletionCommand(path) } },
        { ...base, tool_name: "MultiEdit", tool_input: { file_path: path, edits: [] } },
      ];
    }
    default:
      return [];
  }
}

/** The Cursor adapter. */
export const CURSOR_ADAPTER: AgentAdapter = {
  translate(payload) {
    return {
      kind: "calls",
      calls: calls(payload, isRecord(payload.tool_input) ? payload.tool_input : {}),
    };
  },
  render(outcome: Outcome): string {
    return outcome.kind === "deny"
      ? JSON.stringify({
        permission: "deny",
        agent_message: outcome.text,
        user_message: outcome.text,
      })
      : "";
  },
};
