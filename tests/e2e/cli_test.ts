/**
 * The command line: dispatch, help, version and usage errors.
 */

import { tempDir } from "../helpers/temp.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCli } from "../helpers/cli.ts";
import { VERSION } from "../../src/version.ts";

Deno.test("[cli] --version and --help answer on stdout with exit 0; from source the version line says so", async () => {
  const v = await runCli(["--version"]);
  assertEquals([v.code, v.stdout], [
    0,
    `gateguard ${VERSION} (${Deno.build.target}, from source)\n`,
  ]);
  const h = await runCli(["--help"]);
  assertEquals(h.code, 0);
  assertStringIncludes(h.stdout, "gateguard hook");
  assertStringIncludes(h.stdout, "gateguard report");
});

Deno.test("[cli] unknown subcommands and flags exit 2 with one error line and the usage", async () => {
  for (const arg of ["frobnicate", "--frobnicate"]) {
    const r = await runCli([arg]);
    assertEquals(r.code, 2);
    assertEquals(r.stdout, "");
    const [first, ...rest] = r.stderr.trim().split("\n");
    assertStringIncludes(first, `gateguard: unknown`);
    assertStringIncludes(first, arg);
    assertStringIncludes(rest.join("\n"), "Usage:");
  }
});

Deno.test("[cli] `gateguard hook` is the explicit form of the hook", async () => {
  const tmp = await tempDir();
  const r = await runCli(["hook"], {
    stdin: JSON.stringify({
      session_id: "h",
      tool_name: "Bash",
      tool_input: { command: "rm -rf /" },
    }),
    env: { GATEGUARD_STATE_DIR: tmp },
  });
  assertEquals(r.code, 0);
  assertEquals(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, "deny");
});

Deno.test("[cli] `gateguard hook --help` prints the hook's usage with exit 0 and reads no payload", async () => {
  for (const flag of ["--help", "-h"]) {
    const r = await runCli(["hook", flag], { stdin: '{"tool_name":"Bash"}' });
    assertEquals([r.code, r.stderr], [0, ""]);
    assertStringIncludes(
      r.stdout,
      "Usage: gateguard hook [--agent claude|codex|gemini|copilot|cursor]\n",
    );
    assertStringIncludes(r.stdout, "`gateguard explain`");
  }
  // Any other option is still a registration mistake.
  const bad = await runCli(["hook", "--helpme"], { stdin: "{}" });
  assertEquals(bad.code, 2);
});
