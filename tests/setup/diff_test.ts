/** The unified diff of `gateguard init --dry-run`. */

import { assertEquals } from "../helpers/assert.ts";
import { unifiedDiff } from "../../src/setup/diff.ts";

Deno.test("[init] the dry-run diff is a unified diff with three lines of context", () => {
  assertEquals(
    unifiedDiff("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk\n", "x", "y"),
    "--- x\n+++ y\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -7,4 +7,5 @@\n g\n h\n i\n-j\n+J\n+k\n",
  );
  assertEquals(
    unifiedDiff("", "a\nb\n", "/dev/null", "y"),
    "--- /dev/null\n+++ y\n@@ -0,0 +1,2 @@\n+a\n+b\n",
  );
  assertEquals(unifiedDiff("a\r\n", "a\n", "x", "y"), "");
});
