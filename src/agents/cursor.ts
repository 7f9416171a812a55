/**
 * Cursor (from its documentation; no client to check against here):
 * `preToolUse` with `Shell` `{command, working_directory}` to the shell
 * gate, `Write` `{file_path, content}` to the file gate, and `Delete` to
 * both the file gate and the destructive gate (`deletionGateCalls`). The
 * session is the `conversation_id`. Cursor's transcript format is not
 * known here, so no call carries it: no prior-search credit, and a
 * destructive retry passes on its second run as with a Claude Code payload
 * that names no transcript.
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
  type CallOrigin,
  deletionGateCalls,
  fileGateCall,
  shellGateCall,
  stringField,
} from "./adapter.ts";
import type { HookCall } from "../hook/call.ts";
import type { Outcome } from "../hook/decision.ts";
import { agentTool, TOOL, writeChange } from "../tools/gated.ts";
import { isRecord } from "../platform/json.ts";

/** The path a Write or Delete names: `file_path`, or `path` as some versions spell it. */
function pathOf(input: Record<string, unknown>): string | null {
  return stringField(input, "file_path") ?? stringField(input, "path");
}

function calls(payload: Record<string, unknown>, input: Record<string, unknown>): HookCall[] {
  const tool = agentTool("cursor", payload.tool_name);
  if (tool === null) return [];
  const cwd = stringField(payload, "cwd");
  const origin: CallOrigin = { sessionId: stringField(payload, "conversation_id"), cwd };
  switch (tool.shape) {
    case "shell": {
      const dir = stringField(input, "working_directory");
      const where = dir === null ? cwd : againstBase(dir, cwd);
      return [shellGateCall({ ...origin, cwd: where }, "bash", input.command)];
    }
    case "delete": {
      const path = pathOf(input);
      return path === null ? [] : deletionGateCalls(origin, path);
    }
    default:
      return [fileGateCall(origin, TOOL.write, pathOf(input), writeChange(input.content))];
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
