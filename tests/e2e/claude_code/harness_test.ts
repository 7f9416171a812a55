/**
 * Tests of the harness helpers that do not need Claude Code.
 *
 * @module
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { CLI_ARGV } from "../../helpers/cli.ts";
import { encodeProjectDir, gateguardCommand, shellQuote } from "./harness.ts";

Deno.test("[real-client] project folders are encoded as Claude Code names them", () => {
  assertEquals(encodeProjectDir("/tmp/cc-e2e/proj"), "-tmp-cc-e2e-proj");
  assertEquals(
    encodeProjectDir("/tmp/gateguard-e2e-1a_b.c/proj"),
    "-tmp-gateguard-e2e-1a-b-c-proj",
  );
});

Deno.test("[real-client] the hook command is the source-run CLI, shell-quoted", () => {
  assertEquals(shellQuote("/usr/bin/deno"), "/usr/bin/deno");
  assertEquals(shellQuote("--permission-set=gateguard"), "--permission-set=gateguard");
  assertEquals(shellQuote("/a b/it's"), `'/a b/it'"'"'s'`);
  assertEquals(gateguardCommand(), CLI_ARGV.map(shellQuote).join(" "));
  assert(gateguardCommand().endsWith("/src/main.ts"));
});
