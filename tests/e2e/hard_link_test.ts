/**
 * End-to-end: a control file reached through a hard link, a second name the
 * table does not hold. The real CLI, real files and a real hard link: a
 * change through the other name is judged as a change to the control file,
 * by a file tool and by the shell, every time.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runHook } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";

async function claude(
  box: { root: string; env: Record<string, string> },
  tool: string,
  input: Record<string, unknown>,
): Promise<{ kind: string; text: string }> {
  const payload = {
    session_id: "hl",
    cwd: box.root,
    hook_event_name: "PreToolUse",
    tool_name: tool,
  };
  const r = await runHook({ ...payload, tool_input: input }, { env: box.env, cwd: box.root });
  assertEquals(r.code, 0, r.stderr);
  if (r.stdout.trim() === "") return { kind: "pass", text: "" };
  const out = JSON.parse(r.stdout).hookSpecificOutput;
  return { kind: out.permissionDecision ?? "note", text: out.permissionDecisionReason ?? "" };
}

Deno.test("[self-protection] Claude Code's user settings changed through a hard link are denied every time", async () => {
  const box = await sandbox({ "dot/readme.md": "x\n" });
  const settings = `${box.tmp}/.claude/settings.json`;
  await Deno.mkdir(`${box.tmp}/.claude`, { recursive: true });
  await Deno.writeTextFile(settings, '{\n  "model": "opus"\n}\n');
  await Deno.link(settings, `${box.root}/dot/settings.json`);
  const edit = {
    file_path: `${box.root}/dot/settings.json`,
    old_string: '"model": "opus"',
    new_string: '"disableAllHooks": true',
  };
  for (let i = 0; i < 2; i++) {
    const answer = await claude(box, "Edit", edit);
    assertEquals(answer.kind, "deny");
    assertStringIncludes(answer.text, "would switch GateGuard off or weaken it");
    assertStringIncludes(answer.text, "Claude Code's user settings");
  }
  await claude(box, "Bash", { command: "true" });
  const shell = { command: `echo '{"disableAllHooks": true}' > dot/settings.json` };
  for (let i = 0; i < 2; i++) {
    const answer = await claude(box, "Bash", shell);
    assertEquals(answer.kind, "deny");
    assertStringIncludes(answer.text, "Claude Code's user settings");
  }
  assertEquals(await Deno.readTextFile(settings), '{\n  "model": "opus"\n}\n');
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[self-protection] a write through a link to an agent's program on PATH is judged where the link leads", async () => {
  const box = await sandbox({ "notes.md": "x\n" });
  await Deno.mkdir(`${box.tmp}/bin`, { recursive: true });
  await Deno.writeTextFile(`${box.tmp}/bin/claude`, "#!/bin/sh\n");
  await Deno.symlink(`${box.tmp}/bin/claude`, `${box.root}/tool`);
  const env = { ...box.env, PATH: `${box.tmp}/bin:/usr/bin` };
  const withPath = { root: box.root, env };
  await claude(withPath, "Bash", { command: "true" });
  for (let i = 0; i < 2; i++) {
    const answer = await claude(withPath, "Bash", { command: "cp /bin/true tool" });
    assertEquals(answer.kind, "deny");
    assertStringIncludes(answer.text, "a program named like Claude Code in a PATH folder");
  }
  await Deno.remove(box.tmp, { recursive: true });
});
