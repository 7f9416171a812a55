/**
 * The plugin's SessionStart installer (`hooks/install_binary.sh`), against a
 * fake release on 127.0.0.1 (real SHA256SUMS, fake assets), never the
 * network: it installs the binary of the plugin's own version into the data
 * folder with the project's installer, records and verifies it, stays silent
 * and offline when that is done, says one line when it cannot (and what the
 * gate does until then), replaces a binary that no longer matches, and two
 * sessions starting at once install once.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import { sha256Sums, TARGETS } from "../../scripts/compile.ts";
import { sha256Hex } from "../../src/platform/sha256.ts";
import { VERSION } from "../../src/version.ts";
import { denoFolder, toolsWithoutDeno } from "./tools.ts";

const INSTALL_BINARY = `${REPO_ROOT}/hooks/install_binary.sh`;
const TAG = `v${VERSION}`;
/**
 * The asset the installer picks on this machine: it runs the system's own
 * `uname`, so no stub on PATH can make another platform play.
 */
const ASSET = TARGETS.find((t) =>
  t.triple.startsWith(`${Deno.build.arch}-`) &&
  t.triple.endsWith(Deno.build.os === "darwin" ? "-apple-darwin" : "-unknown-linux-gnu")
)!.asset;
const FAKE_ASSET = `#!/bin/sh\necho "gateguard ${VERSION} (fake)"\n`;

interface Release {
  baseUrl: string;
  /** Paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves release `TAG` (SHA256SUMS and one asset); `served` replaces the asset's bytes. */
async function fakeRelease(served: string = FAKE_ASSET): Promise<Release> {
  const sums = await sha256Sums([[ASSET, new TextEncoder().encode(FAKE_ASSET)]]);
  const files = new Map([["SHA256SUMS", sums], [ASSET, served]]);
  const requests: string[] = [];
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(120_000)]);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal, onListen: () => {} },
    (req) => {
      const path = new URL(req.url).pathname;
      requests.push(path);
      const m = path.match(/^\/releases\/download\/([^/]+)\/([^/]+)$/);
      const body = m && m[1] === TAG ? files.get(m[2]) : undefined;
      return body === undefined ? new Response("not found", { status: 404 }) : new Response(body);
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

interface Box {
  root: string;
  data: string;
  bin: string;
  stubs: string;
  tools: string;
}

async function box(): Promise<Box> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "gg-plugin-install-" }));
  const b = {
    root,
    data: `${root}/data`,
    bin: `${root}/data/bin/gateguard`,
    stubs: `${root}/stubs`,
    tools: `${root}/tools`,
  };
  await Deno.mkdir(b.stubs);
  await toolsWithoutDeno(b.tools);
  return b;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the installer as the SessionStart hook runs it (or by hand with `args`). */
function runInstaller(
  b: Box,
  baseUrl: string,
  opts: { deno?: boolean; args?: string[] } = {},
): Promise<Run> {
  return new Deno.Command("/bin/sh", {
    args: [INSTALL_BINARY, ...(opts.args ?? ["--session-start"])],
    clearEnv: true,
    env: {
      PATH: [b.stubs, ...(opts.deno ? [denoFolder()] : []), b.tools, "/usr/sbin"].join(":"),
      HOME: b.root,
      TMPDIR: b.root,
      CLAUDE_PLUGIN_ROOT: REPO_ROOT,
      CLAUDE_PLUGIN_DATA: b.data,
      GATEGUARD_INSTALL_BASE_URL: baseUrl,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output().then((out) => {
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  });
}

/** The `systemMessage` line a SessionStart hook prints. */
function said(text: string): string {
  return `${JSON.stringify({ systemMessage: `GateGuard: ${text}` })}\n`;
}

async function withBox(fn: (b: Box, release: Release) => Promise<void>, served?: string) {
  const b = await box();
  const release = await fakeRelease(served);
  try {
    await fn(b, release);
  } finally {
    await release.close();
    await Deno.remove(b.root, { recursive: true });
  }
}

async function listing(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) names.push(e.name);
  } catch {
    return [];
  }
  return names.sort();
}

const digest = () => sha256Hex(FAKE_ASSET);
const retry = (b: Box) => `Retry with: sh '${REPO_ROOT}/hooks/install_binary.sh' '${b.data}'`;

Deno.test("[plugin-install] SessionStart installs the binary of the plugin's version in the data folder, verified, and says so once", () =>
  withBox(async (b, release) => {
    const first = await runInstaller(b, release.baseUrl);
    assertEquals(first, {
      code: 0,
      stdout: said(`installed its ${TAG} binary in ${b.data}/bin (SHA-256 verified).`),
      stderr: "",
    });
    assertEquals(release.requests, [
      `/releases/download/${TAG}/SHA256SUMS`,
      `/releases/download/${TAG}/${ASSET}`,
    ]);
    assertEquals(await listing(`${b.data}/bin`), [
      "gateguard",
      "gateguard.sha256",
      "gateguard.verified",
    ]);
    assertEquals(await Deno.readTextFile(b.bin), FAKE_ASSET);
    assertEquals(
      await Deno.readTextFile(`${b.bin}.sha256`),
      `${await digest()}  ${ASSET}  ${TAG}\n`,
    );
    assertEquals(await listing(b.data), ["bin"], "the lock is gone");

    // The next session: already there and verified, so no request and no word.
    const again = await runInstaller(b, release.baseUrl);
    assertEquals(again, { code: 0, stdout: "", stderr: "" });
    assertEquals(release.requests.length, 2);
  }));

Deno.test("[plugin-install] with no release to reach it says one line: why, what the gate does meanwhile, how to retry", () =>
  withBox(async (b, release) => {
    await release.close();
    for (const deno of [false, true]) {
      const r = await runInstaller(b, release.baseUrl, { deno });
      assertEquals(r, {
        code: 0,
        stdout: said(
          `could not install its ${TAG} binary (could not download ${release.baseUrl}/download/${TAG}/SHA256SUMS ` +
            `(is ${TAG} published?)); ` +
            (deno
              ? "until then GateGuard runs from source with Deno"
              : "until then every gated tool call is blocked") +
            `. ${retry(b)}`,
        ),
        stderr: "",
      });
    }
    assertEquals(await listing(b.data), [], "nothing installed, and the lock is gone");
  }));

Deno.test("[plugin-install] a download that does not match SHA256SUMS is refused and nothing is installed", () =>
  withBox(async (b, release) => {
    const r = await runInstaller(b, release.baseUrl);
    assertEquals(r.code, 0);
    const line = JSON.parse(r.stdout).systemMessage as string;
    assert(
      line.startsWith(
        `GateGuard: could not install its ${TAG} binary (checksum mismatch for ${ASSET}: `,
      ),
      line,
    );
    assertEquals(r.stdout.split("\n").length, 2, "one line");
    assertEquals(await listing(`${b.data}/bin`), []);
  }, FAKE_ASSET.replace("fake", "evil")));

Deno.test("[plugin-install] a binary that no longer matches its record is installed again at the next start", () =>
  withBox(async (b, release) => {
    await runInstaller(b, release.baseUrl);
    await Deno.writeTextFile(b.bin, FAKE_ASSET.replace("fake", "FAKE"));
    const r = await runInstaller(b, release.baseUrl);
    assertEquals(
      r.stdout,
      said(`installed its ${TAG} binary in ${b.data}/bin (SHA-256 verified).`),
    );
    assertEquals(await Deno.readTextFile(b.bin), FAKE_ASSET);
    assertEquals(release.requests.filter((p) => p.endsWith(`/${ASSET}`)).length, 2);
  }));

Deno.test("[plugin-install] by hand it prints a plain line and takes the data folder as its argument", () =>
  withBox(async (b, release) => {
    const r = await runInstaller(b, release.baseUrl, { args: [b.data] });
    assertEquals(r, {
      code: 0,
      stdout: `GateGuard: installed its ${TAG} binary in ${b.data}/bin (SHA-256 verified).\n`,
      stderr: "",
    });
  }));

Deno.test("[plugin-install] two sessions starting at once download the binary once", () =>
  withBox(async (b, release) => {
    const [one, two] = await Promise.all([
      runInstaller(b, release.baseUrl),
      runInstaller(b, release.baseUrl),
    ]);
    const installed = said(`installed its ${TAG} binary in ${b.data}/bin (SHA-256 verified).`);
    // One installs and says so; the other finds it installed or being installed, and is silent.
    assertEquals([one.stdout, two.stdout].sort(), ["", installed]);
    assertEquals([one.code, two.code], [0, 0]);
    assertEquals(release.requests.filter((p) => p.endsWith(`/${ASSET}`)).length, 1);
    assertEquals(await Deno.readTextFile(b.bin), FAKE_ASSET);
  }));

Deno.test("[plugin-install] a lock left by an install that died is taken over after ten minutes, a fresh one is respected", () =>
  withBox(async (b, release) => {
    const lock = `${b.data}/bin.lock`;
    await Deno.mkdir(lock, { recursive: true });
    const held = await runInstaller(b, release.baseUrl);
    assertEquals(held, { code: 0, stdout: "", stderr: "" });
    assertEquals(release.requests, []);
    const old = new Date(Date.now() - 11 * 60_000);
    await Deno.utime(lock, old, old);
    const r = await runInstaller(b, release.baseUrl);
    assertEquals(
      r.stdout,
      said(`installed its ${TAG} binary in ${b.data}/bin (SHA-256 verified).`),
    );
    assertEquals(await listing(b.data), ["bin"]);
  }));

Deno.test("[self-protection] programs planted in a folder on PATH never take part in the install", () =>
  withBox(async (b, release) => {
    // What an agent could leave in ~/.local/bin: a curl that would serve a forged binary with
    // matching sums, a sha256sum that vouches for anything, and the rest of what the install runs.
    const log = `${b.root}/planted.log`;
    for (
      const name of [
        "curl",
        "wget",
        "sha256sum",
        "shasum",
        "uname",
        "sh",
        "mkdir",
        "mv",
        "sed",
        "find",
      ]
    ) {
      await Deno.writeTextFile(
        `${b.stubs}/${name}`,
        `#!/bin/sh\necho ${name} >>'${log}'\nexit 0\n`,
      );
      await Deno.chmod(`${b.stubs}/${name}`, 0o755);
    }
    const r = await runInstaller(b, release.baseUrl);
    assertEquals(
      r.stdout,
      said(`installed its ${TAG} binary in ${b.data}/bin (SHA-256 verified).`),
    );
    assertEquals(await Deno.readTextFile(b.bin), FAKE_ASSET);
    let ran = "";
    try {
      ran = await Deno.readTextFile(log);
    } catch {
      // none ran
    }
    assertEquals(ran, "", "a planted program ran");
  }));
