/**
 * Codex CLI: every shell tool arrives as `Bash` with `tool_input.command`,
 * every edit as `apply_patch` with the patch text in `tool_input.command`.
 *
 * A patch becomes one file-gate call per file it adds, updates, deletes or
 * moves to, so that one denial names every first touch; each call carries
 * that file's hunks for the change profile. A deletion also goes through the
 * destructive gate (see `deletionCommand`). Codex reads the same `hookSpecificOutput` answer as
 * Claude Code, `additionalContext` included.
 *
 * @module
 */

import { type AgentAdapter, deletionCommand, type GateCall, stringField } from "./adapter.ts";
import { MAX_PATCH_FILES, type PatchFile, readPatch } from "./codex_patch.ts";
import { isRecord } from "../platform/json.ts";
import { renderOutcome } from "../hook/respond.ts";

/** The fields every gate call of one Codex payload shares. */
/** The fields of a shell gate call: the session and where it runs. */
function shellBase(payload: Record<string, unknown>): GateCall {
  // No transcript: the shell gate reads Claude Code's transcript format only
  // (to tell a destructive retry from a second copy in one message), and a
  // rollout file read that way would make every retry look unseen.
  return { session_id: payload.session_id, cwd: payload.cwd };
}

/** The fields of a file gate call, with the rollout file `codex_log.ts` reads for credit. */
function fileBase(payload: Record<string, unknown>): GateCall {
  return {
    ...shellBase(payload),
    tool_use_id: payload.tool_use_id,
    transcript_path: payload.transcript_path,
    // Codex names each turn; its rollout records carry the same id.
    prompt_id: payload.turn_id,
    log_kind: "codex",
  };
}

function fileCall(base: GateCall, file: PatchFile): GateCall {
  if (file.op === "add") {
    return {
      ...base,
      tool_name: "Write",
      tool_input: { file_path: file.path, content: file.content ?? "" },
    };
  }
  // A deletion carries no edits: the change profile has nothing to read.
  const edits = file.op === "delete" ? [] : file.hunks.map((h) => ({
    file_path: file.path,
    old_string: h.oldText,
    new_string: h.newText,
  }));
  return { ...base, tool_name: "MultiEdit", tool_input: { file_path: file.path, edits } };
}

/** The refusal of a patch too large to read file by file. */
export function patchTooLargeText(): string {
  return `GateGuard: this patch touches more than ${MAX_PATCH_FILES} files, more than GateGuard ` +
    `reads in one call. Split it into smaller patches and retry.`;
}

/** The Codex adapter. */
export const CODEX_ADAPTER: AgentAdapter = {
  translate(payload) {
    const input = isRecord(payload.tool_input) ? payload.tool_input : {};
    const base = fileBase(payload);
    if (payload.tool_name === "Bash") {
      return {
        kind: "calls",
        calls: [{ ...shellBase(payload), tool_name: "Bash", tool_input: input }],
      };
    }
    if (payload.tool_name !== "apply_patch") return { kind: "calls", calls: [] };
    const patch = stringField(input, "command") ?? "";
    const read = readPatch(patch);
    if (!read.ok) return { kind: "refuse", text: patchTooLargeText() };
    const calls: GateCall[] = [];
    for (const file of read.files) {
      if (file.op === "delete") {
        calls.push({
          ...shellBase(payload),
          tool_name: "Bash",
          tool_input: { command: deletionCommand(file.path) },
        });
      }
      calls.push(fileCall(base, file));
    }
    return { kind: "calls", calls };
  },
  render: renderOutcome,
};
