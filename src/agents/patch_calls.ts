/**
 * The gate calls of an `apply_patch` text (`*** Begin Patch` …), the edit
 * format Codex CLI and Copilot CLI share: one file-gate call per file the
 * patch adds, updates, deletes or moves to, so one denial names every first
 * touch; each call carries that file's hunks for the change profile. A
 * deletion also goes through the destructive gate (`deletionGateCalls`).
 *
 * @module
 */

import {
  type CallOrigin,
  deletionGateCalls,
  fileGateCall,
  gateCall,
  type Translation,
} from "./adapter.ts";
import { MAX_PATCH_FILES, type PatchFile, readPatch } from "../session_logs/codex_patch.ts";
import type { HookCall } from "../hook/call.ts";
import { malformed } from "../tools/fields.ts";
import { TOOL } from "../tools/gated.ts";

function fileCalls(origin: CallOrigin, file: PatchFile): HookCall[] {
  // A relative path is resolved by the file gate against the call's cwd.
  const path = file.path;
  switch (file.op) {
    case "add":
      return [fileGateCall(origin, TOOL.write, path, {
        kind: "write",
        content: file.content ?? "",
      })];
    case "delete":
      return deletionGateCalls(origin, path);
    case "update":
      // A file moved away leaves its path empty: a change whose content the gate does not read.
      if (file.movedAway) {
        return [fileGateCall(origin, TOOL.multiEdit, path, { kind: "opaque", removes: true })];
      }
      // falls through
    default:
      return [gateCall(origin, TOOL.multiEdit, {
        kind: "file",
        touches: [{
          path,
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

/**
 * What to decide for the patch text `patch` of tool `toolName` (as the
 * agent names it). A patch in which no file can be found is not read:
 * the tool may still find one where this reader does not.
 */
export function patchTranslation(
  origin: CallOrigin,
  toolName: string,
  patch: string,
): Translation {
  const read = readPatch(patch);
  if (!read.ok) return { kind: "refuse", text: patchTooLargeText() };
  if (read.files.length === 0) {
    return {
      kind: "calls",
      calls: [gateCall(origin, TOOL.multiEdit, malformed(toolName, "the patch names no file"))],
    };
  }
  return { kind: "calls", calls: read.files.flatMap((file) => fileCalls(origin, file)) };
}
