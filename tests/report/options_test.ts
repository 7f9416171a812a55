import { assertEquals } from "../helpers/assert.ts";
import {
  MAX_SESSION_ID_CHARS,
  parseReportArgs,
  parseSince,
  type ReportOptions,
} from "../../src/report/options.ts";

const NOW = Date.UTC(2026, 8, 10, 12, 0, 0);
const DEFAULTS: ReportOptions = {
  dir: null,
  json: false,
  sessions: false,
  session: null,
  sinceMs: null,
  help: false,
};

function ok(args: string[]): ReportOptions {
  const parsed = parseReportArgs(args, NOW);
  if (!parsed.ok) throw new Error(`rejected: ${parsed.error}`);
  return parsed.options;
}

function error(args: string[]): string {
  const parsed = parseReportArgs(args, NOW);
  if (parsed.ok) throw new Error(`accepted: ${JSON.stringify(args)}`);
  return parsed.error;
}

Deno.test("[decision-metrics] report options in both spellings", () => {
  assertEquals(ok([]), DEFAULTS);
  assertEquals(ok(["--dir", "/s", "--json"]), { ...DEFAULTS, dir: "/s", json: true });
  assertEquals(ok(["--dir=/s"]), { ...DEFAULTS, dir: "/s" });
  assertEquals(ok(["--session", "3F9C0A1B2D4E"]), {
    ...DEFAULTS,
    session: { digest: "3f9c0a1b2d4e" },
  });
  assertEquals(ok(["--session=3f9c0a1b2d4e"]), {
    ...DEFAULTS,
    session: { digest: "3f9c0a1b2d4e" },
  });
  const id = "9f8e7d6c-5b4a-4c2d-9e0f-a1b2c3d4e5f6";
  assertEquals(ok(["--session", id]), { ...DEFAULTS, session: { id } });
  assertEquals(ok([`--session= ${id} `]), { ...DEFAULTS, session: { id } });
  assertEquals(ok(["--since", "7d"]), { ...DEFAULTS, sinceMs: NOW - 7 * 86_400_000 });
  assertEquals(ok(["--since", "1s"]), { ...DEFAULTS, sinceMs: NOW - 1000 });
  assertEquals(ok(["--since=90s"]), { ...DEFAULTS, sinceMs: NOW - 90_000 });
  assertEquals(ok(["--sessions"]), { ...DEFAULTS, sessions: true });
  assertEquals(ok(["-h"]), { ...DEFAULTS, help: true });
  assertEquals(ok(["--help"]), { ...DEFAULTS, help: true });
});

Deno.test("[decision-metrics] bad report arguments are named in one line", () => {
  assertEquals(error(["--frobnicate"]), "unknown option --frobnicate");
  assertEquals(error(["--frobnicate=1"]), "unknown option --frobnicate");
  assertEquals(error(["-x"]), "unknown option -x");
  assertEquals(error(["stray"]), "unexpected argument stray");
  assertEquals(error(["--dir"]), "--dir needs a directory");
  assertEquals(error(["--dir="]), "--dir needs a directory");
  assertEquals(error(["--dir", "--json"]), "--dir needs a directory");
  assertEquals(error(["--json", "--json"]), "--json given more than once");
  assertEquals(error(["--dir", "a", "--dir=b"]), "--dir given more than once");
  assertEquals(error(["--json=yes"]), "--json takes no value");
  assertEquals(error(["--sessions=3"]), "--sessions takes no value");
  for (const id of ["", "   ", "x".repeat(MAX_SESSION_ID_CHARS + 1)]) {
    assertEquals(
      error([`--session=${id}`]),
      "--session needs a session id (Claude Code's session_id) or the 12 hex characters " +
        "the report shows for it",
    );
  }
  assertEquals(error(["--session"]).startsWith("--session needs a session id"), true);
  for (const since of ["yesterday", "7", "7y", "-7d", "2026-02-30", "2026-09-01T25:00Z", ""]) {
    assertEquals(
      error([`--since=${since}`]),
      "--since needs an ISO date or time (2026-09-01, 2026-09-01T10:00Z) or a duration " +
        "(30s, 30m, 12h, 7d, 2w)",
    );
  }
  assertEquals(error(["x".repeat(500)]), `unexpected argument ${"x".repeat(40)}`);
});

Deno.test("[decision-metrics] a --since before 1970 is out of range, said as such", () => {
  for (const since of ["99999999d", "9999999999999w", "1969-12-31", "1000-01-01T00:00Z"]) {
    assertEquals(
      error(["--since", since]),
      `--since ${since} is out of range: it reaches back before 1970-01-01, ` +
        "earlier than any metrics line",
    );
  }
  assertEquals(ok(["--since", "1970-01-01"]).sinceMs, 0);
  assertEquals(ok(["--since", "2000w"]).sinceMs, NOW - 2000 * 7 * 86_400_000);
});

Deno.test("[decision-metrics] --since durations count back from now", () => {
  assertEquals(parseSince("1s", NOW), NOW - 1000);
  assertEquals(parseSince("30m", NOW), NOW - 30 * 60_000);
  assertEquals(parseSince("12h", NOW), NOW - 12 * 3_600_000);
  assertEquals(parseSince("7d", NOW), NOW - 7 * 86_400_000);
  assertEquals(parseSince("2w", NOW), NOW - 14 * 86_400_000);
  assertEquals(parseSince("0m", NOW), NOW);
});

Deno.test("[decision-metrics] --since ISO dates and times are UTC unless they carry an offset", () => {
  assertEquals(parseSince("2026-09-01", NOW), Date.UTC(2026, 8, 1));
  assertEquals(parseSince("2026-09-01T10:30", NOW), Date.UTC(2026, 8, 1, 10, 30));
  assertEquals(parseSince("2026-09-01 10:30:15", NOW), Date.UTC(2026, 8, 1, 10, 30, 15));
  assertEquals(parseSince("2026-09-01T10:30:15.5Z", NOW), Date.UTC(2026, 8, 1, 10, 30, 15, 500));
  assertEquals(parseSince("2026-09-01T10:30+02:00", NOW), Date.UTC(2026, 8, 1, 8, 30));
  assertEquals(parseSince("2026-09-01T10:30-05:30", NOW), Date.UTC(2026, 8, 1, 16, 0));
  assertEquals(parseSince("2024-02-29", NOW), Date.UTC(2024, 1, 29));
  for (
    const bad of [
      "2026-02-29",
      "2026-9-1",
      "2026-09-01T10",
      "2026-09-01Z",
      "2026-09-01T10:00+24:00",
    ]
  ) {
    assertEquals(parseSince(bad, NOW), null);
  }
});
