/**
 * Tests of the transcript-window measurement.
 *
 * @module
 */

import { tempDirSync } from "../../helpers/temp.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { isToolUseLine, measureFrom, scanCost } from "./window_measure.ts";
import { TAIL_WINDOW } from "../../../src/session_logs/tail.ts";

Deno.test("[real-client] [turn-boundaries] the window measurement counts bytes, lines and message records from the record to the end", () => {
  const search = JSON.stringify({
    type: "assistant",
    message: { content: [{ type: "tool_use", id: "toolu_s", name: "Bash", input: {} }] },
  });
  const big = JSON.stringify({
    type: "attachment",
    attachment: { type: "prompt_snapshot", s: "x".repeat(TAIL_WINDOW.maxBytes) },
  });
  const lines = [JSON.stringify({ type: "user" }), search, big, JSON.stringify({ type: "user" })];
  const text = `${lines.join("\n")}\n`;
  const measure = measureFrom(new TextEncoder().encode(text), isToolUseLine("toolu_s"));
  assert(measure);
  assertEquals(measure.linesToEnd, 3);
  assertEquals(measure.messageRecordsToEnd, 2);
  assertEquals(measure.bytesToEnd, text.length - lines[0].length - 1);
  assertEquals(measure.inWindow, false);
  assertEquals(measure.bytesByType["attachment:prompt_snapshot"], big.length + 1);
  assert(measure.bytesToEnd > TAIL_WINDOW.maxBytes);
  assertEquals(measureFrom(new TextEncoder().encode(text), isToolUseLine("toolu_other")), null);
  const small = measureFrom(new TextEncoder().encode(`${search}\n`), isToolUseLine("toolu_s"));
  assertEquals(small?.inWindow, true);
});

Deno.test("[real-client] [turn-boundaries] the scan cost counts what the real file port serves", () => {
  const dir = tempDirSync();
  try {
    const path = `${dir}/t.jsonl`;
    const start = { type: "user", promptId: "p1", message: { content: "fix" } };
    const text = `${JSON.stringify(start)}\n`;
    Deno.writeTextFileSync(path, text);
    const cost = scanCost(path, "p1", null);
    assertEquals(cost.scan?.turnId, "p1");
    assertEquals([cost.bytesRead, cost.reads], [text.length, 1]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
