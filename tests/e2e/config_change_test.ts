/**
 * The ConfigChange hook through the CLI as the binary runs it: `init`
 * writes the settings and their baseline, a change to the file is judged
 * against that baseline (exit 2 and the reason on stderr block it; exit 0
 * lets it apply and makes it the new baseline).
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { runCli } from "../helpers/cli.ts";

interface Sandbox extends AsyncDisposable {
  project: string;
  settings: string;
  env: Record<string, string>;
}

async function sandbox(): Promise<Sandbox> {
  const root = await Deno.makeTempDir({ prefix: "gg-config-change-" });
  const project = `${root}/project`;
  await Deno.mkdir(`${root}/home`);
  await Deno.mkdir(project);
  const env = { HOME: `${root}/home`, GATEGUARD_STATE_DIR: `${root}/state` };
  const init = await runCli(["init", "--shared"], { cwd: project, env });
  assertEquals(init.code, 0, init.stderr);
  return {
    project,
    settings: `${project}/.claude/settings.json`,
    env,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

function change(s: Sandbox, source = "project_settings"): ReturnType<typeof runCli> {
  return runCli([], {
    cwd: s.project,
    env: { ...s.env, CLAUDE_PROJECT_DIR: s.project },
    stdin: JSON.stringify({
      session_id: "cc-1",
      cwd: s.project,
      hook_event_name: "ConfigChange",
      source,
      file_path: s.settings,
    }),
  });
}

async function edit(path: string, from: string, to: string): Promise<void> {
  const text = await Deno.readTextFile(path);
  assert(text.includes(from), from);
  await Deno.writeTextFile(path, text.replace(from, to));
}

Deno.test("[self-protection] a settings change that drops GateGuard's entry is blocked with exit 2", async () => {
  await using s = await sandbox();
  await edit(s.settings, '"matcher": "Bash|PowerShell"', '"matcher": "Read"');
  const r = await change(s);
  assertEquals(r.code, 2);
  assertEquals(r.stdout, "");
  assertEquals(
    r.stderr.split("\n")[0],
    `GateGuard blocked this change to ${s.settings} from applying to the session: 1 of ` +
      "GateGuard's hook entries would be removed or changed, so some tools would no longer be gated.",
  );
  // Skills changes are not GateGuard's to judge.
  assertEquals((await change(s, "skills")).code, 0);
});

Deno.test("[self-protection] a harmless change applies and becomes the baseline the next one is judged by", async () => {
  await using s = await sandbox();
  await edit(s.settings, "{\n", '{\n  "model": "opus",\n');
  const ok = await change(s);
  assertEquals([ok.code, ok.stderr], [0, ""]);
  // Against the new baseline, taking the ConfigChange entry out is still a weakening.
  const value = JSON.parse(await Deno.readTextFile(s.settings));
  assertEquals(value.model, "opus");
  delete value.hooks.ConfigChange;
  await Deno.writeTextFile(s.settings, JSON.stringify(value, null, 2));
  assertEquals((await change(s)).code, 2);
});

Deno.test("[self-protection] GateGuard switched off in the session's environment lets every change apply", async () => {
  await using s = await sandbox();
  await Deno.writeTextFile(s.settings, "{}\n");
  const r = await runCli([], {
    cwd: s.project,
    env: { ...s.env, ECC_GATEGUARD: "off" },
    stdin: JSON.stringify({
      hook_event_name: "ConfigChange",
      source: "project_settings",
      file_path: s.settings,
    }),
  });
  assertEquals(r.code, 0);
});
