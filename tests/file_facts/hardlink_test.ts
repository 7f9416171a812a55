import { assertEquals } from "../helpers/assert.ts";
import { isHardLinked } from "../../src/file_facts/hardlink.ts";
import { resolveTarget } from "../../src/file_facts/resolve.ts";
import { FakeFs, POSIX_ROOTS } from "./fake_fs.ts";

function linked(raw: string, fs: FakeFs): boolean {
  return isHardLinked(resolveTarget(raw, POSIX_ROOTS, fs), fs);
}

Deno.test("[hard-linked-targets] a file with more than one link is hard-linked, one link is not", () => {
  assertEquals(linked("a.py", new FakeFs().file("/p/a.py", 2)), true);
  assertEquals(linked("a.py", new FakeFs().file("/p/a.py", 1)), false);
});

Deno.test("[hard-linked-targets] a symlink is judged by the file it points to", () => {
  assertEquals(linked("a.py", new FakeFs().file("/p/b.py", 3).symlink("/p/a.py", "b.py")), true);
  assertEquals(linked("a.py", new FakeFs().file("/p/b.py", 1).symlink("/p/a.py", "b.py")), false);
});

Deno.test("[hard-linked-targets] directories are skipped", () => {
  assertEquals(linked("src", new FakeFs().dir("/p/src/a").dir("/p/src/b")), false);
});

Deno.test("[hard-linked-targets] a missing file is new, not hard-linked (ENOENT, ENOTDIR, dangling symlink)", () => {
  assertEquals(linked("new.py", new FakeFs()), false);
  assertEquals(linked("file.py/new.py", new FakeFs().file("/p/file.py")), false);
  assertEquals(linked("a.py", new FakeFs().symlink("/p/a.py", "/gone")), false);
});

Deno.test("[hard-linked-targets] any other stat error counts as hard-linked", () => {
  assertEquals(linked("a.py", new FakeFs().file("/p/a.py").fail("/p/a.py", "EACCES")), true);
  assertEquals(linked("a.py", new FakeFs().file("/p/a.py").fail("/p/a.py", "EOTHER")), true);
  assertEquals(
    linked("a.py", new FakeFs().symlink("/p/a.py", "/p/b").symlink("/p/b", "/p/a.py")),
    true,
  );
});

Deno.test("[hard-linked-targets] a platform without link counts reports no hard link", () => {
  assertEquals(linked("a.py", new FakeFs().file("/p/a.py", null)), false);
});

Deno.test("[hard-linked-targets] a Windows-style path on a POSIX host is judged by its path alone", () => {
  const fs = new FakeFs();
  assertEquals(linked("C:\\p\\a.py", fs), false);
  assertEquals(fs.asked, []);
});

Deno.test("[hard-linked-targets] a port that throws counts as hard-linked", () => {
  const fs = new FakeFs();
  fs.lstat = () => {
    throw new Error("boom");
  };
  assertEquals(linked("a.py", fs), true);
});

Deno.test("[hard-linked-targets] an absolute POSIX path with a backslash in a name is stat'ed on a POSIX host", () => {
  const fs = new FakeFs().file("/p/vendor\\token.py", 2).file("/p/plain\\one.py", 1);
  assertEquals(linked("/p/vendor\\token.py", fs), true);
  assertEquals(linked("/p/plain\\one.py", fs), false);
  assertEquals(linked("/p/missing\\new.py", fs), false);
});
