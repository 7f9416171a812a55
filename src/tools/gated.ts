/**
 * The one table of gated tools: each tool's name, the gate it goes
 * through, the hook id that switches that gate off, and the reader that
 * turns its `tool_input` into a typed call. Routing, registration
 * matchers, metrics validation and the change profile all read this table,
 * so a tool is added or renamed here and nowhere else.
 *
 * Readers never throw and bound their work before looking at entries: an
 * input with more entries than `MAX_INPUT_ENTRIES` is refused by count,
 * whatever its byte size.
 *
 * @module
 */

import { HOOK_IDS } from "../config/settings.ts";
import { isRecord } from "../platform/json.ts";
import type { FileChange, ShellDialect, TextEdit, ToolCall } from "./call.ts";

/** The gate a tool goes through. */
export type Gate = "file" | "shell";

/** One gated tool. */
export interface GatedTool {
  /** The tool name in the payload. */
  name: string;
  gate: Gate;
  /** The id in `ECC_DISABLED_HOOKS` that switches this tool's gate off. */
  hookId: string;
  /** The language of a shell tool's commands; null for file tools. */
  dialect: ShellDialect | null;
  /** Reads the tool's input (an empty object when the payload had none). */
  read: (input: Record<string, unknown>) => ToolCall;
}

/**
 * Most entries one call's input may hold (MultiEdit `edits`). Far above any
 * real batch of edits, far below what would let a payload cost seconds.
 */
export const MAX_INPUT_ENTRIES = 1000;

function pathField(input: Record<string, unknown>, name: string): string | null {
  const v = input[name];
  return typeof v === "string" && v !== "" ? v : null;
}

/** One replacement from its raw fields, or null when a field has the wrong type. */
export function readTextEdit(
  oldString: unknown,
  newString: unknown,
  replaceAll: unknown,
): TextEdit | null {
  if (typeof oldString !== "string" || typeof newString !== "string") return null;
  if (replaceAll !== undefined && typeof replaceAll !== "boolean") return null;
  return { oldString, newString, replaceAll: replaceAll === true };
}

function editsOf(edit: TextEdit | null): FileChange {
  return edit === null ? { kind: "unreadable" } : { kind: "edits", edits: [edit] };
}

function readEdit(input: Record<string, unknown>): ToolCall {
  const path = pathField(input, "file_path");
  const change = editsOf(readTextEdit(input.old_string, input.new_string, input.replace_all));
  return { kind: "file", touches: path ? [{ path, verb: "edit", change }] : [] };
}

function readWrite(input: Record<string, unknown>): ToolCall {
  const path = pathField(input, "file_path");
  const change: FileChange = typeof input.content === "string"
    ? { kind: "write", content: input.content }
    : { kind: "unreadable" };
  return { kind: "file", touches: path ? [{ path, verb: "write", change }] : [] };
}

/**
 * Entries without a path of their own change the call's file, and the tool
 * writes that file whatever the entries name, so it is always a touch
 * (with no replacements of its own).
 */
function readMultiEdit(input: Record<string, unknown>): ToolCall {
  const callPath = pathField(input, "file_path");
  const entries = Array.isArray(input.edits) ? input.edits : [];
  if (entries.length > MAX_INPUT_ENTRIES) {
    return { kind: "oversize", entries: entries.length, limit: MAX_INPUT_ENTRIES };
  }
  const touches = [];
  for (const entry of entries) {
    if (!isRecord(entry)) continue;
    const path = pathField(entry, "file_path") ?? callPath;
    if (!path) continue;
    const edit = readTextEdit(entry.old_string, entry.new_string, entry.replace_all);
    touches.push({ path, verb: "edit" as const, change: editsOf(edit) });
  }
  if (callPath) {
    touches.push({
      path: callPath,
      verb: "edit" as const,
      change: { kind: "edits" as const, edits: [] },
    });
  }
  return { kind: "file", touches };
}

function readNotebookEdit(input: Record<string, unknown>): ToolCall {
  const path = pathField(input, "notebook_path");
  return {
    kind: "file",
    touches: path ? [{ path, verb: "edit", change: { kind: "opaque" } }] : [],
  };
}

function fileTool(name: string, read: GatedTool["read"]): GatedTool {
  return { name, gate: "file", hookId: HOOK_IDS.editWrite, dialect: null, read };
}

function shellTool(name: string, hookId: string, dialect: ShellDialect): GatedTool {
  return {
    name,
    gate: "shell",
    hookId,
    dialect,
    read: (input) => ({
      kind: "shell",
      dialect,
      command: typeof input.command === "string" ? input.command : "",
    }),
  };
}

/** Every tool GateGuard gates, file tools first. */
export const GATED_TOOLS: readonly GatedTool[] = [
  fileTool("Edit", readEdit),
  fileTool("Write", readWrite),
  fileTool("MultiEdit", readMultiEdit),
  fileTool("NotebookEdit", readNotebookEdit),
  shellTool("Bash", HOOK_IDS.bash, "bash"),
  // PowerShell is the shell tool on Windows without Git Bash.
  shellTool("PowerShell", HOOK_IDS.powershell, "powershell"),
];

const BY_NAME: ReadonlyMap<string, GatedTool> = new Map(GATED_TOOLS.map((t) => [t.name, t]));

/** The table entry of a tool name, or null for a tool GateGuard does not gate. */
export function gatedTool(name: string): GatedTool | null {
  return BY_NAME.get(name) ?? null;
}

/** The names of the tools one gate serves, in table order. */
export function toolNames(gate: Gate): string[] {
  return GATED_TOOLS.filter((t) => t.gate === gate).map((t) => t.name);
}

/** The registration matcher of one gate: its tool names joined with `|`. */
export function gateMatcher(gate: Gate): string {
  return toolNames(gate).join("|");
}

/** The tool name a shell dialect is reported under (metrics, the shell checks). */
export function shellToolName(dialect: ShellDialect): string {
  const tool = GATED_TOOLS.find((t) => t.dialect === dialect);
  if (!tool) throw new Error(`no gated tool for ${dialect}`);
  return tool.name;
}

/** Reads a gated tool's input into a typed call; null for a tool GateGuard does not gate. */
export function readToolCall(
  toolName: string,
  input: Record<string, unknown> | null,
): ToolCall | null {
  const tool = gatedTool(toolName);
  return tool ? tool.read(input ?? {}) : null;
}
