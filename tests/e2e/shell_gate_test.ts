/**
 * End-to-end tests of the shell gates through the real CLI.
 */

import { tempDir } from "../helpers/temp.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runHook } from "../helpers/cli.ts";

async function setup(): Promise<
  (
    tool: string,
    command: unknown,
    env?: Record<string, string>,
  ) => Promise<{ kind: string; text: string; stderr: string }>
> {
  const tmp = await tempDir({ prefix: "gg-shell-" });
  const base = { GATEGUARD_STATE_DIR: `${tmp}/state`, CLAUDE_PROJECT_DIR: tmp, HOME: tmp };
  return async (tool, command, env = {}) => {
    const r = await runHook(
      { session_id: "sh", cwd: tmp, tool_name: tool, tool_input: { command } },
      { env: { ...base, ...env }, cwd: tmp },
    );
    assertEquals(r.code, 0, r.stderr);
    if (r.stdout === "") return { kind: "pass", text: "", stderr: r.stderr };
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    return out.permissionDecision === "deny"
      ? { kind: "deny", text: out.permissionDecisionReason, stderr: r.stderr }
      : { kind: "note", text: out.additionalContext, stderr: r.stderr };
  };
}

Deno.test("[routine-bash-gate] read-only commands pass first; the first other command is denied once", async () => {
  const run = await setup();
  assertEquals((await run("Bash", "ls -la")).kind, "pass");
  assertEquals((await run("Bash", "git status && grep -rn foo src | head")).kind, "pass");
  const d = await run("Bash", "npm test");
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, "1. The current user request in one sentence");
  assertStringIncludes(d.text, "2. What this specific command verifies or produces");
  assertEquals((await run("Bash", "npm test")).kind, "pass");
  assertEquals((await run("Bash", "make build")).kind, "pass");
});

Deno.test("[destructive-bash-gate] a destructive command is denied until retried, then gated again", async () => {
  const run = await setup();
  const d = await run("Bash", "rm -rf build");
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, "1. List all files/data this command will modify or delete");
  assertStringIncludes(d.text, "2. Write a one-line rollback procedure");
  assertEquals((await run("Bash", "rm -rf build")).kind, "pass");
  assertEquals((await run("Bash", "rm -rf build")).kind, "deny");
  assertEquals((await run("Bash", "rm -rf dist")).kind, "deny");
});

Deno.test("[graduated-controls] GATEGUARD_BASH_ROUTINE_DISABLED turns off only the routine gate", async () => {
  const run = await setup();
  const off = { GATEGUARD_BASH_ROUTINE_DISABLED: " Yes " };
  assertEquals((await run("Bash", "npm test", off)).kind, "pass");
  assertEquals((await run("Bash", "git reset --hard HEAD~1", off)).kind, "deny");
});

Deno.test("[graduated-controls] GATEGUARD_BASH_EXTRA_DESTRUCTIVE adds patterns; a malformed one is ignored with a warning", async () => {
  const run = await setup();
  const extra = {
    GATEGUARD_BASH_ROUTINE_DISABLED: "1",
    GATEGUARD_BASH_EXTRA_DESTRUCTIVE: "terraform\\s+destroy",
  };
  assertEquals((await run("Bash", "terraform destroy -auto-approve", extra)).kind, "deny");
  const bad = await run("Bash", "rm -rf x", {
    ...extra,
    GATEGUARD_BASH_EXTRA_DESTRUCTIVE: "(unclosed",
  });
  assertEquals(bad.kind, "deny");
  assertStringIncludes(bad.stderr, "GATEGUARD_BASH_EXTRA_DESTRUCTIVE");
});

Deno.test("[destructive-bash-gate] PowerShell Remove-Item -Recurse -Force is destructive", async () => {
  const run = await setup();
  assertEquals((await run("PowerShell", "Remove-Item -Recurse -Force .\\build")).kind, "deny");
  assertEquals((await run("PowerShell", "ri -r -fo build")).kind, "deny");
});

Deno.test("[destructive-bash-gate] quoted data is not destructive", async () => {
  const run = await setup();
  const env = { GATEGUARD_BASH_ROUTINE_DISABLED: "1" };
  assertEquals((await run("Bash", 'git commit -m "drop table users; rm -rf /"', env)).kind, "pass");
  assertEquals((await run("Bash", "echo 'rm -rf /'", env)).kind, "pass");
});

Deno.test("[destructive-bash-gate] a huge command is still inspected and never crashes the hook", async () => {
  const run = await setup();
  const big = "echo " + "a".repeat(200_000) + " && rm -rf /";
  assertEquals((await run("Bash", big)).kind, "deny");
});
