import { assertEquals } from "../helpers/assert.ts";
import { Aggregator } from "../../src/report/aggregate.ts";
import type { MetricsRecord } from "../../src/report/record.ts";

const T0 = Date.UTC(2026, 8, 1, 10, 0);
const MIN = 60_000;

function rec(
  session: string,
  minute: number,
  decision: string,
  reason: string | null,
  extra: Partial<MetricsRecord> = {},
): MetricsRecord {
  return {
    tsMs: T0 + minute * MIN,
    session,
    tool: "Edit",
    class: "code",
    decision,
    reason,
    questions: null,
    sensitive: false,
    rule: null,
    agent: null,
    project: null,
    ...extra,
  };
}

const A = "aaaaaaaaaaaa";
const B = "bbbbbbbbbbbb";
const SHELL = { tool: "Bash", class: null };

const RECORDS: MetricsRecord[] = [
  rec(A, 0, "routine-readonly", "readonly", SHELL),
  rec(A, 1, "routine-deny", "first-command", SHELL),
  rec(A, 2, "deny", "first-touch", { questions: ["local-callers", "quote-instruction"] }),
  rec(A, 3, "deny", "near-miss:excluded", { questions: ["importers", "quote-instruction"] }),
  rec(A, 4, "deny", "sensitive", { class: "config", sensitive: true, questions: ["x"] }),
  rec(A, 5, "credit", "prior-search"),
  rec(A, 6, "pass-checked", "checked"),
  rec(B, 7, "trivial", "comment-whitespace"),
  rec(B, 8, "sibling", "same-turn-dir"),
  rec(B, 9, "cap", "max-denials"),
  rec(B, 10, "destructive-deny", "destructive", SHELL),
];

function aggregate(
  records: MetricsRecord[],
  filter = { session: null as string | null, sinceMs: null as number | null },
): Aggregator {
  const agg = new Aggregator(filter);
  for (const r of records) agg.add(r);
  return agg;
}

Deno.test("[decision-metrics] first touches are deny, credit, sibling, cap and trivial decisions", () => {
  const ft = aggregate(RECORDS).total().firstTouches;
  assertEquals(ft, {
    total: 7,
    deny: { count: 3, of: 7, rate: 0.4286 },
    credit: { count: 1, of: 7, rate: 0.1429 },
    sibling: { count: 1, of: 7, rate: 0.1429 },
    cap: { count: 1, of: 7, rate: 0.1429 },
    trivial: { count: 1, of: 7, rate: 0.1429 },
  });
});

Deno.test("[decision-metrics] denials by class and reason cover file and shell denials", () => {
  const total = aggregate(RECORDS).total();
  assertEquals(total.denials, {
    total: 5,
    byClass: [
      { name: "code", count: 2 },
      { name: null, count: 2 },
      { name: "config", count: 1 },
    ],
    byReason: [
      { name: "destructive", count: 1 },
      { name: "first-command", count: 1 },
      { name: "first-touch", count: 1 },
      { name: "near-miss:excluded", count: 1 },
      { name: "sensitive", count: 1 },
    ],
    byRule: [{ name: null, count: 5 }],
  });
});

Deno.test("[decision-metrics] denials are counted by rule id, and sessions by agent and project", () => {
  const P = "0123456789ab";
  const sessions = aggregate([
    rec(A, 0, "destructive-deny", "destructive", { ...SHELL, rule: "core/rm-recursive" }),
    rec(A, 1, "destructive-deny", "destructive", { ...SHELL, rule: "core/rm-recursive" }),
    rec(A, 2, "routine-deny", "first-command", { ...SHELL, rule: "routine" }),
    rec(A, 3, "pass", "destructive-retry", { ...SHELL, rule: "core/rm-recursive" }),
  ].map((r) => ({ ...r, agent: "codex", project: P }))).sessions();
  assertEquals(sessions[0].denials.byRule, [
    { name: "core/rm-recursive", count: 2 },
    { name: "routine", count: 1 },
  ]);
  assertEquals(sessions[0].agents, [{ name: "codex", count: 4 }]);
  assertEquals(sessions[0].projects, [{ name: P, count: 4 }]);
});

Deno.test("[decision-metrics] read-only git introspection counts as a read-only pass", () => {
  const total = aggregate([
    rec(A, 0, "pass", "readonly-git", SHELL),
    rec(A, 1, "routine-readonly", "readonly", SHELL),
    rec(A, 2, "pass", "routine-checked", SHELL),
  ]).total();
  assertEquals(total.routineReadonly, 2);
});

Deno.test("[decision-metrics] the near-miss share counts only ordinary first-touch denials", () => {
  // The sensitive denial is left out: it never carries a near-miss line.
  assertEquals(aggregate(RECORDS).total().nearMiss, { count: 1, of: 2, rate: 0.5 });
  assertEquals(aggregate([]).total().nearMiss, { count: 0, of: 0, rate: null });
});

Deno.test("[decision-metrics] decisions, read-only passes and questions are counted", () => {
  const total = aggregate(RECORDS).total();
  assertEquals(total.decisions, 11);
  assertEquals(total.routineReadonly, 1);
  assertEquals(total.byDecision[0], { name: "deny", count: 3 });
  assertEquals(total.byDecision.length, 9);
  assertEquals(total.questions, [
    { name: "quote-instruction", count: 2 },
    { name: "importers", count: 1 },
    { name: "local-callers", count: 1 },
    { name: "x", count: 1 },
  ]);
  assertEquals(total.first, "2026-09-01T10:00:00.000Z");
  assertEquals(total.last, "2026-09-01T10:10:00.000Z");
  assertEquals(total.session, null);
});

Deno.test("[decision-metrics] sessions are summarised apart, busiest first", () => {
  const sessions = aggregate(RECORDS).sessions();
  assertEquals(sessions.map((s) => [s.session, s.decisions]), [[A, 7], [B, 4]]);
  assertEquals(sessions[1].firstTouches.total, 3);
  assertEquals(sessions[1].denials.total, 1);
  assertEquals(sessions[0].nearMiss, { count: 1, of: 2, rate: 0.5 });
});

Deno.test("[decision-metrics] equally busy sessions: the most recent first, then by id", () => {
  const sessions = aggregate([
    rec("cccccccccccc", 1, "pass", null),
    rec("dddddddddddd", 5, "pass", null),
    rec("eeeeeeeeeeee", 1, "pass", null),
  ]).sessions();
  assertEquals(sessions.map((s) => s.session), ["dddddddddddd", "cccccccccccc", "eeeeeeeeeeee"]);
});

Deno.test("[decision-metrics] --session and --since filters leave records out and count them", () => {
  const bySession = aggregate(RECORDS, { session: B, sinceMs: null });
  assertEquals(bySession.total().decisions, 4);
  assertEquals(bySession.excluded, 7);
  assertEquals(bySession.sessions().map((s) => s.session), [B]);
  const since = aggregate(RECORDS, { session: null, sinceMs: T0 + 6 * MIN });
  assertEquals(since.total().decisions, 5);
  assertEquals(since.excluded, 6);
  const both = aggregate(RECORDS, { session: A, sinceMs: T0 + 6 * MIN });
  assertEquals(both.total().decisions, 1);
  assertEquals(both.excluded, 10);
});

Deno.test("[decision-metrics] an empty aggregation has null rates and no time span", () => {
  const total = aggregate([]).total();
  assertEquals(total.firstTouches.deny, { count: 0, of: 0, rate: null });
  assertEquals([total.first, total.last, total.decisions], [null, null, 0]);
});
