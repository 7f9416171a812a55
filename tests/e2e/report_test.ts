/**
 * End-to-end tests of `gateguard report` through the real CLI, on real
 * temporary state directories.
 */

import { tempDir } from "../helpers/temp.ts";
import {
  assert,
  assertEquals,
  assertNotIncludes,
  assertStringIncludes,
} from "../helpers/assert.ts";
import { runCli, runHook } from "../helpers/cli.ts";
import { generateMetrics } from "../report/generate.ts";
import { ROTATE_BYTES } from "../../src/metrics/append.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await tempDir({ prefix: "gg-report-e2e-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const lineCount = (text: string): number => text.split("\n").filter((l) => l !== "").length;

Deno.test("[decision-metrics] gateguard report --dir of a missing directory: one line, exit 1", () =>
  withDir(async (dir) => {
    const r = await runCli(["report", "--dir", `${dir}/state`]);
    assertEquals(r.code, 1);
    assertEquals(r.stdout, "");
    assertEquals(r.stderr, `gateguard report: --dir ${dir}/state: no such directory\n`);
  }));

Deno.test("[decision-metrics] gateguard report before any metrics: one friendly line, exit 0", () =>
  withDir(async (dir) => {
    const r = await runCli(["report"], { env: { GATEGUARD_STATE_DIR: `${dir}/state` } });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(
      r.stdout,
      `No GateGuard metrics in ${dir}/state yet; set GATEGUARD_METRICS=1 to record decisions.\n`,
    );
    assertEquals(r.stderr, "");
  }));

Deno.test("[decision-metrics] gateguard report on empty files: one friendly line, exit 0", () =>
  withDir(async (dir) => {
    Deno.writeTextFileSync(`${dir}/metrics.jsonl`, "");
    Deno.writeTextFileSync(`${dir}/metrics.jsonl.1`, "");
    const r = await runCli(["report", "--dir", dir]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, `The GateGuard metrics files in ${dir} are empty.\n`);
  }));

Deno.test("[decision-metrics] gateguard report on an unreadable metrics file: exit 1", () =>
  withDir(async (dir) => {
    Deno.mkdirSync(`${dir}/metrics.jsonl`);
    const r = await runCli(["report", "--dir", dir]);
    assertEquals(r.code, 1);
    assertEquals(r.stdout, "");
    assertEquals(r.stderr, `gateguard report: cannot read ${dir}/metrics.jsonl: is a directory\n`);
  }));

Deno.test("[decision-metrics] gateguard report with a bad option: error and usage on stderr, exit 2", async () => {
  const r = await runCli(["report", "--since", "lately"]);
  assertEquals(r.code, 2);
  assertEquals(r.stdout, "");
  assert(r.stderr.startsWith("gateguard report: --since needs an ISO date or time"));
  assertStringIncludes(r.stderr, "Usage: gateguard report [--dir DIR]");
});

Deno.test("[decision-metrics] a full 2 MiB pair of metrics files is reported, each line read once", () =>
  withDir(async (dir) => {
    const older = generateMetrics(ROTATE_BYTES, 11);
    const live = generateMetrics(ROTATE_BYTES, 12) + "interleaved {broken\n";
    Deno.writeTextFileSync(`${dir}/metrics.jsonl.1`, older);
    Deno.writeTextFileSync(`${dir}/metrics.jsonl`, live);
    const decisions = lineCount(older) + lineCount(live) - 1;

    const text = await runCli(["report", "--dir", dir], { env: { NO_COLOR: "1" } });
    assertEquals(text.code, 0, text.stderr);
    assertStringIncludes(
      text.stdout,
      `Read metrics.jsonl.1 and metrics.jsonl: ${decisions} decisions in 16 sessions, ` +
        "1 malformed line skipped.",
    );
    assertStringIncludes(text.stdout, "First touches (edits of a file not yet checked");
    assertNotIncludes(text.stdout, "\x1b");

    const json = await runCli(["report", "--dir", dir, "--json"]);
    assertEquals(json.code, 0, json.stderr);
    const doc = JSON.parse(json.stdout);
    assertEquals(doc.lines.counted, decisions);
    assertEquals(doc.lines.malformed, 1);
    // The work is counted in lines: every line of both files read exactly once.
    assertEquals(doc.lines.read, lineCount(older) + lineCount(live));
    assertEquals(
      doc.files.map((f: { lines: number }) => f.lines),
      [lineCount(older), lineCount(live)],
    );
    assertEquals(doc.sessions.length, 16);
  }));

Deno.test("[decision-metrics] the state directory comes from GATEGUARD_STATE_DIR", () =>
  withDir(async (dir) => {
    Deno.writeTextFileSync(`${dir}/metrics.jsonl`, generateMetrics(4096, 3));
    const r = await runCli(["report", "--json"], {
      env: { GATEGUARD_STATE_DIR: dir, HOME: `${dir}/home` },
    });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(JSON.parse(r.stdout).dir, dir);
  }));

Deno.test("[decision-metrics] hook decisions recorded with GATEGUARD_METRICS are reported, codes only", () =>
  withDir(async (dir) => {
    const state = `${dir}/state`;
    const hook = (command: string, metrics: Record<string, string>) =>
      runHook(
        { session_id: "e2e-session-id", cwd: dir, tool_name: "Bash", tool_input: { command } },
        {
          env: { GATEGUARD_STATE_DIR: state, CLAUDE_PROJECT_DIR: dir, HOME: dir, ...metrics },
          cwd: dir,
        },
      );
    await hook("ls -la", {});
    assertEquals(
      (await runCli(["report"], { env: { GATEGUARD_STATE_DIR: state } })).stdout.startsWith(
        "No GateGuard",
      ),
      true,
    );
    await hook("ls src", { GATEGUARD_METRICS: " On " });
    await hook("npm test", { GATEGUARD_METRICS: "1" });
    await hook("rm -rf build", { GATEGUARD_METRICS: "yes" });

    const raw = Deno.readTextFileSync(`${state}/metrics.jsonl`);
    for (const secret of ["e2e-session-id", "npm test", "rm -rf", "ls src", dir]) {
      assertNotIncludes(raw, secret);
    }
    const r = await runCli(["report", "--dir", state, "--json"]);
    assertEquals(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.lines, { read: 3, malformed: 0, excluded: 0, counted: 3 });
    assertEquals(doc.total.routineReadonly, 1);
    assertEquals(
      doc.total.denials.byReason,
      [{ name: "destructive", count: 1 }, { name: "first-command", count: 1 }],
    );
    assertEquals(doc.sessions.length, 1);
    // Each line names the rule that decided and the agent, never the command or the path.
    assertEquals(doc.total.denials.byRule, [
      { name: "core/rm-recursive", count: 1 },
      { name: "routine", count: 1 },
    ]);
    assertEquals(doc.total.agents, [{ name: "claude", count: 3 }]);
    assertEquals(doc.total.projects.length, 1);
    assertEquals(/^[0-9a-f]{12}$/.test(doc.total.projects[0].name), true);
    const recent = await runCli(["report", "--dir", state, "--json", "--since", "3600s"]);
    assertEquals(JSON.parse(recent.stdout).lines.counted, 3);
    const text = await runCli(["report", "--dir", state], { env: { NO_COLOR: "1" } });
    assertStringIncludes(text.stdout, "\n    core/rm-recursive  1  50.0%\n");
    assertStringIncludes(text.stdout, "\n    shell command  2  100.0%\n");
  }));
