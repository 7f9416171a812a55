/**
 * Adds, updates or removes a GateGuard registration in the text of an
 * agent's hook settings file, one small JSONC splice at a time, so the
 * user's other settings, comments and layout stay byte for byte. A file
 * that does not parse is never changed.
 *
 * The editor works on the grouped layout Claude Code introduced and other
 * agents copied: `hooks.<event>` is a list of entries, each a `matcher` and
 * a `hooks` list of handlers. A `HookFormat` says which event, which
 * entries a registration consists of, and what a handler looks like.
 *
 * @module
 */

import {
  appendItemEdits,
  applyEdits,
  detectFormat,
  getProperty,
  type JsonArrayNode,
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
import type { CommandKind } from "./recognise.ts";

/** One entry of a registration: its matcher and the tools that matcher must reach. */
export interface WantedEntry {
  matcher: string;
  tools: readonly string[];
}

/** An agent's grouped hook layout, as the editor needs to know it. */
export interface HookFormat {
  /** The key under `hooks` that holds the entries (`PreToolUse`). */
  event: string;
  /** The entries of one registration, in the order they are written. */
  entries: readonly WantedEntry[];
  /** The handler object that runs `command`. */
  handler(command: string): { [key: string]: JsonValue };
  /** Whether an entry's matcher (as written) reaches a tool. */
  covers(matcher: unknown, tool: string): boolean;
  /** Handler keys init takes off GateGuard's own handler: they would keep it from gating. */
  strippedKeys: readonly string[];
  /** How a handler (parsed JSON) relates to GateGuard; `ownCommand` is this build's command. */
  kindOf(handler: unknown, ownCommand: string): CommandKind;
}

/** The entries of a registration running `command`, as JSON. */
export function wantedGroups(format: HookFormat, command: string): JsonValue[] {
  return format.entries.map((entry) => ({
    matcher: entry.matcher,
    hooks: [format.handler(command)],
  }));
}

/**
 * What editing a settings file produced. `text` is null when there is no
 * file to write; `leftAlone` lists the commands that name GateGuard without
 * being a command it registers, which the edit did not touch.
 */
export type EditOutcome =
  | { ok: true; text: string | null; leftAlone?: string[] }
  | { ok: false; error: string };

type Step = { kind: "edit"; edits: TextEdit[] } | { kind: "done" } | {
  kind: "error";
  error: string;
};

interface GroupScan {
  node: JsonObjectNode;
  handlers: JsonArrayNode;
  /** Indexes of the GateGuard handlers in `handlers`. */
  ours: number[];
  /** Every handler of the entry is GateGuard's, so the entry is GateGuard's. */
  pure: boolean;
}

/** The entries that hold at least one GateGuard handler. */
function scanGroups(format: HookFormat, list: JsonArrayNode, command: string): GroupScan[] {
  const found: GroupScan[] = [];
  for (const node of list.items) {
    if (node.type !== "object") continue;
    const handlers = getProperty(node, "hooks")?.value;
    if (handlers?.type !== "array") continue;
    const ours = handlers.items.flatMap((h, k) =>
      format.kindOf(toValue(h), command) === "ours" ? [k] : []
    );
    if (ours.length > 0) {
      found.push({ node, handlers, ours, pure: ours.length === handlers.items.length });
    }
  }
  return found;
}

/**
 * Pairs each wanted entry with an existing entry of ours: first one whose
 * matcher reaches that entry's tools and no other entry's, then, for the
 * entries still unpaired, one that reaches several.
 */
function pairEntries(format: HookFormat, scans: GroupScan[]): Array<GroupScan | undefined> {
  const reached = scans.map((scan) => {
    const matcherProp = getProperty(scan.node, "matcher");
    const matcher = matcherProp ? toValue(matcherProp.value) : undefined;
    return format.entries.flatMap((entry, k) =>
      entry.tools.some((tool) => format.covers(matcher, tool)) ? [k] : []
    );
  });
  const paired: Array<GroupScan | undefined> = format.entries.map(() => undefined);
  const used = new Set<GroupScan>();
  const pick = (k: number, fits: (reach: number[]) => boolean): void => {
    if (paired[k]) return;
    const s = scans.findIndex((scan, i) => !used.has(scan) && fits(reached[i]));
    if (s >= 0) {
      paired[k] = scans[s];
      used.add(scans[s]);
    }
  };
  format.entries.forEach((_, k) => pick(k, (reach) => reach.length === 1 && reach[0] === k));
  format.entries.forEach((_, k) => pick(k, (reach) => reach.length !== 1));
  return paired;
}

function indexOfProperty(object: JsonObjectNode, key: string): number {
  for (let k = object.properties.length - 1; k >= 0; k--) {
    if (object.properties[k].key === key) return k;
  }
  return -1;
}

function sameScalar(node: JsonNode | undefined, value: JsonValue): boolean {
  return node !== undefined && node.type !== "object" && node.type !== "array" &&
    node.value === value;
}

/** Brings one paired entry to the wanted matcher and handler, one splice per step. */
function fixGroup(
  format: HookFormat,
  text: string,
  group: GroupScan,
  matcher: string,
  handler: { [key: string]: JsonValue },
  fmt: TextFormat,
): TextEdit[] | null {
  if (group.handlers.items.length > 1) return removeChildEdits(text, group.handlers, 1);
  if (!sameScalar(getProperty(group.node, "matcher")?.value, matcher)) {
    return setPropertyEdits(text, group.node, "matcher", matcher, fmt);
  }
  const node = group.handlers.items[0] as JsonObjectNode;
  for (const [key, value] of Object.entries(handler)) {
    if (!sameScalar(getProperty(node, key)?.value, value)) {
      return setPropertyEdits(text, node, key, value, fmt);
    }
  }
  for (const key of format.strippedKeys) {
    const k = indexOfProperty(node, key);
    if (k >= 0) return removeChildEdits(text, node, k);
  }
  return null;
}

function addStep(
  format: HookFormat,
  text: string,
  root: JsonNode,
  command: string,
  fmt: TextFormat,
): Step {
  if (root.type !== "object") return { kind: "error", error: "the top level is not a JSON object" };
  const hooks = getProperty(root, "hooks")?.value;
  const groups = wantedGroups(format, command);
  if (!hooks) {
    return {
      kind: "edit",
      edits: setPropertyEdits(text, root, "hooks", { [format.event]: groups }, fmt),
    };
  }
  if (hooks.type !== "object") return { kind: "error", error: '"hooks" is not an object' };
  const list = getProperty(hooks, format.event)?.value;
  if (!list) {
    return { kind: "edit", edits: setPropertyEdits(text, hooks, format.event, groups, fmt) };
  }
  if (list.type !== "array") {
    return { kind: "error", error: `"hooks.${format.event}" is not a list` };
  }

  const scans = scanGroups(format, list, command);
  const mixed = scans.find((s) => !s.pure);
  if (mixed) return { kind: "edit", edits: removeChildEdits(text, mixed.handlers, mixed.ours[0]) };
  const paired = pairEntries(format, scans);
  const extra = scans.find((s) => !paired.includes(s));
  if (extra) {
    return { kind: "edit", edits: removeChildEdits(text, list, list.items.indexOf(extra.node)) };
  }
  const handler = format.handler(command);
  for (const [k, entry] of format.entries.entries()) {
    const group = paired[k];
    const edits = group ? fixGroup(format, text, group, entry.matcher, handler, fmt) : null;
    if (edits) return { kind: "edit", edits };
  }
  const missing = paired.findIndex((group) => group === undefined);
  if (missing >= 0) {
    return { kind: "edit", edits: appendItemEdits(text, list, groups[missing], fmt) };
  }
  return { kind: "done" };
}

function removeStep(
  format: HookFormat,
  text: string,
  root: JsonNode,
  command: string,
  removedAny: boolean,
): Step {
  if (root.type !== "object") return { kind: "done" };
  const hooksIndex = indexOfProperty(root, "hooks");
  const hooks = hooksIndex >= 0 ? root.properties[hooksIndex].value : undefined;
  if (hooks?.type !== "object") return { kind: "done" };
  const listIndex = indexOfProperty(hooks, format.event);
  const list = listIndex >= 0 ? hooks.properties[listIndex].value : undefined;
  if (list?.type === "array") {
    const group = scanGroups(format, list, command)[0];
    if (group) {
      return {
        kind: "edit",
        edits: group.pure
          ? removeChildEdits(text, list, list.items.indexOf(group.node))
          : removeChildEdits(text, group.handlers, group.ours[0]),
      };
    }
  }
  // Containers emptied by this removal go too; ones the user left empty stay.
  if (!removedAny) return { kind: "done" };
  if (list?.type === "array" && list.items.length === 0) {
    return { kind: "edit", edits: removeChildEdits(text, hooks, listIndex) };
  }
  if (hooks.properties.length === 0) {
    return { kind: "edit", edits: removeChildEdits(text, root, hooksIndex) };
  }
  return { kind: "done" };
}

/** The commands of handlers under the event that name GateGuard in a shape it never writes. */
function unsureCommands(format: HookFormat, root: JsonNode, command: string): string[] {
  const hooks = root.type === "object" ? getProperty(root, "hooks")?.value : undefined;
  const list = hooks?.type === "object" ? getProperty(hooks, format.event)?.value : undefined;
  if (list?.type !== "array") return [];
  const found: string[] = [];
  for (const entry of list.items) {
    const handlers = entry.type === "object" ? getProperty(entry, "hooks")?.value : undefined;
    if (handlers?.type !== "array") continue;
    for (const node of handlers.items) {
      const handler = toValue(node);
      if (format.kindOf(handler, command) === "unsure") {
        found.push(String((handler as Record<string, JsonValue>).command));
      }
    }
  }
  return found;
}

/** Upper bound on splices per run; a settings file needs only a handful. */
const MAX_STEPS = 256;

/**
 * Adds or removes the GateGuard registration in the text of a settings file
 * (null when the file does not exist). Only the parts that differ from the
 * wanted registration change. Never throws.
 */
export function editRegistration(
  format: HookFormat,
  original: string | null,
  command: string,
  mode: "add" | "remove",
): EditOutcome {
  if (original === null || original.trim() === "") {
    if (mode === "remove") return { ok: true, text: original, leftAlone: [] };
    const fresh = { hooks: { [format.event]: wantedGroups(format, command) } };
    return { ok: true, text: `${JSON.stringify(fresh, null, 2)}\n`, leftAlone: [] };
  }
  const first = parseJsonc(original, { allowDuplicateKeys: true });
  if (!first.ok) {
    const e = first.error;
    return { ok: false, error: `cannot parse it at ${e.line}:${e.column}: ${e.message}` };
  }
  const fmt = detectFormat(original);
  let text = original;
  let root = first.root;
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    const step = mode === "add"
      ? addStep(format, text, root, command, fmt)
      : removeStep(format, text, root, command, text !== original);
    if (step.kind === "error") return { ok: false, error: step.error };
    if (step.kind === "done") {
      return { ok: true, text, leftAlone: unsureCommands(format, root, command) };
    }
    text = applyEdits(text, step.edits);
    const reparsed = parseJsonc(text, { allowDuplicateKeys: true });
    if (!reparsed.ok) return { ok: false, error: "internal error: the edit would break the file" };
    root = reparsed.root;
  }
  return { ok: false, error: "internal error: too many changes needed" };
}
