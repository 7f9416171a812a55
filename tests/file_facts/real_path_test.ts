import { assert, assertEquals } from "../helpers/assert.ts";
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

Deno.test("[sensitive-targets] a walk of `..` looks each name up once and is undecidable past its bound", () => {
  const fs = new FakeFs().dir("/p/a").dir("/home/me").symlink("/p/t", "/home/me");
  const walked = (path: string) => {
    const real = walkedRealLocation(path, "/p", fs);
    return real === null ? null : formatPath(real);
  };
  assertEquals(walked("gone/x/y/../../../t/../z"), "/home/z");
  // Between the first and the last `..`, nothing below a missing name is looked up.
  fs.asked.length = 0;
  assertEquals(walked("a/../gone/x/y/../../../t/../z"), "/home/z");
  assertEquals(fs.asked.filter((p) => p.startsWith("/p/gone/")), []);
  // A crafted walk of thousands of steps stops at the bound instead of costing a lookup each.
  fs.asked.length = 0;
  assertEquals(walked("a/../".repeat(1000) + "t/../z"), null);
  assert(fs.asked.length <= 2 * 256 + 8, `${fs.asked.length} lookups`);
});

Deno.test("[self-protection] with a known map, a folder is resolved once and nothing below a missing name is looked up", () => {
  let lookups = 0;
  const fs = new FakeFs().dir("/home/u").symlink("/home/link", "/home/u");
  const counted = new Proxy(fs, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key !== "lstat" && key !== "realPath") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (path: string) => {
        lookups++;
        return value.call(target, path);
      };
    },
  });
  const known = new Map();
  const at = (path: string) => {
    const real = realLocation(parsePath(path), counted, known);
    return real === null ? null : formatPath(real);
  };
  assertEquals(at("/home/link/.config/kitty"), "/home/u/.config/kitty");
  const first = lookups;
  // A sibling under the same missing folder: no lookup at all; the folder's parent: none either.
  assertEquals(at("/home/link/.config/tmux"), "/home/u/.config/tmux");
  assertEquals(at("/home/link"), "/home/u");
  assertEquals(lookups, first);
  // Without the map the same walk is paid again.
  assertEquals(
    formatPath(realLocation(parsePath("/home/link/.config/tmux"), counted)!),
    "/home/u/.config/tmux",
  );
  assert(lookups > first);
});
