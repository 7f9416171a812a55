import { tempDir } from "../helpers/temp.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  appendMetrics,
  METRICS_FILE,
  ROTATE_BYTES,
  ROTATED_FILE,
} from "../../src/metrics/append.ts";

const LINE_A = '{"v":1,"decision":"deny"}';
const LINE_B = '{"v":1,"decision":"pass"}';

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

async function withDir(fn: (dir: string) => void | Promise<void>): Promise<void> {
  const dir = await tempDir({ prefix: "gg-metrics-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("[metrics] a call's lines are appended together, one per line", () =>
  withDir((dir) => {
    appendMetrics(dir, [LINE_A, LINE_B]);
    appendMetrics(dir, [LINE_B]);
    assertEquals(
      Deno.readTextFileSync(`${dir}/${METRICS_FILE}`),
      `${LINE_A}\n${LINE_B}\n${LINE_B}\n`,
    );
  }));

Deno.test("[metrics] two hooks that both find the file missing both keep their lines", () =>
  withDir((dir) => {
    const path = `${dir}/${METRICS_FILE}`;
    let looks = 0;
    // The other hook creates the file between this one's look and its create.
    const raced = (p: string): Deno.FileInfo | "missing" => {
      if (looks++ > 0) return Deno.lstatSync(p);
      appendMetrics(dir, [LINE_A]);
      return "missing";
    };
    appendMetrics(dir, [LINE_B], raced);
    assertEquals(Deno.readTextFileSync(path), `${LINE_A}\n${LINE_B}\n`);
    assertEquals(looks, 2);
  }));

Deno.test("[metrics] no lines, or lines holding a line break, write nothing", () =>
  withDir((dir) => {
    appendMetrics(dir, []);
    assert(!exists(`${dir}/${METRICS_FILE}`));
    appendMetrics(dir, [`${LINE_A}\n{"forged":1}`, "x\ry", LINE_B]);
    assertEquals(Deno.readTextFileSync(`${dir}/${METRICS_FILE}`), `${LINE_B}\n`);
  }));

Deno.test("[metrics] a missing state directory is created", () =>
  withDir((dir) => {
    appendMetrics(`${dir}/state/deeper`, [LINE_A]);
    assertEquals(Deno.readTextFileSync(`${dir}/state/deeper/${METRICS_FILE}`), `${LINE_A}\n`);
  }));

Deno.test("[metrics] a symlink in place of the file: nothing written, the target untouched", () =>
  withDir((dir) => {
    const target = `${dir}/victim.txt`;
    Deno.writeTextFileSync(target, "original\n");
    Deno.symlinkSync(target, `${dir}/${METRICS_FILE}`);
    appendMetrics(dir, [LINE_A]);
    assertEquals(Deno.readTextFileSync(target), "original\n");
    assert(Deno.lstatSync(`${dir}/${METRICS_FILE}`).isSymlink);
  }));

Deno.test("[metrics] a dangling symlink in place of the file is not followed to create its target", () =>
  withDir((dir) => {
    const target = `${dir}/planted.txt`;
    Deno.symlinkSync(target, `${dir}/${METRICS_FILE}`);
    appendMetrics(dir, [LINE_A]);
    assert(!exists(target));
  }));

Deno.test("[metrics] a symlink in place of the file is not followed even when rotation is due", () =>
  withDir((dir) => {
    const target = `${dir}/big.txt`;
    const big = "y".repeat(ROTATE_BYTES);
    Deno.writeTextFileSync(target, big);
    Deno.symlinkSync(target, `${dir}/${METRICS_FILE}`);
    appendMetrics(dir, [LINE_A]);
    assertEquals(Deno.readTextFileSync(target), big);
    assert(!exists(`${dir}/${ROTATED_FILE}`));
  }));

Deno.test("[metrics] a hard-linked file in place of the file: nothing written", () =>
  withDir((dir) => {
    const other = `${dir}/other.txt`;
    Deno.writeTextFileSync(other, "other\n");
    Deno.linkSync(other, `${dir}/${METRICS_FILE}`);
    appendMetrics(dir, [LINE_A]);
    assertEquals(Deno.readTextFileSync(other), "other\n");
  }));

Deno.test("[metrics] a directory in place of the file is ignored without an error", () =>
  withDir((dir) => {
    Deno.mkdirSync(`${dir}/${METRICS_FILE}`);
    appendMetrics(dir, [LINE_A]);
    assert(Deno.lstatSync(`${dir}/${METRICS_FILE}`).isDirectory);
    assertEquals([...Deno.readDirSync(`${dir}/${METRICS_FILE}`)], []);
  }));

Deno.test("[metrics] past 1 MiB the file is rotated to metrics.jsonl.1, replacing the old one", () =>
  withDir((dir) => {
    const full = `${"z".repeat(ROTATE_BYTES - LINE_A.length - 2)}\n`;
    Deno.writeTextFileSync(`${dir}/${ROTATED_FILE}`, "older rotation\n");
    Deno.writeTextFileSync(`${dir}/${METRICS_FILE}`, full);
    // Exactly 1 MiB after this append: no rotation yet.
    appendMetrics(dir, [LINE_A]);
    assertEquals(Deno.statSync(`${dir}/${METRICS_FILE}`).size, ROTATE_BYTES);
    assertEquals(Deno.readTextFileSync(`${dir}/${ROTATED_FILE}`), "older rotation\n");
    // One more byte would pass the limit: rotate, then start a fresh file.
    appendMetrics(dir, [LINE_B]);
    assertEquals(Deno.readTextFileSync(`${dir}/${ROTATED_FILE}`), `${full}${LINE_A}\n`);
    assertEquals(Deno.readTextFileSync(`${dir}/${METRICS_FILE}`), `${LINE_B}\n`);
  }));

Deno.test("[metrics] a rotation onto a symlinked .1 replaces the link, not its target", () =>
  withDir((dir) => {
    const target = `${dir}/victim.txt`;
    Deno.writeTextFileSync(target, "original\n");
    Deno.symlinkSync(target, `${dir}/${ROTATED_FILE}`);
    Deno.writeTextFileSync(`${dir}/${METRICS_FILE}`, "w".repeat(ROTATE_BYTES));
    appendMetrics(dir, [LINE_A]);
    assertEquals(Deno.readTextFileSync(target), "original\n");
    assert(Deno.lstatSync(`${dir}/${ROTATED_FILE}`).isFile);
    assertEquals(Deno.readTextFileSync(`${dir}/${METRICS_FILE}`), `${LINE_A}\n`);
  }));

Deno.test("[metrics] a failed rotation is ignored and the oversized file is not grown", () =>
  withDir((dir) => {
    Deno.mkdirSync(`${dir}/${ROTATED_FILE}`);
    Deno.writeTextFileSync(`${dir}/${ROTATED_FILE}/keep`, "x");
    const full = "w".repeat(ROTATE_BYTES);
    Deno.writeTextFileSync(`${dir}/${METRICS_FILE}`, full);
    appendMetrics(dir, [LINE_A]);
    assertEquals(Deno.readTextFileSync(`${dir}/${METRICS_FILE}`), full);
    assert(Deno.lstatSync(`${dir}/${ROTATED_FILE}`).isDirectory);
  }));

Deno.test("[metrics] a state directory that cannot be created is ignored", () =>
  withDir((dir) => {
    Deno.writeTextFileSync(`${dir}/plain-file`, "");
    appendMetrics(`${dir}/plain-file/state`, [LINE_A]);
    assertEquals(Deno.readTextFileSync(`${dir}/plain-file`), "");
  }));

Deno.test("[metrics] without write permission the append is silently dropped", () =>
  withDir(async (dir) => {
    const module = new URL("../../src/metrics/append.ts", import.meta.url).href;
    const script = `${dir}/probe.ts`;
    Deno.writeTextFileSync(
      script,
      `import { appendMetrics } from ${JSON.stringify(module)};\n` +
        `appendMetrics(${JSON.stringify(`${dir}/state`)}, [${JSON.stringify(LINE_A)}]);\n` +
        `console.log("returned");\n`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--no-prompt", "--no-config", "--allow-read", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(new TextDecoder().decode(out.stdout), "returned\n");
    assertEquals(out.code, 0);
    assert(!exists(`${dir}/state`));
  }));
