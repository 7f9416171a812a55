/**
 * End to end: a change to Claude Code's settings that would switch
 * GateGuard off, on a project registered by the real `gateguard init`, is
 * denied through the CLI until repeated; other settings changes pass, and
 * `gateguard explain` names the rule.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { type CliResult, runCli, runHook } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";

function kindOf(r: CliResult): string {
  assertEquals(r.code, 0, r.stderr);
  if (r.stdout.trim() === "") return "pass";
  return JSON.parse(r.stdout).hookSpecificOutput.permissionDecision ?? "note";
}

Deno.test("[claude-settings] through the CLI a registered project's hooks cannot be turned off without a denial", async () => {
  const { root, env } = await sandbox({ "src/a.py": "x = 1\n" });
  const init = await runCli(["init", "--shared"], { env, cwd: root });
  assertEquals(init.code, 0, init.stderr);
  const file = `${root}/.claude/settings.json`;
  const installed = JSON.parse(await Deno.readTextFile(file));
  const payload = (content: unknown) => ({
    session_id: "sg",
    cwd: root,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: file, content: JSON.stringify(content, null, 2) },
  });
  const hook = (content: unknown) => runHook(payload(content), { env, cwd: root });

  const off = { ...installed, disableAllHooks: true };
  const first = await hook(off);
  assertEquals(kindOf(first), "deny");
  const text = JSON.parse(first.stdout).hookSpecificOutput.permissionDecisionReason;
  assertStringIncludes(text, `This change to ${file} would switch GateGuard off or weaken it:`);
  assertStringIncludes(text, '- "disableAllHooks": true would stop every hook, GateGuard included');

  const explained = await runCli(["explain", "--json"], {
    stdin: JSON.stringify(payload({})),
    env,
    cwd: root,
  });
  assertEquals(explained.code, 0, explained.stderr);
  const target = JSON.parse(explained.stdout).targets[0];
  assertEquals([target.rule, target.reason], ["settings-guard", "settings-weakening"]);

  assertEquals(kindOf(await hook({})), "deny", "a different change is asked again");
  assertEquals(kindOf(await hook(off)), "pass", "the same change retried");
  assertEquals(kindOf(await hook(off)), "deny", "the retry passes once");
  // Another key of the same file passes as before, without a denial.
  assertEquals(kindOf(await hook({ ...installed, model: "opus" })), "pass");
});
