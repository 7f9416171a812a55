import { assertEquals } from "../helpers/assert.ts";
import {
  anchorOf,
  foldSegments,
  isAbsolute,
  joinPath,
  parsePath,
  type PathParts,
} from "../../src/file_facts/paths.ts";

/** Resolution as plain folding of the base's and the path's segments together. */
function reference(path: string, base: string, fallback: string): PathParts {
  const parts = parsePath(path);
  if (parts.root !== "") return { ...parts, segments: foldSegments(parts.segments, parts.windows) };
  let anchor = parsePath(base);
  if (anchor.root === "") {
    const outer = parsePath(fallback);
    anchor = {
      windows: anchor.windows || outer.windows,
      root: outer.root === "" ? "/" : outer.root,
      segments: [...outer.segments, ...anchor.segments],
    };
  }
  const windows = parts.windows || anchor.windows;
  const segments = foldSegments([...anchor.segments, ...parts.segments], windows);
  return { windows, root: anchor.root, segments };
}

Deno.test("[target-resolution] joining to an anchor worked out once folds like the base and path together", () => {
  const bases = ["/work/proj", "/work/./a/../proj/", "rel/dir", "C:\\Users\\me", "/x/.. /..", "/"];
  const paths = [
    "a.py",
    "./src/../lib/b.ts",
    "..",
    "../../..",
    "dir\\win.py",
    "/abs/c.py",
    "",
    "x/.. /y",
  ];
  for (const base of bases) {
    const anchor = anchorOf(base, "/process/cwd");
    for (const path of paths) {
      assertEquals(
        joinPath(path, anchor),
        reference(path, base, "/process/cwd"),
        `${base} + ${path}`,
      );
    }
  }
});

Deno.test("[target-resolution] a path has a root exactly when parsing it finds one", () => {
  const paths = [
    "/a",
    "a/b",
    "",
    ".",
    "C:",
    "C:\\x",
    "c:/x",
    "C:x",
    "\\\\server\\share\\x",
    "//server/share",
    "\\x",
    "\\\\?\\C:\\x",
    "//?/unc/s/h/x",
    "~/x",
    "a\\b",
  ];
  for (const path of paths) assertEquals(isAbsolute(path), parsePath(path).root !== "", path);
});
