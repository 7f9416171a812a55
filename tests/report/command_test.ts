import { tempDir } from "../helpers/temp.ts";
import { assertEquals, assertNotIncludes, assertStringIncludes } from "../helpers/assert.ts";
import { runReport } from "../../src/report/command.ts";
import { USAGE } from "../../src/report/options.ts";
import { main } from "../../src/cli/report.ts";
import { buildLine } from "../../src/metrics/line.ts";
import { sessionDigest } from "../../src/metrics/codes.ts";
import { sha256Hex } from "../../src/platform/sha256.ts";

const FIXTURES = new URL("./fixtures", import.meta.url).pathname;
const GOLDEN_JSON = new URL("./golden/report.json", import.meta.url);
const GOLDEN_TEXT = new URL("./golden/report.txt", import.meta.url);
const CTX = { nowMs: Date.UTC(2026, 8, 10), terminal: false };
const TTY = { ...CTX, terminal: true };

Deno.test("[decision-metrics] --json prints the documented document for the fixture", async () => {
  const run = await runReport(["--dir", FIXTURES, "--json"], {}, CTX);
  assertEquals(run.code, 0);
  assertEquals(run.stderr, "");
  assertEquals(run.stdout.replaceAll(FIXTURES, "<DIR>"), Deno.readTextFileSync(GOLDEN_JSON));
});

Deno.test("[decision-metrics] the text report goes to stdout with exit 0", async () => {
  const run = await runReport(["--dir", FIXTURES], {}, CTX);
  assertEquals(run.code, 0);
  assertEquals(run.stdout.replaceAll(FIXTURES, "<DIR>"), Deno.readTextFileSync(GOLDEN_TEXT));
});

Deno.test("[decision-metrics] colour on a terminal, never with a non-empty NO_COLOR", async () => {
  assertStringIncludes((await runReport(["--dir", FIXTURES], {}, TTY)).stdout, "\x1b[");
  assertStringIncludes(
    (await runReport(["--dir", FIXTURES], { NO_COLOR: "" }, TTY)).stdout,
    "\x1b[",
  );
  assertNotIncludes((await runReport(["--dir", FIXTURES], { NO_COLOR: "1" }, TTY)).stdout, "\x1b");
  assertNotIncludes(
    (await runReport(["--dir", FIXTURES], { NO_COLOR: "false" }, TTY)).stdout,
    "\x1b",
  );
  assertNotIncludes((await runReport(["--dir", FIXTURES], {}, CTX)).stdout, "\x1b");
  assertNotIncludes((await runReport(["--dir", FIXTURES, "--json"], {}, TTY)).stdout, "\x1b");
});

Deno.test("[decision-metrics] --session and --since narrow the JSON document", async () => {
  const doc = JSON.parse(
    (await runReport(
      ["--dir", FIXTURES, "--json", "--session", "3f9c0a1b2d4e", "--since", "2026-09-02"],
      {},
      CTX,
    ))
      .stdout,
  );
  assertEquals(doc.filters, { session: "3f9c0a1b2d4e", since: "2026-09-02T00:00:00.000Z" });
  assertEquals(doc.lines, { read: 23, malformed: 4, excluded: 15, counted: 4 });
  assertEquals(doc.sessions.map((s: { session: string }) => s.session), ["3f9c0a1b2d4e"]);
  assertEquals(doc.total.firstTouches.total, 3);
  const recent = JSON.parse(
    (await runReport(["--dir", FIXTURES, "--json", "--since", "8d"], {}, CTX)).stdout,
  );
  // Eight days before 2026-09-10 00:00 is 2026-09-02 00:00: only the live file's lines remain.
  assertEquals(recent.lines.counted, 8);
});

Deno.test("[decision-metrics] bad arguments: one line and the usage on stderr, exit 2", async () => {
  const run = await runReport(["--dir", FIXTURES, "--bogus"], {}, CTX);
  assertEquals(run, {
    code: 2,
    stdout: "",
    stderr: `gateguard report: unknown option --bogus\n${USAGE}`,
  });
  assertEquals((await runReport(["--since", "soon"], {}, CTX)).code, 2);
  assertEquals((await runReport(["--session", "  "], {}, CTX)).code, 2);
  assertEquals(
    (await runReport(["--since", "99999999d"], {}, CTX)).stderr.split("\n")[0],
    [
      "gateguard report: --since 99999999d is out of range: it reaches back before 1970-01-01,",
      "earlier than any metrics line",
    ].join(" "),
  );
});

/** A state directory holding one deny line for each of `sessions`, keyed as the hook keys them. */
async function metricsOf(sessions: readonly string[]): Promise<string> {
  const dir = await tempDir({ prefix: "gg-session-" });
  const event = {
    tool: "Edit",
    class: "code",
    decision: "deny",
    reason: "first-touch",
    questions: null,
    sensitive: false,
    profile: null,
  };
  const lines = await Promise.all(
    sessions.map(async (id) => buildLine(event, await sessionDigest(id), CTX.nowMs - 1000)),
  );
  Deno.writeTextFileSync(`${dir}/metrics.jsonl`, lines.join("\n") + "\n");
  return dir;
}

Deno.test("[decision-metrics] --session takes Claude Code's session_id and finds its lines by the metrics digest", async () => {
  const mine = "9f8e7d6c-5b4a-4c2d-9e0f-a1b2c3d4e5f6";
  const other = "0c1d2e3f-4a5b-4c6d-8e9f-001122334455";
  const dir = await metricsOf([mine, other, mine]);
  try {
    const digest = (await sha256Hex(mine)).slice(0, 12);
    for (const given of [mine, ` ${mine}\n`, digest, digest.toUpperCase()]) {
      const doc = JSON.parse(
        (await runReport(["--dir", dir, "--json", "--session", given], {}, CTX)).stdout,
      );
      assertEquals(doc.filters.session, digest, JSON.stringify(given));
      assertEquals(doc.sessions.map((s: { session: string }) => s.session), [digest]);
      assertEquals(doc.lines.counted, 2);
    }
    const text = (await runReport(["--dir", dir, "--session", mine], {}, CTX)).stdout;
    assertStringIncludes(text, `Filter: session ${digest} (1 decision left out).`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[decision-metrics] a --dir with terminal escapes is printed inert, in text, errors and JSON", async () => {
  const RAW = ["\x1b", "\x07", "\u009b", "\u202e", "\u2028"];
  const parent = await tempDir({ prefix: "gg-cmd-" });
  try {
    const hostile = `${parent}/\x1b]0;pwned\x07\x1b[2J\u009b31m\u202e\u2028x`;
    Deno.mkdirSync(hostile);
    Deno.copyFileSync(`${FIXTURES}/metrics.jsonl`, `${hostile}/metrics.jsonl`);
    const text = (await runReport(["--dir", hostile], {}, CTX)).stdout;
    for (const raw of RAW) assertNotIncludes(text, raw);
    assertStringIncludes(text, "]0;pwned");
    const json = (await runReport(["--dir", hostile, "--json"], {}, CTX)).stdout;
    for (const raw of RAW) assertNotIncludes(json, raw);
    assertEquals(JSON.parse(json).dir, hostile);
    const missing = await runReport(["--dir", `${hostile}/gone`], {}, CTX);
    assertEquals(missing.code, 1);
    for (const raw of RAW) assertNotIncludes(missing.stderr, raw);
    assertStringIncludes(missing.stderr, "]0;pwned");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
  const dir = await tempDir({ prefix: "gg-cmd-" });
  try {
    const unreadable = `${dir}/\x1b[31mred`;
    Deno.mkdirSync(`${unreadable}/metrics.jsonl`, { recursive: true });
    const run = await runReport(["--dir", unreadable], {}, CTX);
    assertEquals(run.code, 1);
    assertEquals(
      run.stderr,
      `gateguard report: cannot read ${dir}/\\u001b[31mred/metrics.jsonl: is a directory\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[decision-metrics] --help prints the usage on stdout", async () => {
  assertEquals(await runReport(["--help"], {}, CTX), { code: 0, stdout: USAGE, stderr: "" });
});

Deno.test("[decision-metrics] the default directory is GATEGUARD_STATE_DIR, else ~/.gateguard", async () => {
  const home = await tempDir({ prefix: "gg-home-" });
  try {
    Deno.mkdirSync(`${home}/.gateguard`);
    Deno.copyFileSync(`${FIXTURES}/metrics.jsonl`, `${home}/.gateguard/metrics.jsonl`);
    const fromHome = await runReport(["--json"], { HOME: home }, CTX);
    assertEquals(JSON.parse(fromHome.stdout).dir, `${home}/.gateguard`);
    assertEquals(JSON.parse(fromHome.stdout).lines.counted, 8);
    const fromProfile = await runReport(["--json"], { USERPROFILE: home }, CTX);
    assertEquals(JSON.parse(fromProfile.stdout).dir, `${home}/.gateguard`);
    const fromEnv = await runReport(["--json"], { HOME: home, GATEGUARD_STATE_DIR: FIXTURES }, CTX);
    assertEquals(JSON.parse(fromEnv.stdout).lines.counted, 19);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("[decision-metrics] a --dir that does not exist is an error in one line, exit 1", async () => {
  const dir = `${FIXTURES}/does-not-exist`;
  const expected = {
    code: 1,
    stdout: "",
    stderr: `gateguard report: --dir ${dir}: no such directory\n`,
  };
  assertEquals(await runReport(["--dir", dir], {}, CTX), expected);
  assertEquals(await runReport(["--dir", dir, "--json"], {}, CTX), expected);
  // A file named as the directory is no directory either.
  assertEquals(
    (await runReport(["--dir", `${FIXTURES}/metrics.jsonl`], {}, CTX)).stderr,
    `gateguard report: --dir ${FIXTURES}/metrics.jsonl: no such directory\n`,
  );
});

Deno.test("[decision-metrics] a default state directory not made yet is a friendly line with exit 0, also as JSON", async () => {
  const env = { GATEGUARD_STATE_DIR: `${FIXTURES}/does-not-exist` };
  assertEquals(await runReport([], env, CTX), {
    code: 0,
    stdout: `No GateGuard metrics in ${FIXTURES}/does-not-exist yet; ` +
      "set GATEGUARD_METRICS=1 to record decisions.\n",
    stderr: "",
  });
  const doc = JSON.parse((await runReport(["--json"], env, CTX)).stdout);
  assertEquals(doc.files.map((f: { present: boolean }) => f.present), [false, false]);
  assertEquals(doc.sessions, []);
});

Deno.test("[decision-metrics] an unreadable metrics file is an error with exit 1", async () => {
  const dir = await tempDir({ prefix: "gg-cmd-" });
  try {
    Deno.mkdirSync(`${dir}/metrics.jsonl`);
    assertEquals(await runReport(["--dir", dir], {}, CTX), {
      code: 1,
      stdout: "",
      stderr: `gateguard report: cannot read ${dir}/metrics.jsonl: is a directory\n`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[decision-metrics] a file the process may not read (EACCES) is an error with exit 1", async () => {
  const dir = await tempDir({ prefix: "gg-cmd-" });
  try {
    Deno.copyFileSync(`${FIXTURES}/metrics.jsonl`, `${dir}/metrics.jsonl`);
    const entry = new URL("../../src/cli/report.ts", import.meta.url).href;
    const script = `${dir}/probe.ts`;
    Deno.writeTextFileSync(
      script,
      `import { main } from ${JSON.stringify(entry)};\n` +
        `Deno.exitCode = await main(["--dir", ${JSON.stringify(dir)}], {});\n`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        "--no-config",
        "--allow-read",
        `--deny-read=${dir}/metrics.jsonl`,
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 1);
    assertEquals(
      new TextDecoder().decode(out.stderr),
      `gateguard report: cannot read ${dir}/metrics.jsonl: permission denied\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[decision-metrics] main() returns the report's exit code in process", async () => {
  assertEquals(await main(["--dir", `${FIXTURES}/does-not-exist`], {}), 1);
  assertEquals(await main(["--dir", FIXTURES, "--json"], { NO_COLOR: "1" }), 0);
  assertEquals(await main(["--nope"], {}), 2);
});
