/**
 * Tests of the harness helpers that do not need Claude Code.
 *
 * @module
 */

import { MCP_CHANGE_MATCHER } from "../../../src/tools/gated.ts";
import { tempDir } from "../../helpers/temp.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { SOURCE_COMMAND } from "../../helpers/cli.ts";
import { encodeProjectDir, registerGateGuard, shellQuote } from "./harness.ts";

Deno.test("[real-client] project folders are encoded as Claude Code names them", () => {
  assertEquals(encodeProjectDir("/tmp/cc-e2e/proj"), "-tmp-cc-e2e-proj");
  assertEquals(
    encodeProjectDir("/tmp/gateguard-e2e-1a_b.c/proj"),
    "-tmp-gateguard-e2e-1a-b-c-proj",
  );
});

Deno.test("[real-client] gateguard init registers the source-run CLI for file, shell and MCP change tools", async () => {
  assertEquals(shellQuote("/usr/bin/deno"), "/usr/bin/deno");
  assertEquals(shellQuote("/a b/it's"), `'/a b/it'"'"'s'`);
  const root = await tempDir();
  await registerGateGuard(root, root);
  const settings = JSON.parse(await Deno.readTextFile(`${root}/.claude/settings.json`));
  const groups = settings.hooks.PreToolUse as { matcher: string; hooks: { command: string }[] }[];
  assertEquals(groups.map((g) => g.matcher), [
    "Edit|Write|MultiEdit|NotebookEdit",
    "Bash|PowerShell",
    MCP_CHANGE_MATCHER,
  ]);
  for (const g of groups) assertEquals(g.hooks[0].command, SOURCE_COMMAND);
  await Deno.remove(root, { recursive: true });
});
