/**
 * The installers. `install.sh` runs end to end against a fake release
 * server on 127.0.0.1 (fake assets, real SHA256SUMS), with `uname` and
 * `sysctl` stubbed on PATH so every platform can be played on this machine.
 * `install.ps1` cannot run here (no PowerShell): it is parsed with the
 * tree-sitter PowerShell grammar, and its asset names and settings are
 * checked against the same sources.
 */

import { tempDir } from "../helpers/temp.ts";
import {
  assert,
  assertEquals,
  assertNotIncludes,
  assertStringIncludes,
} from "../helpers/assert.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import { sha256Sums, TARGETS } from "../../scripts/compile.ts";

const INSTALL_SH = `${REPO_ROOT}/scripts/install.sh`;
const INSTALL_PS1 = `${REPO_ROOT}/scripts/install.ps1`;
const RELEASE_TAG = "v0.1.0";
/** The server answers at most this many requests, then shuts itself down. */
const MAX_REQUESTS = 40;

/** A fake asset: a script that answers `--version` with its own name. */
function fakeAsset(asset: string): Uint8Array {
  return new TextEncoder().encode(`#!/bin/sh\necho "gateguard 0.1.0 (${asset}, commit fake)"\n`);
}

interface FakeRelease {
  baseUrl: string;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serves one release (the latest, also under its tag) of every non-Windows
 * asset. `sums` rewrites the SHA256SUMS text; `bytes` replaces an asset's
 * bytes after the sums were computed.
 */
async function fakeRelease(
  sums: (text: string) => string = (t) => t,
  bytes: (asset: string, b: Uint8Array) => Uint8Array = (_, b) => b,
): Promise<FakeRelease> {
  const files = new Map<string, Uint8Array>();
  for (const t of TARGETS) files.set(t.asset, fakeAsset(t.asset));
  const sumsText = sums(await sha256Sums([...files]));
  for (const [name, b] of files) files.set(name, bytes(name, b));
  files.set("SHA256SUMS", new TextEncoder().encode(sumsText));
  const requests: string[] = [];
  const stop = new AbortController();
  // Stops by itself if a test forgets to, or a client keeps asking.
  const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(120_000)]);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal, onListen: () => {} },
    (req) => {
      const path = new URL(req.url).pathname;
      requests.push(path);
      if (requests.length >= MAX_REQUESTS) stop.abort();
      const m = path.match(/^\/releases\/(?:latest\/download|download\/([^/]+))\/([^/]+)$/);
      const body = m && (m[1] === undefined || m[1] === RELEASE_TAG) ? files.get(m[2]) : undefined;
      return body ? new Response(body.slice()) : new Response("not found", { status: 404 });
    },
  );
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/releases`,
    requests,
    close: async () => {
      stop.abort();
      await server.finished;
    },
  };
}

interface Machine {
  /** What `uname -s` and `uname -m` print. */
  os: string;
  cpu: string;
  /** What `sysctl -n sysctl.proc_translated` prints (macOS under Rosetta: 1). */
  translated?: string;
}

/** A temporary home with `uname` and `sysctl` stubs. */
async function machineHome(): Promise<{ home: string; stubs: string }> {
  const home = await Deno.realPath(await tempDir({ prefix: "gg-install-" }));
  const stubs = `${home}/stubs`;
  await Deno.mkdir(stubs);
  await Deno.writeTextFile(
    `${stubs}/uname`,
    '#!/bin/sh\ncase "$1" in -s) echo "$FAKE_UNAME_S" ;; -m) echo "$FAKE_UNAME_M" ;; *) exit 2 ;; esac\n',
  );
  await Deno.writeTextFile(
    `${stubs}/sysctl`,
    '#!/bin/sh\n[ -n "$FAKE_TRANSLATED" ] && echo "$FAKE_TRANSLATED"\n',
  );
  await Deno.chmod(`${stubs}/uname`, 0o755);
  await Deno.chmod(`${stubs}/sysctl`, 0o755);
  return { home, stubs };
}

async function install(
  release: FakeRelease,
  home: { home: string; stubs: string },
  machine: Machine,
  args: string[] = [],
  extraPath: string[] = [],
  /** Script text piped into `sh -s`, as `curl … | sh` does, instead of the file. */
  piped?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command("/bin/sh", {
    args: piped === undefined ? [INSTALL_SH, ...args] : ["-s", "--", ...args],
    stdin: piped === undefined ? "null" : "piped",
    clearEnv: true,
    env: {
      PATH: [home.stubs, ...extraPath, "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
      HOME: home.home,
      SHELL: "/bin/bash",
      TMPDIR: home.home,
      GATEGUARD_INSTALL_BASE_URL: release.baseUrl,
      FAKE_UNAME_S: machine.os,
      FAKE_UNAME_M: machine.cpu,
      FAKE_TRANSLATED: machine.translated ?? "",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (piped !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(piped));
    await writer.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Runs `fn` with a fresh fake release and home, and cleans both up. */
async function scenario(
  fn: (release: FakeRelease, home: { home: string; stubs: string }) => Promise<void>,
  release?: Promise<FakeRelease>,
): Promise<void> {
  const server = await (release ?? fakeRelease());
  const home = await machineHome();
  try {
    await fn(server, home);
  } finally {
    await server.close();
    await Deno.remove(home.home, { recursive: true });
  }
}

const LINUX_X64: Machine = { os: "Linux", cpu: "x86_64" };

/** The entries of a directory, sorted (leftover temporary files would show here). */
async function listing(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names.sort();
}

Deno.test("[release] install.sh parses as POSIX sh and passes shellcheck", async () => {
  const parse = await new Deno.Command("/bin/sh", { args: ["-n", INSTALL_SH], stderr: "piped" })
    .output();
  assert(parse.success, new TextDecoder().decode(parse.stderr));
  let check: Deno.CommandOutput;
  try {
    check = await new Deno.Command("shellcheck", {
      args: ["-s", "sh", INSTALL_SH],
      stdout: "piped",
    })
      .output();
  } catch {
    console.log("shellcheck is not installed (apt-get install shellcheck); only `sh -n` ran");
    return;
  }
  assert(check.success, new TextDecoder().decode(check.stdout));
});

Deno.test("[release] install.sh installs the verified asset into ~/.local/bin and says how to reach it", async () => {
  await scenario(async (release, home) => {
    const r = await install(release, home, LINUX_X64);
    assertEquals(r.code, 0, r.stderr);
    const target = `${home.home}/.local/bin/gateguard`;
    assertEquals(await Deno.readFile(target), fakeAsset("gateguard-linux-x64"));
    assertEquals((await Deno.stat(target)).mode! & 0o777, 0o755);
    assertEquals(release.requests, [
      "/releases/latest/download/SHA256SUMS",
      "/releases/latest/download/gateguard-linux-x64",
    ]);
    assertStringIncludes(
      r.stdout,
      `Installed gateguard-linux-x64 as ${target} (SHA-256 verified).`,
    );
    assertStringIncludes(r.stdout, "gateguard 0.1.0 (gateguard-linux-x64, commit fake)");
    assertStringIncludes(r.stdout, `${home.home}/.local/bin is not on your PATH. Add it with:`);
    assertStringIncludes(
      r.stdout,
      `echo 'export PATH="${home.home}/.local/bin:$PATH"' >> ${home.home}/.bashrc`,
    );
    assertStringIncludes(r.stdout, "Next, in your project: gateguard init");
    assertEquals(await listing(`${home.home}/.local/bin`), ["gateguard"]);
  });
});

Deno.test("[release] install.sh run again changes nothing and downloads only the sums", async () => {
  await scenario(async (release, home) => {
    assertEquals((await install(release, home, LINUX_X64)).code, 0);
    const target = `${home.home}/.local/bin/gateguard`;
    const before = await Deno.stat(target);
    release.requests.length = 0;
    const again = await install(release, home, LINUX_X64);
    assertEquals(again.code, 0, again.stderr);
    assertEquals(release.requests, ["/releases/latest/download/SHA256SUMS"]);
    assertStringIncludes(again.stdout, `${target} is already this release (gateguard-linux-x64)`);
    assertEquals((await Deno.stat(target)).mtime, before.mtime);
    assertEquals(await listing(`${home.home}/.local/bin`), ["gateguard"]);
    // A different file at the target is replaced by the verified asset.
    await Deno.writeTextFile(target, "#!/bin/sh\necho stale\n");
    const replaced = await install(release, home, LINUX_X64);
    assertEquals(replaced.code, 0, replaced.stderr);
    assertEquals(await Deno.readFile(target), fakeAsset("gateguard-linux-x64"));
  });
});

Deno.test("[release] install.sh takes a version and a directory; on PATH the next step is plain gateguard init", async () => {
  await scenario(async (release, home) => {
    const dir = `${home.home}/tools bin`;
    const r = await install(release, home, { os: "Darwin", cpu: "arm64" }, [
      "--version",
      "0.1.0",
      "--dir",
      dir,
    ], [dir]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(release.requests, [
      `/releases/download/${RELEASE_TAG}/SHA256SUMS`,
      `/releases/download/${RELEASE_TAG}/gateguard-macos-arm64`,
    ]);
    assertEquals(await Deno.readFile(`${dir}/gateguard`), fakeAsset("gateguard-macos-arm64"));
    assertStringIncludes(r.stdout, "Next, in your project: gateguard init");
    assertNotIncludes(r.stdout, "not on your PATH");
  });
});

Deno.test("[release] install.sh refuses a download whose checksum differs, and installs nothing", async () => {
  const tampered = fakeRelease(
    undefined,
    (asset, b) =>
      asset === "gateguard-linux-x64" ? new TextEncoder().encode("#!/bin/sh\necho evil\n") : b,
  );
  await scenario(async (release, home) => {
    const r = await install(release, home, LINUX_X64);
    assertEquals(r.code, 1);
    assertStringIncludes(r.stderr, "gateguard install: checksum mismatch for gateguard-linux-x64");
    assertStringIncludes(r.stderr, "nothing was installed");
    assertEquals(await listing(home.home), ["stubs"]);
  }, tampered);
});

Deno.test("[release] install.sh refuses an asset that SHA256SUMS does not list, or lists twice", async () => {
  const dropLine = (t: string) =>
    t.split("\n").filter((l) => !l.endsWith("  gateguard-linux-x64")).join("\n");
  await scenario(async (release, home) => {
    const r = await install(release, home, LINUX_X64);
    assertEquals(r.code, 1);
    assertStringIncludes(r.stderr, "has no line for gateguard-linux-x64; refusing to install");
    assertEquals(release.requests, ["/releases/latest/download/SHA256SUMS"]);
    assertEquals(await listing(home.home), ["stubs"]);
  }, fakeRelease(dropLine));
  const twice = (t: string) => `${t}${"0".repeat(64)}  gateguard-linux-x64\n`;
  await scenario(async (release, home) => {
    const r = await install(release, home, LINUX_X64);
    assertEquals(r.code, 1);
    assertStringIncludes(r.stderr, "malformed or repeated line for gateguard-linux-x64");
  }, fakeRelease(twice));
});

Deno.test("[release] install.sh explains an unknown OS or CPU and downloads nothing", async () => {
  await scenario(async (release, home) => {
    const os = await install(release, home, { os: "FreeBSD", cpu: "amd64" });
    assertEquals(os.code, 1);
    assertStringIncludes(os.stderr, "no release binary for the operating system 'FreeBSD'");
    assertStringIncludes(os.stderr, "Windows (use install.ps1)");
    const cpu = await install(release, home, { os: "Linux", cpu: "riscv64" });
    assertEquals(cpu.code, 1);
    assertStringIncludes(cpu.stderr, "no release binary for the CPU 'riscv64' on Linux");
    assertStringIncludes(cpu.stderr, "from source with Deno");
    assertEquals(release.requests, []);
  });
});

Deno.test("[release] install.sh picks the asset of every Linux and macOS machine, native under Rosetta", async () => {
  const cases: [Machine, string][] = [
    [{ os: "Linux", cpu: "x86_64" }, "gateguard-linux-x64"],
    [{ os: "Linux", cpu: "amd64" }, "gateguard-linux-x64"],
    [{ os: "Linux", cpu: "aarch64" }, "gateguard-linux-arm64"],
    [{ os: "Linux", cpu: "arm64" }, "gateguard-linux-arm64"],
    [{ os: "Darwin", cpu: "x86_64" }, "gateguard-macos-x64"],
    [{ os: "Darwin", cpu: "arm64" }, "gateguard-macos-arm64"],
    [{ os: "Darwin", cpu: "x86_64", translated: "1" }, "gateguard-macos-arm64"],
  ];
  await scenario(async (release, home) => {
    for (const [i, [machine, asset]] of cases.entries()) {
      assert(TARGETS.some((t) => t.asset === asset), asset);
      release.requests.length = 0;
      const r = await install(release, home, machine, ["--dir", `${home.home}/machine-${i}`]);
      assertEquals(r.code, 0, r.stderr);
      assertEquals(
        release.requests.at(-1),
        `/releases/latest/download/${asset}`,
        JSON.stringify(machine),
      );
    }
  });
});

Deno.test("[release] install.sh piped into sh installs whole, and a download cut short runs nothing", async () => {
  const text = await Deno.readTextFile(INSTALL_SH);
  await scenario(async (release, home) => {
    for (const fraction of [0.25, 0.5, 0.75, 0.99]) {
      const cut = await install(
        release,
        home,
        LINUX_X64,
        [],
        [],
        text.slice(0, text.length * fraction),
      );
      assert(cut.code !== 0, `cut at ${fraction} exited 0`);
      assertEquals(cut.stdout, "");
    }
    assertEquals(release.requests, []);
    assertEquals(await listing(home.home), ["stubs"]);
    const whole = await install(release, home, LINUX_X64, ["--dir", `${home.home}/bin`], [], text);
    assertEquals(whole.code, 0, whole.stderr);
    assertEquals(
      await Deno.readFile(`${home.home}/bin/gateguard`),
      fakeAsset("gateguard-linux-x64"),
    );
  });
});

Deno.test("[release] install.sh reports a release that is not published, and bad arguments", async () => {
  await scenario(async (release, home) => {
    const missing = await install(release, home, LINUX_X64, ["--version", "v9.9.9"]);
    assertEquals(missing.code, 1);
    assertStringIncludes(
      missing.stderr,
      `could not download ${release.baseUrl}/download/v9.9.9/SHA256SUMS`,
    );
    const bad = await install(release, home, LINUX_X64, ["--version", "latest; rm -rf ~"]);
    assertEquals(bad.code, 1);
    assertStringIncludes(bad.stderr, "not a version");
    const unknown = await install(release, home, LINUX_X64, ["--prefix", "/usr"]);
    assertEquals(unknown.code, 1);
    assertStringIncludes(unknown.stderr, "unknown argument: --prefix");
    assertEquals(release.requests, ["/releases/download/v9.9.9/SHA256SUMS"]);
  });
});

Deno.test("[release] install.ps1 parses as PowerShell, and the syntax check catches an unclosed block", async () => {
  const check = async (file: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--unstable-raw-imports", "--allow-read", "scripts/ps1_syntax.ts", file],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  };
  const good = await check(INSTALL_PS1);
  // stderr may also hold Deno's download notes on a fresh cache; problems are `<file>:<line>:…`.
  assertEquals(good.code, 0, good.stderr);
  assertNotIncludes(good.stderr, `${INSTALL_PS1}:`);
  const dir = await tempDir({ prefix: "gg-ps1-" });
  try {
    const text = await Deno.readTextFile(INSTALL_PS1);
    // Drop the closing brace of the script's last block.
    const broken = text.slice(0, text.lastIndexOf("}")) + text.slice(text.lastIndexOf("}") + 1);
    await Deno.writeTextFile(`${dir}/broken.ps1`, broken);
    const bad = await check(`${dir}/broken.ps1`);
    assertEquals(bad.code, 1);
    assertStringIncludes(bad.stderr, "missing }");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[release] install.ps1 offers exactly the Windows assets, from the same release URL as install.sh", async () => {
  const ps1 = await Deno.readTextFile(INSTALL_PS1);
  const sh = await Deno.readTextFile(INSTALL_SH);
  const windows = TARGETS.filter((t) => t.triple.includes("windows")).map((t) => t.asset).sort();
  assertEquals([...new Set(ps1.match(/gateguard-windows-[\w.]+/g))].sort(), windows);
  const defaultUrl = (text: string) =>
    text.match(/https:\/\/github\.com\/[\w-]+\/[\w-]+\/releases/)?.[0];
  assert(defaultUrl(sh) !== undefined);
  assertEquals(defaultUrl(ps1), defaultUrl(sh));
  for (const text of [sh, ps1]) {
    assertStringIncludes(text, "GATEGUARD_INSTALL_BASE_URL");
    assertStringIncludes(text, "SHA256SUMS");
  }
});
