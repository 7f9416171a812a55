/**
 * The real file port never blocks on a read: not on a FIFO, not when a
 * FIFO is swapped into the path between any check and the open, and not
 * on a FIFO an unprivileged reader may not open for writing.
 */

import { tempDir } from "../helpers/temp.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { skipName } from "../helpers/skip.ts";
import { stageUnprivileged, unprivilegedUnavailable } from "../helpers/unprivileged.ts";

/** A child still running after this long is stuck; it is killed and counted as such. */
const STUCK_AFTER_MS = 30_000;

function mkfifo(path: string): void {
  const r = new Deno.Command("mkfifo", { args: [path] }).outputSync();
  assert(r.success, `mkfifo ${path}`);
}

/**
 * Runs `read_loop.ts` on `path` in a child process and returns how many
 * reads found text; `hung` when it had to be killed. A child that did not
 * run to its end (no count printed, a non-zero exit) fails the test.
 */
async function readLoop(path: string, count: number): Promise<{ found: number; hung: boolean }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", `${REPO_ROOT}/tests/platform/read_loop.ts`, path, String(count)],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    child.kill("SIGKILL");
  }, STUCK_AFTER_MS);
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  if (!hung) assertRan(out.code, dec.decode(out.stdout), dec.decode(out.stderr));
  return { found: Number(dec.decode(out.stdout).trim()), hung };
}

/** Fails unless the read loop ran to its end: exit 0 and a count on stdout. */
function assertRan(code: number, stdout: string, stderr: string): void {
  assertEquals(code, 0, `the read loop did not run: ${stderr}`);
  assert(/^\d+\n$/.test(stdout), `the read loop printed no count: ${stdout}${stderr}`);
}

Deno.test("[state-file-is-untrusted] a FIFO is never read and never blocks", async () => {
  const dir = await tempDir({ prefix: "gg-fifo-" });
  try {
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
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[state-file-is-untrusted] 20,000 reads of each kind while a FIFO flips in and out of the path: none blocks", async () => {
  const dir = await tempDir({ prefix: "gg-flip-" });
  try {
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
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const unavailable = unprivilegedUnavailable();
const UNPRIVILEGED_NAME =
  "[state-file-is-untrusted] an unprivileged reader: a FIFO it may not write is given up after a bounded wait, a read-only file is still read by the waiting read";

Deno.test({
  name: skipName(UNPRIVILEGED_NAME, unavailable),
  ignore: unavailable !== null,
  async fn() {
    // A copy every user can read: the clone itself may sit under a 0700 home.
    await using stage = await stageUnprivileged("tests/platform/read_loop.ts");
    const fifo = `${stage.dir}/fifo`;
    const file = `${stage.dir}/file`;
    mkfifo(fifo);
    await Deno.chmod(fifo, 0o444);
    await Deno.writeTextFile(file, "{}");
    await Deno.chmod(file, 0o444);
    const fromFifo = await stage.run([fifo, "3"], STUCK_AFTER_MS);
    assert(!fromFifo.killed, "the read-only open of a FIFO kept the process alive");
    // The child ran to its end and found nothing to read.
    assertEquals([fromFifo.code, fromFifo.stdout], [0, "0\n"], fromFifo.stderr);
    // Only the waiting read opens a file it may not write.
    const fromFile = await stage.run([file, "1"], STUCK_AFTER_MS);
    assertEquals([fromFile.code, fromFile.stdout], [0, "1\n"], fromFile.stderr);
  },
});
