/**
 * What the suite says about the real clients before it starts, and the line
 * printed before npm installs one.
 */

import { assertEquals } from "../helpers/assert.ts";
import { clientLine, PINNED_CLIENTS } from "../../scripts/e2e_clients.ts";
import { installLine } from "../../scripts/npm_cache.ts";
import { CLAUDE_CODE_PACKAGE } from "../../scripts/install_claude_code.ts";
import { CLIENT_PINS } from "../../scripts/install_agents.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import { tempDir } from "../helpers/temp.ts";

Deno.test("[real-client] every pinned client is announced with its package, version and cache folder", () => {
  assertEquals(PINNED_CLIENTS.map((c) => c.packageSpec), [
    CLAUDE_CODE_PACKAGE,
    ...Object.values(CLIENT_PINS).map((p) => `${p.packageName}@${p.version}`),
  ]);
  const codex = PINNED_CLIENTS.find((c) => c.folder.startsWith("codex-"))!;
  assertEquals(
    clientLine(codex, "/c", false),
    `real-client tests install @openai/codex@${CLIENT_PINS.codex.version} (about 430 MB) with npm into /c/codex-${CLIENT_PINS.codex.version} on first use`,
  );
  assertEquals(
    clientLine(codex, "/c", true),
    `real-client tests use @openai/codex@${CLIENT_PINS.codex.version} from /c/codex-${CLIENT_PINS.codex.version}`,
  );
  assertEquals(
    installLine("@openai/codex@0.171.0", "/c/codex-0.171.0"),
    "installing @openai/codex@0.171.0 with npm into /c/codex-0.171.0 (once; later runs reuse it)",
  );
});

Deno.test("[real-client] the test tasks announce the clients first; test:e2e runs the e2e folder only", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/deno.json`)).tasks;
  // The bundle the CLI runs from is brought up to date first, then the clients are announced.
  const announce = `${tasks.bundle} --quiet && ` +
    "deno run --allow-read --allow-env scripts/e2e_clients.ts && ";
  assertEquals(tasks.test, `${announce}deno test --allow-all --quiet --parallel tests/`);
  assertEquals(tasks["test:e2e"], `${announce}deno test --allow-all --quiet --parallel tests/e2e/`);
  // The announcement reads the cache folders and installs nothing: an empty cache root is left empty.
  const root = await tempDir({ prefix: "gg-announce-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", "--allow-env", `${REPO_ROOT}/scripts/e2e_clients.ts`],
      env: { GATEGUARD_E2E_CACHE: root },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 0);
    const lines = new TextDecoder().decode(out.stderr).trimEnd().split("\n");
    assertEquals(lines, PINNED_CLIENTS.map((c) => clientLine(c, root, false)));
    assertEquals([...Deno.readDirSync(root)], []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
