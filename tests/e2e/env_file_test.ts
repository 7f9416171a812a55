/**
 * End-to-end: the `.env` files Gemini CLI loads at start, through the real
 * CLI with the binary's permissions on a real project. A variable the
 * hook's runtime reads (`DENO_V8_FLAGS` with a tiny heap crashes every hook
 * call, and Gemini CLI lets a call through when its hook crashes) is denied
 * every time; a plain copy of an example file passes, but not onto a link.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCli } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";

async function gemini(
  box: { root: string; env: Record<string, string> },
  session: string,
  tool: string,
  input: Record<string, unknown>,
): Promise<string> {
  const payload = {
    session_id: session,
    hook_event_name: "BeforeTool",
    tool_name: tool,
    tool_input: input,
    cwd: box.root,
  };
  const r = await runCli(["hook", "--agent", "gemini"], {
    stdin: JSON.stringify(payload),
    env: box.env,
    cwd: box.root,
  });
  assertEquals(r.code, 0, r.stderr);
  return r.stdout === "" ? "pass" : JSON.parse(r.stdout).reason as string;
}

Deno.test("[self-protection] Gemini CLI: a .env file that would crash the next start's hook is denied every time; ordinary copies pass", async () => {
  const box = await sandbox({ ".env.example": "API_KEY=\n" });
  await Deno.mkdir(`${box.tmp}/.gemini`, { recursive: true });
  const write = { file_path: `${box.root}/.env`, content: "DENO_V8_FLAGS=--max-heap-size=2\n" };
  for (let i = 0; i < 2; i++) {
    const reason = await gemini(box, "g1", "write_file", write);
    assertStringIncludes(reason, "it sets DENO_V8_FLAGS for the agent's next start");
    assertStringIncludes(reason, "Ask the user to make the change themselves");
  }
  const routine = { command: "true" };
  await gemini(box, "g1", "run_shell_command", routine);
  assertEquals(
    await gemini(box, "g1", "run_shell_command", { command: "cp .env.example .env" }),
    "pass",
  );
  assertEquals(await Deno.readTextFile(`${box.root}/.env.example`), "API_KEY=\n");
  const planted = { command: "echo LD_PRELOAD=/tmp/x.so >> .env" };
  for (let i = 0; i < 2; i++) {
    assertStringIncludes(
      await gemini(box, "g1", "run_shell_command", planted),
      "a .env file an agent loads",
    );
  }
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[self-protection] Gemini CLI: a plain copy onto a .env that is a link counts as any write", async () => {
  const box = await sandbox({ ".env.example": "API_KEY=\n" });
  await Deno.mkdir(`${box.tmp}/.gemini`, { recursive: true });
  await Deno.mkdir(`${box.tmp}/.claude`, { recursive: true });
  await Deno.symlink(`${box.tmp}/.claude/settings.json`, `${box.root}/.env`);
  await gemini(box, "g2", "run_shell_command", { command: "true" });
  for (let i = 0; i < 2; i++) {
    const reason = await gemini(box, "g2", "run_shell_command", {
      command: "cp .env.example .env",
    });
    assertStringIncludes(reason, "This change to .env would switch GateGuard off or weaken it");
  }
  await Deno.remove(box.tmp, { recursive: true });
});
