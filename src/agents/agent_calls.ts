/**
 * Gate calls built from another agent's tool input, read strictly.
 *
 * Every adapter reads its tools' fields through `tools/fields.ts`: a
 * required field that is missing or mistyped makes the call a
 * `MalformedCall`, which the gate denies on every try, instead of a call
 * with no command or no file, which would pass. The denial names the tool
 * as the agent does, and the field.
 *
 * @module
 */

import { type CallOrigin, fileGateCall, gateCall } from "./adapter.ts";
import type { HookCall } from "../hook/call.ts";
import type { FileChange, TextEdit } from "../tools/call.ts";
import { type Field, malformed, textField } from "../tools/fields.ts";
import { type AgentTool, type GatedTool, shellTool, TOOL } from "../tools/gated.ts";
import { isRecord } from "../platform/json.ts";

/** `payload[field]` as a tool's input object, or what is wrong with it. */
export function inputObject(
  payload: Record<string, unknown>,
  field: string,
): Field<Record<string, unknown>> {
  const value = payload[field];
  if (value === undefined) return { ok: false, problem: `\`${field}\` is missing` };
  return isRecord(value) ? { ok: true, value } : {
    ok: false,
    problem: `\`${field}\` is not an object`,
  };
}

/** The gate GateGuard decides a tool of another agent as, by its shape. */
function gatedAs(tool: AgentTool): GatedTool {
  if (tool.gate === "shell") return shellTool(tool.dialect ?? "bash");
  if (tool.shape === "replace") return TOOL.edit;
  return tool.shape === "write" ? TOOL.write : TOOL.multiEdit;
}

/** The call of `tool` whose input cannot be read: denied, naming `problem`. */
export function malformedCall(origin: CallOrigin, tool: AgentTool, problem: string): HookCall {
  return gateCall(origin, gatedAs(tool), malformed(tool.name, problem));
}

/**
 * The shell-gate call of `tool`'s command, from `input[field]` (text); a
 * `session` call is text typed into a running shell (`tools/call.ts`).
 */
export function shellCommandCall(
  origin: CallOrigin,
  tool: AgentTool,
  command: Field<string>,
  session = false,
): HookCall {
  if (!command.ok) return malformedCall(origin, tool, command.problem);
  const dialect = tool.dialect ?? "bash";
  return gateCall(origin, shellTool(dialect), {
    kind: "shell",
    dialect,
    command: command.value,
    ...(session ? { session: tool.name } : {}),
  });
}

/** The shell-gate call of `tool`, whose command is the text field `field` of `input`. */
export function shellFieldCall(
  origin: CallOrigin,
  tool: AgentTool,
  input: Record<string, unknown>,
  field = "command",
): HookCall {
  return shellCommandCall(origin, tool, textField(input, field));
}

/** The file-gate call of one search-and-replace of `tool`. */
export function replaceCall(
  origin: CallOrigin,
  tool: AgentTool,
  path: Field<string>,
  edit: Field<TextEdit>,
): HookCall {
  if (!path.ok) return malformedCall(origin, tool, path.problem);
  if (!edit.ok) return malformedCall(origin, tool, edit.problem);
  return fileGateCall(origin, TOOL.edit, path.value, { kind: "edits", edits: [edit.value] });
}

/** The file-gate call of a whole-file write of `tool`; `content` null when the tool sends none. */
export function writeCall(
  origin: CallOrigin,
  tool: AgentTool,
  path: Field<string>,
  content: Field<string | null>,
): HookCall {
  if (!path.ok) return malformedCall(origin, tool, path.problem);
  if (!content.ok) return malformedCall(origin, tool, content.problem);
  // A write whose content is not sent is still a write: its change is never read.
  const change: FileChange = content.value === null
    ? { kind: "opaque" }
    : { kind: "write", content: content.value };
  return fileGateCall(origin, TOOL.write, path.value, change);
}
