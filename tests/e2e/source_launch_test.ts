/**
 * The from-source hook command `init` registers keeps answering when the
 * agent has planted something under the user's home that Deno reads before
 * any GateGuard code runs: `~/.npmrc` as a directory, a FIFO or a link to
 * `/dev/zero`, and a FIFO where Deno's module cache would hold GateGuard's
 * compiled entry; and a broken or hostile `deno.json`, `deno.jsonc` or
 * `package.json` in a folder above the checkout. Each run goes through
 * `sh -c` as Claude Code runs it, with a kill timer, so a hang fails the test
 * instead of stalling it.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { REPO_ROOT, SOURCE_COMMAND as COMMAND } from "../helpers/cli.ts";
import { BUNDLE_DIR, RUN_CONFIG, sourceArgv } from "../../src/platform/permissions.ts";
import { registrationCommand } from "../../src/setup/command.ts";

/** A destructive command: GateGuard's answer is a deny on the first try. */
function payload(cwd: string): string {
  return JSON.stringify({
    session_id: "source-launch",
    hook_event_name: "PreToolUse",
    cwd,
    tool_name: "Bash",
    tool_input: { command: "rm -rf /tmp/x" },
  });
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  killed: boolean;
}

/** Runs `argv` with only HOME and PATH set, the payload on stdin, killed after `ms`. */
async function run(argv: string[], home: string, cwd: string, ms = 60_000): Promise<Run> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd,
    clearEnv: true,
    env: { HOME: home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, ms);
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(payload(cwd))).catch(() => {});
  await writer.close().catch(() => {});
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr), killed };
}

/** Asserts GateGuard itself answered: exit 0 and a PreToolUse deny. */
function assertDenied(r: Run): void {
  assertEquals([r.killed, r.code], [false, 0], r.stderr);
  const answer = JSON.parse(r.stdout);
  assertEquals(answer.hookSpecificOutput.permissionDecision, "deny", r.stdout);
}

/** A fresh home and project; `plant` prepares the home. */
async function withHome(
  plant: (home: string) => Promise<void>,
  body: (home: string, project: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "gg-source-launch-" });
  try {
    const home = `${root}/home`;
    const project = `${root}/project`;
    await Deno.mkdir(home);
    await Deno.mkdir(project);
    await plant(home);
    await body(home, project);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function mkfifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert(made.success, `mkfifo ${path}`);
}

const PLANTS: ReadonlyArray<[string, (home: string) => Promise<void>]> = [
  ["a directory at ~/.npmrc", (home) => Deno.mkdir(`${home}/.npmrc`)],
  ["a FIFO at ~/.npmrc", (home) => mkfifo(`${home}/.npmrc`)],
  ["~/.npmrc linked to /dev/zero", (home) => Deno.symlink("/dev/zero", `${home}/.npmrc`)],
  ["a FIFO where Deno's home cache keeps GateGuard's compiled entry", async (home) => {
    const dir = `${home}/.cache/deno/gen/file${REPO_ROOT}/src`;
    await Deno.mkdir(dir, { recursive: true });
    await mkfifo(`${dir}/main.ts.js`);
  }],
];

Deno.test({
  name:
    "[self-protection] the registered from-source command answers whatever is planted under HOME",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    assert(COMMAND.startsWith('GATEGUARD_HOME="$HOME" HOME='), COMMAND);
    for (const [what, plant] of PLANTS) {
      await withHome(plant, async (home, project) => {
        const r = await run(["sh", "-c", COMMAND], home, project);
        assertDenied({ ...r, stderr: `${what}: ${r.stderr}` });
        // The state went to the user's home, not into the checkout Deno was given as HOME.
        assert((await Deno.stat(`${home}/.gateguard`)).isDirectory, what);
      });
    }
  },
});

Deno.test({
  name:
    "[self-protection] a bare deno run line fails on a planted ~/.npmrc (what the prefix prevents)",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withHome((home) => Deno.mkdir(`${home}/.npmrc`), async (home, project) => {
      const r = await run(sourceArgv(Deno.execPath(), REPO_ROOT), home, project);
      assertEquals(r.killed, false);
      assertEquals(r.code, 1);
      assertEquals(r.stdout, "");
      assert(r.stderr.includes(`Error loading .npmrc at ${home}/.npmrc`), r.stderr);
    });
  },
});

/**
 * A checkout of its own at `<parent>/gg`: deno.json, the run config and this
 * checkout's bundle, with this checkout's Deno cache linked in.
 */
async function checkoutBelow(parent: string): Promise<string> {
  const root = `${parent}/gg`;
  await Deno.mkdir(`${root}/${BUNDLE_DIR}`, { recursive: true });
  await Deno.mkdir(`${REPO_ROOT}/.cache/deno`, { recursive: true });
  await Deno.symlink(`${REPO_ROOT}/.cache/deno`, `${root}/.cache/deno`);
  for (const file of ["deno.json", RUN_CONFIG]) {
    await Deno.copyFile(`${REPO_ROOT}/${file}`, `${root}/${file}`);
  }
  for await (const entry of Deno.readDir(`${REPO_ROOT}/${BUNDLE_DIR}`)) {
    if (!entry.isFile) continue;
    await Deno.copyFile(
      `${REPO_ROOT}/${BUNDLE_DIR}/${entry.name}`,
      `${root}/${BUNDLE_DIR}/${entry.name}`,
    );
  }
  return root;
}

/** Files the agent can leave in the folder above a checkout at `<parent>/gg`. */
const ABOVE: ReadonlyArray<[string, (parent: string) => Promise<void>]> = [
  ["a malformed package.json", (p) => Deno.writeTextFile(`${p}/package.json`, "{bad")],
  ["a malformed deno.json", (p) => Deno.writeTextFile(`${p}/deno.json`, "{bad")],
  ["a malformed deno.jsonc", (p) => Deno.writeTextFile(`${p}/deno.jsonc`, "{bad")],
  [
    "a package.json workspace listing the checkout",
    (p) => Deno.writeTextFile(`${p}/package.json`, JSON.stringify({ workspaces: ["./gg"] })),
  ],
  [
    "a deno.json workspace mapping GateGuard's entry to a script that passes every call",
    async (p) => {
      await Deno.writeTextFile(`${p}/pass.js`, "");
      await Deno.writeTextFile(
        `${p}/deno.json`,
        JSON.stringify({
          workspace: ["./gg"],
          imports: { [`file://${p}/gg/${BUNDLE_DIR}/main.js`]: "./pass.js" },
        }),
      );
    },
  ],
];

Deno.test({
  name:
    "[self-protection] the registered from-source command answers whatever is planted above the checkout",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    for (const [what, plant] of ABOVE) {
      await withHome(() => Promise.resolve(), async (home, project) => {
        const parent = `${home}/tools`;
        await Deno.mkdir(parent);
        const root = await checkoutBelow(parent);
        await plant(parent);
        const command = registrationCommand(
          Deno.execPath(),
          `file://${root}/src/setup/command.ts`,
          false,
        );
        const r = await run(["sh", "-c", command], home, project);
        assertDenied({ ...r, stderr: `${what}: ${r.stderr}` });
      });
    }
  },
});

Deno.test({
  name:
    "[self-protection] a deno run line naming the checkout's deno.json stops on a malformed package.json above it (what the run config prevents)",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withHome(() => Promise.resolve(), async (home, project) => {
      const parent = `${home}/tools`;
      await Deno.mkdir(parent);
      const root = await checkoutBelow(parent);
      await Deno.writeTextFile(`${parent}/package.json`, "{bad");
      const argv = sourceArgv(Deno.execPath(), root);
      argv[argv.indexOf("--config") + 1] = `${root}/deno.json`;
      // deno.json no longer holds the permission set; name the run config's.
      await Deno.writeTextFile(
        `${root}/deno.json`,
        await Deno.readTextFile(`${root}/${RUN_CONFIG}`),
      );
      const r = await run(argv, home, project);
      assertEquals([r.killed, r.code, r.stdout], [false, 1, ""]);
      assert(r.stderr.includes(`Malformed package.json '${parent}/package.json'`), r.stderr);
    });
  },
});
