import { tempDir } from "../helpers/temp.ts";
import { assertEquals } from "../helpers/assert.ts";
import { collect } from "../../src/report/collect.ts";

const NO_FILTER = { session: null, sinceMs: null };
const LINE = (minute: number, decision: string): string =>
  JSON.stringify({
    v: 1,
    ts: new Date(Date.UTC(2026, 8, 1, 10, minute)).toISOString(),
    session: "3f9c0a1b2d4e",
    tool: "Bash",
    class: null,
    decision,
    reason: null,
    questions: null,
    sensitive: false,
    profile: null,
  });

async function withDir(fn: (dir: string) => void): Promise<void> {
  const dir = await tempDir({ prefix: "gg-collect-" });
  try {
    fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("[decision-metrics] the rotated file and the live file are both read, per file counts kept", () =>
  withDir((dir) => {
    Deno.writeTextFileSync(`${dir}/metrics.jsonl.1`, `${LINE(0, "pass")}\nbroken\n`);
    Deno.writeTextFileSync(`${dir}/metrics.jsonl`, `${LINE(5, "routine-deny")}\n`);
    const c = collect(`${dir}/`, NO_FILTER);
    if (!c.ok) throw new Error(c.reason);
    assertEquals(c.summary.files, [
      { name: "metrics.jsonl.1", present: true, lines: 2, malformed: 1 },
      { name: "metrics.jsonl", present: true, lines: 1, malformed: 0 },
    ]);
    assertEquals(c.summary.lines, { read: 3, malformed: 1, excluded: 0, counted: 2 });
    assertEquals(c.summary.total.first, "2026-09-01T10:00:00.000Z");
    assertEquals(c.summary.total.last, "2026-09-01T10:05:00.000Z");
  }));

Deno.test("[decision-metrics] a missing rotation or a missing directory is not an error", () =>
  withDir((dir) => {
    Deno.writeTextFileSync(`${dir}/metrics.jsonl`, `${LINE(0, "pass")}\n`);
    const c = collect(dir, NO_FILTER);
    assertEquals(c.ok && c.summary.files.map((f) => f.present), [false, true]);
    const gone = collect(`${dir}/missing`, NO_FILTER);
    assertEquals(gone.ok && gone.summary.lines, { read: 0, malformed: 0, excluded: 0, counted: 0 });
  }));

Deno.test("[decision-metrics] a metrics file that cannot be read stops the report", () =>
  withDir((dir) => {
    Deno.mkdirSync(`${dir}/metrics.jsonl`);
    assertEquals(collect(dir, NO_FILTER), {
      ok: false,
      path: `${dir}/metrics.jsonl`,
      reason: "is a directory",
    });
  }));

Deno.test("[decision-metrics] the filters are echoed in the summary", () =>
  withDir((dir) => {
    const c = collect(dir, { session: "3f9c0a1b2d4e", sinceMs: Date.UTC(2026, 8, 1) });
    assertEquals(c.ok && c.summary.filters, {
      session: "3f9c0a1b2d4e",
      since: "2026-09-01T00:00:00.000Z",
    });
  }));
