/**
 * Destructive packs switched through the operator's own controls: the
 * project file's `destructivePacks` and `GATEGUARD_DESTRUCTIVE_PACKS`,
 * read by the hook's settings resolution, then what `gateguard explain`
 * and `gateguard doctor` report about them.
 */

import { tempDir } from "../helpers/temp.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCli } from "../helpers/cli.ts";
import type { EnvSnapshot } from "../../src/config/env.ts";
import { resolveSettings } from "../../src/config/settings.ts";
import { destructiveRule } from "../../src/hook/shell_gate.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { PACKS } from "../../src/shell/packs/registry.ts";
import { trustProjectFile } from "../helpers/trust.ts";

/** One destructive command per switchable pack. */
const SAMPLES: Readonly<Record<string, string>> = {
  filesystem: "find . -name '*.log' -delete",
  interpreters: "python3 -c \"import shutil; shutil.rmtree('build')\"",
  containers: "docker system prune -a -f",
  kubernetes: "kubectl delete namespace prod",
  iac: "terraform destroy -auto-approve",
  cloud: "aws s3 rm s3://bucket --recursive",
  hosting: "gh repo delete owner/repo --yes",
  databases: "psql -c 'UPDATE users SET admin = true'",
  frameworks: "prisma migrate reset --force",
  "git-history": "git gc --prune=now",
  "version-control": "hg purge --all",
  publish: "npm publish",
};

const SWITCHABLE = PACKS.filter((p) => !p.required).map((p) => p.id);

/** The pack's id when it is on by default, null for an opt-in pack. */
const byDefault = (pack: string): string | null =>
  PACKS.find((p) => p.id === pack)?.defaultOn ? pack : null;

async function project(config: string | null): Promise<{ root: string; tmp: string }> {
  const tmp = await Deno.realPath(await tempDir({ prefix: "gg-packs-" }));
  const root = `${tmp}/proj`;
  await Deno.mkdir(root, { recursive: true });
  // The file is the user's own here, trusted as `gateguard trust` records it,
  // so a pack it switches off is off (an untrusted file cannot do that).
  if (config !== null) await Deno.writeTextFile(`${root}/.gateguard.jsonc`, config);
  if (config !== null) await trustProjectFile(root, `${tmp}/state`);
  return { root, tmp };
}

/** The state directory of the project at `root`, made by `project`. */
const stateOf = (root: string): string => root.replace(/\/proj$/, "/state");

/** The pack each sample (and `rm -rf x`) is found destructive by under `env` and the file. */
async function verdicts(root: string, env: EnvSnapshot): Promise<Record<string, string | null>> {
  const settings = await resolveSettings(
    { GATEGUARD_STATE_DIR: stateOf(root), ...env },
    root,
    denoFs,
  );
  const out: Record<string, string | null> = {};
  for (const [pack, command] of [...Object.entries(SAMPLES), ["core", "rm -rf x"]]) {
    out[pack] = (await destructiveRule("bash", command, settings)).hit?.pack ?? null;
  }
  return out;
}

const all = (value: (pack: string) => string | null): Record<string, string | null> =>
  Object.fromEntries([...Object.keys(SAMPLES), "core"].map((p) => [p, value(p)]));

Deno.test("[destructive-bash-gate] every switchable pack has a sample command", () => {
  assertEquals(Object.keys(SAMPLES).sort(), [...SWITCHABLE].sort());
});

Deno.test("[destructive-bash-gate] every pack switches off in .gateguard.jsonc and back on with GATEGUARD_DESTRUCTIVE_PACKS; the core stays on", async () => {
  const off = JSON.stringify({ destructivePacks: [...SWITCHABLE.map((p) => `-${p}`), "-core"] });
  const { root, tmp } = await project(`// every pack off\n${off}\n`);
  try {
    assertEquals(await verdicts(root, {}), all((p) => p === "core" ? "core" : null));
    // The variable's switches apply after the file's.
    const on = SWITCHABLE.map((p) => `+${p}`).join(",");
    assertEquals(await verdicts(root, { GATEGUARD_DESTRUCTIVE_PACKS: on }), all((p) => p));
    const bare = SWITCHABLE.join(", ");
    assertEquals(await verdicts(root, { GATEGUARD_DESTRUCTIVE_PACKS: bare }), all((p) => p));
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("[destructive-bash-gate] every pack switches off with GATEGUARD_DESTRUCTIVE_PACKS alone", async () => {
  const { root, tmp } = await project(null);
  try {
    assertEquals(await verdicts(root, {}), all(byDefault));
    for (const pack of SWITCHABLE) {
      const got = await verdicts(root, { GATEGUARD_DESTRUCTIVE_PACKS: `-${pack}` });
      assertEquals(got, all((p) => p === pack ? null : byDefault(p)), pack);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("[destructive-bash-gate] the opt-in publish pack switches on in .gateguard.jsonc or with GATEGUARD_DESTRUCTIVE_PACKS", async () => {
  const { root, tmp } = await project('{ "destructivePacks": ["+publish"] }\n');
  try {
    assertEquals(await verdicts(root, {}), all((p) => p));
    const off = await verdicts(root, { GATEGUARD_DESTRUCTIVE_PACKS: "-publish" });
    assertEquals(off, all(byDefault));
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
  const bare = await project(null);
  try {
    const on = await verdicts(bare.root, { GATEGUARD_DESTRUCTIVE_PACKS: "publish" });
    assertEquals(on, all((p) => p));
  } finally {
    await Deno.remove(bare.tmp, { recursive: true });
  }
});

/** A sandbox to run the CLI in, with a project file. */
async function cliSandbox(config: string) {
  const { root, tmp } = await project(config);
  const env = { GATEGUARD_STATE_DIR: `${tmp}/state`, CLAUDE_PROJECT_DIR: root, HOME: tmp };
  const payload = (command: string) =>
    JSON.stringify({ session_id: "p", cwd: root, tool_name: "Bash", tool_input: { command } });
  return {
    root,
    env,
    explain: (command: string, args: string[], more: Record<string, string> = {}) =>
      runCli(["explain", ...args], {
        stdin: payload(command),
        env: { ...env, ...more },
        cwd: root,
      }),
    doctor: (more: Record<string, string> = {}) =>
      runCli(["doctor"], { env: { ...env, ...more }, cwd: root }),
    [Symbol.asyncDispose]: () => Deno.remove(tmp, { recursive: true }),
  };
}

Deno.test("[destructive-bash-gate] explain names the pack and rule that fired, and none once the pack is off", async () => {
  await using s = await cliSandbox('{ "destructivePacks": ["-kubernetes"] }\n');
  const command = "kubectl delete namespace prod";
  const json = async (more: Record<string, string> = {}) => {
    const r = await s.explain(command, ["--json"], more);
    assertEquals(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  assertEquals((await json()).destructive, null);
  const on = await json({ GATEGUARD_DESTRUCTIVE_PACKS: "+kubernetes" });
  const destroys = "deletes cluster resources (a namespace or kind takes everything in it)";
  assertEquals(on.destructive, { pack: "kubernetes", rule: "kubectl-delete", destroys });
  assertEquals(on.decision, "deny");
  // The denial keeps the three questions and adds the rule's line.
  assertStringIncludes(on.message, "1. List all files/data this command will modify or delete");
  assertStringIncludes(on.message, "2. Write a one-line rollback procedure");
  assertStringIncludes(on.message, "3. Quote the user's current instruction verbatim");
  assertStringIncludes(on.message, `What it destroys (kubernetes/kubectl-delete): ${destroys}.`);
  const text = await s.explain(command, [], { GATEGUARD_DESTRUCTIVE_PACKS: "+kubernetes" });
  assertStringIncludes(
    text.stdout,
    `  destructive rule: kubernetes/kubectl-delete (${destroys})\n`,
  );
});

Deno.test("[doctor] doctor lists the active packs and where the switches came from", async () => {
  await using s = await cliSandbox('{ "destructivePacks": ["-cloud", "-hosting"] }\n');
  /** The doctor line on the active packs, as [list, source]. */
  const packsLine = (stdout: string) => {
    const line = stdout.split("\n").find((l) => l.startsWith("  info  active destructive packs"));
    const m = /^ {2}info {2}active destructive packs +(.*?) {2}\[(.*)\]$/.exec(line ?? "");
    return m === null ? line : [m[1], m[2]];
  };
  const names = (...off: string[]) =>
    PACKS.filter((p) => p.defaultOn && !off.includes(p.id)).map((p) => `"${p.id}"`).join(", ");
  assertEquals(packsLine((await s.doctor()).stdout), [
    names("cloud", "hosting"),
    `file ${s.root}/.gateguard.jsonc`,
  ]);
  const env = { GATEGUARD_DESTRUCTIVE_PACKS: "-kubernetes,+cloud" };
  assertEquals(packsLine((await s.doctor(env)).stdout), [
    names("kubernetes", "hosting"),
    "env GATEGUARD_DESTRUCTIVE_PACKS",
  ]);
});

Deno.test("[doctor] doctor lists the opt-in publish pack as inactive until it is switched on; explain names it", async () => {
  await using s = await cliSandbox("{}\n");
  const line = (stdout: string, label: string) =>
    stdout.split("\n").find((l) => l.startsWith(`  info  ${label}`))?.replace(/ +/g, " ");
  const before = (await s.doctor()).stdout;
  assertStringIncludes(line(before, "inactive destructive packs") ?? "", ' "publish" [default]');
  const env = { GATEGUARD_DESTRUCTIVE_PACKS: "+publish" };
  const after = (await s.doctor(env)).stdout;
  assertStringIncludes(line(after, "active destructive packs") ?? "", '"publish"');
  assertStringIncludes(line(after, "inactive destructive packs") ?? "", " none [env");
  const r = await s.explain("npm publish", ["--json"], env);
  assertEquals(r.code, 0, r.stderr);
  const destroys = "publishes a version to a registry; it cannot be replaced under the same number";
  assertEquals(JSON.parse(r.stdout).destructive, {
    pack: "publish",
    rule: "npm-publish",
    destroys,
  });
  assertEquals(JSON.parse((await s.explain("npm publish", ["--json"])).stdout).destructive, null);
});
