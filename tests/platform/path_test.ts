import { assertEquals } from "../helpers/assert.ts";
import { baseName, dirName, joinPath, trimSeparators } from "../../src/platform/path.ts";

Deno.test("[target-resolution] baseName and dirName split at the last separator of either kind", () => {
  const cases: [string, string, string][] = [
    ["/a/b/c.ts", "c.ts", "/a/b"],
    ["C:\\Users\\me\\x.json", "x.json", "C:\\Users\\me"],
    ["mixed/dir\\file", "file", "mixed/dir"],
    ["/top", "top", "/"],
    ["plain", "plain", "."],
    ["dir/", "", "dir"],
  ];
  for (const [path, base, dir] of cases) {
    assertEquals([baseName(path), dirName(path)], [base, dir], path);
  }
});

Deno.test("[target-resolution] joinPath puts one / between a directory and a name, whatever the directory ends with", () => {
  assertEquals(joinPath("/home/me", ".gateguard"), "/home/me/.gateguard");
  assertEquals(joinPath("/home/me//", ".claude/settings.json"), "/home/me/.claude/settings.json");
  assertEquals(joinPath("C:\\Users\\me\\", ".codex/hooks.json"), "C:\\Users\\me/.codex/hooks.json");
  assertEquals(joinPath("/", "x"), "/x");
  assertEquals(trimSeparators("/"), "");
  assertEquals(trimSeparators("dir\\/"), "dir");
  assertEquals(trimSeparators("plain"), "plain");
});
