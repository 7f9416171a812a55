/**
 * Copilot CLI: camelCase payloads (`sessionId`, `cwd`, `toolName`,
 * `toolArgs`), where `toolArgs` may be an object or a JSON string. `bash`
 * and `powershell` go to the shell gate; `edit` `{path, old_str, new_str}`
 * and `create` `{path, file_text}` to the file gate.
 *
 * A denial is `{"permissionDecision":"deny","permissionDecisionReason":…}`,
 * which the model reads as the tool's result. No documented output field
 * reaches the model with a passing call, so a note passes silently.
 *
 * @module
 */

import type { AgentAdapter, GateCall } from "./adapter.ts";
import type { Outcome } from "../hook/decision.ts";
import { isRecord } from "../platform/json.ts";

/** `toolArgs` as an object: given as one, or as a JSON string of one; else empty. */
export function toolArgsOf(value: unknown): Record<string, unknown> {
  if (isRecord(value)) return value;
  if (typeof value !== "string") return {};
  try {
    const parsed = JSON.parse(value);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Copilot's tools, as GateGuard's tool name and the input fields renamed. */
const TOOLS: Readonly<Record<string, { tool: string; fields: Readonly<Record<string, string>> }>> =
  {
    bash: { tool: "Bash", fields: { command: "command" } },
    powershell: { tool: "PowerShell", fields: { command: "command" } },
    edit: {
      tool: "Edit",
      fields: { path: "file_path", old_str: "old_string", new_str: "new_string" },
    },
    create: { tool: "Write", fields: { path: "file_path", file_text: "content" } },
  };

/** The Copilot CLI adapter. */
export const COPILOT_ADAPTER: AgentAdapter = {
  translate(payload) {
    const name = typeof payload.toolName === "string" ? payload.toolName : "";
    const spec = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
    if (!spec) return { kind: "calls", calls: [] };
    const args = toolArgsOf(payload.toolArgs);
    const input: Record<string, unknown> = {};
    for (const [from, to] of Object.entries(spec.fields)) input[to] = args[from];
    const call: GateCall = {
      session_id: payload.sessionId,
      cwd: payload.cwd,
      tool_name: spec.tool,
      tool_input: input,
    };
    return { kind: "calls", calls: [call] };
  },
  render(outcome: Outcome): string {
    return outcome.kind === "deny"
      ? JSON.stringify({ permissionDecision: "deny", permissionDecisionReason: outcome.text })
      : "";
  },
};
