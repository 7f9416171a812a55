/**
 * End-to-end tests of `gateguard init --agent <name>` through the real CLI
 * with the binary's permissions, on a real temporary project.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCli } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";

Deno.test("[init] Cursor: --remove takes the handler, the emptied preToolUse and hooks, and keeps the user's comments", async () => {
  const box = await sandbox({});
  const file = `${box.root}/.cursor/hooks.json`;
  await Deno.mkdir(`${box.root}/.cursor`);
  const own = '{\n  // our team\'s Cursor hooks\n  "version": 1\n}\n';
  await Deno.writeTextFile(file, own);
  const init = (...extra: string[]) =>
    runCli(["init", "--agent", "cursor", ...extra], { cwd: box.root, env: box.env });
  assertEquals((await init()).code, 0);
  const registered = JSON.parse((await Deno.readTextFile(file)).replace(/\/\/.*\n/, "\n"));
  assertEquals(registered.hooks.preToolUse.length, 1);
  const removed = await init("--remove");
  assertEquals(removed.code, 0, removed.stderr);
  assertEquals(await Deno.readTextFile(file), own);
  await Deno.remove(box.tmp, { recursive: true });
});

Deno.test("[init] another agent's init from a subdirectory writes the git root's file and says a from-source command is this machine's", async () => {
  const box = await sandbox({ "src/deep/a.py": "x = 1\n" });
  try {
    await Deno.mkdir(`${box.root}/.git`);
    const r = await runCli(["init", "--agent", "gemini"], {
      cwd: `${box.root}/src/deep`,
      env: { HOME: box.env.HOME },
    });
    assertEquals(r.code, 0, r.stderr);
    const file = `${box.root}/.gemini/settings.json`;
    assertEquals(
      r.stdout.split("\n")[2],
      "Machine-specific: GateGuard runs from source here, so the command names this checkout; " +
        `Gemini CLI has no local file beside ${file}, so leave it out of what you commit, or put ` +
        "gateguard on PATH and run init again for the bare name.",
    );
    assertStringIncludes(await Deno.readTextFile(file), "--permission-set=gateguard");
    assertEquals(
      await Deno.lstat(`${box.root}/src/deep/.gemini`).then(() => true, () => false),
      false,
    );
  } finally {
    await Deno.remove(box.tmp, { recursive: true });
  }
});
