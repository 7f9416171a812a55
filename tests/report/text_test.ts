import { tempDir } from "../helpers/temp.ts";
import {
  assert,
  assertEquals,
  assertNotIncludes,
  assertStringIncludes,
} from "../helpers/assert.ts";
import { collect, type ReportSummary } from "../../src/report/collect.ts";
import {
  emptyMessage,
  MAX_SCREEN_SESSIONS,
  MAX_TEXT_SESSIONS,
  renderText,
} from "../../src/report/text.ts";
import { Aggregator, type RecordFilter } from "../../src/report/aggregate.ts";

const FIXTURES = new URL("./fixtures", import.meta.url).pathname;
const GOLDEN = new URL("./golden/report.txt", import.meta.url);
const NO_FILTER: RecordFilter = { session: null, sinceMs: null };

function summary(dir = FIXTURES, filter = NO_FILTER): ReportSummary {
  const c = collect(dir, filter);
  if (!c.ok) throw new Error(c.reason);
  return c.summary;
}

Deno.test("[decision-metrics] the text report of the fixture matches the golden output", () => {
  const text = renderText(summary(), false).replaceAll(FIXTURES, "<DIR>");
  assertEquals(text, Deno.readTextFileSync(GOLDEN));
});

Deno.test("[decision-metrics] the text report says how many malformed lines it skipped", () => {
  assertStringIncludes(
    renderText(summary(), false),
    "Read metrics.jsonl.1 and metrics.jsonl: 19 decisions in 3 sessions, 4 malformed lines skipped.",
  );
});

Deno.test("[decision-metrics] colour only when asked, and never inside the plain text", () => {
  const coloured = renderText(summary(), true);
  const plain = renderText(summary(), false);
  assertStringIncludes(coloured, "\x1b[1mGateGuard decision metrics");
  assertStringIncludes(coloured, "\x1b[31m██████\x1b[0m\x1b[2m░░░░\x1b[0m");
  assertNotIncludes(plain, "\x1b");
  // Styling never shifts a column: removing the escapes gives the plain text back.
  // deno-lint-ignore no-control-regex
  assertEquals(coloured.replace(/\x1b\[[0-9;]*m/g, ""), plain);
});

Deno.test("[decision-metrics] a filter is named with what it left out", () => {
  const text = renderText(
    summary(FIXTURES, { session: "0123456789ab", sinceMs: Date.UTC(2026, 8, 2) }),
    false,
  );
  assertStringIncludes(
    text,
    "Filter: session 0123456789ab, since 2026-09-02 00:00 UTC (15 decisions left out).",
  );
  assertStringIncludes(text, "Session 0123456789ab: 4 decisions, 2026-09-02 12:00 to 12:03 UTC");
  assertNotIncludes(text, "All ");
  assertNotIncludes(text, "Sessions, busiest first");
});

Deno.test("[decision-metrics] beyond the shown sessions the rest are counted, not listed", () => {
  const agg = new Aggregator(NO_FILTER);
  const extra = 3;
  for (let i = 0; i < MAX_TEXT_SESSIONS + extra; i++) {
    agg.add({
      tsMs: Date.UTC(2026, 8, 1) + i,
      session: i.toString(16).padStart(12, "0"),
      tool: "Bash",
      class: null,
      decision: "pass",
      reason: null,
      questions: null,
      sensitive: false,
      rule: null,
      agent: null,
      project: null,
    });
  }
  const base = summary();
  const text = renderText(
    {
      ...base,
      total: agg.total(),
      sessions: agg.sessions(),
      lines: { ...base.lines, counted: 23 },
    },
    false,
  );
  assertStringIncludes(
    text,
    `\n  … ${MAX_TEXT_SESSIONS + extra - MAX_SCREEN_SESSIONS} more sessions; ` +
      "--session ID or --json shows any of them.\n",
  );
  // The default view is one screen: a table of the busiest sessions, no per-session blocks.
  assertEquals(text.split("\nSession ").length - 1, 0);
  assertEquals(text.split("\n").length < 30, true);
  const detail = renderText(
    {
      ...base,
      total: agg.total(),
      sessions: agg.sessions(),
      lines: { ...base.lines, counted: 23 },
    },
    false,
    { sessions: true },
  );
  assertStringIncludes(
    detail,
    "\n  … 3 more sessions; --session ID or --json shows any of them.\n",
  );
  assertEquals(detail.split("\nSession ").length - 1, MAX_TEXT_SESSIONS);
});

Deno.test("[decision-metrics] rows with nothing to count are hidden, and shell denials are named", () => {
  const agg = new Aggregator(NO_FILTER);
  const base = {
    tsMs: Date.UTC(2026, 8, 1),
    tool: "Bash",
    class: null,
    reason: "destructive",
    questions: null,
    sensitive: false,
    agent: "claude",
    project: "0123456789ab",
  };
  agg.add({
    ...base,
    session: "aaaaaaaaaaaa",
    decision: "destructive-deny",
    rule: "core/rm-recursive",
  });
  agg.add({
    ...base,
    session: "bbbbbbbbbbbb",
    decision: "pass",
    reason: "readonly-git",
    rule: null,
  });
  const s = summary();
  const text = renderText(
    { ...s, total: agg.total(), sessions: agg.sessions(), lines: { ...s.lines, counted: 2 } },
    false,
    { sessions: true },
  );
  for (const absent of ["First touches", "near-miss", "(no class)", "Most-asked"]) {
    assertNotIncludes(text, absent);
  }
  // No counted row (four-space indent) shows a zero.
  assertEquals(text.split("\n").filter((l) => /^ {4}\S.* {2}0( {2}|$)/.test(l)), []);
  assertStringIncludes(text, "\n    shell command  1  100.0%\n");
  assertStringIncludes(text, "\n    core/rm-recursive  1  100.0%\n");
  assertStringIncludes(text, "\n  Read-only passes: 1\n");
  assertStringIncludes(
    text,
    "\n  aaaaaaaaaaaa  claude  0123456789ab          1        1  2026-09-01 00:00 UTC\n",
  );
});

Deno.test("[decision-metrics] nothing to show gives one friendly line", async () => {
  const dir = await tempDir({ prefix: "gg-text-" });
  try {
    assertEquals(
      emptyMessage(summary(`${dir}/absent`)),
      `No GateGuard metrics in ${dir}/absent yet; set GATEGUARD_METRICS=1 to record decisions.\n`,
    );
    Deno.writeTextFileSync(`${dir}/metrics.jsonl`, "\n\n");
    assertEquals(
      emptyMessage(summary(dir)),
      `The GateGuard metrics files in ${dir} are empty.\n`,
    );
    Deno.writeTextFileSync(`${dir}/metrics.jsonl.1`, "oops\n{}\n");
    assertEquals(
      emptyMessage(summary(dir)),
      `No readable decisions in ${dir}: 2 malformed lines skipped.\n`,
    );
    assertEquals(
      emptyMessage(summary(FIXTURES, { session: "ffffffffffff", sinceMs: null })),
      `No decisions in ${FIXTURES} match the filter (19 decisions left out, ` +
        `4 malformed lines skipped).\n`,
    );
    assert(emptyMessage(summary()) === null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[decision-metrics] a file with hundreds of thousands of distinct codes still renders", () => {
  const agg = new Aggregator(NO_FILTER);
  const n = 300_000;
  for (let i = 0; i < n; i++) {
    agg.add({
      tsMs: Date.UTC(2026, 8, 1),
      session: "3f9c0a1b2d4e",
      tool: "Edit",
      class: `c${i}`,
      decision: `d${i}`,
      reason: `r${i}`,
      questions: null,
      sensitive: false,
      rule: null,
      agent: null,
      project: null,
    });
  }
  const base = summary();
  const text = renderText(
    { ...base, total: agg.total(), sessions: agg.sessions(), lines: { ...base.lines, counted: n } },
    false,
  );
  assertStringIncludes(text, "\n  Decisions (300000)\n    d0       1  0.0%\n");
});
