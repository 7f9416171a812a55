/** The text a typed change leaves, applied the way the tool applies it. */

import { assertEquals } from "../helpers/assert.ts";
import { textAfterChange } from "../../src/change/after_text.ts";

const step = (oldString: string, newString: string, replaceAll = false) => ({
  oldString,
  newString,
  replaceAll,
});

Deno.test("[claude-settings] a Write leaves its content, replacements apply in order", () => {
  assertEquals(textAfterChange("old", { kind: "write", content: "new" }), "new");
  assertEquals(textAfterChange(null, { kind: "write", content: "new" }), "new");
  const edits = [step("a", "b"), step("b", "c", true)];
  assertEquals(textAfterChange("a b x", { kind: "edits", edits }), "c c x");
  // An empty old text creates a missing file.
  assertEquals(textAfterChange(null, { kind: "edits", edits: [step("", "{}")] }), "{}");
});

Deno.test("[claude-settings] a replacement the tool would refuse, or content not read, tells nothing", () => {
  assertEquals(textAfterChange("abc", { kind: "edits", edits: [step("x", "y")] }), null);
  assertEquals(textAfterChange("a a", { kind: "edits", edits: [step("a", "b")] }), null);
  assertEquals(textAfterChange("abc", { kind: "edits", edits: [step("", "y")] }), null);
  assertEquals(textAfterChange(null, { kind: "edits", edits: [step("a", "b")] }), null);
  assertEquals(textAfterChange("abc", { kind: "opaque" }), null);
  assertEquals(textAfterChange("abc", { kind: "unreadable" }), null);
});
