/**
 * Tools GateGuard does not read but looks at for its own files
 * (`src/tools/gated.ts`, `src/tools/foreign_input.ts`): which MCP tool
 * names say they change files, and which strings of their input are paths.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  changesThroughForeignTool,
  GEMINI_MCP_CHANGE_EXAMPLES,
  GEMINI_MCP_CHANGE_MATCHER,
  MCP_CHANGE_EXAMPLES,
  MCP_CHANGE_MATCHER,
} from "../../src/tools/gated.ts";
import { foreignPaths } from "../../src/tools/foreign_input.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { MAX_INPUT_ENTRIES } from "../../src/tools/gated.ts";

Deno.test("[self-protection] an MCP tool whose name says it changes something is looked at; a reader or a built-in tool is not", () => {
  for (
    const name of [
      ...MCP_CHANGE_EXAMPLES,
      "mcp__filesystem__create_directory",
      "mcp__files__writeFile",
      "mcp__notes__deleteNote",
      "mcp__x__set_config",
    ]
  ) {
    assert(changesThroughForeignTool(name), name);
  }
  for (
    const name of [
      "mcp__filesystem__read_file",
      "mcp__filesystem__list_directory",
      "mcp__filesystem__search_files",
      "Write",
      "write_file",
      "Read",
    ]
  ) {
    assert(!changesThroughForeignTool(name), name);
  }
  // The registration matcher is the same expression, as Claude Code reads it.
  assert(new RegExp(MCP_CHANGE_MATCHER).test("mcp__filesystem__move_file"));
});

Deno.test("[self-protection] Gemini CLI's MCP names (mcp_<server>_<tool>) are read alike, and its matcher reaches them", () => {
  const gemini = new RegExp(GEMINI_MCP_CHANGE_MATCHER);
  for (const name of [...GEMINI_MCP_CHANGE_EXAMPLES, "mcp_notes_deleteNote", "mcp_x_set_config"]) {
    assert(changesThroughForeignTool(name), name);
    assert(gemini.test(name), name);
  }
  for (const name of ["mcp_filesystem_read_file", "run_shell_command", "write_file", "replace"]) {
    assert(!changesThroughForeignTool(name), name);
    assert(!gemini.test(name), name);
  }
  // Claude Code's matcher keeps to its own names.
  assert(!new RegExp(MCP_CHANGE_MATCHER).test("mcp_filesystem_write_file"));
});

Deno.test("[self-protection] the paths of a foreign tool's input are the strings under path-like keys, at any depth", () => {
  const paths = (input: Record<string, unknown>) => foreignPaths(input, new WorkBudget());
  assertEquals(paths({ path: "/p/.gateguard.jsonc", content: "/p/.claude/settings.json" }), [
    "/p/.gateguard.jsonc",
  ]);
  assertEquals(paths({ source: "a", destination: "~/.claude/settings.json" }), [
    "a",
    "~/.claude/settings.json",
  ]);
  assertEquals(paths({ paths: ["x", "y"], options: { output_path: "z", depth: 2 } }), [
    "x",
    "y",
    "z",
  ]);
  assertEquals(paths({ edits: [{ filePath: "file:///p/a%20b.json" }] }), ["/p/a b.json"]);
  assertEquals(paths({ uri: "file:///p/%E0%A4%A.json" }), ["/p/%E0%A4%A.json"]);
  // Past the entry limit nothing is read, and the caller fails closed.
  const many = { paths: Array.from({ length: MAX_INPUT_ENTRIES + 1 }, (_, i) => `f${i}`) };
  assertEquals(foreignPaths(many, new WorkBudget()), null);
  assertEquals(foreignPaths({ path: "x" }, new WorkBudget(1)), null);
});
