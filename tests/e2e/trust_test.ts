/**
 * `gateguard trust` end to end: a project file's loosening keys wait for
 * the user's trust, apply once the exact content is trusted, and wait again
 * after any change; the hook itself never writes the trust store, and a
 * store that is not a plain file is refused rather than followed.
 *
 * @module
 */

import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCli, runHook } from "../helpers/cli.ts";
import { type Sandbox, sandbox } from "../helpers/sandbox.ts";
import { readTrustStore, trustDigest } from "../../src/config/trust_store.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { ROUTINE_TEXT } from "../../src/questions/shell_texts.ts";

const LOOSE = '{\n  "routineShell": false,\n  "destructiveCommands": ["make deploy"]\n}\n';

/** Runs `npm test` (a routine command) as the first shell call of a new session. */
async function routine(box: Sandbox, session: string) {
  const r = await runHook({
    session_id: session,
    cwd: box.root,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "npm test" },
  }, { env: box.env, cwd: box.root });
  assertEquals(r.code, 0, r.stderr);
  const out = r.stdout === "" ? null : JSON.parse(r.stdout).hookSpecificOutput;
  return {
    kind: out === null ? "pass" : out.permissionDecision,
    text: out?.permissionDecisionReason ?? "",
    stderr: r.stderr,
  };
}

function trust(box: Sandbox, ...args: string[]) {
  return runCli(["trust", ...args], { env: box.env, cwd: box.root });
}

async function withBox(fn: (box: Sandbox, file: string) => Promise<void>): Promise<void> {
  const box = await sandbox({ ".gateguard.jsonc": LOOSE }, "gg-trust-");
  try {
    await fn(box, `${box.root}/.gateguard.jsonc`);
  } finally {
    await Deno.remove(box.tmp, { recursive: true });
  }
}

Deno.test("[project-config-trust] loosening keys wait for gateguard trust, apply for that content, and wait again after a change", async () => {
  await withBox(async (box, file) => {
    const before = await routine(box, "t1");
    assertEquals([before.kind, before.text.startsWith(ROUTINE_TEXT)], ["deny", true]);
    assertEquals(
      before.stderr,
      `gateguard: ignoring routineShell of ${file}: the file is not trusted; the user can run ` +
        `\`gateguard trust ${file}\` after reading it.\n`,
    );
    // The hook only reads the store: it never made one.
    assertEquals(await Deno.stat(`${box.state}/trust.json`).then(() => true, () => false), false);

    const r = await trust(box);
    assertEquals(r.code, 0, r.stderr);
    const digest = await trustDigest(LOOSE);
    assertEquals(
      r.stdout,
      `trusted ${file} (sha256 ${digest.slice(0, 16)}…); these now apply:\n` +
        `  routineShell: false\n` +
        `Any change to the file needs \`gateguard trust\` again (store: ${box.state}/trust.json).\n`,
    );
    const store = readTrustStore(denoFs, box.state);
    assert(store.ok);
    assertEquals(store.entries.map((e) => [e.path, e.sha256]), [[file, digest]]);
    if (Deno.build.os !== "windows") {
      assertEquals(Deno.statSync(`${box.state}/trust.json`).mode! & 0o777, 0o600);
    }
    const after = await routine(box, "t2");
    assertEquals([after.kind, after.stderr], ["pass", ""]);

    // One more space is another content: untrusted until trusted again.
    await Deno.writeTextFile(file, LOOSE.replace("false", "false "));
    const changed = await routine(box, "t3");
    assertEquals(changed.kind, "deny");
    assertStringIncludes(changed.stderr, "the file is changed since the user trusted it");
    const listed = await trust(box, "--list");
    assertEquals(listed.code, 0);
    assertStringIncludes(listed.stdout, `  ${file}  trusted `);
    assertStringIncludes(listed.stdout, ": changed since, its loosening keys are ignored\n");

    assertEquals((await trust(box, box.root)).code, 0);
    assertEquals((await routine(box, "t4")).kind, "pass");
    const revoked = await trust(box, "--revoke");
    assertEquals(
      [revoked.code, revoked.stdout],
      [0, `revoked the trust of ${file}; its loosening keys are ignored again\n`],
    );
    assertEquals((await routine(box, "t5")).kind, "deny");
  });
});

Deno.test("[project-config-trust] a file that only tightens needs no trust, and a broken one is not trusted", async () => {
  await withBox(async (box, file) => {
    await Deno.writeTextFile(file, '{ "destructiveCommands": ["make deploy"] }');
    const r = await trust(box);
    assertEquals([r.code, r.stdout], [
      0,
      `${file} needs no trust: every key in it only tightens GateGuard, so it applies as it is\n`,
    ]);
    await Deno.writeTextFile(file, '{ "maxDenials": 1,, }');
    const broken = await trust(box);
    assertEquals(broken.code, 1);
    assertStringIncludes(broken.stderr, `gateguard trust: ${file}:1:`);
    assertStringIncludes(broken.stderr, "; fix the file before trusting it");
    await Deno.writeTextFile(file, "\uFEFF" + LOOSE);
    const bom = await trust(box);
    assertEquals([bom.code, bom.stderr], [
      1,
      `gateguard trust: ${file} starts with a byte-order mark; save it without one and run again\n`,
    ]);
    assertEquals(await Deno.stat(`${box.state}/trust.json`).then(() => true, () => false), false);
  });
});

Deno.test("[project-config-trust] a store that is a symlink is refused, a malformed one trusts nothing and is started afresh", async () => {
  await withBox(async (box, file) => {
    await Deno.mkdir(box.state);
    const store = `${box.state}/trust.json`;
    // A forged store elsewhere, linked in: the hook does not follow it, trust refuses to write it.
    await Deno.writeTextFile(
      `${box.tmp}/forged.json`,
      JSON.stringify({
        version: 1,
        trusted: [{ path: file, sha256: await trustDigest(LOOSE), trustedAt: "x" }],
      }),
    );
    await Deno.symlink(`${box.tmp}/forged.json`, store);
    const linked = await routine(box, "s1");
    assertEquals(linked.kind, "deny");
    assertStringIncludes(
      linked.stderr,
      "(the trust store is a symlink, which GateGuard does not follow, so it trusts nothing)",
    );
    const refused = await trust(box);
    assertEquals([refused.code, refused.stderr], [
      1,
      `gateguard trust: the trust store ${store} is a symlink, which GateGuard does not follow; ` +
      "remove it and run this again\n",
    ]);
    await Deno.remove(store);
    await Deno.writeTextFile(store, "{ not json");
    assertStringIncludes((await routine(box, "s2")).stderr, "(the trust store is malformed");
    const fresh = await trust(box);
    assertEquals(fresh.code, 0, fresh.stderr);
    assertEquals(
      fresh.stderr,
      `gateguard trust: the trust store ${store} is malformed; it is started afresh\n`,
    );
    assertEquals((await routine(box, "s3")).kind, "pass");
  });
});

Deno.test("[project-config-trust] trust names a missing project file and its options, and refuses what it does not know", async () => {
  await withBox(async (box) => {
    await Deno.remove(`${box.root}/.gateguard.jsonc`);
    const missing = await trust(box);
    assertEquals([missing.code, missing.stderr], [
      1,
      `gateguard trust: no project file at ${box.root}/.gateguard.jsonc; run this in the ` +
      "project root, or name the file\n",
    ]);
    const help = await trust(box, "--help");
    assertEquals(help.code, 0);
    assertStringIncludes(help.stdout, "Usage: gateguard trust [path]");
    const unknown = await trust(box, "--yes");
    assertEquals(unknown.code, 2);
    assertStringIncludes(unknown.stderr, "gateguard trust: unknown option '--yes'");
    assertEquals((await trust(box, "--list", "x")).code, 2);
    const none = await trust(box, "--list");
    assertEquals([none.code, none.stdout], [
      0,
      `no trusted project files (store: ${box.state}/trust.json)\n`,
    ]);
  });
});

Deno.test("[project-config-trust] a link to a file trusted in another project carries no trust, and trust refuses a linked file", async () => {
  await withBox(async (box, file) => {
    assertEquals((await trust(box)).code, 0);
    assertEquals((await routine(box, "l1")).kind, "pass");
    // Another project whose project file is a link to the trusted one.
    const other = `${box.tmp}/other`;
    await Deno.mkdir(other);
    await Deno.symlink(file, `${other}/.gateguard.jsonc`);
    const there = { ...box, root: other, env: { ...box.env, CLAUDE_PROJECT_DIR: other } };
    const linked = await routine(there, "l2");
    assertEquals(linked.kind, "deny");
    assertStringIncludes(linked.stderr, "the file is not trusted");
    const refused = await trust(there);
    assertEquals([refused.code, refused.stderr], [
      1,
      `gateguard trust: ${other}/.gateguard.jsonc is a symlink; only a project file that is a ` +
      "file of its own is trusted\n",
    ]);
  });
});
