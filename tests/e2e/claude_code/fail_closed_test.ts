/**
 * `"onFailure": "block"` in the real client: GateGuard's registration as
 * `init` writes it, with its program made unstartable (a from-source
 * checkout moved away, say). With the field the agent's next Bash call is
 * blocked and never runs; the control run, the same entry without the
 * field, lets the call through unchecked, as every client before 2.1.295.
 *
 * @module
 */

import { assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { ensureClaudeCode } from "../../../scripts/install_claude_code.ts";
import { toolUseId } from "./fake_api.ts";
import {
  cleanup,
  deniedToolUseIds,
  describeRun,
  readTranscript,
  resultRecord,
  runScenario,
  type Scenario,
} from "./harness.ts";

const install = await ensureClaudeCode();
if (!install.ok) {
  console.log(
    `[real-client] SKIPPED: the pinned Claude Code could not be installed (${install.reason}).`,
  );
}

/** Points every GateGuard handler at a program that is gone; keeps or drops `onFailure`. */
function breakRegistration(keepOnFailure: boolean): Scenario["prepare"] {
  return async (tree) => {
    const path = `${tree.project}/.claude/settings.json`;
    const settings = JSON.parse(await Deno.readTextFile(path));
    for (
      const entries of Object.values(settings.hooks) as { hooks: Record<string, unknown>[] }[][]
    ) {
      for (const entry of entries) {
        for (const handler of entry.hooks) {
          handler.command = `${tree.root}/moved-away/gateguard`;
          if (!keepOnFailure) delete handler.onFailure;
        }
      }
    }
    await Deno.writeTextFile(path, `${JSON.stringify(settings, null, 2)}\n`);
  };
}

function scenario(keepOnFailure: boolean): Scenario {
  return {
    files: { "notes.txt": "notes\n" },
    prompt: "Make a build folder.",
    prepare: breakRegistration(keepOnFailure),
    turns: () => [
      {
        blocks: [{
          type: "tool_use",
          name: "Bash",
          input: { command: "mkdir built", description: "Make a folder" },
        }],
      },
      { blocks: [{ type: "text", text: "Done." }] },
    ],
  };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test({
  name: "[fail-to-deny] real client: a registered GateGuard that cannot start blocks the call",
  ignore: !install.ok,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const run = await runScenario(install.ok ? install.binary : "", scenario(true));
    try {
      const info = describeRun(run);
      assertEquals(run.code, 0, info);
      assertEquals(await exists(`${run.tree.project}/built`), false, info);
      const record = resultRecord(await readTranscript(run), toolUseId(0, 0)) as
        | { message: { content: { content: string; is_error: boolean }[] } }
        | undefined;
      const result = record?.message.content[0];
      assertEquals(result?.is_error, true, info);
      assertStringIncludes(
        result?.content ?? "",
        `PreToolUse:Bash hook error: [${run.tree.root}/moved-away/gateguard]: failed; ` +
          'blocking because onFailure is "block"',
        info,
      );
      assertEquals(deniedToolUseIds(run), [toolUseId(0, 0)], info);
    } finally {
      await cleanup(run);
    }
  },
});

Deno.test({
  name:
    "[fail-to-deny] real client: without onFailure the same broken registration lets the call run",
  ignore: !install.ok,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const run = await runScenario(install.ok ? install.binary : "", scenario(false));
    try {
      const info = describeRun(run);
      assertEquals(run.code, 0, info);
      assertEquals(await exists(`${run.tree.project}/built`), true, info);
      assertEquals(deniedToolUseIds(run), [], info);
    } finally {
      await cleanup(run);
    }
  },
});
