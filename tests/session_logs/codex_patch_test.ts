import { assertEquals } from "../helpers/assert.ts";
import { MAX_PATCH_FILES, readPatch } from "../../src/session_logs/codex_patch.ts";

function files(patch: string): [string, string][] {
  const read = readPatch(patch);
  if (!read.ok) throw new Error(read.reason);
  return read.files.map((f) => [f.op, f.path]);
}

Deno.test("[agents] a patch names every file it adds, updates, deletes and moves to, in order", () => {
  const patch = [
    "*** Begin Patch",
    "*** Add File: src/new.ts",
    "+export const a = 1;",
    "*** Update File: src/old.ts",
    "*** Move to: src/renamed.ts",
    "@@ function f()",
    "-  return 1;",
    "+  return 2;",
    "*** Delete File: src/gone.ts",
    "*** End Patch",
  ].join("\n");
  assertEquals(files(patch), [
    ["add", "src/new.ts"],
    ["update", "src/old.ts"],
    ["move-to", "src/renamed.ts"],
    ["delete", "src/gone.ts"],
  ]);
  const read = readPatch(patch);
  if (!read.ok) throw new Error();
  assertEquals(read.files[0].content, "export const a = 1;\n");
  assertEquals(read.files[1].hunks, [{ oldText: "  return 1;", newText: "  return 2;" }]);
  assertEquals(read.files[2].hunks, read.files[1].hunks);
  assertEquals(read.files.map((f) => f.movedAway ?? false), [false, true, false, false]);
});

Deno.test("[agents] update hunks split at @@ and keep context on both sides", () => {
  const read = readPatch(
    "*** Begin Patch\n*** Update File: a.py\n@@\n ctx\n-old\n+new\n@@ def g():\n-x = 1\n+x = 2\n*** End of File\n*** End Patch\n",
  );
  if (!read.ok) throw new Error();
  assertEquals(read.files[0].hunks, [
    { oldText: "ctx\nold", newText: "ctx\nnew" },
    { oldText: "x = 1", newText: "x = 2" },
  ]);
});

Deno.test("[agents] headers Codex accepts with padding, CRLF or a heredoc wrapper are never missed", () => {
  assertEquals(files("  *** Update File: a.txt  \r\n@@\r\n-a\r\n+b\r\n"), [["update", "a.txt"]]);
  assertEquals(files("<<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF\n"), [
    ["delete", "x"],
  ]);
  // Rust's trim removes NEL (U+0085), JavaScript's does not; Codex would honour this header.
  assertEquals(files("\u0085*** Add File: hidden.ts\n+x\n"), [["add", "hidden.ts"]]);
  assertEquals(files("\u00a0\u3000*** Delete File: wide.ts\n"), [["delete", "wide.ts"]]);
});

Deno.test("[agents] a header line inside an added file's text still counts (more denials, never fewer)", () => {
  assertEquals(files("*** Add File: a.md\n+intro\n*** Update File: b.md\n@@\n-x\n+y\n"), [
    ["add", "a.md"],
    ["update", "b.md"],
  ]);
});

Deno.test("[agents] text without file headers touches no file", () => {
  assertEquals(files(""), []);
  assertEquals(files("*** Begin Patch\n*** End Patch\n"), []);
  assertEquals(files("*** Add File: \n+x\n"), []);
});

Deno.test("[agents] a patch over the file limit is refused unread", () => {
  const many = Array.from({ length: MAX_PATCH_FILES + 1 }, (_, i) => `*** Delete File: f${i}`);
  assertEquals(readPatch(many.join("\n")), { ok: false, reason: "too-many-files" });
  const limit = Array.from({ length: MAX_PATCH_FILES }, (_, i) => `*** Delete File: f${i}`);
  assertEquals(readPatch(limit.join("\n")).ok, true);
});
