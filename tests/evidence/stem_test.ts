import { assertEquals } from "../helpers/assert.ts";
import {
  containsWord,
  extensionOf,
  GENERIC_STEMS,
  mayMention,
  stemOf,
} from "../../src/evidence/stem.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { assertLinearWork, assertStepsPerChar } from "../helpers/work.ts";

Deno.test("[stem-matching] the stem is the lowercased name without its last extension", () => {
  assertEquals(stemOf("Payment.py", false), { name: "payment", usable: true });
  assertEquals(stemOf("archive.tar.gz", false), { name: "archive.tar", usable: true });
  assertEquals(stemOf("Makefile", false), { name: "makefile", usable: true });
  assertEquals(stemOf(".eslintrc", false), { name: ".eslintrc", usable: true });
  assertEquals(extensionOf(".env"), "");
});

Deno.test("[stem-matching] stems under four characters or generic never credit", () => {
  assertEquals(stemOf("api.ts", false), { name: "api", usable: false });
  for (const name of GENERIC_STEMS) assertEquals(stemOf(`${name}.js`, false).usable, false, name);
  assertEquals(
    [...GENERIC_STEMS].sort(),
    [
      "__init__",
      "app",
      "common",
      "config",
      "helpers",
      "index",
      "init",
      "lib",
      "main",
      "mod",
      "readme",
      "setup",
      "spec",
      "test",
      "tests",
      "types",
      "util",
      "utils",
    ],
  );
});

Deno.test("[test-stems] one test affix is stripped from test targets only", () => {
  assertEquals(stemOf("tokenizer.test.js", true).name, "tokenizer");
  assertEquals(stemOf("tokenizer.spec.ts", true).name, "tokenizer");
  assertEquals(stemOf("test_tokenizer.py", true).name, "tokenizer");
  assertEquals(stemOf("tokenizer_test.py", true).name, "tokenizer");
  assertEquals(stemOf("tokenizer_test.go", true).name, "tokenizer");
  // `test_` is a Python prefix only; `_test` is not stripped from `.js`.
  assertEquals(stemOf("test_tokenizer.go", true).name, "test_tokenizer");
  assertEquals(stemOf("tokenizer_test.js", true).name, "tokenizer_test");
  // Only one affix goes.
  assertEquals(stemOf("test_tokenizer_test.py", true).name, "tokenizer_test");
  // Other classes keep the whole stem.
  assertEquals(stemOf("tokenizer.test.md", false).name, "tokenizer.test");
  assertEquals(stemOf("index.test.js", true), { name: "index", usable: false });
});

Deno.test("[stem-matching] a word is bounded by non-alphanumerics or the ends", () => {
  assertEquals(containsWord("payment", "payment"), true);
  assertEquals(containsWord("rg payment_service src", "payment"), true);
  assertEquals(containsWord("src/payment.py", "payment"), true);
  assertEquals(containsWord("rg payments src", "payment"), false);
  assertEquals(containsWord("prepayment", "payment"), false);
  assertEquals(containsWord("payment2", "payment"), false);
  assertEquals(containsWord("zahlungé payment", "payment"), true);
  assertEquals(containsWord("épayment", "payment"), false);
  assertEquals(containsWord("paymentpayment payment", "payment"), true);
  assertEquals(containsWord("anything", ""), false);
});

Deno.test("[stem-matching] word scans of hostile text cost steps in proportion to the lengths, not their product", () => {
  const text = "a".repeat(200_000);
  // Near-misses at every offset: each used to be compared in full again.
  const cases: [string, string, boolean][] = [
    [text, "a".repeat(1000) + "b", false],
    [text + " aaaa", "aaaa", true],
    [text + " " + "a".repeat(1000), "a".repeat(1000), true],
    [text, "a".repeat(1000), false],
    ["ab".repeat(100_000), "ab".repeat(500) + "x", false],
  ];
  for (const [haystack, word, expected] of cases) {
    const counter = new WorkBudget(Number.MAX_SAFE_INTEGER);
    assertEquals(containsWord(haystack, word, counter), expected);
    assertStepsPerChar(word.slice(0, 8), haystack + word, counter.spent, 2);
    // A miss has read the whole text, and paid for it.
    if (!expected) assertEquals(counter.spent >= haystack.length, true);
  }
  assertLinearWork("near-misses", (n) => "a".repeat(n) + " b", 50_000, (haystack) => {
    const counter = new WorkBudget(Number.MAX_SAFE_INTEGER);
    containsWord(haystack, "a".repeat(1000), counter);
    return counter.spent;
  });
});

Deno.test("[stem-matching] a word scan the budget cannot pay for finds nothing and spends the budget", () => {
  const budget = new WorkBudget(10_000);
  assertEquals(containsWord("a".repeat(20_000) + " widget", "widget", budget), false);
  assertEquals(budget.exhausted()?.what, "stem");
  assertEquals(containsWord("rg widget", "widget", new WorkBudget(10_000)), true);
});

Deno.test("[search-prefilter] quotes and backslashes cannot split the stem", () => {
  assertEquals(mayMention(`rg 'pay'"ment" src`, "payment"), true);
  assertEquals(mayMention("rg pay\\ment src", "payment"), true);
  assertEquals(mayMention("rg PAYMENT src", "payment"), true);
  assertEquals(mayMention("rg billing src", "payment"), false);
});
