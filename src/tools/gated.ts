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
import type { ShellDialect, TextEdit, ToolCall } from "./call.ts";
import {
  type Field,
  malformed,
  optionalFlag,
  optionalPathField,
  optionalTextField,
  pathField,
  textField,
} from "./fields.ts";

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

/** One replacement from its raw fields, or null when a field has the wrong type. */
export function readTextEdit(
  oldString: unknown,
  newString: unknown,
  replaceAll: unknown,
): TextEdit | null {
  const edit = textEditOf({
    old_string: oldString,
    new_string: newString,
    replace_all: replaceAll,
  });
  return edit.ok ? edit.value : null;
}

/** The spellings of one replacement's fields in an agent's tool input. */
export interface EditFieldNames {
  oldText: string;
  newText: string;
  /** The flag that replaces every occurrence; null when the tool has none. */
  all: string | null;
  /** True when a missing new text means "replace with nothing". */
  newOptional?: boolean;
}

const CLAUDE_EDIT: EditFieldNames = {
  oldText: "old_string",
  newText: "new_string",
  all: "replace_all",
};

/** One replacement read strictly from `input` under `names` (Claude Code's by default). */
export function textEditOf(
  input: Record<string, unknown>,
  names: EditFieldNames = CLAUDE_EDIT,
): Field<TextEdit> {
  const oldString = textField(input, names.oldText);
  if (!oldString.ok) return oldString;
  const newString = names.newOptional
    ? optionalTextField(input, names.newText)
    : textField(input, names.newText);
  if (!newString.ok) return newString;
  const replaceAll = names.all === null ? null : optionalFlag(input, names.all);
  if (replaceAll !== null && !replaceAll.ok) return replaceAll;
  return {
    ok: true,
    value: {
      oldString: oldString.value,
      newString: newString.value ?? "",
      replaceAll: replaceAll?.value ?? false,
    },
  };
}

function readEdit(input: Record<string, unknown>, name: string): ToolCall {
  const path = pathField(input, "file_path");
  if (!path.ok) return malformed(name, path.problem);
  const edit = textEditOf(input);
  if (!edit.ok) return malformed(name, edit.problem);
  return {
    kind: "file",
    touches: [{ path: path.value, verb: "edit", change: { kind: "edits", edits: [edit.value] } }],
  };
}

function readWrite(input: Record<string, unknown>, name: string): ToolCall {
  const path = pathField(input, "file_path");
  if (!path.ok) return malformed(name, path.problem);
  const content = textField(input, "content");
  if (!content.ok) return malformed(name, content.problem);
  return {
    kind: "file",
    touches: [{
      path: path.value,
      verb: "write",
      change: { kind: "write", content: content.value },
    }],
  };
}

/**
 * Entries without a path of their own change the call's file, and the tool
 * writes that file whatever the entries name, so it is always a touch
 * (with no replacements of its own). An entry that cannot be read makes the
 * whole call unreadable: the tool applies it all or nothing.
 */
function readMultiEdit(input: Record<string, unknown>, name: string): ToolCall {
  const callPath = pathField(input, "file_path");
  if (!callPath.ok) return malformed(name, callPath.problem);
  const entries = input.edits;
  if (entries === undefined) return malformed(name, "`edits` is missing");
  if (!Array.isArray(entries)) return malformed(name, "`edits` is not a list");
  if (entries.length > MAX_INPUT_ENTRIES) {
    return { kind: "oversize", entries: entries.length, limit: MAX_INPUT_ENTRIES };
  }
  const touches = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const where = `entry ${i + 1} of \`edits\``;
    if (!isRecord(entry)) return malformed(name, `${where} is not an object`);
    const path = optionalPathField(entry, "file_path");
    if (!path.ok) return malformed(name, `${where}: ${path.problem}`);
    const edit = textEditOf(entry);
    if (!edit.ok) return malformed(name, `${where}: ${edit.problem}`);
    touches.push({
      path: path.value ?? callPath.value,
      verb: "edit" as const,
      change: { kind: "edits" as const, edits: [edit.value] },
    });
  }
  touches.push({
    path: callPath.value,
    verb: "edit" as const,
    change: { kind: "edits" as const, edits: [] },
  });
  return { kind: "file", touches };
}

function readNotebookEdit(input: Record<string, unknown>, name: string): ToolCall {
  const path = pathField(input, "notebook_path");
  if (!path.ok) return malformed(name, path.problem);
  return {
    kind: "file",
    touches: [{ path: path.value, verb: "edit", change: { kind: "opaque" } }],
  };
}

function fileTool(
  name: string,
  reader: (input: Record<string, unknown>, name: string) => ToolCall,
): GatedTool {
  return {
    name,
    gate: "file",
    hookId: HOOK_IDS.editWrite,
    dialect: null,
    read: (input) => reader(input, name),
  };
}

function shellEntry(name: string, hookId: string, dialect: ShellDialect): GatedTool {
  return {
    name,
    gate: "shell",
    hookId,
    dialect,
    read: (input) => {
      const command = textField(input, "command");
      return command.ok
        ? { kind: "shell", dialect, command: command.value }
        : malformed(name, command.problem);
    },
  };
}

/**
 * GateGuard's own tools by what they do. An agent adapter names the tool a
 * call is decided and reported as through this record, never by spelling
 * its name.
 */
export const TOOL = {
  edit: fileTool("Edit", readEdit),
  write: fileTool("Write", readWrite),
  multiEdit: fileTool("MultiEdit", readMultiEdit),
  notebookEdit: fileTool("NotebookEdit", readNotebookEdit),
  bash: shellEntry("Bash", HOOK_IDS.bash, "bash"),
  // PowerShell is the shell tool on Windows without Git Bash.
  powershell: shellEntry("PowerShell", HOOK_IDS.powershell, "powershell"),
} as const satisfies Readonly<Record<string, GatedTool>>;

/** Every tool GateGuard gates, file tools first. */
export const GATED_TOOLS: readonly GatedTool[] = [
  TOOL.edit,
  TOOL.write,
  TOOL.multiEdit,
  TOOL.notebookEdit,
  TOOL.bash,
  TOOL.powershell,
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

/** The shell tool of a dialect: its gate, off switch and the name it is reported under. */
export function shellTool(dialect: ShellDialect): GatedTool {
  return dialect === "powershell" ? TOOL.powershell : TOOL.bash;
}

/** The tool name a shell dialect is reported under (metrics, the shell checks). */
export function shellToolName(dialect: ShellDialect): string {
  return shellTool(dialect).name;
}

/**
 * Why the transcript scan keeps a tool's calls: a search whose completed
 * calls may credit, a shell whose commands are read for searches, or a
 * file read, which only feeds the closest-miss note.
 */
type ScanRole = "search" | "shell" | "read";

/** A Claude Code tool whose calls the transcript scan keeps. */
interface ScannedTool {
  name: string;
  role: ScanRole;
}

/**
 * Claude Code's tools that look at the tree without changing it. They are
 * not gated: their calls in the transcript are what the file gate credits.
 */
export const READ_TOOL = {
  glob: { name: "Glob", role: "search" },
  grep: { name: "Grep", role: "search" },
  ls: { name: "LS", role: "search" },
  read: { name: "Read", role: "read" },
} as const satisfies Readonly<Record<string, ScannedTool>>;

/** Every tool whose calls the transcript scan keeps: the read tools, then the shells. */
const SCANNED_TOOLS: readonly ScannedTool[] = [
  ...Object.values(READ_TOOL),
  ...toolNames("shell").map((name) => ({ name, role: "shell" as const })),
];

/** The names of `SCANNED_TOOLS`: what the file gate asks the transcript scan to keep. */
export const SCANNED_TOOL_NAMES: ReadonlySet<string> = new Set(SCANNED_TOOLS.map((t) => t.name));

/** The names of the scanned tools whose completed calls can credit (searches and shells). */
export const CREDITING_TOOL_NAMES: ReadonlySet<string> = new Set(
  SCANNED_TOOLS.filter((t) => t.role !== "read").map((t) => t.name),
);

/** Reads a gated tool's input into a typed call; null for a tool GateGuard does not gate. */
export function readToolCall(
  toolName: string,
  input: Record<string, unknown> | null,
): ToolCall | null {
  const tool = gatedTool(toolName);
  return tool ? tool.read(input ?? {}) : null;
}

/** The agents other than Claude Code, whose tools have names of their own. */
export type OtherAgent = "codex" | "gemini" | "copilot" | "cursor";

/**
 * How an adapter reads one of its agent's tools: a shell command, text
 * typed into a running shell session, one search-and-replace, a whole-file
 * write, a patch of several files, or a deletion.
 */
export type AgentToolShape =
  | "shell"
  | "shell-input"
  | "replace"
  | "write"
  | "patch"
  | "delete";

/** One gated tool of another agent, by the name that agent gives it. */
export interface AgentTool {
  name: string;
  /** The gate the registration must reach it for. */
  gate: Gate;
  shape: AgentToolShape;
  /** The language of a shell tool's commands; null for file tools. */
  dialect: ShellDialect | null;
  /**
   * The Claude Code name the agent gives the tool in a Claude-style hook
   * file, when it renames it there (Copilot CLI does: `bash` arrives as
   * `Bash`, `create` as `Write`, its own arguments unchanged).
   */
  claudeStyleName?: string;
}

function agentShell(name: string, dialect: ShellDialect = "bash"): AgentTool {
  return { name, gate: "shell", shape: "shell", dialect };
}

function agentShellInput(name: string, dialect: ShellDialect): AgentTool {
  return { name, gate: "shell", shape: "shell-input", dialect };
}

function agentFile(name: string, shape: AgentToolShape): AgentTool {
  return { name, gate: "file", shape, dialect: null };
}

/**
 * Every other agent's gated tools, shell tools first. The adapters route
 * by it and the registrations build their matchers from it.
 */
export const AGENT_TOOLS: Readonly<Record<OtherAgent, readonly AgentTool[]>> = {
  // Codex presents every shell tool as Claude Code's shell tool.
  codex: [agentShell(TOOL.bash.name), agentFile("apply_patch", "patch")],
  gemini: [
    agentShell("run_shell_command"),
    agentFile("write_file", "write"),
    agentFile("replace", "replace"),
  ],
  copilot: [
    { ...agentShell("bash"), claudeStyleName: TOOL.bash.name },
    { ...agentShell("powershell", "powershell"), claudeStyleName: TOOL.powershell.name },
    // Text typed into a shell session the agent started: run as commands.
    agentShellInput("write_bash", "bash"),
    agentShellInput("write_powershell", "powershell"),
    { ...agentFile("edit", "replace"), claudeStyleName: TOOL.edit.name },
    { ...agentFile("create", "write"), claudeStyleName: TOOL.write.name },
    agentFile("apply_patch", "patch"),
  ],
  cursor: [agentShell("Shell"), agentFile("Write", "write"), agentFile("Delete", "delete")],
};

/** The table entry of `agent`'s tool `name`, or null for a tool GateGuard does not gate. */
export function agentTool(agent: OtherAgent, name: unknown): AgentTool | null {
  return AGENT_TOOLS[agent].find((t) => t.name === name) ?? null;
}

/**
 * The table entry of the tool `agent` names `name` in a Claude-style hook
 * file: by the Claude Code name it gives the tool there, else by its own
 * (a tool it does not rename); null for a tool GateGuard does not gate.
 */
export function agentToolClaudeStyle(agent: OtherAgent, name: unknown): AgentTool | null {
  return AGENT_TOOLS[agent].find((t) => t.claudeStyleName === name) ?? agentTool(agent, name);
}

/**
 * The agents `payloadAgents` names, in order. Not Cursor: it loads Claude
 * Code's own hook files by design, so a project that registers GateGuard
 * for Claude Code (and for Cursor in Cursor's file) would have every Cursor
 * call denied by the first registration.
 */
const OTHER_AGENTS: readonly OtherAgent[] = ["codex", "gemini", "copilot"];

/**
 * The other agents whose payload this is, when it is not Claude Code's: a
 * camelCase `toolName` (Copilot CLI's own form), or a `tool_name` that no
 * Claude Code tool has and another agent's gated tool does (Cursor's
 * excepted, see `OTHER_AGENTS`). Empty for a Claude Code payload, whatever
 * its tool.
 */
export function payloadAgents(payload: Record<string, unknown>): OtherAgent[] {
  const name = payload.tool_name;
  if (name === undefined) {
    return agentTool("copilot", payload.toolName) === null ? [] : ["copilot"];
  }
  if (typeof name !== "string" || gatedTool(name) !== null) return [];
  if (Object.values(READ_TOOL).some((t) => t.name === name)) return [];
  return OTHER_AGENTS.filter((agent) => agentTool(agent, name) !== null);
}

/** The names of `agent`'s tools that go through `gate` (every gate when omitted). */
export function agentToolNames(agent: OtherAgent, gate?: Gate): string[] {
  return AGENT_TOOLS[agent].filter((t) => gate === undefined || t.gate === gate).map((t) => t.name);
}

/*
 * Tools GateGuard does not read but looks at for its own files: the tools
 * an MCP server gives Claude Code (`mcp__<server>__<tool>`) or Gemini CLI
 * (`mcp_<server>_<tool>`) whose names say they change something
 * (`write_file`, `move_file`, `edit_file`, …). Such a
 * tool can write any file its server reaches, so the paths in its input
 * (`foreign_input.ts`, loaded only for such a call) are matched against the
 * control surface; nothing else about the call is judged. `decide` checks a
 * name on every call, so the check lives here, beside the table it reads
 * before anything else loads.
 */

/** The verbs in a tool's name that say it changes something, each with its capital. */
const CHANGE_VERBS: readonly string[] = [
  "write",
  "edit",
  "create",
  "move",
  "rename",
  "delete",
  "remove",
  "save",
  "put",
  "append",
  "patch",
  "replace",
  "upload",
  "copy",
  "mkdir",
  "touch",
  "set",
];

/** A matcher for tool names that start with `prefix` and hold a change verb anywhere after it. */
function changeMatcher(prefix: string): string {
  return `${prefix}.*(${
    CHANGE_VERBS.map((v) => `[${v[0]}${v[0].toUpperCase()}]${v.slice(1)}`).join("|")
  })`;
}

/**
 * Claude Code's matcher for the MCP tools that may change files: an
 * unanchored regular expression over the tool's name, as Claude Code reads
 * a matcher that is not a plain list of names.
 */
export const MCP_CHANGE_MATCHER: string = changeMatcher("mcp__");

/**
 * Gemini CLI's: its MCP tools are named `mcp_<server>_<tool>`, and it reads
 * every BeforeTool matcher as an unanchored regular expression.
 */
export const GEMINI_MCP_CHANGE_MATCHER: string = changeMatcher("mcp_");

// Gemini CLI's prefix is the shorter, so its matcher reads both agents' names.
const MCP_CHANGE = new RegExp(GEMINI_MCP_CHANGE_MATCHER);

/** Example tool names the matcher must reach (`doctor` checks a registration against them). */
export const MCP_CHANGE_EXAMPLES: readonly string[] = [
  "mcp__filesystem__write_file",
  "mcp__filesystem__edit_file",
  "mcp__filesystem__move_file",
];

/** Gemini CLI's names for the tools of `MCP_CHANGE_EXAMPLES`. */
export const GEMINI_MCP_CHANGE_EXAMPLES: readonly string[] = [
  "mcp_filesystem_write_file",
  "mcp_filesystem_edit_file",
  "mcp_filesystem_move_file",
];

/** True for a tool GateGuard does not gate whose name says it may change files. */
export function changesThroughForeignTool(toolName: string): boolean {
  return MCP_CHANGE.test(toolName);
}
