/**
 * End-to-end tests of `gateguard hook --agent <name>`: the real CLI with the
 * binary's permissions, each agent's own payloads on stdin and its own
 * answer shape on stdout, on a real temporary project.
 */

import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { type CliResult, runCli } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";

async function hook(
  agent: string,
  payload: Record<string, unknown>,
  env: Record<string, string>,
  cwd: string,
): Promise<CliResult> {
  const r = await runCli(["hook", "--agent", agent], { stdin: JSON.stringify(payload), env, cwd });
  assertEquals(r.code, 0, r.stderr);
  return r;
}

const PATCH = [
  "*** Begin Patch",
  "*** Update File: src/a.ts",
  "@@",
  "-export const a = 1;",
  "+export const a = 2;",
  "*** Add File: src/b.ts",
  "+export const b = 1;",
  "*** End Patch",
].join("\n");

Deno.test("[agents] Codex: a patch touching two new files is denied once, naming both; the retry applies", async () => {
  const box = await sandbox({ "src/a.ts": "export const a = 1;\n" });
  const payload = {
    session_id: "codex-s1",
    turn_id: "t1",
    transcript_path: null,
    cwd: box.root,
    hook_event_name: "PreToolUse",
    tool_name: "apply_patch",
    tool_input: { command: PATCH },
    tool_use_id: "call_1",
  };
  const first = await hook("codex", payload, box.env, box.root);
  const out = JSON.parse(first.stdout).hookSpecificOutput;
  assertEquals([out.hookEventName, out.permissionDecision], ["PreToolUse", "deny"]);
  assertStringIncludes(out.permissionDecisionReason, "Before editing src/a.ts");
  assertStringIncludes(out.permissionDecisionReason, "Before creating src/b.ts");
  const retry = await hook("codex", payload, box.env, box.root);
  assertEquals(retry.stdout, "");
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[agents] Codex: a patch deleting a file is destructive, denied again after its retry passed", async () => {
  const box = await sandbox({ "old.ts": "x\n" });
  const payload = {
    session_id: "codex-s2",
    cwd: box.root,
    tool_name: "apply_patch",
    tool_input: { command: "*** Begin Patch\n*** Delete File: old.ts\n*** End Patch\n" },
  };
  const denied = JSON.parse((await hook("codex", payload, box.env, box.root)).stdout);
  const reason: string = denied.hookSpecificOutput.permissionDecisionReason;
  assertStringIncludes(reason, "Destructive command detected");
  assertStringIncludes(reason, "Before editing old.ts");
  assert(!reason.includes("rm -rf"), "the model never sees the stand-in command");
  assertStringIncludes(reason, "What it destroys (tool/delete-file): deletes old.ts.");
  assert(!reason.includes("directory tree"), "a patch deletes one file");
  assert(!reason.includes("gateguard-fact-force"), "no hook id that would switch it off");
  assertEquals((await hook("codex", payload, box.env, box.root)).stdout, "");
  const again = JSON.parse((await hook("codex", payload, box.env, box.root)).stdout);
  assertStringIncludes(
    again.hookSpecificOutput.permissionDecisionReason,
    "Destructive command detected",
  );
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[decision-metrics] a deletion by patch is recorded under the file tool, never as a shell command", async () => {
  const box = await sandbox({ "old.ts": "x\n" });
  const env = { ...box.env, GATEGUARD_METRICS: "1" };
  const payload = {
    session_id: "codex-s3",
    cwd: box.root,
    tool_name: "apply_patch",
    tool_input: { command: "*** Begin Patch\n*** Delete File: old.ts\n*** End Patch\n" },
  };
  await hook("codex", payload, env, box.root);
  await hook("codex", payload, env, box.root);
  const lines = (await Deno.readTextFile(`${box.state}/metrics.jsonl`))
    .trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(lines.map((l) => [l.tool, l.decision, l.reason]), [
    ["MultiEdit", "destructive-deny", "destructive"],
    ["MultiEdit", "deny", "first-touch"],
    ["MultiEdit", "pass", "destructive-retry"],
    ["MultiEdit", "pass-checked", "checked"],
  ]);
  // Each line names the agent and, for the deletion, the rule that found it destructive.
  assertEquals([...new Set(lines.map((l) => l.agent))], ["codex"]);
  assertEquals(lines[0].rule, "tool/delete-file");
  // The edit gate's off switch covers the deletion; the shell gate's does not.
  const off = { ...env, ECC_DISABLED_HOOKS: "pre:bash:gateguard-fact-force" };
  const other = { ...payload, session_id: "codex-s4" };
  assertStringIncludes(
    JSON.parse((await hook("codex", other, off, box.root)).stdout).hookSpecificOutput
      .permissionDecisionReason,
    "Destructive command detected",
  );
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[agents] Gemini: a relative file_path resolves against cwd; the denial is decision/reason", async () => {
  const box = await sandbox({ "src/a.ts": "export const a = 1;\n" });
  const payload = {
    session_id: "gem-s1",
    transcript_path: `${box.tmp}/none.jsonl`,
    cwd: `${box.root}/src`,
    hook_event_name: "BeforeTool",
    timestamp: "2026-12-01T18:29:44.726Z",
    tool_name: "replace",
    tool_input: { file_path: "a.ts", old_string: "1", new_string: "2", instruction: "i" },
  };
  const denied = JSON.parse((await hook("gemini", payload, box.env, box.root)).stdout);
  assertEquals(Object.keys(denied), ["decision", "reason"]);
  assertEquals(denied.decision, "deny");
  assertStringIncludes(denied.reason, "Before editing a.ts");
  // The checked file is src/a.ts: the same file by its absolute path passes.
  const absolute = {
    ...payload,
    cwd: box.root,
    tool_input: { ...payload.tool_input, file_path: `${box.root}/src/a.ts` },
  };
  assertEquals((await hook("gemini", absolute, box.env, box.root)).stdout, "");
  const shell = {
    ...payload,
    tool_name: "run_shell_command",
    tool_input: { command: "rm -rf build", dir_path: "src" },
  };
  const shellDenied = JSON.parse((await hook("gemini", shell, box.env, box.root)).stdout);
  assertStringIncludes(shellDenied.reason, "Destructive command detected");
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[self-protection] Gemini: an off switch that a .env file Gemini CLI loads defines is ignored, with a line on stderr", async () => {
  const box = await sandbox({ ".env": "API_KEY=x\nexport ECC_GATEGUARD=off\n" });
  const payload = {
    session_id: "gem-env",
    cwd: box.root,
    hook_event_name: "BeforeTool",
    tool_name: "run_shell_command",
    tool_input: { command: "rm -rf build" },
  };
  const off = { ...box.env, ECC_GATEGUARD: "off" };
  const r = await hook("gemini", payload, off, box.root);
  assertStringIncludes(JSON.parse(r.stdout).reason, "Destructive command detected");
  assertStringIncludes(
    r.stderr,
    `GateGuard ignores its settings in ${box.root}/.env: the agent loads that file into the ` +
      "environment its hooks inherit, and may have written it; set them where the agent is " +
      "started instead",
  );
  assert(!r.stderr.includes("ECC_GATEGUARD"), r.stderr);
  // Claude Code loads no .env file: the same switch there is the user's.
  const claude = await hook("claude", { ...payload, tool_name: "Bash" }, off, box.root);
  assertEquals(claude.stdout, "");
  // Without the file, Gemini CLI's switch is the user's too.
  await Deno.remove(`${box.root}/.env`);
  assertEquals((await hook("gemini", payload, off, box.root)).stdout, "");
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[self-protection] Gemini: an MCP tool writing GateGuard's own files is denied every time; elsewhere it passes", async () => {
  const box = await sandbox({ "src/a.ts": "export const a = 1;\n" });
  const payload = (path: string) => ({
    session_id: "gem-mcp",
    cwd: box.root,
    hook_event_name: "BeforeTool",
    tool_name: "mcp_filesystem_write_file",
    tool_input: { path, content: "{}" },
    mcp_context: { server_name: "filesystem", tool_name: "write_file" },
  });
  const settings = `${box.tmp}/.gemini/settings.json`;
  for (const attempt of ["first", "retry"]) {
    const denied = JSON.parse((await hook("gemini", payload(settings), box.env, box.root)).stdout);
    assertEquals(denied.decision, "deny", attempt);
    assertStringIncludes(
      denied.reason,
      "- the tool mcp_filesystem_write_file, which GateGuard does not read, may write, move or " +
        "delete it, and what it would leave behind cannot be read before it runs",
    );
  }
  const elsewhere = await hook("gemini", payload(`${box.root}/src/a.ts`), box.env, box.root);
  assertEquals(elsewhere.stdout, "");
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[agents] Copilot: a JSON-string toolArgs edit is gated; the denial is permissionDecision", async () => {
  const box = await sandbox({ "a.txt": "one\n" });
  const payload = {
    sessionId: "cop-s1",
    timestamp: 1796149823079,
    cwd: box.root,
    toolName: "edit",
    toolArgs: JSON.stringify({ path: `${box.root}/a.txt`, old_str: "one", new_str: "two" }),
  };
  const denied = JSON.parse((await hook("copilot", payload, box.env, box.root)).stdout);
  assertEquals(denied.permissionDecision, "deny");
  assertStringIncludes(denied.permissionDecisionReason, `Before editing ${box.root}/a.txt`);
  assertEquals((await hook("copilot", payload, box.env, box.root)).stdout, "");
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[agents] Cursor: the first Shell command is denied with agent_message and user_message", async () => {
  const box = await sandbox();
  const payload = {
    conversation_id: "cur-s1",
    hook_event_name: "preToolUse",
    cwd: box.root,
    tool_name: "Shell",
    tool_input: { command: "mkdir out", working_directory: box.root },
  };
  const denied = JSON.parse((await hook("cursor", payload, box.env, box.root)).stdout);
  assertEquals(denied.permission, "deny");
  assertStringIncludes(denied.agent_message, "Before the first shell command of this session");
  assertEquals(denied.user_message, denied.agent_message);
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[agents] Cursor: a payload led by a byte order mark is read, and a Delete naming its file as target_file is destructive", async () => {
  const box = await sandbox({ "old.ts": "x\n" });
  const payload = {
    conversation_id: "cur-s2",
    hook_event_name: "preToolUse",
    cwd: "",
    workspace_roots: [box.root],
    tool_name: "Delete",
    tool_input: { target_file: `${box.root}/old.ts` },
  };
  const r = await runCli(["hook", "--agent", "cursor"], {
    stdin: `\ufeff${JSON.stringify(payload)}`,
    env: box.env,
    cwd: box.root,
  });
  assertEquals(r.code, 0, r.stderr);
  const denied = JSON.parse(r.stdout);
  assertEquals(denied.permission, "deny");
  assertStringIncludes(denied.agent_message, "Destructive command detected");
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[fail-to-deny] Copilot: an edit whose input cannot be read is denied on every try, naming the tool and field", async () => {
  const box = await sandbox({ "a.txt": "one\n" });
  const payload = {
    sessionId: "cop-s2",
    cwd: box.root,
    toolName: "edit",
    toolArgs: { file: `${box.root}/a.txt`, old_str: "one", new_str: "two" },
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    const r = await hook("copilot", payload, box.env, box.root);
    assertEquals(JSON.parse(r.stdout), {
      permissionDecision: "deny",
      permissionDecisionReason: "[Fact-Forcing Gate] GateGuard cannot read this edit call: " +
        "`path` is missing. A call it cannot read is denied every time; send the input the " +
        "tool documents and retry.",
    });
  }
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[agents] an unknown --agent exits 2 with the list of agents", async () => {
  const r = await runCli(["hook", "--agent", "vim"], { stdin: "{}" });
  assertEquals(r.code, 2);
  assertStringIncludes(r.stderr, "claude, codex, gemini, copilot, cursor");
  const bare = await runCli(["hook"], { stdin: JSON.stringify({ tool_name: "Read" }) });
  assertEquals([bare.code, bare.stdout], [0, ""]);
});
