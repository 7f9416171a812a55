/**
 * The command a registration runs.
 */

import { assertEquals } from "../helpers/assert.ts";
import {
  chooseCommand,
  type CommandHost,
  registrationCommand,
  shellQuote,
} from "../../src/setup/command.ts";

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
  // HOME and DENO_DIR move into the checkout so Deno reads nothing the agent can plant under the
  // user's home; the user's home reaches GateGuard as GATEGUARD_HOME, expanded by the shell.
  assertEquals(
    registrationCommand("/usr/bin/deno", MODULE, false),
    `GATEGUARD_HOME="$HOME" HOME='/repo dir' DENO_DIR='/repo dir/.cache/deno' ` +
      "/usr/bin/deno run --quiet --no-prompt --v8-flags=--min-semi-space-size=16 " +
      "--config '/repo dir/deno.run.json' " +
      "--permission-set=gateguard '/repo dir/.cache/bundle/main.js'",
  );
  assertEquals(
    registrationCommand("C:\\deno\\deno.exe", "file:///C:/src/gg/src/setup/command.ts", true),
    "C:/deno/deno.exe run --quiet --no-prompt --v8-flags=--min-semi-space-size=16 " +
      "--config C:/src/gg/deno.run.json " +
      "--permission-set=gateguard C:/src/gg/.cache/bundle/main.js",
  );
  assertEquals(shellQuote("plain/path-1.2", false), "plain/path-1.2");
});

/** A host whose symlinks are the given map (path to real path); other paths are real. */
function host(
  execPath: string,
  onPath: string | null,
  links: Record<string, string | null> = {},
): CommandHost {
  return {
    execPath,
    moduleUrl: MODULE,
    windows: false,
    onPath,
    realPath: (path) => Object.hasOwn(links, path) ? links[path] : path,
  };
}

Deno.test("[init] the shared command is a bare gateguard only when PATH finds this very binary", () => {
  const own = "/opt/gateguard/bin/gateguard";
  // On PATH through a symlink to this binary: portable.
  assertEquals(
    chooseCommand(host(own, "/usr/local/bin/gateguard", { "/usr/local/bin/gateguard": own })),
    { portable: true, command: "gateguard" },
  );
  assertEquals(chooseCommand(host(own, own)), { portable: true, command: "gateguard" });
  // Not on PATH, or another gateguard there: this binary's full path, and why.
  assertEquals(chooseCommand(host(own, null)), {
    portable: false,
    command: own,
    why: "`gateguard` is not on PATH, so the command is this binary's full path",
  });
  assertEquals(chooseCommand(host(own, "/usr/bin/gateguard")), {
    portable: false,
    command: own,
    why: "`gateguard` on PATH is /usr/bin/gateguard, not this binary, so the command is this " +
      "binary's full path",
  });
  // Neither side resolving is no match.
  assertEquals(
    chooseCommand(host(own, "/usr/bin/gateguard", { [own]: null, "/usr/bin/gateguard": null }))
      .portable,
    false,
  );
});

Deno.test("[init] from source the command always names the checkout, whatever PATH holds", () => {
  const choice = chooseCommand(host("/usr/bin/deno", "/usr/local/bin/gateguard"));
  assertEquals(choice, {
    portable: false,
    command: registrationCommand("/usr/bin/deno", MODULE, false),
    why: "GateGuard runs from source here, so the command names this checkout",
  });
});
