import { assertEquals, assertNotIncludes } from "../helpers/assert.ts";
import { buildLine, type MetricsEvent } from "../../src/metrics/line.ts";
import { sha256Hex } from "../../src/platform/sha256.ts";

const SESSION = "3f9c0a1b2d4e";
const NOW = Date.UTC(2026, 8, 1, 10, 2, 0);

const DENY: MetricsEvent = {
  tool: "Edit",
  class: "code",
  decision: "deny",
  reason: "near-miss:out-of-scope",
  questions: ["local-callers", "quote-instruction"],
  sensitive: false,
  profile: {
    known: true,
    language: "js",
    touchesPublicSurface: false,
    touchesData: false,
    trivial: false,
  },
};

Deno.test("[decision-metrics] a denial line has the schema's keys, order and values", () => {
  assertEquals(
    buildLine(DENY, SESSION, NOW),
    '{"v":1,"ts":"2026-09-01T10:02:00.000Z","session":"3f9c0a1b2d4e","tool":"Edit",' +
      '"class":"code","decision":"deny","reason":"near-miss:out-of-scope",' +
      '"questions":["local-callers","quote-instruction"],"sensitive":false,' +
      '"profile":{"known":true,"language":"js","touchesPublicSurface":false,' +
      '"touchesData":false,"trivial":false},"rule":null,"agent":null,"project":null}',
  );
});

Deno.test("[decision-metrics] a shell line carries null class, questions and profile", () => {
  const line = buildLine(
    {
      tool: "PowerShell",
      class: null,
      decision: "destructive-deny",
      reason: "destructive",
      questions: null,
      sensitive: false,
      profile: null,
      // The event's finer rule wins over the gate step the hook passes.
      rule: "core/rm-recursive",
    },
    SESSION,
    NOW,
    { agent: "claude", rule: "destructive", project: "0123456789ab" },
  );
  assertEquals(
    line,
    '{"v":1,"ts":"2026-09-01T10:02:00.000Z","session":"3f9c0a1b2d4e","tool":"PowerShell",' +
      '"class":null,"decision":"destructive-deny","reason":"destructive","questions":null,' +
      '"sensitive":false,"profile":null,"rule":"core/rm-recursive","agent":"claude",' +
      '"project":"0123456789ab"}',
  );
});

Deno.test("[decision-metrics] every documented tool, decision and reason code is kept", () => {
  const tools = ["Edit", "Write", "MultiEdit", "NotebookEdit", "Bash", "PowerShell"];
  const decisions = [
    "deny",
    "credit",
    "sibling",
    "cap",
    "trivial",
    "pass-checked",
    "pass-exempt",
    "pass-subagent",
    "routine-deny",
    "routine-readonly",
    "destructive-deny",
    "pass",
  ];
  const reasons = [
    "first-touch",
    "sensitive",
    "hard-linked",
    "near-miss:same-batch",
    "near-miss:excluded",
    "near-miss:out-of-scope",
    "near-miss:stdin-only",
    "near-miss:not-a-search",
    "near-miss:generic-stem",
    "subagent-sensitive",
    "subagent-hard-linked",
    "prior-search",
    "comment-whitespace",
    "same-turn-dir",
    "max-denials",
    "checked",
    "exempt-glob",
    "claude-settings",
    "no-path",
    "subagent",
    "readonly-git",
    "readonly",
    "first-command",
    "routine-checked",
    "routine-disabled",
    "destructive",
    "destructive-retry",
    "settings-weakening",
    "settings-weakening-retry",
    "unseen-denial",
    "state-error",
  ];
  for (const tool of tools) {
    assertEquals(JSON.parse(buildLine({ ...DENY, tool }, SESSION, NOW)).tool, tool);
  }
  for (const decision of decisions) {
    assertEquals(JSON.parse(buildLine({ ...DENY, decision }, SESSION, NOW)).decision, decision);
  }
  for (const reason of reasons) {
    assertEquals(JSON.parse(buildLine({ ...DENY, reason }, SESSION, NOW)).reason, reason);
  }
});

/** Text that must never reach the metrics file, whichever field it is passed in. */
const HOSTILE = [
  "/home/alice/project/src/auth/login.ts",
  "src/app.ts",
  "C:\\Users\\alice\\secrets.env",
  "rm -rf /",
  "git push --force origin main",
  'const password = "hunter2";\nexport default password;',
  "9f8e7d6c-5b4a-3c2d-1e0f-a1b2c3d4e5f6",
  "3F9C0A1B2D4E",
  "Code",
  "first touch",
  "near-miss:/etc/passwd",
  "near-miss:Out-Of-Scope",
  "near-miss:",
  "deny\nfake",
  "a".repeat(33),
  "x".repeat(1_000_000),
];

Deno.test("[decision-metrics] paths, commands, content and session ids never reach a line", () => {
  for (const bad of HOSTILE) {
    const event = {
      tool: bad,
      class: bad,
      decision: bad,
      reason: bad,
      questions: [bad, "quote-instruction", bad],
      sensitive: bad,
      profile: {
        known: bad,
        language: bad,
        touchesPublicSurface: bad,
        touchesData: bad,
        trivial: bad,
      },
      rule: bad,
    } as unknown as MetricsEvent;
    const line = buildLine(event, bad, NOW, { agent: bad, rule: bad, project: bad });
    assertEquals(
      line,
      '{"v":1,"ts":"2026-09-01T10:02:00.000Z","session":null,"tool":null,"class":null,' +
        '"decision":null,"reason":null,"questions":["quote-instruction"],"sensitive":false,' +
        '"profile":{"known":false,"language":null,"touchesPublicSurface":false,' +
        '"touchesData":false,"trivial":false},"rule":null,"agent":null,"project":null}',
    );
    assertNotIncludes(line, bad);
    assertNotIncludes(line, JSON.stringify(bad).slice(1, -1));
  }
});

Deno.test("[decision-metrics] a full session key or digest is refused; only 12 lowercase hex pass", async () => {
  const key = "9f8e7d6c-5b4a-3c2d-1e0f-a1b2c3d4e5f6";
  const full = await sha256Hex(key);
  for (const session of [key, full, full.slice(0, 11), full.slice(0, 13), "3f9c0a1b2d4g"]) {
    assertEquals(JSON.parse(buildLine(DENY, session, NOW)).session, null);
  }
  assertEquals(JSON.parse(buildLine(DENY, full.slice(0, 12), NOW)).session, full.slice(0, 12));
});

Deno.test("[decision-metrics] non-array questions are null and failing ids are dropped", () => {
  const questions = (q: unknown): unknown =>
    JSON.parse(buildLine({ ...DENY, questions: q as string[] }, SESSION, NOW)).questions;
  assertEquals(questions("importers"), null);
  assertEquals(questions({ 0: "importers" }), null);
  assertEquals(questions([]), []);
  assertEquals(questions([1, null, "Importers", "importers"]), ["importers"]);
  // Bounded: only the first sixteen entries are considered.
  assertEquals(questions(Array(100).fill("callers")), Array(16).fill("callers"));
});

Deno.test("[decision-metrics] flags are true only when they are the boolean true", () => {
  const line = JSON.parse(
    buildLine(
      {
        ...DENY,
        sensitive: 1 as unknown as boolean,
        profile: { ...DENY.profile!, known: "true" as unknown as boolean, trivial: true },
      },
      SESSION,
      NOW,
    ),
  );
  assertEquals(line.sensitive, false);
  assertEquals(line.profile.known, false);
  assertEquals(line.profile.trivial, true);
  assertEquals(JSON.parse(buildLine({ ...DENY, sensitive: true }, SESSION, NOW)).sensitive, true);
});

Deno.test("[decision-metrics] an invalid clock or a non-object event never throws", () => {
  assertEquals(JSON.parse(buildLine(DENY, SESSION, NaN)).ts, null);
  assertEquals(JSON.parse(buildLine(DENY, SESSION, 9e15)).ts, null);
  const line = JSON.parse(buildLine(null as unknown as MetricsEvent, SESSION, NOW));
  assertEquals(line.tool, null);
  assertEquals(line.decision, null);
  assertEquals(line.profile, null);
});
