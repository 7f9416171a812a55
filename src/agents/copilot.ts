/**
 * Copilot CLI: camelCase payloads (`sessionId`, `cwd`, `toolName`,
 * `toolArgs`), where `toolArgs` may be an object or a JSON string. `bash`
 * and `powershell` go to the shell gate, and so do `write_bash` and
 * `write_powershell` `{shellId, input, delay}`, whose `input` is typed into
 * a running session and read as the command lines it runs
 * (`copilot_input.ts`); `edit` `{path, old_str, new_str?}` and `create`
 * `{path, file_text}` go to the file gate, and `apply_patch`, whose
 * `toolArgs` is the patch text itself, to the file gate file by file
 * (`patch_calls.ts`). A required field missing or mistyped is denied
 * (`agent_calls.ts`).
 *
 * The payload names no session log and no call id. The log is
 * `session-state/<sessionId>/events.jsonl` under `COPILOT_HOME`, else
 * under `~/.copilot`; the pending call is known there by its tool name and
 * arguments (`copilotCallKey`). `copilot_log.ts` reads it for prior-search
 * credit and the destructive-retry check.
 *
 * A Claude-style hook file gets snake_case payloads with Claude Code's tool
 * names over Copilot's own arguments; they are read the same way (`fieldsOf`).
 *
 * A denial is `{"permissionDecision":"deny","permissionDecisionReason":…}`,
 * which the model reads as the tool's result (in either kind of hook file). No documented output field
 * reaches the model with a passing call, so a note passes silently.
 *
 * @module
 */

import { type AgentAdapter, type CallOrigin, stringField, type Translation } from "./adapter.ts";
import { malformedCall, replaceCall, shellCommandCall, writeCall } from "./agent_calls.ts";
import { copilotCallKey, copilotLogPath } from "../session_logs/copilot_session.ts";
import { typedCommand } from "./copilot_input.ts";
import { patchTranslation } from "./patch_calls.ts";
import type { Outcome } from "../hook/decision.ts";
import { askAsDeny } from "../hook/respond.ts";
import { type AgentTool, agentTool, agentToolClaudeStyle, textEditOf } from "../tools/gated.ts";
import { type Field, pathField, textField } from "../tools/fields.ts";
import { isRecord } from "../platform/json.ts";

/** How Copilot CLI spells one search-and-replace: a missing `new_str` deletes the old text. */
const EDIT_FIELDS = { oldText: "old_str", newText: "new_str", all: null, newOptional: true };

/**
 * `toolArgs` as an object: given as one, or as a JSON string of one; else
 * what is wrong with it.
 */
export function toolArgsOf(value: unknown): Field<Record<string, unknown>> {
  if (isRecord(value)) return { ok: true, value };
  if (value === undefined) return { ok: false, problem: "`toolArgs` is missing" };
  const wrong = { ok: false as const, problem: "`toolArgs` is not an object" };
  if (typeof value !== "string") return wrong;
  try {
    const parsed = JSON.parse(value);
    return isRecord(parsed) ? { ok: true, value: parsed } : wrong;
  } catch {
    return wrong;
  }
}

function translate(origin: CallOrigin, tool: AgentTool, raw: unknown): Translation {
  const one = (call: ReturnType<typeof malformedCall>): Translation => ({
    kind: "calls",
    calls: [call],
  });
  if (tool.shape === "patch") {
    // A free-form tool: its arguments are the patch text itself.
    return typeof raw === "string"
      ? patchTranslation(origin, tool.name, raw)
      : one(malformedCall(origin, tool, "`toolArgs` is not patch text"));
  }
  const args = toolArgsOf(raw);
  if (!args.ok) return one(malformedCall(origin, tool, args.problem));
  const input = args.value;
  switch (tool.shape) {
    case "shell":
      return one(shellCommandCall(origin, tool, textField(input, "command")));
    case "shell-input": {
      const typed = textField(input, "input");
      return one(
        shellCommandCall(origin, tool, typed.ok ? typedCommand(typed.value) : typed, true),
      );
    }
    case "replace":
      return one(
        replaceCall(origin, tool, pathField(input, "path"), textEditOf(input, EDIT_FIELDS)),
      );
    default:
      return one(writeCall(origin, tool, pathField(input, "path"), textField(input, "file_text")));
  }
}

/**
 * Where a payload keeps each field. Copilot CLI also reads a Claude-style
 * hook file, and then sends snake_case payloads whose tool names are
 * Claude Code's (`Bash`, `Edit`, `Write`) over its own arguments (`path`,
 * `old_str`, `file_text`): read both, or a Claude-style registration would
 * find no tool and pass every call.
 */
function fieldsOf(payload: Record<string, unknown>): {
  tool: AgentTool | null;
  sessionId: string | null;
  raw: unknown;
} {
  if (payload.toolName === undefined && payload.tool_name !== undefined) {
    return {
      tool: agentToolClaudeStyle("copilot", payload.tool_name),
      sessionId: stringField(payload, "session_id"),
      raw: payload.tool_input,
    };
  }
  return {
    tool: agentTool("copilot", payload.toolName),
    sessionId: stringField(payload, "sessionId"),
    raw: payload.toolArgs,
  };
}

/** The Copilot CLI adapter. */
export const COPILOT_ADAPTER: AgentAdapter = {
  translate(payload, env) {
    const { tool, sessionId, raw } = fieldsOf(payload);
    if (tool === null) return { kind: "calls", calls: [] };
    // The log records a call's arguments as the payload carries them, parsed when given as JSON text.
    const parsed = tool.shape === "patch" ? null : toolArgsOf(raw);
    const origin: CallOrigin = {
      sessionId,
      cwd: stringField(payload, "cwd"),
      transcriptPath: copilotLogPath(sessionId, env),
      toolUseId: copilotCallKey(tool.name, parsed === null ? raw : parsed.ok ? parsed.value : raw),
      logKind: "copilot",
    };
    return translate(origin, tool, raw);
  },
  render(outcome: Outcome): string {
    // No ask answer here: a question for the user is denied, every time.
    const answer = askAsDeny(outcome);
    return answer.kind === "deny"
      ? JSON.stringify({ permissionDecision: "deny", permissionDecisionReason: answer.text })
      : "";
  },
};
