/**
 * The command a registration runs, and how GateGuard's own command is
 * recognised among other hooks.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { isGateGuardCommand, registrationCommand, shellQuote } from "../../src/setup/command.ts";
import { PLUGIN_COMMAND } from "../../src/setup/claude_settings.ts";

const CMD = "/opt/gateguard/bin/gateguard";
const MODULE = "file:///repo%20dir/src/setup/command.ts";

Deno.test("[init] a compiled binary registers its own absolute path, quoted for the shell", () => {
  assertEquals(
    registrationCommand("/usr/local/bin/gateguard", MODULE, false),
    "/usr/local/bin/gateguard",
  );
  assertEquals(
    registrationCommand("/home/o'k/gate guard", MODULE, false),
    `'/home/o'\\''k/gate guard'`,
  );
  assertEquals(
    registrationCommand("C:\\Program Files\\gateguard.exe", MODULE, true),
    '"C:/Program Files/gateguard.exe"',
  );
});

Deno.test("[init] from source the deno run line carries the binary's permission set", () => {
  assertEquals(
    registrationCommand("/usr/bin/deno", MODULE, false),
    "/usr/bin/deno run --quiet --no-prompt --config '/repo dir/deno.json' " +
      "--permission-set=gateguard '/repo dir/src/main.ts'",
  );
  assertEquals(
    registrationCommand("C:\\deno\\deno.exe", "file:///C:/src/gg/src/setup/command.ts", true),
    "C:/deno/deno.exe run --quiet --no-prompt --config C:/src/gg/deno.json " +
      "--permission-set=gateguard C:/src/gg/src/main.ts",
  );
  assertEquals(shellQuote("plain/path-1.2", false), "plain/path-1.2");
});

Deno.test("[init] GateGuard commands are recognised by program name or permission set", () => {
  for (
    const c of [
      CMD,
      '"/x y/gateguard.exe"',
      "/dl/gateguard-linux-x64",
      "C:\\bin\\gateguard-windows-x64.exe",
      "/usr/bin/deno run --config /r/deno.json --permission-set=gateguard /r/src/main.ts",
      PLUGIN_COMMAND,
    ]
  ) assert(isGateGuardCommand(c), c);
  for (
    const c of [
      "node scripts/hooks/gateguard-fact-force.js",
      "prettier --write",
      "/usr/bin/gateguardian",
      "echo gate guard",
    ]
  ) assert(!isGateGuardCommand(c), c);
});
