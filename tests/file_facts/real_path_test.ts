import { assertEquals } from "../helpers/assert.ts";
import { realDirectory, realLocation, walkedRealLocation } from "../../src/file_facts/real_path.ts";
import { formatPath, parsePath } from "../../src/file_facts/paths.ts";
import { FakeFs } from "./fake_fs.ts";

const located = (path: string, fs: FakeFs): string | null => {
  const real = realLocation(parsePath(path), fs);
  return real === null ? null : formatPath(real);
};

Deno.test("[sensitive-targets] a missing path's real location is its nearest existing folder's, with the missing names after it", () => {
  const fs = new FakeFs().dir("/data/home").symlink("/home/me", "/data/home");
  assertEquals(located("/home/me/.claude/settings.json", fs), "/data/home/.claude/settings.json");
  assertEquals(located("/home/me", fs), "/data/home");
  assertEquals(located("/nowhere/at/all", fs), "/nowhere/at/all");
});

Deno.test("[sensitive-targets] a name that is there but does not resolve leaves the location undecided", () => {
  const fs = new FakeFs()
    .symlink("/p/dangling", "/gone/away")
    .symlink("/p/loop", "/p/loop")
    .file("/p/file")
    .dir("/p/locked")
    .fail("/p/locked/inner", "EACCES");
  assertEquals(located("/p/dangling", fs), null);
  assertEquals(located("/p/dangling/below/x", fs), null);
  assertEquals(located("/p/loop/x", fs), null);
  assertEquals(located("/p/file/x", fs), null);
  assertEquals(located("/p/locked/inner/x", fs), null);
  assertEquals(realDirectory(parsePath("/p/file/x"), fs), null);
});

Deno.test("[sensitive-targets] each missing name costs one lookup and the existing folder one more to resolve it", () => {
  const fs = new FakeFs().dir("/a");
  assertEquals(located("/a/b/c/d", fs), "/a/b/c/d");
  // lstat of d, c, b and a, then the realpath of a: a failed lookup is an
  // exception in the runtime, so a missing name is never asked about twice.
  assertEquals(fs.asked, ["/a/b/c/d", "/a/b/c", "/a/b", "/a", "/a"]);
});

Deno.test("[sensitive-targets] a `..` after a link steps up from where the link leads, as the filesystem does", () => {
  const fs = new FakeFs()
    .dir("/home/me/.claude/todos")
    .dir("/p")
    .symlink("/p/t", "/home/me/.claude/todos");
  const walked = (path: string, base = "/p") => {
    const real = walkedRealLocation(path, base, fs);
    return real === null ? null : formatPath(real);
  };
  assertEquals(walked("/p/t/../settings.json"), "/home/me/.claude/settings.json");
  assertEquals(walked("t/../settings.json"), "/home/me/.claude/settings.json");
  assertEquals(walked("t/./../../.claude/x"), "/home/me/.claude/x");
  // Without a link, or without `..`, the spelling decides as before.
  assertEquals(walked("src/../x.json"), "/p/x.json");
  assertEquals(walked("t/list.json"), "/home/me/.claude/todos/list.json");
  assertEquals(walked("/gone/../x"), "/x");
});
