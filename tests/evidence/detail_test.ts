import { assertEquals } from "../helpers/assert.ts";
import { DETAIL_MAX, sanitizeDetail } from "../../src/evidence/detail.ts";

Deno.test("[closest-search-that-did-not-count] details drop control characters and fold whitespace", () => {
  assertEquals(sanitizeDetail("  rg\t-n\n\n tokenizer\u0007 src \u202e"), "rg -n tokenizer src");
  assertEquals(sanitizeDetail("a\u0000b\u001bc\u200bd"), "abcd");
  assertEquals(sanitizeDetail(""), "");
});

Deno.test("[closest-search-that-did-not-count] details are cut to 60 characters", () => {
  assertEquals(DETAIL_MAX, 60);
  const exact = "x".repeat(60);
  assertEquals(sanitizeDetail(exact), exact);
  assertEquals(sanitizeDetail("y".repeat(61)), "y".repeat(59) + "…");
  assertEquals(sanitizeDetail("é".repeat(100)).length, 60);
  const astral = sanitizeDetail("😀".repeat(100));
  assertEquals(Array.from(astral).length, 60);
  assertEquals(sanitizeDetail("\u0001".repeat(100_000) + "ok"), "ok");
});
