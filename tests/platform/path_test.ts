import { assertEquals } from "../helpers/assert.ts";
import { baseName, dirName } from "../../src/platform/path.ts";

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
