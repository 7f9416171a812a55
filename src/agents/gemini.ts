/**
 * Gemini CLI: `run_shell_command` goes to the shell gate, running in its
 * `dir_path` when one is given; `replace` and `write_file` go to the file
 * gate, a relative `file_path` resolving against the payload's `cwd`. A
 * required field missing or mistyped is denied (`agent_calls.ts`). An MCP
 * server's tool whose name says it changes files (`mcp_<server>_<tool>`)
 * goes on with its input as it came, for the paths it names.
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
  foreignToolCall,
  stringField,
} from "./adapter.ts";
import {
  inputObject,
  malformedCall,
  replaceCall,
  shellFieldCall,
  writeCall,
} from "./agent_calls.ts";
import type { HookCall } from "../hook/call.ts";
import type { Outcome } from "../hook/decision.ts";
import { askAsDeny } from "../hook/respond.ts";
import {
  type AgentTool,
  agentTool,
  changesThroughForeignTool,
  textEditOf,
} from "../tools/gated.ts";
import { optionalPathField, pathField, textField } from "../tools/fields.ts";

/** How Gemini CLI spells one search-and-replace. */
const REPLACE_FIELDS = { oldText: "old_string", newText: "new_string", all: "allow_multiple" };

function call(origin: CallOrigin, tool: AgentTool, input: Record<string, unknown>): HookCall {
  const path = pathField(input, "file_path");
  switch (tool.shape) {
    case "shell": {
      const dir = optionalPathField(input, "dir_path");
      if (!dir.ok) return malformedCall(origin, tool, dir.problem);
      const where = dir.value === null ? origin.cwd : againstBase(dir.value, origin.cwd);
      return shellFieldCall({ ...origin, cwd: where }, tool, input);
    }
    case "replace":
      return replaceCall(origin, tool, path, textEditOf(input, REPLACE_FIELDS));
    default:
      return writeCall(origin, tool, path, textField(input, "content"));
  }
}

/** The Gemini CLI adapter. */
export const GEMINI_ADAPTER: AgentAdapter = {
  translate(payload) {
    const tool = agentTool("gemini", payload.tool_name);
    const origin: CallOrigin = {
      sessionId: stringField(payload, "session_id"),
      cwd: stringField(payload, "cwd"),
      transcriptPath: stringField(payload, "transcript_path"),
      logKind: "gemini",
    };
    if (tool === null) {
      const name = stringField(payload, "tool_name");
      const foreign = name !== null && changesThroughForeignTool(name);
      return {
        kind: "calls",
        calls: foreign ? [foreignToolCall(origin, name, payload.tool_input)] : [],
      };
    }
    const input = inputObject(payload, "tool_input");
    return {
      kind: "calls",
      calls: [
        input.ok ? call(origin, tool, input.value) : malformedCall(origin, tool, input.problem),
      ],
    };
  },
  render(outcome: Outcome): string {
    // No ask answer here: a question for the user is denied, every time.
    const answer = askAsDeny(outcome);
    return answer.kind === "deny" ? JSON.stringify({ decision: "deny", reason: answer.text }) : "";
  },
};
