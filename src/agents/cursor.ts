/**
 * Cursor (from its documentation and from payloads others recorded; no
 * client to check against here): `preToolUse` with `Shell` `{command,
 * working_directory}` (Cursor 3.11 sends `cwd` instead) to the shell gate,
 * `Write` `{file_path, content}` to the file gate, and `Delete` to both the
 * file gate and the destructive gate (`deletionGateCalls`). Cursor's tools
 * have named their path `file_path`, `target_file` and `path`; any of them
 * is read, and a call naming two different paths is denied as unreadable,
 * as is one naming none (`agent_calls.ts`). A Write without `content` is
 * still gated, its change unread. The session is the `conversation_id`;
 * where the payload's `cwd` is empty, the first of `workspace_roots` (a
 * `/C:/…` root read as `C:/…`). Cursor's transcript format is not known
 * here, so no call carries it: no prior-search credit, and a destructive
 * retry passes on its second run as with a Claude Code payload that names
 * no transcript.
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
  stringField,
} from "./adapter.ts";
import { inputObject, malformedCall, shellFieldCall, writeCall } from "./agent_calls.ts";
import type { HookCall } from "../hook/call.ts";
import type { Outcome } from "../hook/decision.ts";
import { askAsDeny } from "../hook/respond.ts";
import { type AgentTool, agentTool } from "../tools/gated.ts";
import { type Field, optionalTextField } from "../tools/fields.ts";

/** The spellings of a file tool's path, in the order they are named in a denial. */
const PATH_FIELDS = ["file_path", "target_file", "path"] as const;

/** The spellings of a Shell call's working directory. */
const DIR_FIELDS = ["working_directory", "cwd"] as const;

/**
 * The one value the text fields `names` of `input` give, null when none
 * gives one (an empty text gives none: Cursor sends an empty `cwd`). Two
 * different values are a problem, since the tool reads only one of them
 * and which one is not known here.
 */
function oneOf(
  input: Record<string, unknown>,
  names: readonly string[],
  what: string,
): Field<string | null> {
  let found: { name: string; value: string } | null = null;
  for (const name of names) {
    const field = optionalTextField(input, name);
    if (!field.ok) return field;
    if (field.value === null || field.value === "") continue;
    if (found !== null && found.value !== field.value) {
      return {
        ok: false,
        problem: `it names two different ${what}, \`${found.name}\` and \`${name}\``,
      };
    }
    found ??= { name, value: field.value };
  }
  return { ok: true, value: found?.value ?? null };
}

function pathOf(input: Record<string, unknown>): Field<string> {
  const path = oneOf(input, PATH_FIELDS, "paths");
  if (!path.ok) return path;
  if (path.value !== null) return { ok: true, value: path.value };
  const names = PATH_FIELDS.map((n) => `\`${n}\``);
  return { ok: false, problem: `it names no file (no ${names.join(", ")})` };
}

/** Where the call runs: the payload's `cwd`, else the first workspace root. */
function cwdOf(payload: Record<string, unknown>): string | null {
  const cwd = stringField(payload, "cwd");
  if (cwd !== null) return cwd;
  const roots = payload.workspace_roots;
  const first = Array.isArray(roots) && typeof roots[0] === "string" ? roots[0] : "";
  if (first === "") return null;
  // Cursor writes a Windows root as a URI path: `/C:/Users/…`.
  return /^\/[A-Za-z]:\//.test(first) ? first.slice(1) : first;
}

function call(origin: CallOrigin, tool: AgentTool, input: Record<string, unknown>): HookCall[] {
  switch (tool.shape) {
    case "shell": {
      const dir = oneOf(input, DIR_FIELDS, "working directories");
      if (!dir.ok) return [malformedCall(origin, tool, dir.problem)];
      const where = dir.value === null ? origin.cwd : againstBase(dir.value, origin.cwd);
      return [shellFieldCall({ ...origin, cwd: where }, tool, input)];
    }
    case "delete": {
      const path = pathOf(input);
      return path.ok
        ? deletionGateCalls(origin, path.value)
        : [malformedCall(origin, tool, path.problem)];
    }
    default:
      return [writeCall(origin, tool, pathOf(input), optionalTextField(input, "content"))];
  }
}

/** The Cursor adapter. */
export const CURSOR_ADAPTER: AgentAdapter = {
  translate(payload) {
    const tool = agentTool("cursor", payload.tool_name);
    if (tool === null) return { kind: "calls", calls: [] };
    const origin: CallOrigin = {
      sessionId: stringField(payload, "conversation_id"),
      cwd: cwdOf(payload),
    };
    const input = inputObject(payload, "tool_input");
    return {
      kind: "calls",
      calls: input.ok
        ? call(origin, tool, input.value)
        : [malformedCall(origin, tool, input.problem)],
    };
  },
  render(outcome: Outcome): string {
    // No ask answer here: a question for the user is denied, every time.
    const answer = askAsDeny(outcome);
    return answer.kind === "deny"
      ? JSON.stringify({
        permission: "deny",
        agent_message: answer.text,
        user_message: answer.text,
      })
      : "";
  },
};
