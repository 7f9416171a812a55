/**
 * The fixture sanitiser, and the committed recordings it produced: no
 * machine path, user or host name survives, and the conversation stays
 * readable.
 */

import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { KEEP_CHARS, leaksIn, sanitizeTranscript } from "./sanitize.ts";
import { REAL_FIXTURES, realRecords, realTranscript } from "../../session_logs/real_fixtures.ts";

const TREE = "/tmp/gateguard-e2e-abc123";
const REPLACEMENTS = [
  { path: TREE, placeholder: "$TREE" },
  { path: `${TREE}/proj`, placeholder: "$ROOT" },
  { path: `${TREE}/home`, placeholder: "$HOME" },
];

Deno.test("[real-client] sanitising keeps the conversation, swaps paths for placeholders and blanks client texts", () => {
  const long = "You are Claude Code, the client's own long system text.";
  const lines = [
    { type: "user", cwd: `${TREE}/proj`, message: { content: `${long} in ${TREE}/proj/a.ts` } },
    { type: "attachment", text: long, short: `${TREE}/home`, osVersion: "Linux 6.1-box" },
  ].map((r) => JSON.stringify(r)).join("\n");
  const [user, attachment] = sanitizeTranscript(lines, REPLACEMENTS).trim().split("\n")
    .map((l) => JSON.parse(l));
  assertEquals(user, {
    type: "user",
    cwd: "$ROOT",
    message: { content: `${long} in $ROOT/a.ts` },
  });
  assertEquals(attachment, {
    type: "attachment",
    text: "x".repeat(long.length),
    short: "$HOME",
    osVersion: "$OS_VERSION",
  });
  assert(long.length > KEEP_CHARS);
  assertEquals(leaksIn(`a ${TREE}/state b`, [TREE, "", "box"]), [TREE]);
});

Deno.test("[real-client] the recorded transcripts name no machine path, user or host", () => {
  for (const name of REAL_FIXTURES) {
    const text = Deno.readTextFileSync(realTranscript(name));
    assertEquals(
      leaksIn(text, ["/tmp/", "/home/", "/root/", "/Users/", "/work/", "C:\\\\"]),
      [],
      name,
    );
    const cwds = new Set(realRecords(name).map((r) => r.cwd).filter((c) => c !== undefined));
    assertEquals([...cwds], ["$ROOT"], name);
  }
});

/** The message `run` throws with. */
function thrown(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return "(nothing thrown)";
}

Deno.test("[real-client] a missing recorded transcript fails naming the file and how to restore it", () => {
  for (const read of [realTranscript, realRecords]) {
    const message = thrown(() => read("no-such-recording.jsonl"));
    assertStringIncludes(message, "missing fixture ");
    assertStringIncludes(message, "tests/fixtures/claude-code-2.1.332/no-such-recording.jsonl");
    assertStringIncludes(message, "deno task record-fixtures");
  }
});
