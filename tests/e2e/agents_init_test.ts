/**
 * End-to-end tests of `gateguard init --agent <name>` through the real CLI
 * with the binary's permissions, on a real temporary project.
 */

import { assertEquals } from "../helpers/assert.ts";
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
