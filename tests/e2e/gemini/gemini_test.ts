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
import { mcpServer } from "../real_client/mcp_server.ts";

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
      const home = `${tree.home}/.gemini/settings.json`;
      const settings = JSON.parse(await Deno.readTextFile(home));
      await writeJson(home, {
        ...settings,
        mcpServers: { fs: { ...await mcpServer(tree), trust: true } },
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
