/**
 * `gateguard doctor` end to end on temporary homes and projects: a healthy
 * setup, and each broken setup it must flag with exit code 1.
 */

import { MCP_CHANGE_MATCHER } from "../../src/tools/gated.ts";
import { tempDir } from "../helpers/temp.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { REPO_ROOT, runCli, SOURCE_COMMAND } from "../helpers/cli.ts";
import { pluginHooksJson } from "../../src/setup/claude_settings.ts";
import { sha256Hex } from "../../src/platform/sha256.ts";

interface Sandbox extends AsyncDisposable {
  home: string;
  project: string;
  env: Record<string, string>;
  run(...args: string[]): ReturnType<typeof runCli>;
  init(...args: string[]): ReturnType<typeof runCli>;
}

async function sandbox(extraEnv: Record<string, string> = {}): Promise<Sandbox> {
  const root = await tempDir({ prefix: "gg-doctor-" });
  const home = `${root}/home`;
  const project = `${root}/project`;
  await Deno.mkdir(`${home}/.claude/projects`, { recursive: true });
  await Deno.mkdir(project);
  const env = { HOME: home, ...extraEnv };
  return {
    home,
    project,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
    env,
    run: (...args: string[]) => runCli(["doctor", ...args], { cwd: project, env }),
    // The doctor checks below read the shared file: a from-source init writes it only when asked.
    init: (...args: string[]) => runCli(["init", "--shared", ...args], { cwd: project, env }),
  };
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

function failLines(stdout: string): string[] {
  return stdout.split("\n").filter((l) => l.startsWith("  FAIL"));
}

Deno.test("[doctor] a healthy setup reports no problem, opens with the version line of --version, and exits 0", async () => {
  await using s = await sandbox();
  assertEquals((await s.init()).code, 0);
  const stateBefore = [...Deno.readDirSync(`${s.home}/.gateguard`)].map((e) => e.name).sort();
  const r = await s.run();
  assertEquals(r.code, 0, r.stdout);
  assertEquals(failLines(r.stdout), []);
  // The first line is the version line, the same as `gateguard --version` prints.
  const version = await runCli(["--version"]);
  assertEquals(r.stdout.split("\n")[0], version.stdout.trimEnd());
  assertStringIncludes(version.stdout, "from source)");
  assertStringIncludes(r.stdout, `  ok    state dir ${s.home}/.gateguard is writable\n`);
  assertStringIncludes(
    r.stdout,
    `  info  project settings ${s.project}/.claude/settings.json: GateGuard on ` +
      `"Edit|Write|MultiEdit|NotebookEdit", "Bash|PowerShell", "${MCP_CHANGE_MATCHER}"\n`,
  );
  assertStringIncludes(
    r.stdout,
    "  ok    registrations reach Edit, Write, MultiEdit, NotebookEdit, Bash, PowerShell once each\n",
  );
  assertStringIncludes(r.stdout, `  ok    transcript dir ${s.home}/.claude/projects is readable\n`);
  assertStringIncludes(
    r.stdout,
    `  ok    the registered command of project settings ${s.project}/.claude/settings.json ` +
      "answers as GateGuard\n",
  );
  assert(r.stdout.endsWith("No problems found.\n"), r.stdout);
  // The probe used a state dir of its own: the user's is left as doctor found it.
  assertEquals(
    [...Deno.readDirSync(`${s.home}/.gateguard`)].map((e) => e.name).sort(),
    stateBefore,
  );
});

Deno.test("[doctor] a settings file with GateGuard's PreToolUse entries but no ConfigChange entry fails", async () => {
  await using s = await sandbox();
  assertEquals((await s.init()).code, 0);
  const settings = `${s.project}/.claude/settings.json`;
  const value = JSON.parse(await Deno.readTextFile(settings));
  delete value.hooks.ConfigChange;
  await Deno.writeTextFile(settings, JSON.stringify(value));
  const r = await s.run();
  assertEquals(r.code, 1, r.stdout);
  assertEquals(failLines(r.stdout), [
    `  FAIL  project settings ${settings} has no GateGuard ConfigChange entry, so a settings ` +
    "change made during a session that switches GateGuard off applies to it at once; fix: run " +
    "`gateguard init`",
  ]);
});

Deno.test("[doctor] every agent's registered command is probed with that agent's own payload", async () => {
  await using s = await sandbox();
  assertEquals((await s.init()).code, 0);
  for (const agent of ["codex", "gemini", "copilot", "cursor"]) {
    const r = await runCli(["init", "--agent", agent], { cwd: s.project, env: s.env });
    assertEquals(r.code, 0, `${agent}: ${r.stderr}`);
  }
  const files = {
    "Codex CLI": `${s.project}/.codex/hooks.json`,
    "Gemini CLI": `${s.project}/.gemini/settings.json`,
    "Copilot CLI": `${s.project}/.github/hooks/gateguard.json`,
    "Cursor": `${s.project}/.cursor/hooks.json`,
  };
  const healthy = await s.run();
  assertEquals(healthy.code, 0, healthy.stdout);
  for (const [title, path] of Object.entries(files)) {
    assertStringIncludes(
      healthy.stdout,
      `  ok    the registered command of ${title} ${path} answers as GateGuard\n`,
    );
  }
  // Codex's command pointed at a checkout that is gone: only that entry fails.
  const codex = files["Codex CLI"];
  const moved = (await Deno.readTextFile(codex)).replaceAll(REPO_ROOT, `${s.home}/moved-away`);
  await Deno.writeTextFile(codex, moved);
  const r = await s.run();
  assertEquals(r.code, 1, r.stdout);
  const fails = failLines(r.stdout);
  assertEquals(fails.length, 1, r.stdout);
  assertStringIncludes(
    fails[0],
    `  FAIL  the registered command of Codex CLI ${codex} does not answer as GateGuard: it ` +
      "exited with status 1: ",
  );
  assertStringIncludes(
    fails[0],
    "so Codex CLI lets every gated call through; fix: run `gateguard init --agent codex` again " +
      "from the installed binary",
  );
});

Deno.test("[doctor] a from-source registration whose checkout is gone fails, naming the entry", async () => {
  await using s = await sandbox();
  assertEquals((await s.init()).code, 0);
  const settings = `${s.project}/.claude/settings.json`;
  const gone = `${s.home}/moved-away`;
  // The checkout the command names no longer exists; Deno itself is still installed.
  const moved = SOURCE_COMMAND.replaceAll(REPO_ROOT, gone);
  await Deno.writeTextFile(
    settings,
    (await Deno.readTextFile(settings)).replaceAll(
      JSON.stringify(SOURCE_COMMAND),
      JSON.stringify(moved),
    ),
  );
  const r = await s.run();
  assertEquals(r.code, 1, r.stdout);
  const fails = failLines(r.stdout);
  assertEquals(fails.length, 1, r.stdout);
  assertStringIncludes(
    fails[0],
    `  FAIL  the registered command of project settings ${settings} does not answer as ` +
      "GateGuard: it exited with status 1: ",
  );
  assertStringIncludes(
    fails[0],
    "so Claude Code blocks every gated call; fix: run `gateguard init`",
  );
});

Deno.test("[doctor] nothing registered is a problem with its fix", async () => {
  await using s = await sandbox();
  const r = await s.run();
  assertEquals(r.code, 1);
  assertEquals(failLines(r.stdout), [
    "  FAIL  GateGuard is not registered in any settings file or plugin; fix: run `gateguard init` " +
    "(or `gateguard init --user` for every project)",
  ]);
  assert(r.stdout.endsWith("1 problem found.\n"));
});

Deno.test("[doctor] a Bash-only matcher is flagged", async () => {
  await using s = await sandbox();
  await write(`${s.home}/bin/gateguard`, "#!/bin/sh\n");
  await Deno.chmod(`${s.home}/bin/gateguard`, 0o755);
  await write(
    `${s.home}/.claude/settings.json`,
    JSON.stringify({
      hooks: {
        PreToolUse: [{
          matcher: "Bash",
          hooks: [{ type: "command", command: `${s.home}/bin/gateguard`, onFailure: "block" }],
        }],
        ConfigChange: [{
          hooks: [{ type: "command", command: `${s.home}/bin/gateguard`, onFailure: "block" }],
        }],
      },
    }),
  );
  const r = await s.run();
  assertEquals(r.code, 1);
  assertEquals(failLines(r.stdout), [
    "  FAIL  GateGuard never sees Edit, Write, MultiEdit, NotebookEdit, PowerShell: no registered " +
    "matcher reaches them; fix: run `gateguard init` (it registers " +
    "Edit|Write|MultiEdit|NotebookEdit and Bash|PowerShell)",
    // The stand-in program starts but is not GateGuard: the probe says so.
    `  FAIL  the registered command of user settings ${s.home}/.claude/settings.json does not ` +
    "answer as GateGuard: it printed no answer; so Claude Code blocks every gated call; fix: run " +
    `\`gateguard init\` again from the installed binary (command: "${s.home}/bin/gateguard")`,
  ]);
});

/**
 * Installs the plugin form as Claude Code would: its hooks.json beside this checkout's launcher,
 * and in its data folder the binary the launcher runs.
 */
async function installPlugin(s: Sandbox, enabled: boolean | null): Promise<string> {
  const pluginRoot = `${s.home}/.claude/plugins/cache/local/gateguard/0.1.0`;
  await write(`${pluginRoot}/hooks/hooks.json`, pluginHooksJson());
  await Deno.symlink(`${REPO_ROOT}/hooks/launch.sh`, `${pluginRoot}/hooks/launch.sh`);
  await write(
    `${s.home}/.claude/plugins/installed_plugins.json`,
    JSON.stringify({
      version: 2,
      plugins: { "gateguard@local": [{ scope: "user", installPath: pluginRoot }] },
    }),
  );
  if (enabled !== null) {
    await write(
      `${s.home}/.claude/settings.json`,
      JSON.stringify({ enabledPlugins: { "gateguard@local": enabled } }),
    );
  }
  // The binary its SessionStart hook installs, with the record the launcher checks.
  const bin = `${s.home}/.claude/plugins/data/gateguard-local/bin/gateguard`;
  await write(bin, PLUGIN_BINARY);
  await Deno.chmod(bin, 0o755);
  await write(`${bin}.sha256`, `${await sha256Hex(PLUGIN_BINARY)}  gateguard-linux-x64  v0.1.0\n`);
  return pluginRoot;
}

/** A stand-in for the release binary: it runs GateGuard from this checkout, so doctor's probe of
 * the plugin's command gets GateGuard's answer. */
const PLUGIN_BINARY = `#!/bin/sh\n${SOURCE_COMMAND}\n`;

Deno.test("[doctor] the plugin plus a settings registration is flagged as running twice", async () => {
  await using s = await sandbox();
  const pluginRoot = await installPlugin(s, true);
  await s.init();
  const r = await s.run();
  assertEquals(r.code, 1, r.stdout);
  const fails = failLines(r.stdout);
  assertEquals(fails.length, 1, r.stdout);
  assertStringIncludes(
    fails[0],
    "GateGuard runs twice on Edit, Write, MultiEdit, NotebookEdit, Bash, PowerShell (project " +
      `settings ${s.project}/.claude/settings.json; plugin gateguard@local ${pluginRoot}/hooks/hooks.json)`,
  );
  assertStringIncludes(fails[0], "fix: keep one registration");
});

Deno.test("[doctor] the plugin alone is healthy, and a disabled plugin does not count", async () => {
  await using alone = await sandbox();
  const root = await installPlugin(alone, null);
  const r = await alone.run();
  assertEquals([r.code, failLines(r.stdout)], [0, []]);
  const data = `${alone.home}/.claude/plugins/data/gateguard-local`;
  assertStringIncludes(
    r.stdout,
    `  info  plugin gateguard@local is installed at ${root}, enabled (no settings file names it); ` +
      `its data folder is ${data}\n` +
      `  ok    plugin binary ${data}/bin/gateguard (gateguard-linux-x64 v0.1.0) matches its ` +
      `recorded SHA-256 ${await sha256Hex(PLUGIN_BINARY)}\n`,
  );

  // A binary changed behind the record's back is a problem, with the command that reinstalls it.
  await write(`${data}/bin/gateguard`, "#!/bin/sh\nexit 0\n");
  const tampered = await alone.run();
  assertEquals(tampered.code, 1);
  assertStringIncludes(
    failLines(tampered.stdout).join("\n"),
    `plugin binary ${data}/bin/gateguard does not match its recorded SHA-256`,
  );

  await using off = await sandbox();
  await installPlugin(off, false);
  await off.init();
  const r2 = await off.run();
  assertEquals([r2.code, failLines(r2.stdout)], [0, []]);
  assertStringIncludes(r2.stdout, "  info  plugin gateguard@local is disabled in settings\n");
});

Deno.test("[doctor] a broken .gateguard.jsonc is shown with line and column", async () => {
  await using s = await sandbox();
  await s.init();
  await write(
    `${s.project}/.gateguard.jsonc`,
    '{\n  // cap\n  "maxDenials": 5\n  "fileGates": false\n}\n',
  );
  const r = await s.run();
  assertEquals(r.code, 1);
  assertEquals(failLines(r.stdout), [
    `  FAIL  project file ${s.project}/.gateguard.jsonc:4:3: expected ',' or '}', found character ` +
    `"\\""; the hook ignores the whole file until it is fixed; fix: correct it at line 4, column 3`,
  ]);
  // The configuration shown is what the hook will use: the file is ignored.
  assertStringIncludes(r.stdout, "denial cap");
  assert(/denial cap +none +\[default\]/.test(r.stdout), r.stdout);
});

Deno.test("[doctor] project file values and unknown keys show up with their source; loosening ones once trusted", async () => {
  await using s = await sandbox();
  await s.init();
  const file = `${s.project}/.gateguard.jsonc`;
  await write(file, '{"maxDenials": 4, "destructiveShell": false, "colour": 1}');
  const untrusted = await s.run();
  assertEquals(untrusted.code, 1);
  assert(/denial cap +none +\[default\]/.test(untrusted.stdout), untrusted.stdout);
  assertStringIncludes(
    untrusted.stdout,
    `  WARN  project file ${file}: maxDenials would loosen GateGuard and are ignored: the file ` +
      `is not trusted; if you have read it and want them, run \`gateguard trust ${file}\`\n`,
  );
  const trusted = await runCli(["trust"], { cwd: s.project, env: s.env });
  assertEquals(trusted.code, 0, trusted.stderr);
  const r = await s.run();
  assertEquals(r.code, 1);
  assert(
    new RegExp(`denial cap +4 +\\[file ${s.project}/\\.gateguard\\.jsonc\\]`).test(r.stdout),
    r.stdout,
  );
  assertStringIncludes(r.stdout, "  info  project file trusted by you, so its maxDenials apply\n");
  assert(/destructive shell gate +on +\[default\]/.test(r.stdout), r.stdout);
  const fails = failLines(r.stdout);
  assertEquals(fails.length, 2, r.stdout);
  assertStringIncludes(fails[0], ':1:46: unknown key "colour" is ignored');
  assertStringIncludes(
    fails[1],
    ':1:39: "destructiveShell": the project file cannot turn off the destructive shell gate',
  );
});

Deno.test("[doctor] a regular file in place of the state dir is flagged", async () => {
  await using s = await sandbox();
  await s.init();
  const stateFile = `${s.home}/state-file`;
  await Deno.writeTextFile(stateFile, "not a dir");
  const r = await runCli(["doctor"], {
    cwd: s.project,
    env: { ...s.env, GATEGUARD_STATE_DIR: stateFile },
  });
  assertEquals(r.code, 1);
  assertEquals(failLines(r.stdout), [
    `  FAIL  state dir ${stateFile} cannot hold GateGuard's state: it is a file, not a ` +
    "directory; every call a gate would deny stays denied until it can; fix: make it a " +
    "writable directory, or set GATEGUARD_STATE_DIR to one",
  ]);
  assert(/state dir +\S+state-file +\[env GATEGUARD_STATE_DIR\]/.test(r.stdout), r.stdout);
});

Deno.test("[doctor] an unreadable transcript dir and a missing registered binary are flagged", async () => {
  await using s = await sandbox();
  await Deno.remove(`${s.home}/.claude/projects`);
  await Deno.writeTextFile(`${s.home}/.claude/projects`, "");
  await write(
    `${s.project}/.claude/settings.local.json`,
    JSON.stringify({
      hooks: {
        PreToolUse: [{
          hooks: [{ type: "command", command: "/gone/gateguard", onFailure: "block" }],
        }],
        ConfigChange: [{
          hooks: [{ type: "command", command: "/gone/gateguard", onFailure: "block" }],
        }],
      },
    }),
  );
  const r = await s.run();
  assertEquals(r.code, 1);
  assertEquals(failLines(r.stdout), [
    '  FAIL  registered command "/gone/gateguard" does not exist, so the hook cannot run; fix: run ' +
    "`gateguard init` again from the installed binary",
    `  FAIL  transcript dir ${s.home}/.claude/projects cannot be read, so prior-search credit never ` +
    "applies; fix: make it a directory you can read (chmod u+rx)",
  ]);
});

Deno.test("[doctor] env blocks of settings files count, and a broken settings file is flagged", async () => {
  await using s = await sandbox();
  await s.init();
  await write(
    `${s.project}/.claude/settings.local.json`,
    JSON.stringify({ env: { GATEGUARD_FACT_FORCE_MAX_DENIALS: "lots", GATEGUARD_METRICS: "1" } }),
  );
  await write(`${s.home}/.claude/settings.json`, '{\n  "env": {\n}');
  const r = await s.run();
  assertEquals(r.code, 1);
  assert(
    new RegExp(
      `decision metrics +on +\\[env GATEGUARD_METRICS \\(env block of ${s.project}/\\.claude/settings\\.local\\.json\\)\\]`,
    )
      .test(r.stdout),
    r.stdout,
  );
  const fails = failLines(r.stdout);
  assertEquals(fails.length, 2, r.stdout);
  assertStringIncludes(
    fails[0],
    'GATEGUARD_FACT_FORCE_MAX_DENIALS="lots" is not a whole number, so the denial cap is off',
  );
  assertStringIncludes(
    fails[1],
    `user settings ${s.home}/.claude/settings.json:3:2: expected ',' or '}', found end of input; Claude Code cannot use this file either`,
  );
});

Deno.test("[doctor] usage: --help exits 0 and an unknown option exits 2", async () => {
  await using s = await sandbox();
  const help = await s.run("--help");
  assertEquals(help.code, 0);
  assert(help.stdout.startsWith("Usage: gateguard doctor\n"));
  const bad = await s.run("--json");
  assertEquals(bad.code, 2);
  assert(
    bad.stderr.startsWith("gateguard doctor: unknown option '--json'\nUsage: gateguard doctor"),
  );
});

Deno.test("[doctor] each way a registered GateGuard would not gate fails with its own line", async () => {
  const cases: Array<[string, (s: Sandbox) => Promise<Record<string, unknown>>, string]> = [
    ["mode 644", async (s) => {
      await write(`${s.home}/bin/gateguard`, "#!/bin/sh\n");
      await Deno.chmod(`${s.home}/bin/gateguard`, 0o644);
      return { command: `${s.home}/bin/gateguard` };
    }, "is not executable, so the hook cannot run; fix: chmod +x"],
    ["a directory", async (s) => {
      await Deno.mkdir(`${s.home}/bin/gateguard`, { recursive: true });
      return { command: `${s.home}/bin/gateguard` };
    }, "is a directory, so the hook cannot run"],
    ["bare name off PATH", () => Promise.resolve({ command: "gateguard" }), "which is not on PATH"],
    ["async", () => Promise.resolve({ async: true }), "runs in the background"],
    ["if", () => Promise.resolve({ if: "Bash(rm *)" }), 'has an "if" filter'],
    ["http", () => Promise.resolve({ type: "http" }), 'has "type": "http", not "command"'],
    ["timeout", () => Promise.resolve({ timeout: 0.001 }), 'has "timeout": 0.001'],
  ];
  for (const [name, change, expected] of cases) {
    await using s = await sandbox();
    assertEquals((await s.init()).code, 0);
    const path = `${s.project}/.claude/settings.json`;
    const settings = JSON.parse(await Deno.readTextFile(path));
    const extra = await change(s);
    for (const group of settings.hooks.PreToolUse) Object.assign(group.hooks[0], extra);
    await Deno.writeTextFile(path, JSON.stringify(settings));
    const r = await s.run();
    assertEquals(r.code, 1, `${name}: ${r.stdout}`);
    const fails = failLines(r.stdout);
    assertEquals(fails.length, 1, `${name}: ${fails.join("\n")}`);
    assertStringIncludes(fails[0], expected, name);
  }
});

Deno.test("[doctor] disableAllHooks, an env switch, and an echo that only names gateguard are no install", async () => {
  await using s = await sandbox();
  assertEquals((await s.init()).code, 0);
  const local = `${s.project}/.claude/settings.local.json`;
  await write(local, JSON.stringify({ disableAllHooks: true, env: { GATEGUARD_DISABLED: "1" } }));
  const r = await s.run();
  assertEquals(r.code, 1);
  assertEquals(failLines(r.stdout), [
    `  FAIL  ${local} sets "disableAllHooks": true, so no hook runs, GateGuard included; ` +
    'fix: remove "disableAllHooks" from it',
    `  FAIL  the env block of ${local} sets GATEGUARD_DISABLED=1, which switches GateGuard off; ` +
    "fix: remove that variable from the block",
  ]);

  await using e = await sandbox();
  await write(
    `${e.project}/.claude/settings.json`,
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "echo gateguard" }] }],
      },
    }),
  );
  const echo = await e.run();
  assertEquals(echo.code, 1);
  assertStringIncludes(echo.stdout, "GateGuard is not registered in any settings file or plugin");
  assertStringIncludes(
    echo.stdout,
    'the hook command "echo gateguard" names GateGuard but is not GateGuard\'s command, so it is not counted',
  );
});

Deno.test("[doctor] a plugin id is printed with its control characters escaped, and 70-deep JSON is usable", async () => {
  await using s = await sandbox();
  const plugin = `${s.home}/plugins/gg`;
  await write(`${plugin}/hooks/hooks.json`, pluginHooksJson());
  const id = "gg\u001b]0;owned\u0007\u202e@x";
  await write(
    `${s.home}/.claude/plugins/installed_plugins.json`,
    JSON.stringify({ plugins: { [id]: [{ installPath: plugin }] } }),
  );
  let deep: unknown = 1;
  for (let k = 0; k < 70; k++) deep = [deep];
  await write(`${s.project}/.claude/settings.local.json`, JSON.stringify({ deep }));
  const r = await s.run();
  assert(!["\u001b", "\u0007", "\u202e"].some((c) => r.stdout.includes(c)), r.stdout);
  assertStringIncludes(r.stdout, "plugin gg\\u001b]0;owned\\u0007\\u202e@x");
  assertStringIncludes(
    r.stdout,
    `local settings ${s.project}/.claude/settings.local.json: no GateGuard entry`,
  );
  assert(!r.stdout.includes("Claude Code cannot use this file"), r.stdout);
});

Deno.test("[doctor] settings that do nothing or are refused fail, and a GateGuard-like neighbour warns", async () => {
  await using s = await sandbox({
    GATEGUARD_DESTRUCTIVE_PACKS: "bogus",
    GATEGUARD_DISABLED: "true",
  });
  await s.init();
  const file = `${s.project}/.gateguard.jsonc`;
  await write(file, '{ "destructivePacks": ["-nosuch", "-core"] }');
  const ecc = "node /opt/ecc/scripts/hooks/gateguard-fact-force.js";
  await write(
    `${s.home}/.claude/settings.json`,
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: ecc }] }] },
    }),
  );
  const r = await s.run();
  assertEquals(r.code, 1);
  const fails = failLines(r.stdout);
  assertEquals(fails.length, 4, r.stdout);
  assertStringIncludes(fails[0], 'GATEGUARD_DISABLED="true" does nothing: only exactly 1');
  assertStringIncludes(fails[1], `destructive pack switch "-nosuch" in ${file} does nothing`);
  assertStringIncludes(fails[2], `destructive pack switch "-core" in ${file} is refused`);
  assertStringIncludes(fails[3], 'destructive pack switch "bogus" in GATEGUARD_DESTRUCTIVE_PACKS');
  assertStringIncludes(
    r.stdout,
    `  WARN  ${s.home}/.claude/settings.json: ECC's GateGuard hook (gateguard-fact-force) is ` +
      `registered beside this GateGuard (PreToolUse: "${ecc}")`,
  );
  assertStringIncludes(r.stdout, `  WARN  this GateGuard keeps its state in ${s.home}/.gateguard,`);
});

Deno.test("[self-protection] doctor warns about a .env file Gemini CLI or Codex CLI loads that sets GateGuard's variables", async () => {
  await using box = await sandbox();
  await write(`${box.project}/.env`, "API_KEY=x\nexport ECC_GATEGUARD=off\n");
  await write(`${box.home}/.env`, "GATEGUARD_METRICS=1\n");
  await write(`${box.project}/.gemini/.env/keep`, "a folder named .env defines nothing\n");
  const r = await box.run();
  assertStringIncludes(
    r.stdout,
    `WARN  ${box.project}/.env sets ECC_GATEGUARD; Gemini CLI and Codex CLI load it into the ` +
      "environment their hooks inherit, so the hook ignores it there (the agent may have " +
      "written it): set these where the agent is started",
  );
  assertStringIncludes(r.stdout, `WARN  ${box.home}/.env sets GATEGUARD_METRICS;`);
  assert(!r.stdout.includes(".gemini/.env sets"), r.stdout);
});

Deno.test("[self-protection] doctor warns about a .env file Gemini CLI or Codex CLI loads that sets a variable moving what GateGuard reads or how it starts", async () => {
  await using box = await sandbox();
  await write(
    `${box.project}/.env`,
    "API_KEY=x\nDENO_V8_FLAGS=--max-heap-size=2\nLD_PRELOAD=/x.so\n",
  );
  await write(`${box.home}/.env`, "PORT=8080\n");
  const r = await box.run();
  assertStringIncludes(
    r.stdout,
    `WARN  ${box.project}/.env sets DENO_V8_FLAGS, LD_PRELOAD; Gemini CLI and Codex CLI load ` +
      "it into the environment of every hook they run, where it moves what GateGuard reads or " +
      "how it starts: make sure you set it yourself",
  );
  assert(!r.stdout.includes(`${box.home}/.env sets`), r.stdout);
});
