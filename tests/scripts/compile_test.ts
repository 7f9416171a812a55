/**
 * The release build: targets, arguments, the staged tree that carries the
 * build record, checksums, and the smoke test the release workflow runs on
 * each binary.
 */

import { tempDir } from "../helpers/temp.ts";
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";
import {
  buildInfoModule,
  compileArgs,
  compileFailure,
  currentCommit,
  parseCompileArgs,
  sha256Sums,
  stageBuild,
  TARGETS,
} from "../../scripts/compile.ts";
import { parseSmokeArgs, smoke } from "../../scripts/smoke.ts";
import { CLI_ARGV, REPO_ROOT } from "../helpers/cli.ts";
import { RUN_CONFIG, sourceTreeArgv } from "../../src/platform/permissions.ts";
import { VERSION } from "../../src/version.ts";

Deno.test("[release] every Deno target is built: Linux, macOS and Windows on x64 and arm64", () => {
  assertEquals(TARGETS.map((t) => t.triple).sort(), [
    "aarch64-apple-darwin",
    "aarch64-pc-windows-msvc",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "x86_64-pc-windows-msvc",
    "x86_64-unknown-linux-gnu",
  ]);
  for (const t of TARGETS) {
    const args = compileArgs(t.triple, "out", "stage");
    assertEquals(args.at(-1), "stage/src/main.ts");
    assertEquals(args[args.indexOf("--config") + 1], `stage/${RUN_CONFIG}`);
    assertEquals(args[args.indexOf("--output") + 1], `out/${t.asset}`);
    assertEquals(t.asset.endsWith(".exe"), t.triple.includes("windows"));
  }
});

Deno.test("[self-protection] a compiled binary reads no V8 code cache from the temp folder", () => {
  // Deno would keep it at <temp>/deno-compile-<name>.cache, writable by the agent.
  for (const t of TARGETS) {
    const args = compileArgs(t.triple, "out", "stage");
    assert(args.includes("--no-code-cache"), `${t.triple}: ${args.join(" ")}`);
    assert(args.indexOf("--no-code-cache") < args.indexOf("stage/src/main.ts"));
  }
});

Deno.test("[release] the pinned Deno accepts every target for `deno compile --target`", async () => {
  // An invalid target makes Deno list the valid ones before it downloads anything.
  const out = await new Deno.Command(Deno.execPath(), {
    // With the flags the build passes, so a flag the pinned Deno lacks fails here.
    args: ["compile", "--no-code-cache", "--target", "not-a-target", "main.ts"],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(out.stderr);
  const listed = text.match(/possible values: ([^\n]+)/)?.[1].split(", ").map((s) => s.trim());
  assert(listed !== undefined, `no target list in: ${text.slice(0, 300)}`);
  for (const t of TARGETS) assert(listed.includes(t.triple), `${t.triple} not in ${listed}`);
});

Deno.test("[release] compile arguments are validated", () => {
  assertEquals(parseCompileArgs([]).triples.length, 6);
  assertEquals(
    parseCompileArgs(["--target", "x86_64-unknown-linux-gnu", "--out", "d", "--commit", "0123abc"]),
    { triples: ["x86_64-unknown-linux-gnu"], outDir: "d", commit: "0123abc" },
  );
  assertEquals(parseCompileArgs([]).commit, null);
  assertThrows(() => parseCompileArgs(["--target", "sparc-sun-solaris"]));
  assertThrows(() => parseCompileArgs(["--out"]));
  assertThrows(() => parseCompileArgs(["--bogus"]));
  assertThrows(() => parseCompileArgs(["--commit", "main; rm -rf /"]));
  assertThrows(() => compileArgs("nope", "d", "s"));
});

Deno.test("[release] the build record only takes a known target and a hex commit", () => {
  const text = buildInfoModule({ target: "aarch64-apple-darwin", commit: "0123456789ab-dirty" });
  assert(text.includes(`{"target":"aarch64-apple-darwin","commit":"0123456789ab-dirty"}`));
  assertThrows(() => buildInfoModule({ target: "x", commit: "0123456789ab" }));
  assertThrows(() => buildInfoModule({ target: "aarch64-apple-darwin", commit: '"; evil(); "' }));
});

Deno.test("[release] a staged build reports its target and commit in --version and doctor, under the binary's permissions", async () => {
  const stage = await tempDir({ prefix: "gg-stage-" });
  try {
    const build = { target: "aarch64-pc-windows-msvc", commit: "89abcdef0123" };
    await stageBuild(REPO_ROOT, stage, build);
    const argv = sourceTreeArgv(Deno.execPath(), stage);
    const run = async (...args: string[]) =>
      new TextDecoder().decode(
        (await new Deno.Command(argv[0], {
          args: [...argv.slice(1), ...args],
          stdout: "piped",
          stderr: "null",
          cwd: stage,
          clearEnv: true,
          env: { HOME: stage },
        }).output()).stdout,
      );
    const line = `gateguard ${VERSION} (aarch64-pc-windows-msvc, commit 89abcdef0123)`;
    assertEquals(await run("--version"), `${line}\n`);
    assertEquals((await run("doctor")).split("\n")[0], line);
    const config = JSON.parse(await Deno.readTextFile(`${stage}/${RUN_CONFIG}`));
    assertEquals([config.imports, config.lock], [undefined, false]);
    assertEquals(config, JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/${RUN_CONFIG}`)));
    assertEquals(await smoke(argv, build), []);
    assertEquals((await smoke(argv, { ...build, commit: "000000000000" })).length, 1);
    assertEquals((await smoke(argv, null)).length, 1);
    // The checkout keeps its own, empty record.
    assert((await Deno.readTextFile(`${REPO_ROOT}/src/build_info.ts`)).includes("= null;"));
  } finally {
    await Deno.remove(stage, { recursive: true });
  }
});

Deno.test("[release] the recorded commit is HEAD, marked dirty only when compiled files changed", async () => {
  const repo = await tempDir({ prefix: "gg-commit-" });
  const git = async (...args: string[]) => {
    const out = await new Deno.Command("git", {
      args: ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout).trim();
  };
  try {
    await git("init", "-q");
    await Deno.mkdir(`${repo}/src`);
    for (const f of ["src/main.ts", RUN_CONFIG, "README.md"]) {
      await Deno.writeTextFile(`${repo}/${f}`, "x\n");
    }
    await git("add", ".");
    await git("commit", "-q", "-m", "one");
    const head = await git("rev-parse", "--short=12", "HEAD");
    assertEquals(await currentCommit(repo), head);
    await Deno.writeTextFile(`${repo}/README.md`, "docs only\n");
    assertEquals(await currentCommit(repo), head);
    await Deno.writeTextFile(`${repo}/src/main.ts`, "changed\n");
    assertEquals(await currentCommit(repo), `${head}-dirty`);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
  let message = "";
  await currentCommit(repo).catch((e: Error) => message = e.message);
  assert(message.includes("pass --commit"), message);
});

Deno.test("[release] SHA256SUMS lines are `<hex>  <name>`", async () => {
  const text = await sha256Sums([["a", new TextEncoder().encode("abc")]]);
  assertEquals(text, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a\n");
});

Deno.test("[release] the smoke test passes on the source CLI", async () => {
  assertEquals(await smoke(CLI_ARGV, null), []);
});

Deno.test("[release] the smoke test fails on a program that is not GateGuard", async () => {
  const failures = await smoke(["true"], null);
  assertEquals(failures.length, 2);
});

Deno.test("[release] the smoke command line names the expected build before the binary", () => {
  assertEquals(parseSmokeArgs(["dist/g", "-x"]), { build: null, argv: ["dist/g", "-x"] });
  assertEquals(
    parseSmokeArgs(["--target", "x86_64-apple-darwin", "--commit", "abc", "dist/g"]),
    { build: { target: "x86_64-apple-darwin", commit: "abc" }, argv: ["dist/g"] },
  );
  assertThrows(() => parseSmokeArgs(["--target", "x86_64-apple-darwin", "dist/g"]));
});

/** Runs `scripts/compile.ts` offline: a fresh Deno cache, every download sent to a closed port. */
async function compileOffline(
  tmp: string,
  args: string[],
): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-run",
      "--allow-env",
      `${REPO_ROOT}/scripts/compile.ts`,
      ...args,
    ],
    cwd: REPO_ROOT,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: tmp,
      TMPDIR: `${tmp}/tmp`,
      DENO_DIR: `${tmp}/deno_dir`,
      HTTPS_PROXY: "http://127.0.0.1:9",
      HTTP_PROXY: "http://127.0.0.1:9",
      NO_COLOR: "1",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("[release] offline, compile says in one line which runtime could not be downloaded from where, and leaves nothing behind", async () => {
  const tmp = await tempDir({ prefix: "gg-offline-" });
  try {
    await Deno.mkdir(`${tmp}/tmp`);
    const triple = "x86_64-unknown-linux-gnu";
    const r = await compileOffline(tmp, [
      "--target",
      triple,
      "--out",
      `${tmp}/dist`,
      "--commit",
      "0123abc",
    ]);
    assertEquals(r.code, 1);
    assertEquals(
      r.stderr,
      `compile: the Deno runtime for ${triple} could not be downloaded from ` +
        `https://dl.deno.land/release/v${Deno.version.deno}/denort-${triple}.zip; deno compile ` +
        "needs it once (it is kept in the Deno cache after that), so run again with network " +
        "access\n",
    );
    // No output directory it made, no staged copy in the temp dir.
    assertEquals(await Deno.lstat(`${tmp}/dist`).then(() => true, () => false), false);
    assertEquals([...Deno.readDirSync(`${tmp}/tmp`)].map((e) => e.name), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("[release] an unknown target is refused with the list of valid ones, before anything is made", async () => {
  const tmp = await tempDir({ prefix: "gg-bogus-" });
  try {
    await Deno.mkdir(`${tmp}/tmp`);
    const r = await compileOffline(tmp, ["--target", "bogus", "--out", `${tmp}/dist`]);
    assertEquals(r.code, 2);
    assertEquals(
      r.stderr,
      `compile: unknown target bogus; the targets are ${TARGETS.map((t) => t.triple).join(", ")}\n`,
    );
    assertEquals(await Deno.lstat(`${tmp}/dist`).then(() => true, () => false), false);
    assertEquals([...Deno.readDirSync(`${tmp}/tmp`)].map((e) => e.name), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("[release] a failed deno compile is one line: the download failure, or Deno's first error", () => {
  const triple = "aarch64-apple-darwin";
  const url = `https://dl.deno.land/release/v2.9.6/denort-${triple}.zip`;
  assertEquals(
    compileFailure(
      triple,
      "\x1b[1m\x1b[31merror\x1b[0m: Writing deno compile executable to temporary file 'x'\n\n" +
        `Caused by:\n    0: Setting up base binary.\n    1: error sending request for url (${url}): ` +
        "client error (Connect): dns error\n\nStack backtrace:\n   0: <unknown>\n",
    ),
    `compile: the Deno runtime for ${triple} could not be downloaded from ${url}; deno compile ` +
      "needs it once (it is kept in the Deno cache after that), so run again with network access",
  );
  assertEquals(
    compileFailure(triple, '\nerror: Module not found "file:///s/src/main.ts".\n    at x\n'),
    `compile: deno compile failed for ${triple}: error: Module not found "file:///s/src/main.ts".`,
  );
  assertEquals(
    compileFailure(triple, ""),
    `compile: deno compile failed for ${triple}: no error output`,
  );
});
