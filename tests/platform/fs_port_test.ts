/**
 * The real file port never blocks on a read: not on a FIFO, not when a
 * FIFO is swapped into the path between any check and the open, and not
 * on a FIFO an unprivileged reader may not open for writing.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import { denoFs } from "../../src/platform/fs_port.ts";

/** A child still running after this long is stuck; it is killed and counted as such. */
const STUCK_AFTER_MS = 30_000;

function mkfifo(path: string): void {
  const r = new Deno.Command("mkfifo", { args: [path] }).outputSync();
  assert(r.success, `mkfifo ${path}`);
}

/** Runs `read_loop.ts` on `path` in a child process; `hung` when it had to be killed. */
async function readLoop(
  path: string,
  count: number,
  wrapper: string[] = [],
  env: Record<string, string> = {},
): Promise<{ found: number; hung: boolean; stderr: string }> {
  const argv = [
    ...wrapper,
    Deno.execPath(),
    "run",
    "--allow-all",
    `${REPO_ROOT}/tests/platform/read_loop.ts`,
    path,
    String(count),
  ];
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdout: "piped",
    stderr: "piped",
    env,
  }).spawn();
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    child.kill("SIGKILL");
  }, STUCK_AFTER_MS);
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  return { found: Number(dec.decode(out.stdout).trim()), hung, stderr: dec.decode(out.stderr) };
}

Deno.test("[state-file-is-untrusted] a FIFO is never read and never blocks", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gg-fifo-" });
  mkfifo(`${dir}/p`);
  assertEquals(denoFs.readTextBounded(`${dir}/p`, 1024), null);
  assertEquals(denoFs.readRange(`${dir}/p`, 0, 16), null);
  assertEquals(await denoFs.readTextBoundedAsync(`${dir}/p`, 1024), null);
  await Deno.writeTextFile(`${dir}/f`, "text");
  assertEquals(denoFs.readTextBounded(`${dir}/f`, 1024), "text");
  assertEquals(denoFs.readTextBounded(`${dir}/f`, 3), null);
  assertEquals(await denoFs.readTextBoundedAsync(`${dir}/f`, 1024), "text");
  assertEquals(denoFs.readRange(`${dir}/f`, 1, 2), new TextEncoder().encode("ex"));
  assertEquals(denoFs.readTextBounded(dir, 1024), null);
  assertEquals(await denoFs.readTextBoundedAsync(`${dir}/none`, 1024), null);
});

Deno.test("[state-file-is-untrusted] 20,000 reads of each kind while a FIFO flips in and out of the path: none blocks", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gg-flip-" });
  await Deno.writeTextFile(`${dir}/a`, "{}");
  mkfifo(`${dir}/b`);
  await Deno.link(`${dir}/a`, `${dir}/p`);
  const swapper = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      `${REPO_ROOT}/tests/helpers/path_swapper.ts`,
      `${dir}/p`,
      `${dir}/a`,
      `${dir}/b`,
      `${dir}/stop`,
    ],
  }).spawn();
  const count = 20_000;
  let result;
  try {
    result = await readLoop(`${dir}/p`, count);
  } finally {
    await Deno.writeTextFile(`${dir}/stop`, "");
    await swapper.status;
  }
  assert(!result.hung, "a read blocked on the FIFO");
  // Both inodes were met: the race was real.
  assert(result.found > 0 && result.found < 3 * count, `found ${result.found}`);
});

const setpriv = new Deno.Command("setpriv", { args: ["--help"] }).outputSync().success;

Deno.test({
  name:
    "[state-file-is-untrusted] an unprivileged reader: a FIFO it may not write is given up after a bounded wait, a read-only file is still read by the waiting read",
  ignore: Deno.uid() !== 0 || !setpriv,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "gg-ro-" });
    await Deno.chmod(dir, 0o755);
    mkfifo(`${dir}/fifo`);
    await Deno.chmod(`${dir}/fifo`, 0o444);
    await Deno.writeTextFile(`${dir}/file`, "{}");
    await Deno.chmod(`${dir}/file`, 0o444);
    const denoDir = await Deno.makeTempDir({ prefix: "gg-denodir-" });
    await Deno.chmod(denoDir, 0o777);
    const nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"];
    const env = { DENO_DIR: denoDir, HOME: denoDir };
    const fifo = await readLoop(`${dir}/fifo`, 3, nobody, env);
    assert(!fifo.hung, "the read-only open of a FIFO kept the process alive");
    assertEquals(fifo.found, 0, fifo.stderr);
    // Only the waiting read opens a file it may not write.
    assertEquals((await readLoop(`${dir}/file`, 1, nobody, env)).found, 1);
  },
});
