/**
 * GateGuard's ConfigChange hook in the real client: the agent's own shell
 * command (`sed -i`) takes GateGuard's file-tool entry out of the project
 * settings mid-session, Claude Code asks its ConfigChange hooks, and the
 * change never applies to the session, so the next Write is still gated.
 * A control run without GateGuard's ConfigChange entry shows the same edit
 * switching the file gate off, so the block is the hook's doing.
 *
 * The client runs under bypassPermissions (as root that needs IS_SANDBOX=1):
 * under acceptEdits, `-p` refuses a Bash write to `.claude/settings.json`
 * by itself before any hook is asked. GateGuard's own Bash gate is switched
 * off for these runs, so the `sed -i` reaches the disk and only the
 * ConfigChange hook stands in its way.
 *
 * @module
 */

import { MCP_CHANGE_MATCHER } from "../../../src/tools/gated.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { ensureClaudeCode } from "../../../scripts/install_claude_code.ts";
import { type ScriptedTurn, toolUseId } from "./fake_api.ts";
import {
  cleanup,
  deniedToolUseIds,
  describeRun,
  runScenario,
  type Scenario,
  type ScenarioRun,
} from "./harness.ts";

const install = await ensureClaudeCode();
if (!install.ok) {
  console.log(
    `[real-client] SKIPPED: the pinned Claude Code could not be installed (${install.reason}).`,
  );
}

const FILE_MATCHER = '"matcher": "Edit|Write|MultiEdit|NotebookEdit"';
// In a basic regular expression `|` is an ordinary character, so the matcher is found as written.
const SED = `sed -i 's/${FILE_MATCHER}/"matcher": "NoSuchTool"/' .claude/settings.json`;

function bash(command: string): ScriptedTurn[] {
  return [{ blocks: [{ type: "tool_use", name: "Bash", input: { command, description: "Run" } }] }];
}

/** The scenario: sed the file-tool entry away, wait for the watcher, look, then Write a new file. */
function scenario(prepare?: Scenario["prepare"]): Scenario {
  return {
    files: { "notes.txt": "notes\n" },
    prompt: "Tidy the project settings, then add a file.",
    args: ["--permission-mode", "bypassPermissions"],
    env: { IS_SANDBOX: "1", ECC_DISABLED_HOOKS: "pre:bash:gateguard-fact-force" },
    prepare,
    turns: (project) => [
      ...bash(SED),
      ...bash("sleep 3; cat .claude/settings.json"),
      {
        blocks: [{
          type: "tool_use",
          name: "Write",
          input: { file_path: `${project}/new.txt`, content: "new\n" },
        }],
      },
      { blocks: [{ type: "text", text: "Done." }] },
    ],
  };
}

async function settingsOnDisk(run: ScenarioRun): Promise<string> {
  return await Deno.readTextFile(`${run.tree.project}/.claude/settings.json`);
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test({
  name:
    "[self-protection] real client: a sed -i taking GateGuard's entry out of the settings mid-session never applies",
  ignore: !install.ok,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const run = await runScenario(install.ok ? install.binary : "", scenario());
    try {
      const info = describeRun(run);
      assertEquals(run.code, 0, info);
      // The edit reached the disk, and Claude Code left it there.
      const onDisk = await settingsOnDisk(run);
      const written = JSON.parse(onDisk);
      assertEquals(
        written.hooks.PreToolUse.map((e: { matcher: string }) => e.matcher),
        ["NoSuchTool", "Bash|PowerShell", MCP_CHANGE_MATCHER],
        info,
      );
      // The session kept the settings it loaded: the Write was still gated.
      assertEquals(deniedToolUseIds(run), [toolUseId(2, 0)], info);
      assertEquals(await exists(`${run.tree.project}/new.txt`), false, info);
    } finally {
      await cleanup(run);
    }
  },
});

Deno.test({
  name:
    "[self-protection] real client: without GateGuard's ConfigChange entry the same sed -i switches the file gate off",
  ignore: !install.ok,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const run = await runScenario(
      install.ok ? install.binary : "",
      scenario(async (tree) => {
        const path = `${tree.project}/.claude/settings.json`;
        const settings = JSON.parse(await Deno.readTextFile(path));
        delete settings.hooks.ConfigChange;
        await Deno.writeTextFile(path, `${JSON.stringify(settings, null, 2)}\n`);
      }),
    );
    try {
      const info = describeRun(run);
      assertEquals(run.code, 0, info);
      assertEquals(deniedToolUseIds(run), [], info);
      assertEquals(await Deno.readTextFile(`${run.tree.project}/new.txt`), "new\n", info);
    } finally {
      await cleanup(run);
    }
  },
});
