/**
 * A stdio MCP server for the real-client tests: one tool, `save_file`, that
 * writes what it is given, spoken as newline-delimited JSON-RPC as the
 * clients speak to a local server. Its name holds none of the names the
 * agents' own file tools go by, so only a registration entry for MCP tools
 * reaches it.
 *
 * @module
 */

import type { AgentTree } from "./harness.ts";

const SCRIPT = `
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

/** Writes the server into the tree; returns the command and arguments that start it. */
export async function mcpServer(tree: AgentTree): Promise<{ command: string; args: string[] }> {
  const path = `${tree.root}/mcp_server.js`;
  await Deno.writeTextFile(path, SCRIPT);
  return {
    command: Deno.execPath(),
    args: ["run", "--quiet", "--allow-read", "--allow-write", path],
  };
}
