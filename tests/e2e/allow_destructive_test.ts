/**
 * The allowDestructive hatch through the real hook: the user file in the
 * state folder lets a build folder's clean-up through, recorded in the
 * metrics as allowed-by-rule, and a link cannot carry a covered name out to
 * a folder no entry covers.
 */

import { tempDir } from "../helpers/temp.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runHook } from "../helpers/cli.ts";

Deno.test("[allow-destructive] the user file's entries pass a covered clean-up and nothing through a link", async () => {
  const dir = await tempDir({ prefix: "gg-allow-e2e-" });
  try {
    const project = `${dir}/project`;
    const state = `${dir}/state`;
    Deno.mkdirSync(`${project}/dist`, { recursive: true });
    Deno.mkdirSync(`${project}/src`);
    Deno.mkdirSync(state);
    Deno.symlinkSync(`${project}/src`, `${project}/out`);
    Deno.writeTextFileSync(
      `${state}/config.jsonc`,
      '{\n  // build output\n  "allowDestructive": ["dist/**", "out/**"],\n}\n',
    );
    const hook = (command: string) =>
      runHook(
        { session_id: "allow-e2e", cwd: project, tool_name: "Bash", tool_input: { command } },
        {
          env: {
            GATEGUARD_STATE_DIR: state,
            CLAUDE_PROJECT_DIR: project,
            HOME: `${dir}/home`,
            GATEGUARD_METRICS: "1",
          },
          cwd: project,
        },
      );
    const allowed = await hook("rm -rf dist && npm run build");
    assertEquals(allowed.stdout, "");
    // out/ is a link to src: deleting through it would empty src, which no entry covers.
    const linked = await hook("rm -rf out/");
    assertStringIncludes(linked.stdout, '"permissionDecision":"deny"');
    assertStringIncludes(linked.stdout, "Matched rule: core/rm-recursive.");
    const lines = Deno.readTextFileSync(`${state}/metrics.jsonl`).trim().split("\n")
      .map((l) => JSON.parse(l));
    assertEquals(
      lines.map((l) => [l.decision, l.reason, l.rule]),
      [
        ["allowed-by-rule", "allowed-by-rule", "core/rm-recursive"],
        ["destructive-deny", "destructive", "core/rm-recursive"],
      ],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
