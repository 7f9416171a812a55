/**
 * Tools GateGuard does not read but still looks at for its own files: the
 * tools an MCP server gives Claude Code (`mcp__<server>__<tool>`) whose
 * names say they change something (`write_file`, `move_file`,
 * `edit_file`, …). Such a tool can write any file its server reaches, so
 * the paths in its input are matched against the control surface; nothing
 * else about the call is judged. The registration matcher and the check of
 * a tool's name read the same verbs from here; the paths are read by
 * `foreign_input.ts`, loaded only for such a call.
 *
 * @module
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

/**
 * Claude Code's matcher for the MCP tools that may change files: an
 * unanchored regular expression over the tool's name, as Claude Code reads
 * a matcher that is not a plain list of names.
 */
export const MCP_CHANGE_MATCHER = `mcp__.*(${
  CHANGE_VERBS.map((v) => `[${v[0]}${v[0].toUpperCase()}]${v.slice(1)}`).join("|")
})`;

const MCP_CHANGE = new RegExp(MCP_CHANGE_MATCHER);

/** Example tool names the matcher must reach (`doctor` checks a registration against them). */
export const MCP_CHANGE_EXAMPLES: readonly string[] = [
  "mcp__filesystem__write_file",
  "mcp__filesystem__edit_file",
  "mcp__filesystem__move_file",
];

/** True for a tool GateGuard does not gate whose name says it may change files. */
export function changesThroughForeignTool(toolName: string): boolean {
  return MCP_CHANGE.test(toolName);
}
