/**
 * Codex CLI: every shell tool arrives as Claude Code's shell tool with
 * `tool_input.command`, every edit as `apply_patch` with the patch text in
 * `tool_input.command`.
 *
 * A patch becomes one file-gate call per file it adds, updates, deletes or
 * moves to, so that one denial names every first touch; each call carries
 * that file's hunks for the change profile. A deletion also goes through
 * the destructive gate (`deletionGateCalls`). Every call carries the
 * rollout file and the turn and call ids, which `codex_log.ts` reads for
 * prior-search credit and the destructive-retry check. Codex reads the same
 * `hookSpecificOutput` answer as Claude Code, `additionalContext` included.
 *
 * @module
 */

import {
  type AgentAdapter,
  type CallOrigin,
  deletionGateCalls,
  fileGateCall,
  gateCall,
  shellGateCall,
  stringField,
} from "./adapter.ts";
import { MAX_PATCH_FILES, type PatchFile, readPatch } from "../session_logs/codex_patch.ts";
import type { HookCall } from "../hook/call.ts";
import { agentTool, TOOL } from "../tools/gated.ts";
import { isRecord } from "../platform/json.ts";
import { renderOutcome } from "../hook/respond.ts";

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

function fileCalls(origin: CallOrigin, file: PatchFile): HookCall[] {
  switch (file.op) {
    case "add":
      return [fileGateCall(origin, TOOL.write, file.path, {
        kind: "write",
        content: file.content ?? "",
      })];
    case "delete":
      return deletionGateCalls(origin, file.path);
    default:
      return [gateCall(origin, TOOL.multiEdit, {
        kind: "file",
        touches: [{
          path: file.path,
          verb: "edit",
          change: {
            kind: "edits",
            edits: file.hunks.map((h) => ({
              oldString: h.oldText,
              newString: h.newText,
              replaceAll: false,
            })),
          },
        }],
      })];
  }
}

/** The refusal of a patch too large to read file by file. */
export function patchTooLargeText(): string {
  return `GateGuard: this patch touches more than ${MAX_PATCH_FILES} files, more than GateGuard ` +
    `reads in one call. Split it into smaller patches and retry.`;
}

/** The Codex adapter. */
export const CODEX_ADAPTER: AgentAdapter = {
  translate(payload) {
    const tool = agentTool("codex", payload.tool_name);
    if (tool === null) return { kind: "calls", calls: [] };
    const input = isRecord(payload.tool_input) ? payload.tool_input : {};
    const origin = originOf(payload);
    if (tool.shape === "shell") {
      return { kind: "calls", calls: [shellGateCall(origin, "bash", input.command)] };
    }
    const read = readPatch(stringField(input, "command") ?? "");
    if (!read.ok) return { kind: "refuse", text: patchTooLargeText() };
    return { kind: "calls", calls: read.files.flatMap((file) => fileCalls(origin, file)) };
  },
  render: renderOutcome,
};
