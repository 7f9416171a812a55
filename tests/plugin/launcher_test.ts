/**
 * The plugin's launcher (`hooks/launch.sh`), driven without Claude Code: the
 * verified binary in the data folder runs and its verification is remembered,
 * a binary that does not match its record (or has none) is never run, a
 * missing binary falls back to GateGuard from source when Deno is there and
 * otherwise blocks the call with the command that installs it. The command
 * in hooks.json is run through bash as Claude Code runs it, and the
 * PowerShell twins are parsed (no PowerShell runs here).
 */

import { V8_FLAGS } from "../../src/platform/permissions.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import { denoDir } from "../helpers/cli.ts";
import { sha256Hex } from "../../src/platform/sha256.ts";
import { denoFolder, toolsWithoutDeno } from "./tools.ts";
import { PLUGIN_COMMAND, PLUGIN_INSTALL_COMMAND } from "../../src/setup/plugin_command.ts";

const LAUNCH = `${REPO_ROOT}/hooks/launch.sh`;
const BLOCK_PREFIX = "GateGuard (Claude Code plugin): ";

/** A fake release binary: tells it ran and echoes its stdin. */
const FAKE_BINARY = '#!/bin/sh\necho "fake gateguard ran with: $(cat)"\n';

interface Box {
  root: string;
  data: string;
  bin: string;
  /** A folder put first on PATH, where a test plants programs. */
  stubs: string;
  /** The machine's tools without Deno. */
  tools: string;
}

/** A temp folder with a data dir, an empty folder for planted programs, and no Deno on PATH. */
async function box(): Promise<Box> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "gg-launch-" }));
  const b: Box = {
    root,
    data: `${root}/data`,
    bin: `${root}/data/bin/gateguard`,
    stubs: `${root}/stubs`,
    tools: `${root}/tools`,
  };
  await Deno.mkdir(`${b.data}/bin`, { recursive: true });
  await Deno.mkdir(b.stubs);
  await toolsWithoutDeno(b.tools);
  return b;
}

/** Puts `bytes` in place as the binary, with a record naming `recorded` (default: its digest). */
async function installFake(b: Box, bytes = FAKE_BINARY, recorded?: string): Promise<string> {
  await Deno.writeTextFile(b.bin, bytes);
  await Deno.chmod(b.bin, 0o755);
  const digest = await sha256Hex(bytes);
  await Deno.writeTextFile(
    `${b.bin}.sha256`,
    `${recorded ?? digest}  gateguard-linux-x64  v0.1.0\n`,
  );
  return digest;
}

/** PATH without any Deno: the stubs, then the machine's tools. */
function systemPath(b: Box): string {
  return [b.stubs, b.tools, "/usr/sbin"].join(":");
}

/** PATH with the Deno running the tests. */
function denoPath(b: Box): string {
  return [b.stubs, denoFolder(), b.tools, "/usr/sbin"].join(":");
}

/**
 * Which verification wrote the stamp: each one renames a new file into place,
 * so the inode changes exactly when the binary was hashed again.
 */
async function stampWrite(b: Box): Promise<number | null> {
  try {
    return (await Deno.stat(`${b.bin}.verified`)).ino;
  } catch {
    return null;
  }
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Writes the payload; a launcher that blocks without reading it closes the pipe early. */
async function feed(child: Deno.ChildProcess, text: string): Promise<void> {
  const w = child.stdin.getWriter();
  try {
    await w.write(new TextEncoder().encode(text));
    await w.close();
  } catch (e) {
    if (!(e instanceof Deno.errors.BrokenPipe)) throw e;
  }
}

async function launch(
  b: Box,
  opts: {
    root?: string;
    path?: string;
    stdin?: string;
    args?: string[];
    env?: Record<string, string>;
  } = {},
): Promise<Run> {
  const child = new Deno.Command("/bin/sh", {
    args: [LAUNCH, ...(opts.args ?? [])],
    clearEnv: true,
    env: {
      PATH: opts.path ?? systemPath(b),
      HOME: b.root,
      CLAUDE_PLUGIN_ROOT: opts.root ?? REPO_ROOT,
      CLAUDE_PLUGIN_DATA: b.data,
      ...(opts.env ?? {}),
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await feed(child, opts.stdin ?? "{}");
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function withBox(fn: (b: Box) => Promise<void>): Promise<void> {
  const b = await box();
  try {
    await fn(b);
  } finally {
    await Deno.remove(b.root, { recursive: true });
  }
}

const INSTALL_HINT = (b: Box) => `sh '${REPO_ROOT}/hooks/install_binary.sh' '${b.data}'`;

Deno.test("[plugin-launcher] the verified binary in the data folder runs; the verification is remembered, not redone", () =>
  withBox(async (b) => {
    const digest = await installFake(b);
    const first = await launch(b, { stdin: '{"tool_name":"Edit"}' });
    assertEquals(first, {
      code: 0,
      stdout: 'fake gateguard ran with: {"tool_name":"Edit"}\n',
      stderr: "",
    });
    const written = await stampWrite(b);
    assert(written !== null);
    const size = new TextEncoder().encode(FAKE_BINARY).length;
    assertEquals(await Deno.readTextFile(`${b.bin}.verified`), `${digest} ${size}\n`);
    for (let i = 0; i < 3; i++) {
      assertEquals((await launch(b)).stdout, "fake gateguard ran with: {}\n");
    }
    assertEquals(await stampWrite(b), written, "a stamped binary is not hashed again");
    // With Deno on PATH the binary still wins: it is what the plugin installed.
    assertEquals((await launch(b, { path: denoPath(b) })).stdout, "fake gateguard ran with: {}\n");
  }));

Deno.test("[plugin-launcher] a binary that does not match its recorded SHA-256 is never run, even with Deno there", () =>
  withBox(async (b) => {
    const recorded = "0".repeat(64);
    const actual = await installFake(b, FAKE_BINARY, recorded);
    for (const path of [systemPath(b), denoPath(b)]) {
      const r = await launch(b, { path });
      assertEquals(r, {
        code: 2,
        stdout: "",
        stderr: `${BLOCK_PREFIX}the binary ${b.bin} does not match its recorded SHA-256 ` +
          `(recorded ${recorded}, found ${actual}), so it is not run. ` +
          `Reinstall it with: ${INSTALL_HINT(b)}\n`,
      });
    }
    assertEquals(await exists(`${b.bin}.verified`), false);
  }));

Deno.test("[plugin-launcher] a binary changed after it was verified is hashed again and refused", () =>
  withBox(async (b) => {
    const digest = await installFake(b);
    assertEquals((await launch(b)).code, 0);
    // Same size, other bytes, a later time: the stamp no longer vouches for it.
    const tampered = FAKE_BINARY.replace("fake gateguard ran", "fake gateguard RAN");
    await Deno.writeTextFile(b.bin, tampered);
    const later = new Date(Date.now() + 5_000);
    await Deno.utime(b.bin, later, later);
    const r = await launch(b);
    assertEquals(r.code, 2);
    assertStringIncludes(
      r.stderr,
      `the binary ${b.bin} does not match its recorded SHA-256 (recorded ${digest}, found ${await sha256Hex(
        tampered,
      )})`,
    );
    assertEquals(r.stdout, "");
  }));

Deno.test("[plugin-launcher] a binary without its SHA-256 record is not run", () =>
  withBox(async (b) => {
    await installFake(b);
    await Deno.remove(`${b.bin}.sha256`);
    assertEquals(await launch(b, { path: denoPath(b) }), {
      code: 2,
      stdout: "",
      stderr:
        `${BLOCK_PREFIX}the binary ${b.bin} has no SHA-256 record beside it, so it is not run. ` +
        `Reinstall it with: ${INSTALL_HINT(b)}\n`,
    });
  }));

Deno.test("[plugin-launcher] no binary and no Deno: the call is blocked with the command that installs it", () =>
  withBox(async (b) => {
    assertEquals(await launch(b), {
      code: 2,
      stdout: "",
      stderr: `${BLOCK_PREFIX}the GateGuard binary is not installed yet (expected at ${b.bin}) ` +
        "and Deno is not on PATH to run it from source, so this call is blocked. " +
        `Install it with: ${INSTALL_HINT(b)} ` +
        "(a new Claude Code session also installs it when it starts).\n",
    });
    const noData = await launch(b, { env: { CLAUDE_PLUGIN_DATA: "" } });
    assertEquals(noData.code, 2);
    assertStringIncludes(
      noData.stderr,
      "Claude Code gave the plugin no data folder (CLAUDE_PLUGIN_DATA)",
    );
  }));

Deno.test("[plugin-launcher] no binary in a source checkout with Deno: GateGuard runs from source, its state in the data folder", () =>
  withBox(async (b) => {
    const project = `${b.root}/proj`;
    await Deno.mkdir(project);
    await Deno.writeTextFile(`${project}/a.ts`, "export const a = 1;\n");
    const payload = JSON.stringify({
      session_id: "plugin-launch-1",
      transcript_path: `${b.root}/none.jsonl`,
      cwd: project,
      hook_event_name: "PreToolUse",
      tool_name: "Edit",
      tool_input: { file_path: `${project}/a.ts`, old_string: "1", new_string: "2" },
    });
    const cache = await denoDir();
    const r = await launch(b, {
      path: denoPath(b),
      stdin: payload,
      env: { CLAUDE_PROJECT_DIR: project, ...(cache ? { DENO_DIR: cache } : {}) },
    });
    assertEquals(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout);
    assertEquals(answer.hookSpecificOutput.permissionDecision, "deny");
    assertStringIncludes(answer.hookSpecificOutput.permissionDecisionReason, "Before editing");
    const state = [...Deno.readDirSync(b.data)].map((e) => e.name).filter((n) => n !== "bin");
    assert(state.length > 0, "GateGuard kept no state in CLAUDE_PLUGIN_DATA");
  }));

Deno.test("[plugin-launcher] from source it runs the command a from-source registration runs; outside a checkout it blocks", () =>
  withBox(async (b) => {
    // A `deno` that prints its arguments stands in for the runtime.
    const fake = `${b.root}/fakedeno`;
    await Deno.mkdir(fake);
    await Deno.writeTextFile(`${fake}/deno`, '#!/bin/sh\nprintf "%s\\n" "$@"\n');
    await Deno.chmod(`${fake}/deno`, 0o755);
    const path = [fake, b.tools].join(":");
    const r = await launch(b, { path });
    assertEquals(r.code, 0, r.stderr);
    const { sourceArgv, sourceTreeArgv } = await import("../../src/platform/permissions.ts");
    assertEquals(r.stdout.trimEnd().split("\n"), sourceArgv("deno", REPO_ROOT).slice(1));
    // A checkout where no bundle was built runs its sources.
    const unbuilt = `${b.root}/unbuilt`;
    await Deno.mkdir(`${unbuilt}/src`, { recursive: true });
    await Deno.writeTextFile(`${unbuilt}/src/main.ts`, "");
    await Deno.writeTextFile(`${unbuilt}/deno.run.json`, "{}");
    const fromTree = await launch(b, { path, root: unbuilt });
    assertEquals(fromTree.stdout.trimEnd().split("\n"), sourceTreeArgv("deno", unbuilt).slice(1));
    // A plugin root that is not a checkout has no source to run.
    const bare = `${b.root}/bare`;
    await Deno.mkdir(bare);
    const blocked = await launch(b, { path, root: bare });
    assertEquals(blocked.code, 2);
    assertStringIncludes(blocked.stderr, "the GateGuard binary is not installed yet");
  }));

Deno.test("[plugin-launcher] --verify hashes every time and says whether the binary may run", () =>
  withBox(async (b) => {
    assertEquals((await launch(b, { args: ["--verify"] })).code, 2);
    await installFake(b);
    const writes = new Set<number | null>();
    for (let i = 1; i <= 2; i++) {
      assertEquals(await launch(b, { args: ["--verify"] }), { code: 0, stdout: "", stderr: "" });
      writes.add(await stampWrite(b));
    }
    assertEquals(writes.size, 2, "each --verify wrote its own stamp");
    assert(!writes.has(null));
  }));

/** Runs the hooks.json launcher command through bash, as Claude Code runs it, on `stdin`. */
async function viaBash(b: Box, stdin: string): Promise<Run> {
  const child = new Deno.Command("bash", {
    args: ["-c", PLUGIN_COMMAND],
    clearEnv: true,
    env: { PATH: systemPath(b), CLAUDE_PLUGIN_ROOT: REPO_ROOT, CLAUDE_PLUGIN_DATA: b.data },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await feed(child, stdin);
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("[plugin-launcher] the hooks.json command, run by bash as Claude Code runs it, reaches the launcher", () =>
  withBox(async (b) => {
    await installFake(b);
    const out = await viaBash(b, "payload");
    assertEquals([out.code, out.stdout, out.stderr], [0, "fake gateguard ran with: payload\n", ""]);
  }));

Deno.test("[self-protection] an sh the agent planted in a folder on PATH never stands in for the launcher", () =>
  withBox(async (b) => {
    await installFake(b);
    // What an agent could write into ~/.local/bin or Homebrew's bin: an sh that answers nothing.
    await Deno.writeTextFile(`${b.stubs}/sh`, "#!/bin/bash\nexit 0\n");
    await Deno.chmod(`${b.stubs}/sh`, 0o755);
    for (const command of [PLUGIN_COMMAND, PLUGIN_INSTALL_COMMAND]) {
      assert(command.includes("exec /bin/sh "), command);
    }
    const out = await viaBash(b, "payload");
    assertEquals(out.stdout, "fake gateguard ran with: payload\n");
  }));

/**
 * Plants, in the first folder of PATH, programs that log their run and lie:
 * a `find` that finds nothing newer than the stamp, a `sha256sum` and a
 * `shasum` that print the recorded digest, and the rest of what the launcher
 * runs passing through to the real ones.
 */
async function plantHelpers(b: Box, recorded: string): Promise<string> {
  const log = `${b.root}/planted.log`;
  const lie: Record<string, string> = {
    find: "exit 0",
    sha256sum: `echo '${recorded}  x'`,
    shasum: `echo '${recorded}  x'`,
  };
  for (const name of ["find", "sha256sum", "shasum", "wc", "cut", "mv", "dirname", "sh", "deno"]) {
    const body = lie[name] ?? `exec /usr/bin/${name} "$@"`;
    await Deno.writeTextFile(`${b.stubs}/${name}`, `#!/bin/sh\necho ${name} >>'${log}'\n${body}\n`);
    await Deno.chmod(`${b.stubs}/${name}`, 0o755);
  }
  return log;
}

Deno.test("[self-protection] programs planted in a folder on PATH never verify the binary: the launcher uses the system's own", () =>
  withBox(async (b) => {
    const digest = await installFake(b);
    assertEquals((await launch(b)).code, 0);
    const log = await plantHelpers(b, digest);
    const tampered = FAKE_BINARY.replace("fake gateguard ran", "forged gateguard ran");
    await Deno.writeTextFile(b.bin, tampered);
    const later = new Date(Date.now() + 5_000);
    await Deno.utime(b.bin, later, later);
    for (const path of [systemPath(b), denoPath(b)]) {
      const r = await launch(b, { path });
      assertEquals(r.code, 2, r.stdout);
      assertStringIncludes(r.stderr, `found ${await sha256Hex(tampered)}`);
    }
    // `--verify`, as the SessionStart installer runs it, is not fooled either.
    assertEquals((await launch(b, { args: ["--verify"] })).code, 2);
    assertEquals(await exists(log), false, "a planted program ran");
  }));

Deno.test("[self-protection] from source, a deno in the working folder (an empty PATH entry) is never run", () =>
  withBox(async (b) => {
    const project = `${b.root}/proj`;
    await Deno.mkdir(project);
    await Deno.writeTextFile(`${project}/deno`, "#!/bin/sh\necho planted deno ran\n");
    await Deno.chmod(`${project}/deno`, 0o755);
    for (const path of [`:${b.tools}`, `${b.tools}::/usr/sbin`, `.:${b.tools}`, `${b.tools}:`]) {
      const child = new Deno.Command("/bin/sh", {
        args: [LAUNCH],
        cwd: project,
        clearEnv: true,
        env: {
          PATH: path,
          HOME: b.root,
          CLAUDE_PLUGIN_ROOT: REPO_ROOT,
          CLAUDE_PLUGIN_DATA: b.data,
        },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      });
      const out = await child.output();
      const stderr = new TextDecoder().decode(out.stderr);
      assertEquals([out.code, new TextDecoder().decode(out.stdout)], [2, ""], path);
      assertStringIncludes(stderr, "the GateGuard binary is not installed yet");
    }
  }));

/** Syntax problems of PowerShell files, from scripts/ps1_syntax.ts (it needs raw imports). */
async function ps1Problems(files: string[]): Promise<{ code: number; text: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--unstable-raw-imports",
      "--allow-read",
      "scripts/ps1_syntax.ts",
      ...files,
    ],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

Deno.test("[plugin-launcher] the PowerShell twins and the hooks.json commands parse as PowerShell", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gg-ps1-plugin-" });
  try {
    await Deno.writeTextFile(`${dir}/launch_command.ps1`, PLUGIN_COMMAND);
    await Deno.writeTextFile(`${dir}/install_command.ps1`, PLUGIN_INSTALL_COMMAND);
    const files = [
      `${REPO_ROOT}/hooks/launch.ps1`,
      `${REPO_ROOT}/hooks/install_binary.ps1`,
      `${dir}/launch_command.ps1`,
      `${dir}/install_command.ps1`,
    ];
    const good = await ps1Problems(files);
    assertEquals(good.code, 0, good.text);
    // The check does catch a broken here-string (the part bash must not see).
    await Deno.writeTextFile(`${dir}/broken.ps1`, PLUGIN_COMMAND.replace("\n'@", "\n '@"));
    const bad = await ps1Problems([`${dir}/broken.ps1`]);
    assertEquals(bad.code, 1, bad.text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // The twin makes the same choices, in the same order, with the same texts.
  const ps1 = await Deno.readTextFile(`${REPO_ROOT}/hooks/launch.ps1`);
  for (
    const text of [
      "does not match its recorded SHA-256",
      "has no SHA-256 record beside it, so it is not run",
      "and Deno is not on PATH to run it from source, so this call is blocked",
      "GateGuard (Claude Code plugin): ",
      "--permission-set=gateguard",
      // The same V8 flags as every other run, or the two would discard each other's code cache.
      V8_FLAGS,
    ]
  ) {
    assertStringIncludes(ps1, text);
  }
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
