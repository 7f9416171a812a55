/**
 * The command a registration runs.
 */

import { assertEquals } from "../helpers/assert.ts";
import { registrationCommand, shellQuote } from "../../src/setup/command.ts";

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
