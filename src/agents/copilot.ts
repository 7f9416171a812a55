/**
 * Copilot CLI: camelCase payloads (`sessionId`, `cwd`, `toolName`,
 * `toolArgs`), where `toolArgs` may be an object or a JSON string. `bash`
 * and `powershell` go to the shell gate; `edit` `{path, old_str, new_str}`
 * and `create` `{path, file_text}` to the file gate.
 *
 * The payload names no session log and no call id. The log is
 * `session-state/<sessionId>/events.jsonl` under `COPILOT_HOME`, else
 * under `~/.copilot`; the pending call is known there by its tool name and
 * arguments (`copilotCallKey`). `copilot_log.ts` reads it for prior-search
 * credit and the destructive-retry check.
 *
 * A denial is `{"permissionDecision":"deny","permissionDecisionReason":…}`,
 * which the model reads as the tool's result. No documented output field
 * reaches the model with a passing call, so a note passes silently.
 *
 * @module
 */

import {
  type AgentAdapter,
  type CallOrigin,
  fileGateCall,
  shellGateCall,
  stringField,
} from "./adapter.ts";
import { copilotCallKey, copilotLogPath } from "../session_logs/copilot_session.ts";
import type { Outcome } from "../hook/decision.ts";
import { agentTool, replaceChange, TOOL, writeChange } from "../tools/gated.ts";
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

/** The Copilot CLI adapter. */
export const COPILOT_ADAPTER: AgentAdapter = {
  translate(payload, env) {
    const tool = agentTool("copilot", payload.toolName);
    if (tool === null) return { kind: "calls", calls: [] };
    const args = toolArgsOf(payload.toolArgs);
    const sessionId = stringField(payload, "sessionId");
    const origin: CallOrigin = {
      sessionId,
      cwd: stringField(payload, "cwd"),
      transcriptPath: copilotLogPath(sessionId, env),
      toolUseId: copilotCallKey(tool.name, args),
      logKind: "copilot",
    };
    const path = stringField(args, "path");
    switch (tool.shape) {
      case "shell":
        return {
          kind: "calls",
          calls: [shellGateCall(origin, tool.dialect ?? "bash", args.command)],
        };
      case "replace": {
        const change = replaceChange(args.old_str, args.new_str, undefined);
        return { kind: "calls", calls: [fileGateCall(origin, TOOL.edit, path, change)] };
      }
      default:
        return {
          kind: "calls",
          calls: [fileGateCall(origin, TOOL.write, path, writeChange(args.file_text))],
        };
    }
  },
  render(outcome: Outcome): string {
    return outcome.kind === "deny"
      ? JSON.stringify({ permissionDecision: "deny", permissionDecisionReason: outcome.text })
      : "";
  },
};
