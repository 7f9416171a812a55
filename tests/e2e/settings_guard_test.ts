/**
 * End to end: a change to Claude Code's settings that would switch
 * GateGuard off, on a project registered by the real `gateguard init`, is
 * denied through the CLI on every try (a change to GateGuard's project
 * file is put to the user instead); other settings changes pass, and `gateguard explain` names
 * the rule and the control-surface row. A write to the shell's start-up file is asked about
 * on every try, while sourcing it is an ordinary first command; a file list handed to a writer is
 * denied on every try, one handed to a reader is not. A gzip-compressed tar holding
 * Claude's settings is never extracted into the project; a clean one is an ordinary command.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { type CliResult, runCli, runHook } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";
import { ROUTINE_TEXT } from "../../src/questions/shell_texts.ts";

/** Runs the hook on a Bash call in `root`, in a permission mode and session. */
function bashIn(
  root: string,
  env: Record<string, string>,
): (command: string, mode?: string, session?: string) => Promise<CliResult> {
  return (command, mode = "default", session = "rc") =>
    runHook({
      session_id: session,
      cwd: root,
      hook_event_name: "PreToolUse",
      permission_mode: mode,
      tool_name: "Bash",
      tool_input: { command },
    }, { env, cwd: root });
}

function kindOf(r: CliResult): string {
  assertEquals(r.code, 0, r.stderr);
  if (r.stdout.trim() === "") return "pass";
  return JSON.parse(r.stdout).hookSpecificOutput.permissionDecision ?? "note";
}

Deno.test("[self-protection] through the CLI a registered project's hooks cannot be turned off, on the first try or any retry", async () => {
  const { root, env } = await sandbox({ "src/a.py": "x = 1\n" });
  const init = await runCli(["init", "--shared"], { env, cwd: root });
  assertEquals(init.code, 0, init.stderr);
  const file = `${root}/.claude/settings.json`;
  const installed = JSON.parse(await Deno.readTextFile(file));
  const payload = (content: unknown, mode: string | null = "default") => ({
    session_id: "sg",
    cwd: root,
    hook_event_name: "PreToolUse",
    ...(mode === null ? {} : { permission_mode: mode }),
    tool_name: "Write",
    tool_input: { file_path: file, content: JSON.stringify(content, null, 2) },
  });
  const hook = (content: unknown, mode?: string | null) =>
    runHook(payload(content, mode), { env, cwd: root });

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
  const x = JSON.parse(explained.stdout);
  assertEquals([x.targets[0].rule, x.targets[0].reason], ["self-protection", "self-protection"]);
  assertEquals(x.controlSurface[0].row, "claude-project-settings");

  for (let n = 0; n < 3; n++) assertEquals(kindOf(await hook(off)), "deny", `retry ${n}`);
  for (const mode of ["bypassPermissions", "dontAsk", null]) {
    assertEquals(kindOf(await hook(off, mode)), "deny", String(mode));
    assertEquals(kindOf(await hook(off, mode)), "deny", `${mode}, retried`);
  }
  // A change to GateGuard's project file, where Claude Code's prompt is the hook's, is put
  // to the user.
  const config = await runHook({
    ...payload({}),
    tool_input: { file_path: `${root}/.gateguard.jsonc`, content: '{"fileGates": false}' },
  }, { env, cwd: root });
  assertEquals(kindOf(config), "ask");
  // Another key of the same file passes as before, without a question.
  assertEquals(kindOf(await hook({ ...installed, model: "opus" })), "pass");
});

Deno.test("[self-protection] through the CLI the shell's start-up file is never changed without the user, and sourcing it is routine", async () => {
  const { root, tmp, env } = await sandbox({ "src/a.py": "x = 1\n" });
  await Deno.writeTextFile(`${tmp}/.bashrc`, "export PATH=$HOME/bin:$PATH\n");
  const bash = bashIn(root, env);
  const append = `echo 'export A=1' >> ~/.bashrc`;
  const asked = await bash(append);
  assertEquals(kindOf(asked), "ask");
  const reason = JSON.parse(asked.stdout).hookSpecificOutput.permissionDecisionReason;
  assertStringIncludes(reason, "your shell's start-up code");
  for (let n = 0; n < 2; n++) assertEquals(kindOf(await bash(append)), "ask", `retry ${n}`);
  assertEquals(kindOf(await bash(append, "bypassPermissions")), "deny");
  const edit = await runHook({
    session_id: "rc",
    cwd: root,
    hook_event_name: "PreToolUse",
    permission_mode: "bypassPermissions",
    tool_name: "Edit",
    tool_input: { file_path: `${tmp}/.bashrc`, old_string: "bin", new_string: "sbin" },
  }, { env, cwd: root });
  assertEquals(kindOf(edit), "deny");
  // Sourcing the file only reads it: the routine gate's first-command denial, then a pass.
  const sourced = await bash("source ~/.bashrc", "default", "rc-source");
  assertEquals(kindOf(sourced), "deny");
  assertEquals(
    JSON.parse(sourced.stdout).hookSpecificOutput.permissionDecisionReason,
    ROUTINE_TEXT,
  );
  assertEquals(kindOf(await bash("source ~/.bashrc", "default", "rc-source")), "pass");
  assertEquals(await Deno.readTextFile(`${tmp}/.bashrc`), "export PATH=$HOME/bin:$PATH\n");
});

Deno.test("[self-protection] through the CLI a file list handed to a writer is denied on every try, one handed to a reader is routine", async () => {
  const { root, env } = await sandbox({ "src/a.py": "x = 1\n", "list": ".claude\n" });
  const init = await runCli(["init", "--shared"], { env, cwd: root });
  assertEquals(init.code, 0, init.stderr);
  const bash = bashIn(root, env);
  for (const command of ["xargs rm -rf < list", "cat list | xargs sed -i s/x/y/"]) {
    const denied = await bash(command);
    assertEquals(kindOf(denied), "deny", command);
    assertStringIncludes(
      JSON.parse(denied.stdout).hookSpecificOutput.permissionDecisionReason,
      "This change to <the names in list> would switch GateGuard off or weaken it:",
    );
    assertEquals(kindOf(await bash(command)), "deny", `${command}, retried`);
    assertEquals(kindOf(await bash(command, "bypassPermissions")), "deny", command);
  }
  // Read, the names change nothing: the session's first command is routine, then it passes.
  assertEquals(kindOf(await bash("cat list | xargs wc -l")), "deny");
  assertEquals(kindOf(await bash("cat list | xargs wc -l")), "pass");
  assertEquals(await Deno.readTextFile(`${root}/list`), ".claude\n");
});

Deno.test("[self-protection] through the CLI an archive is judged by what it holds: one holding Claude's settings is never extracted into the project, a clean one is routine", async () => {
  const { root, tmp, env } = await sandbox({ "src/a.py": "x = 1\n" });
  // Real archives, made by the runtime's own gzip from hand-built tar bytes.
  const tarOf = (name: string, body: string): Uint8Array => {
    const enc = new TextEncoder();
    const header = new Uint8Array(512);
    header.set(enc.encode(name), 0);
    header.set(enc.encode("0000644\0"), 100);
    header.set(enc.encode(`${body.length.toString(8).padStart(11, "0")}\0`), 124);
    header.set(enc.encode("0"), 156);
    header.set(enc.encode("ustar\x0000"), 257);
    const data = new Uint8Array(512);
    data.set(enc.encode(body));
    return new Uint8Array([...header, ...data, ...new Uint8Array(1024)]);
  };
  const gzip = async (bytes: Uint8Array) =>
    new Uint8Array(
      await new Response(
        new Blob([new Uint8Array(bytes)]).stream().pipeThrough(new CompressionStream("gzip")),
      ).arrayBuffer(),
    );
  await Deno.writeFile(`${tmp}/evil.tgz`, await gzip(tarOf(".claude/settings.json", "{}")));
  await Deno.writeFile(`${tmp}/ok.tgz`, await gzip(tarOf("src/b.py", "y = 2\n")));
  const bash = (command: string, session: string) =>
    runHook({
      session_id: session,
      cwd: root,
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: "Bash",
      tool_input: { command },
    }, { env, cwd: root });
  for (let n = 0; n < 2; n++) {
    const evil = await bash(`tar -xzf ${tmp}/evil.tgz`, "tar-evil");
    assertEquals(kindOf(evil), "deny", `try ${n}`);
    assertStringIncludes(
      JSON.parse(evil.stdout).hookSpecificOutput.permissionDecisionReason,
      "This change to .claude/settings.json would switch GateGuard off or weaken it:",
    );
  }
  const ok = await bash(`tar -xzf ${tmp}/ok.tgz`, "tar-ok");
  assertEquals(JSON.parse(ok.stdout).hookSpecificOutput.permissionDecisionReason, ROUTINE_TEXT);
  assertEquals(kindOf(await bash(`tar -xzf ${tmp}/ok.tgz`, "tar-ok")), "pass");
});
