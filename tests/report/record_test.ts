import { assertEquals } from "../helpers/assert.ts";
import { MAX_LINE_CHARS, parseRecord } from "../../src/report/record.ts";
import { buildLine } from "../../src/metrics/line.ts";

const GOOD = {
  v: 1,
  ts: "2026-09-01T10:02:00.000Z",
  session: "3f9c0a1b2d4e",
  tool: "Edit",
  class: "code",
  decision: "deny",
  reason: "near-miss:out-of-scope",
  questions: ["local-callers", "quote-instruction"],
  sensitive: false,
  profile: null,
};

const line = (patch: Record<string, unknown>): string => JSON.stringify({ ...GOOD, ...patch });

Deno.test("[decision-metrics] a line the hook writes reads back as a record", () => {
  const written = buildLine(
    {
      tool: "Edit",
      class: "code",
      decision: "deny",
      reason: "near-miss:out-of-scope",
      questions: ["local-callers", "quote-instruction"],
      sensitive: true,
      profile: null,
    },
    "3f9c0a1b2d4e",
    Date.UTC(2026, 8, 1, 10, 2),
    { agent: "codex", rule: "core/rm-recursive", project: "0123456789ab" },
  );
  assertEquals(parseRecord(written), {
    tsMs: Date.UTC(2026, 8, 1, 10, 2),
    session: "3f9c0a1b2d4e",
    tool: "Edit",
    class: "code",
    decision: "deny",
    reason: "near-miss:out-of-scope",
    questions: ["local-callers", "quote-instruction"],
    sensitive: true,
    rule: "core/rm-recursive",
    agent: "codex",
    project: "0123456789ab",
  });
});

Deno.test("[decision-metrics] optional fields may be null or absent", () => {
  const r = parseRecord(
    '{"v":1,"ts":"2026-09-01T10:02:00Z","session":"3f9c0a1b2d4e","tool":"Bash","decision":"pass"}',
  );
  assertEquals(r, {
    tsMs: Date.UTC(2026, 8, 1, 10, 2),
    session: "3f9c0a1b2d4e",
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
});

Deno.test("[metrics] malformed lines are rejected, never shown", () => {
  const bad = [
    "",
    "not json",
    '{"v":1,"ts":"2026-09-01T10:02:00.000Z","sess',
    "[1,2]",
    "null",
    "42",
    line({ v: 2 }),
    line({ v: "1" }),
    line({ ts: "yesterday" }),
    line({ ts: "2026-13-45T99:99:99.000Z" }),
    line({ ts: 1788256920000 }),
    line({ session: "3F9C0A1B2D4E" }),
    line({ session: null }),
    line({ session: "9f8e7d6c-5b4a-3c2d-1e0f-a1b2c3d4e5f6" }),
    line({ tool: "Read" }),
    line({ tool: null }),
    line({ decision: null }),
    line({ decision: "\u001b[31mdeny" }),
    line({ class: "/etc/passwd" }),
    line({ class: 3 }),
    line({ reason: "rm -rf /" }),
    line({ reason: "near-miss:Out" }),
    line({ questions: "importers" }),
    line({ questions: ["importers", "src/app.ts"] }),
    line({ questions: Array(17).fill("importers") }),
    line({ sensitive: "yes" }),
    line({ class: "x".repeat(MAX_LINE_CHARS) }),
  ];
  assertEquals(bad.map(parseRecord), bad.map(() => null));
});

Deno.test("[metrics] a time the writer can never produce is malformed, however Date.parse reads it", () => {
  const impossible = [
    "2026-02-31T10:00:00.000Z",
    "2026-02-29T10:00:00.000Z",
    "2026-04-31T10:00:00.000Z",
    "2026-09-01T24:00:00.000Z",
    "2026-09-01T24:00:00Z",
    "2026-09-01T23:60:00.000Z",
    "2026-09-01T23:59:60.000Z",
    "2026-00-10T10:00:00.000Z",
    "2026-09-00T10:00:00.000Z",
  ];
  assertEquals(impossible.map((ts) => parseRecord(line({ ts }))), impossible.map(() => null));
  const real = [
    "2024-02-29T10:00:00.000Z",
    "2026-12-31T23:59:59.999Z",
    "2026-09-01T00:00:00Z",
    "2026-09-01T10:00:00.5Z",
  ];
  assertEquals(
    real.map((ts) => parseRecord(line({ ts }))?.tsMs),
    real.map((ts) => Date.parse(ts)),
  );
});

Deno.test("[metrics] unknown extra keys are ignored", () => {
  assertEquals(parseRecord(line({ extra: "whatever" }))?.decision, "deny");
});
