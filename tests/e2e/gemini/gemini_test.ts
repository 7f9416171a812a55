/**
 * GateGuard in the real Gemini CLI (pinned in `scripts/install_agents.ts`),
 * registered by `gateguard init --agent gemini`, against the fake Gemini
 * API. Gemini CLI reports a hook's denial to the model as a function
 * response error starting `Tool execution blocked:`.
 *
 * @module
 */

import { assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import {
  cleanupAgentRun,
  describeAgentRun,
  realClientSuite,
  registerByInit,
  runAgentScenario,
  writeJson,
} from "../real_client/harness.ts";
import {
  type AgentMoves,
  registerCreditScenario,
  registerSharedScenarios,
} from "../real_client/scenarios.ts";
import { GEMINI_DRIVER } from "./driver.ts";

const { install, test } = await realClientSuite("gemini");

/** How the fake model spells Gemini CLI's moves; file paths relative to the project, as models write them. */
export const GEMINI_MOVES: AgentMoves = {
  driver: GEMINI_DRIVER,
  shell: (command) => ({ name: "run_shell_command", input: { command, description: "run" } }),
  edit: (_project, rel, oldText, newText) => ({
    name: "replace",
    input: { file_path: rel, old_string: oldText, new_string: newText, instruction: "edit" },
  }),
  blocked: "Tool execution blocked: ",
  shownPath: (_project, rel) => rel,
};

registerSharedScenarios(GEMINI_MOVES, install, test);

// BeforeTool has no field that reaches the model with a passing call: the credit is silent.
registerCreditScenario(GEMINI_MOVES, install, test, null);

/**
 * A stdio MCP server with one tool, `save_file`, that writes what it is
 * given: newline-delimited JSON-RPC, as Gemini CLI speaks to a local server.
 * Its name holds none of the names the registration's first entry lists, so
 * only the entry for MCP tools reaches it.
 */
const MCP_SERVER = `
const out = (message) => Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(message) + "\\n"));
const TOOL = {
  name: "save_file",
  description: "Writes text to a file.",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string" }, content: { type: "string" } },
    required: ["path", "content"],
  },
};
function answer(m) {
  if (m.method === "initialize") {
    return { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "fs", version: "1" } };
  }
  if (m.method === "tools/list") return { tools: [TOOL] };
  if (m.method === "tools/call") {
    Deno.writeTextFileSync(m.params.arguments.path, m.params.arguments.content);
    return { content: [{ type: "text", text: "wrote " + m.params.arguments.path }] };
  }
  return {};
}
let buffer = "";
const decoder = new TextDecoder();
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  for (let at = buffer.indexOf("\\n"); at >= 0; at = buffer.indexOf("\\n")) {
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    if (line.trim() === "") continue;
    const message = JSON.parse(line);
    if (message.id !== undefined) out({ jsonrpc: "2.0", id: message.id, result: answer(message) });
  }
}
`;

test("[real-client:gemini] [self-protection] an MCP server's write to GateGuard's own file is blocked, one elsewhere runs", async () => {
  if (!install.ok) throw new Error("client missing");
  const write = (path: string, content: string) => ({
    name: "mcp_fs_save_file",
    input: { path, content },
  });
  const run = await runAgentScenario(GEMINI_DRIVER, install, {
    files: { "notes.txt": "old\n" },
    prompt: "write the notes",
    register: async (tree) => {
      await registerByInit(tree, "gemini");
      const server = `${tree.root}/mcp_server.js`;
      await Deno.writeTextFile(server, MCP_SERVER);
      const home = `${tree.home}/.gemini/settings.json`;
      const settings = JSON.parse(await Deno.readTextFile(home));
      await writeJson(home, {
        ...settings,
        mcpServers: {
          fs: {
            command: Deno.execPath(),
            args: ["run", "--quiet", "--allow-read", "--allow-write", server],
            trust: true,
          },
        },
      });
    },
    replies: (p) => [
      { calls: [write(`${p}/.gateguard.jsonc`, "{}")] },
      {
        outputs: [{
          includes: [
            GEMINI_MOVES.blocked,
            "- the tool mcp_fs_save_file, which GateGuard does not read, may write, move or " +
            "delete it, and what it would leave behind cannot be read before it runs",
          ],
        }],
        paths: { [`${p}/.gateguard.jsonc`]: "missing" },
        calls: [write(`${p}/notes.txt`, "new\n")],
      },
      {
        outputs: [{ includes: ["wrote "], excludes: [GEMINI_MOVES.blocked] }],
        paths: { [`${p}/notes.txt`]: { text: "new\n" } },
        text: "Done.",
      },
    ],
  });
  const context = describeAgentRun(run);
  assertEquals(run.code, 0, context);
  assertEquals(run.model.failures(), [], context);
  // The registration init wrote holds the entry that reached the tool.
  const project = await Deno.readTextFile(`${run.tree.project}/.gemini/settings.json`);
  assertStringIncludes(project, '"mcp_.*(');
  await cleanupAgentRun(run);
});
