/**
 * The project file `.gateguard.jsonc` as the hook applies it, end to end.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runHook } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";
import { trustProjectFile } from "../helpers/trust.ts";

/**
 * A sandbox whose project file is `config`, trusted by the user as
 * `gateguard trust` would record it: these tests are about what a file's
 * keys do once they apply (tests/e2e/trust_test.ts covers an untrusted one).
 */
async function setup(config: string, files: Record<string, string> = {}) {
  const { root, env, state } = await sandbox({ ...files, ".gateguard.jsonc": config }, "gg-cfg-");
  await trustProjectFile(root, state);
  const hook = async (
    tool: string,
    input: Record<string, unknown>,
    more: Record<string, string> = {},
  ) => {
    const r = await runHook(
      { session_id: "cfg", cwd: root, tool_name: tool, tool_input: input },
      { env: { ...env, ...more }, cwd: root },
    );
    assertEquals(r.code, 0, r.stderr);
    const out = r.stdout === "" ? null : JSON.parse(r.stdout).hookSpecificOutput;
    return {
      kind: out === null ? "pass" : out.permissionDecision === "deny" ? "deny" : "note",
      text: out?.permissionDecisionReason ?? out?.additionalContext ?? "",
      stderr: r.stderr,
    };
  };
  return { root, hook };
}

const edit = (file: string) => ({ file_path: file, old_string: "x = 1", new_string: "x = 2" });

Deno.test("[project-config] domain text is appended to file, destructive and routine denials", async () => {
  const { root, hook } = await setup(
    `{ // conventions\n "domainText": ["Dates are %Y/%m/%d %H:%M.", "Run make check."], }`,
    { "src/a.py": "x = 1\n" },
  );
  const file = await hook("Edit", edit(`${root}/src/a.py`));
  assertStringIncludes(
    file.text,
    "\nProject note (from .gateguard.jsonc, not from GateGuard):\n" +
      "> Dates are %Y/%m/%d %H:%M.\n> Run make check.",
  );
  assertStringIncludes((await hook("Bash", { command: "rm -rf build" })).text, "Run make check.");
  assertStringIncludes((await hook("Bash", { command: "npm test" })).text, "Dates are %Y/%m/%d");
});

Deno.test("[project-config] file exempt globs and fileGates:false never reach sensitive targets", async () => {
  const { root, hook } = await setup(`{"exemptGlobs": ["src/**"], "fileGates": false}`, {
    "src/a.py": "x = 1\n",
    "src/auth/login.py": "x = 1\n",
    "lib/b.py": "x = 1\n",
  });
  assertEquals((await hook("Edit", edit(`${root}/src/a.py`))).kind, "pass");
  assertEquals((await hook("Edit", edit(`${root}/lib/b.py`))).kind, "pass");
  const auth = await hook("Edit", edit(`${root}/src/auth/login.py`));
  assertEquals(auth.kind, "deny");
  assertStringIncludes(auth.text, "Sensitive target:");
});

Deno.test("[self-protection] an edit that loosens the project file itself is denied as a weakening, every time", async () => {
  const { root, hook } = await setup(`{}`);
  const loosen = {
    file_path: `${root}/.gateguard.jsonc`,
    old_string: "{}",
    new_string: '{"fileGates": false}',
  };
  for (const _try of [1, 2]) {
    const d = await hook("Edit", loosen);
    assertEquals(d.kind, "deny");
    assertStringIncludes(d.text, '"fileGates": false would switch a gate off');
    assertStringIncludes(d.text, "retries included");
  }
});

Deno.test("[project-config] destructive phrases add to the built-in set, and the file cannot turn the destructive gate off", async () => {
  const { hook } = await setup(
    `{"destructiveCommands": ["terraform destroy"], "routineShell": false}`,
  );
  assertEquals((await hook("Bash", { command: "terraform   destroy -auto-approve" })).kind, "deny");
  assertEquals((await hook("Bash", { command: "terraform plan" })).kind, "pass");
  const refused = await setup(`{"destructiveShell": false, "routineShell": false}`);
  assertEquals((await refused.hook("Bash", { command: "git reset --hard" })).kind, "deny");
});

Deno.test("[project-config] a broken file is ignored with one stderr line and the gate stays on", async () => {
  const { root, hook } = await setup(`{ "fileGates": false,, }`, { "a.py": "x = 1\n" });
  const d = await hook("Edit", edit(`${root}/a.py`));
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.stderr, ".gateguard.jsonc (1:");
  assertEquals(d.stderr.trim().split("\n").length, 1);
});

Deno.test("[project-config] environment variables win over the file", async () => {
  const { root, hook } = await setup(`{"maxDenials": 0}`, { "a.py": "x = 1\n", "b.py": "x = 1\n" });
  assertEquals((await hook("Edit", edit(`${root}/a.py`))).kind, "pass");
  assertEquals(
    (await hook("Edit", edit(`${root}/b.py`), { GATEGUARD_FACT_FORCE_MAX_DENIALS: "5" })).kind,
    "deny",
  );
});

Deno.test("[project-config] 65 KB of invalid entries cost one short stderr line", async () => {
  const { root, hook } = await setup(`{"exemptGlobs":[${Array(32_000).fill("1").join(",")}]}`, {
    "a.py": "x = 1\n",
  });
  const d = await hook("Edit", edit(`${root}/a.py`));
  assertEquals(d.kind, "deny");
  assertEquals(
    d.stderr,
    `gateguard: ignoring invalid entries of ${root}/.gateguard.jsonc: exemptGlobs ` +
      "(run gateguard doctor for details).\n",
  );
});
