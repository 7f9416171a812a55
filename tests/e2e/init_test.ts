/**
 * `gateguard init` end to end, on temporary homes and projects, through the
 * CLI exactly as the binary runs it.
 */

import { tempDir } from "../helpers/temp.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCli, SOURCE_COMMAND } from "../helpers/cli.ts";
import {
  pluginHooksJson,
  registrationGroups,
  registrationHooks,
} from "../../src/setup/claude_settings.ts";
import { STARTER_CONFIG } from "../../src/config/project_config.ts";

/** The command a from-source run registers: the test CLI's own argv. */
const COMMAND = SOURCE_COMMAND;

interface Sandbox extends AsyncDisposable {
  home: string;
  project: string;
  /** Where a from-source init registers by default: its command names this checkout. */
  settings: string;
  /** The settings file the team shares. */
  shared: string;
  run(...args: string[]): ReturnType<typeof runCli>;
}

async function sandbox(): Promise<Sandbox> {
  const root = await tempDir({ prefix: "gg-init-" });
  const home = `${root}/home`;
  const project = `${root}/project`;
  await Deno.mkdir(home);
  await Deno.mkdir(project);
  return {
    home,
    project,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
    settings: `${project}/.claude/settings.local.json`,
    shared: `${project}/.claude/settings.json`,
    run: (...args: string[]) => runCli(["init", ...args], { cwd: project, env: { HOME: home } }),
  };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

const FRESH = `${JSON.stringify({ hooks: registrationHooks(COMMAND) }, null, 2)}\n`;

/** The line a from-source init prints on why its command stays out of the shared file. */
const LOCAL_WHY = "Registered in the local file: GateGuard runs from source here, so the command " +
  "names this checkout; a teammate's clone would not have that, so it stays out of the shared " +
  ".claude/settings.json (--shared puts it there anyway).";

Deno.test("[init] on a project without settings it writes both entries with the running command, machine-specific in the local file", async () => {
  await using s = await sandbox();
  const r = await s.run();
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await Deno.readTextFile(s.settings), FRESH);
  assertEquals(r.stdout.split("\n").slice(0, 3), [
    `GateGuard registered in ${s.settings} for Edit|Write|MultiEdit|NotebookEdit and Bash|PowerShell.`,
    `Command: ${COMMAND}`,
    LOCAL_WHY,
  ]);
  assertEquals(r.stderr, "");
  assertEquals([...Deno.readDirSync(`${s.project}/.claude`)].map((e) => e.name), [
    "settings.local.json",
  ]);
});

Deno.test("[init] --shared writes the shared file anyway and says the command is this machine's", async () => {
  await using s = await sandbox();
  const r = await s.run("--shared");
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await Deno.readTextFile(s.shared), FRESH);
  assertEquals(r.stdout.split("\n").slice(0, 3), [
    `GateGuard registered in ${s.shared} for Edit|Write|MultiEdit|NotebookEdit and Bash|PowerShell.`,
    `Command: ${COMMAND}`,
    "Shared anyway (--shared): GateGuard runs from source here, so the command names this " +
    "checkout; a teammate's clone may not have it.",
  ]);
  assertEquals(await exists(s.settings), false);
  // With no file named, --remove looks in both project files.
  await write(s.settings, FRESH);
  const removed = await s.run("--remove");
  assertEquals(removed.code, 0, removed.stderr);
  assertEquals(
    removed.stdout,
    `GateGuard removed from ${s.shared}.\nGateGuard removed from ${s.settings}.\n`,
  );
  const twice = await s.run("--remove");
  assertEquals(
    twice.stdout,
    `${s.shared} does not register GateGuard; nothing to change.\n` +
      `${s.settings} does not register GateGuard; nothing to change.\n`,
  );
});

Deno.test("[init] an older machine-specific entry in the shared file moves to the local file; a bare gateguard there stays", async () => {
  await using s = await sandbox();
  const team = '{\n  "model": "opus"\n}\n';
  // What an older init wrote: this checkout's command in the shared file.
  await write(s.shared, team);
  assertEquals((await s.run("--shared")).code, 0);
  const r = await s.run();
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await Deno.readTextFile(s.settings), FRESH);
  assertEquals(JSON.parse(await Deno.readTextFile(s.shared)), { model: "opus" });
  assertStringIncludes(
    r.stdout,
    `\nMoved GateGuard out of the shared ${s.shared}: its command there names this machine's ` +
      "paths too.\n",
  );
  // A teammate's portable entry is the team's choice: left as it is.
  const portable = `${
    JSON.stringify({ hooks: { PreToolUse: registrationGroups("gateguard") } }, null, 2)
  }\n`;
  await write(s.shared, portable);
  await Deno.remove(s.settings);
  const again = await s.run();
  assertEquals(await Deno.readTextFile(s.shared), portable);
  assert(!again.stdout.includes("Moved GateGuard"), again.stdout);
  assertEquals(await Deno.readTextFile(s.settings), FRESH);
});

Deno.test("[init] from a subdirectory, init and doctor work on the git root, not the subdirectory", async () => {
  await using s = await sandbox();
  await Deno.mkdir(`${s.project}/.git`);
  await Deno.mkdir(`${s.project}/src/deep`, { recursive: true });
  const r = await runCli(["init"], { cwd: `${s.project}/src/deep`, env: { HOME: s.home } });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await Deno.readTextFile(s.settings), FRESH);
  assertEquals(await exists(`${s.project}/src/deep/.claude`), false);
  const doctor = await runCli(["doctor"], { cwd: `${s.project}/src`, env: { HOME: s.home } });
  assertStringIncludes(doctor.stdout, `  info  project root ${s.project}\n`);
  assertStringIncludes(doctor.stdout, `local settings ${s.settings}`);
  assert(!doctor.stdout.includes("not registered"), doctor.stdout);
  // A worktree's .git is a file: its folder is the root all the same.
  await Deno.remove(`${s.project}/.git`);
  await Deno.writeTextFile(`${s.project}/src/.git`, "gitdir: ../../repo/.git/worktrees/src\n");
  const inWorktree = await runCli(["init", "--dry-run"], {
    cwd: `${s.project}/src/deep`,
    env: { HOME: s.home },
  });
  assertStringIncludes(inWorktree.stdout, `+++ ${s.project}/src/.claude/settings.local.json\n`);
});

Deno.test("[init] a second run changes nothing and does not rewrite the file", async () => {
  await using s = await sandbox();
  await s.run();
  const before = await Deno.stat(s.settings);
  const r = await s.run();
  assertEquals(r.code, 0);
  assertStringIncludes(r.stdout, `${s.settings} already registers GateGuard; nothing to change.`);
  assertEquals(await Deno.readTextFile(s.settings), FRESH);
  assertEquals((await Deno.stat(s.settings)).mtime, before.mtime);
});

const EXISTING = `{
  // Shared team settings: keep this comment.
  "permissions": {
    "allow": ["Bash(npm test:*)"], /* inline */
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Read",
        "hooks": [{ "type": "command", "command": "audit-read", "timeout": 3 }]
      }
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": "notify" }] }]
  },
  "model": "opus"
}
`;

Deno.test("[init] an existing file keeps every other byte, and --remove restores it exactly", async () => {
  await using s = await sandbox();
  await write(s.settings, EXISTING);
  const r = await s.run();
  assertEquals(r.code, 0, r.stderr);
  const block = registrationGroups(COMMAND)
    .map((g) => `      ${JSON.stringify(g, null, 2).replaceAll("\n", "\n      ")}`)
    .join(",\n");
  const watcher = JSON.stringify(registrationHooks(COMMAND).ConfigChange, null, 2)
    .replaceAll("\n", "\n    ");
  const expected = EXISTING.replace(
    '\n      }\n    ],\n    "Stop"',
    `\n      },\n${block}\n    ],\n    "Stop"`,
  ).replace(
    '"command": "notify" }] }]\n  },',
    `"command": "notify" }] }],\n    "ConfigChange": ${watcher}\n  },`,
  );
  assert(expected !== EXISTING);
  assertEquals(await Deno.readTextFile(s.settings), expected);
  const again = await s.run();
  assertStringIncludes(again.stdout, "nothing to change");
  const removed = await s.run("--remove");
  assertEquals(removed.code, 0, removed.stderr);
  assertStringIncludes(removed.stdout, `GateGuard removed from ${s.settings}.`);
  assertEquals(await Deno.readTextFile(s.settings), EXISTING);
  const twice = await s.run("--remove");
  assertStringIncludes(twice.stdout, "does not register GateGuard; nothing to change.");
});

Deno.test("[init] --dry-run prints a diff and writes nothing", async () => {
  await using s = await sandbox();
  const fresh = await s.run("--dry-run", "--config");
  assertEquals(fresh.code, 0, fresh.stderr);
  assert(
    fresh.stdout.startsWith(
      `${LOCAL_WHY}\n--- /dev/null\n+++ ${s.settings}\n@@ -0,0 +1,52 @@\n+{\n`,
    ),
    fresh.stdout,
  );
  assertStringIncludes(fresh.stdout, `+++ ${s.project}/.gateguard.jsonc\n`);
  assertEquals([
    await exists(`${s.project}/.claude`),
    await exists(`${s.project}/.gateguard.jsonc`),
  ], [false, false]);

  await write(s.settings, '{\n  "model": "opus"\n}\n');
  const diff = await s.run("--dry-run");
  assertEquals(diff.code, 0);
  assert(
    diff.stdout.startsWith(
      `${LOCAL_WHY}\n--- ${s.settings}\n+++ ${s.settings}\n@@ -1,3 +1,53 @@\n {\n-  "model": "opus"\n+  "model": "opus",\n+  "hooks": {\n`,
    ),
    diff.stdout,
  );
  assertEquals(await Deno.readTextFile(s.settings), '{\n  "model": "opus"\n}\n');

  await s.run();
  const none = await s.run("--dry-run");
  assertEquals(none.stdout, `${s.settings}: nothing would change.\n`);
});

Deno.test("[init] --user and --local pick their settings files", async () => {
  await using s = await sandbox();
  const user = await s.run("--user");
  assertEquals(user.code, 0, user.stderr);
  assertEquals(await Deno.readTextFile(`${s.home}/.claude/settings.json`), FRESH);
  const local = await s.run("--local");
  assertEquals(local.code, 0, local.stderr);
  assertEquals(await Deno.readTextFile(s.settings), FRESH);
  assertEquals(await exists(s.shared), false);
  // A file named by its flag is this user's or this machine's: no reason to give.
  assert(!user.stdout.includes("Registered in the local file"), user.stdout);
  assert(!local.stdout.includes("Registered in the local file"), local.stdout);
  const noHome = await runCli(["init", "--user"], { cwd: s.project, env: {} });
  assertEquals(noHome.code, 1);
  assertStringIncludes(noHome.stderr, "neither HOME nor USERPROFILE is set");
});

Deno.test("[init] CLAUDE_PROJECT_DIR names the project", async () => {
  await using s = await sandbox();
  const r = await runCli(["init"], {
    cwd: s.home,
    env: { HOME: s.home, CLAUDE_PROJECT_DIR: s.project },
  });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await Deno.readTextFile(s.settings), FRESH);
});

Deno.test("[init] a settings file that does not parse is left untouched, exit 1", async () => {
  await using s = await sandbox();
  const broken = '{\n  "hooks": {\n    "PreToolUse": [\n  }\n}\n';
  await write(s.settings, broken);
  const r = await s.run();
  assertEquals(r.code, 1);
  assertEquals(
    r.stderr,
    `gateguard init: ${s.settings}: cannot parse it at 4:3: unexpected character "}". ` +
      "The file was left untouched; fix it by hand and run init again.\n",
  );
  assertEquals(r.stdout, "");
  assertEquals(await Deno.readTextFile(s.settings), broken);
  const remove = await s.run("--remove");
  assertEquals(remove.code, 1);
  assertEquals(await Deno.readTextFile(s.settings), broken);
});

Deno.test("[init] --config writes the commented starter once and never overwrites it", async () => {
  await using s = await sandbox();
  const r = await s.run("--config");
  assertEquals(r.code, 0, r.stderr);
  const path = `${s.project}/.gateguard.jsonc`;
  assertEquals(await Deno.readTextFile(path), STARTER_CONFIG);
  assertStringIncludes(r.stdout, `Wrote the starter project file ${path}.`);
  await Deno.writeTextFile(path, '{ "maxDenials": 2 }');
  const again = await s.run("--config");
  assertStringIncludes(again.stdout, `${path} already exists; left unchanged.`);
  assertEquals(await Deno.readTextFile(path), '{ "maxDenials": 2 }');
});

Deno.test("[init] a symlinked settings file is written through the link", async () => {
  await using s = await sandbox();
  const real = `${s.home}/dotfiles/settings.json`;
  await write(real, "{}\n");
  await Deno.mkdir(`${s.project}/.claude`);
  await Deno.symlink(real, s.settings);
  const r = await s.run();
  assertEquals(r.code, 0, r.stderr);
  assert((await Deno.lstat(s.settings)).isSymlink);
  assertEquals(await Deno.readTextFile(real), FRESH);
  assertEquals([...Deno.readDirSync(`${s.home}/dotfiles`)].map((e) => e.name), ["settings.json"]);
  assertStringIncludes(
    r.stdout,
    `GateGuard registered in ${s.settings} (a symlink to ${await Deno.realPath(real)}) for`,
  );
});

function mkfifo(path: string): void {
  const r = new Deno.Command("mkfifo", { args: [path] }).outputSync();
  assert(r.success, `mkfifo ${path}`);
}

Deno.test("[init] a FIFO in place of the settings file or the project file never hangs init", async () => {
  await using s = await sandbox();
  await Deno.mkdir(`${s.project}/.claude`);
  mkfifo(s.settings);
  for (const args of [[], ["--remove"]]) {
    const r = await s.run(...args);
    assertEquals(r.code, 1, r.stdout);
    assertEquals(
      r.stderr,
      `gateguard init: cannot read ${s.settings}: not a regular file; the file was left untouched.\n`,
    );
  }
  await Deno.remove(s.settings);
  mkfifo(`${s.project}/.gateguard.jsonc`);
  const r = await s.run("--config");
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, `${s.project}/.gateguard.jsonc already exists; left unchanged.`);
  assert((await Deno.lstat(`${s.project}/.gateguard.jsonc`)).isFifo);
});

Deno.test("[init] a read-only settings file is refused, and a replaced file keeps its owner", async () => {
  await using s = await sandbox();
  await write(s.settings, "{}\n");
  await Deno.chmod(s.settings, 0o444);
  const r = await s.run();
  assertEquals(r.code, 1);
  assertEquals(
    r.stderr,
    `gateguard init: ${s.settings} is read-only, so init leaves it as it is; fix: make it ` +
      "writable (chmod u+w) and run init again, or add the entries by hand\n",
  );
  assertEquals(await Deno.readTextFile(s.settings), "{}\n");
  await Deno.chmod(s.settings, 0o640);
  if (Deno.uid() === 0) await Deno.chown(s.settings, 65534, 65534);
  assertEquals((await s.run()).code, 0);
  const info = await Deno.stat(s.settings);
  assertEquals(info.mode! & 0o777, 0o640);
  if (Deno.uid() === 0) assertEquals([info.uid, info.gid], [65534, 65534]);
  assertEquals(await Deno.readTextFile(s.settings), FRESH);
});

Deno.test("[init] what still keeps GateGuard from gating is reported instead of nothing to change", async () => {
  await using s = await sandbox();
  assertEquals((await s.run()).code, 0);
  await write(
    s.shared,
    JSON.stringify({ disableAllHooks: true, env: { GATEGUARD_DISABLED: "1" } }),
  );
  const r = await s.run();
  assertEquals(r.code, 1);
  const local = s.shared;
  assertEquals(r.stdout.split("\n").filter((l) => l !== "").slice(0, 3), [
    `${s.settings} already registers GateGuard.`,
    `Still not gating: ${local} sets "disableAllHooks": true, so no hook runs, GateGuard ` +
    'included; fix: remove "disableAllHooks" from it',
    `Still not gating: the env block of ${local} sets GATEGUARD_DISABLED=1, which switches ` +
    "GateGuard off; fix: remove that variable from the block",
  ]);
});

Deno.test("[init] GateGuard's own entry loses async and if; other hooks naming gateguard stay as they are", async () => {
  await using s = await sandbox();
  const theirs = [
    { type: "command", command: 'logger -t gateguard "bash call"' },
    { type: "command", command: "/opt/tools/gateguard-audit.rb --log" },
    { type: "command", command: "tee -a /var/log/gateguard" },
  ];
  const before = JSON.stringify(
    {
      hooks: {
        PreToolUse: [
          { matcher: "*", hooks: theirs },
          {
            matcher: "Bash|PowerShell",
            hooks: [{ type: "command", command: COMMAND, timeout: 10, async: true, if: "Bash(x)" }],
          },
        ],
      },
    },
    null,
    2,
  ) + "\n";
  await write(s.settings, before);
  const r = await s.run();
  assertEquals(r.code, 0, r.stderr);
  const after = JSON.parse(await Deno.readTextFile(s.settings));
  assertEquals(after.hooks.PreToolUse, [
    { matcher: "*", hooks: theirs },
    registrationGroups(COMMAND)[1],
    registrationGroups(COMMAND)[0],
    registrationGroups(COMMAND)[2],
  ]);
  assertStringIncludes(
    r.stdout,
    'Left alone: the hook command "logger -t gateguard \\"bash call\\""',
  );
  assertStringIncludes(r.stdout, 'Left alone: the hook command "tee -a /var/log/gateguard"');
  const removed = await s.run("--remove");
  assertEquals(removed.code, 0);
  assertEquals(JSON.parse(await Deno.readTextFile(s.settings)).hooks.PreToolUse, [
    { matcher: "*", hooks: theirs },
  ]);
});

Deno.test("[init] --plugin prints the shipped hooks.json", async () => {
  await using s = await sandbox();
  const r = await s.run("--plugin");
  assertEquals([r.code, r.stdout], [0, pluginHooksJson()]);
  assertEquals(await exists(`${s.project}/.claude`), false);
});

Deno.test("[init] usage: --help exits 0, unknown or conflicting options exit 2", async () => {
  await using s = await sandbox();
  const help = await s.run("--help");
  assertEquals(help.code, 0);
  assert(help.stdout.startsWith("Usage: gateguard init"), help.stdout);
  const unknown = await s.run("--frobnicate");
  assertEquals(unknown.code, 2);
  assert(
    unknown.stderr.startsWith(
      "gateguard init: unknown option '--frobnicate'\nUsage: gateguard init",
    ),
  );
  const both = await s.run("--user", "--local");
  assertEquals(both.code, 2);
  assert(both.stderr.startsWith("gateguard init: --user and --local cannot be combined\n"));
  assertEquals(await exists(`${s.project}/.claude`), false);
});

Deno.test("[init] through `deno task` the project is where the command was typed (INIT_CWD)", async () => {
  await using s = await sandbox();
  const repoLike = `${s.home}/checkout`;
  await Deno.mkdir(repoLike);
  const r = await runCli(["init"], { cwd: repoLike, env: { HOME: s.home, INIT_CWD: s.project } });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(await exists(s.settings), true);
  assertEquals(await exists(`${repoLike}/.claude`), false);
});
