/**
 * Adds, updates or removes GateGuard's registration in another agent's hook
 * file, whatever its layout (see `agent_registrations.ts`). Grouped files go
 * through the shared registration editor; a flat file gets the same
 * treatment, one JSONC splice at a time so comments and other hooks stay
 * byte for byte; a file GateGuard owns is written or removed whole, and only
 * while every hook in it is GateGuard's. A file that does not parse is never
 * changed.
 *
 * @module
 */

import {
  appendItemEdits,
  applyEdits,
  detectFormat,
  getProperty,
  type JsonNode,
  type JsonObjectNode,
  type JsonValue,
  parseJsonc,
  removeChildEdits,
  setPropertyEdits,
  type TextEdit,
  type TextFormat,
  toValue,
} from "../config/jsonc.ts";
import {
  agentCommand,
  type AgentRegistration,
  type FlatFormat,
  type OwnedFormat,
} from "./agent_registrations.ts";
import { type EditOutcome, editRegistration } from "./registration_edit.ts";

/** Upper bound on splices per run; a hook file needs only a handful. */
const MAX_STEPS = 256;

function pretty(value: JsonValue): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function parseError(text: string): EditOutcome | null {
  const parsed = parseJsonc(text, { allowDuplicateKeys: true });
  if (parsed.ok) return null;
  const e = parsed.error;
  return { ok: false, error: `cannot parse it at ${e.line}:${e.column}: ${e.message}` };
}

type Step = { kind: "edit"; edits: TextEdit[] } | { kind: "done" } | {
  kind: "error";
  error: string;
};

function sameValue(node: JsonNode | undefined, value: JsonValue): boolean {
  return node !== undefined && JSON.stringify(toValue(node)) === JSON.stringify(value);
}

/**
 * After a removal: the event's list, then the `hooks` object, when this
 * removal left them empty. Containers the user had left empty stay.
 */
function emptiedStep(
  text: string,
  root: JsonObjectNode,
  hooks: JsonObjectNode,
  event: string,
): Step {
  // The last member of a repeated key is the one that counts, as in `getProperty`.
  const listAt = hooks.properties.findLastIndex((p) => p.key === event);
  const list = listAt >= 0 ? hooks.properties[listAt].value : undefined;
  if (list?.type === "array" && list.items.length === 0) {
    return { kind: "edit", edits: removeChildEdits(text, hooks, listAt) };
  }
  const hooksAt = root.properties.findLastIndex((p) => p.key === "hooks");
  if (hooks.properties.length === 0 && hooksAt >= 0) {
    return { kind: "edit", edits: removeChildEdits(text, root, hooksAt) };
  }
  return { kind: "done" };
}

function flatStep(
  format: FlatFormat,
  text: string,
  root: JsonNode,
  command: string,
  mode: "add" | "remove",
  fmt: TextFormat,
  removedAny: boolean,
): Step {
  if (root.type !== "object") {
    return mode === "add" ? { kind: "error", error: "the top level is not a JSON object" } : {
      kind: "done",
    };
  }
  const wanted = format.handler(command);
  const hooks = getProperty(root, "hooks")?.value;
  if (mode === "add" && !getProperty(root, "version")) {
    return { kind: "edit", edits: setPropertyEdits(text, root, "version", 1, fmt) };
  }
  if (!hooks) {
    return mode === "add"
      ? {
        kind: "edit",
        edits: setPropertyEdits(text, root, "hooks", { [format.event]: [wanted] }, fmt),
      }
      : { kind: "done" };
  }
  if (hooks.type !== "object") {
    return mode === "add" ? { kind: "error", error: '"hooks" is not an object' } : { kind: "done" };
  }
  const list = getProperty(hooks, format.event)?.value;
  if (!list) {
    if (mode === "add") {
      return { kind: "edit", edits: setPropertyEdits(text, hooks, format.event, [wanted], fmt) };
    }
    return removedAny ? emptiedStep(text, root, hooks, format.event) : { kind: "done" };
  }
  if (list.type !== "array") {
    return mode === "add"
      ? { kind: "error", error: `"hooks.${format.event}" is not a list` }
      : { kind: "done" };
  }
  const ours = list.items.flatMap((item, k) => format.isOurs(toValue(item), command) ? [k] : []);
  if (mode === "remove") {
    if (ours.length > 0) return { kind: "edit", edits: removeChildEdits(text, list, ours[0]) };
    return removedAny ? emptiedStep(text, root, hooks, format.event) : { kind: "done" };
  }
  if (ours.length > 1) return { kind: "edit", edits: removeChildEdits(text, list, ours[1]) };
  if (ours.length === 0) return { kind: "edit", edits: appendItemEdits(text, list, wanted, fmt) };
  const node = list.items[ours[0]];
  if (node.type !== "object") return { kind: "done" };
  for (const [key, value] of Object.entries(wanted)) {
    if (!sameValue(getProperty(node, key)?.value, value)) {
      return { kind: "edit", edits: setPropertyEdits(text, node, key, value, fmt) };
    }
  }
  return { kind: "done" };
}

/** Edits a flat hook file (Cursor's layout). Never throws. */
export function editFlat(
  format: FlatFormat,
  original: string | null,
  command: string,
  mode: "add" | "remove",
): EditOutcome {
  if (original === null || original.trim() === "") {
    if (mode === "remove") return { ok: true, text: original };
    return {
      ok: true,
      text: pretty({ version: 1, hooks: { [format.event]: [format.handler(command)] } }),
    };
  }
  const bad = parseError(original);
  if (bad) return bad;
  const fmt = detectFormat(original);
  let text = original;
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    const parsed = parseJsonc(text, { allowDuplicateKeys: true });
    if (!parsed.ok) return { ok: false, error: "internal error: the edit would break the file" };
    const step = flatStep(format, text, parsed.root, command, mode, fmt, text !== original);
    if (step.kind === "error") return { ok: false, error: step.error };
    if (step.kind === "done") return { ok: true, text };
    text = applyEdits(text, step.edits);
  }
  return { ok: false, error: "internal error: too many changes needed" };
}

/**
 * Writes or removes a file GateGuard owns. `text: null` means the file
 * should not exist. A file holding any hook that is not GateGuard's is left
 * alone with an error, never overwritten or deleted.
 */
export function editOwned(
  format: OwnedFormat,
  original: string | null,
  command: string,
  mode: "add" | "remove",
): EditOutcome {
  const wanted = pretty(format.file(command));
  if (original === null) return { ok: true, text: mode === "add" ? wanted : null };
  if (original.trim() !== "") {
    const parsed = parseJsonc(original, { allowDuplicateKeys: true });
    if (!parsed.ok) {
      const e = parsed.error;
      return { ok: false, error: `cannot parse it at ${e.line}:${e.column}: ${e.message}` };
    }
    const handlers = format.handlers(toValue(parsed.root));
    if (handlers.some((h) => !format.isOurs(h, command))) {
      return { ok: false, error: "it holds hooks that are not GateGuard's" };
    }
  }
  if (mode === "remove") return { ok: true, text: null };
  return { ok: true, text: original === wanted ? original : wanted };
}

/**
 * Adds or removes GateGuard's registration for `reg`'s agent in the text of
 * its hook file (null when the file does not exist); `command` is the
 * GateGuard command, to which `hook --agent <name>` is appended.
 */
export function editAgentRegistration(
  reg: AgentRegistration,
  original: string | null,
  command: string,
  mode: "add" | "remove",
): EditOutcome {
  const full = agentCommand(command, reg.agent);
  const { layout } = reg;
  switch (layout.kind) {
    case "grouped":
      return editRegistration(layout.format, original, full, mode);
    case "flat":
      return editFlat(layout.format, original, full, mode);
    case "owned":
      return editOwned(layout.format, original, full, mode);
  }
}
