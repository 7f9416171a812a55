/**
 * The closing hint of `gateguard init` names a doctor command that works
 * the way GateGuard is installed.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { doctorHint } from "../../src/cli/init.ts";
import { runCli } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";

const MODULE = "file:///home/me/gateguard/src/cli/init.ts";

Deno.test("[init] a binary's init points at `gateguard doctor`", () => {
  assertEquals(doctorHint("/usr/local/bin/gateguard", MODULE), "gateguard doctor");
  assertEquals(doctorHint("C:\\tools\\gateguard.exe", MODULE), "gateguard doctor");
});

Deno.test("[init] from source, init points at the deno task of its checkout, not a gateguard on PATH", () => {
  assertEquals(
    doctorHint("/usr/bin/deno", MODULE),
    "deno task -q --config /home/me/gateguard/deno.json gateguard doctor",
  );
  assertEquals(
    doctorHint("C:\\deno\\deno.exe", "file:///C:/src/gate%20guard/src/cli/init.ts"),
    "deno task -q --config C:/src/gate guard/deno.json gateguard doctor",
  );
});

Deno.test("[init] run from source, init's last line names the checkout's doctor task", async () => {
  const box = await sandbox();
  try {
    const r = await runCli(["init"], { cwd: box.root, env: box.env });
    assertEquals(r.code, 0, r.stderr);
    const config = new URL("../../deno.json", import.meta.url).pathname;
    assertStringIncludes(
      r.stdout,
      `Check the setup with \`deno task -q --config ${config} gateguard doctor\`.`,
    );
  } finally {
    await Deno.remove(box.tmp, { recursive: true });
  }
});
