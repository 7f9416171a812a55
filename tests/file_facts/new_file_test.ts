import { assertEquals } from "../helpers/assert.ts";
import { isNewFile } from "../../src/file_facts/new_file.ts";
import { resolveTarget } from "../../src/file_facts/resolve.ts";
import { FakeFs, POSIX_ROOTS } from "./fake_fs.ts";

function isNew(raw: string, fs: FakeFs): boolean {
  return isNewFile(resolveTarget(raw, POSIX_ROOTS, fs), fs);
}

Deno.test("[new-file-detection] a Write target is new only when lstat reports ENOENT", () => {
  assertEquals(isNew("src/new.py", new FakeFs().dir("/p/src")), true);
  assertEquals(isNew("missing/dir/new.py", new FakeFs()), true);
  assertEquals(isNew("src/a.py", new FakeFs().file("/p/src/a.py")), false);
});

Deno.test("[new-file-detection] any other error, or a dangling symlink, counts as an existing file", () => {
  assertEquals(isNew("file.py/x.py", new FakeFs().file("/p/file.py")), false);
  assertEquals(isNew("a.py", new FakeFs().dir("/p").fail("/p/a.py", "EACCES")), false);
  assertEquals(isNew("a.py", new FakeFs().symlink("/p/a.py", "/gone")), false);
});

Deno.test("[new-file-detection] a foreign path is never new", () => {
  const fs = new FakeFs();
  assertEquals(isNew("C:\\p\\new.py", fs), false);
  assertEquals(fs.asked, []);
});
