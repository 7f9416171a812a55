import { assert, assertEquals, assertNotEquals } from "../helpers/assert.ts";
import { generateMetrics } from "./generate.ts";
import { parseRecord } from "../../src/report/record.ts";

Deno.test("[decision-metrics] generated metrics are valid lines, within the size, the same per seed", () => {
  const text = generateMetrics(64 * 1024, 7);
  assert(text.length <= 64 * 1024 && text.length > 60 * 1024);
  assert(text.endsWith("\n"));
  const lines = text.slice(0, -1).split("\n");
  assertEquals(lines.filter((l) => parseRecord(l) === null), []);
  assertEquals(new Set(lines.map((l) => parseRecord(l)?.session)).size, 8);
  assertEquals(generateMetrics(64 * 1024, 7), text);
  assertNotEquals(generateMetrics(64 * 1024, 8), text);
  assertEquals(generateMetrics(10, 1), "");
});
