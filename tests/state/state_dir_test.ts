/**
 * Tests of the state directory check: what it accepts, what it creates, and
 * the plain words it gives for each way a directory can be unusable.
 *
 * @module
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { fsErrorWords, prepareStateDir } from "../../src/state/state_dir.ts";

function withTemp(fn: (tmp: string) => void): void {
  const tmp = Deno.makeTempDirSync({ prefix: "gg-statedir-" });
  try {
    fn(tmp);
  } finally {
    Deno.removeSync(tmp, { recursive: true });
  }
}

Deno.test("[state-file-is-untrusted] a missing state directory is created, private, parents included", () => {
  withTemp((tmp) => {
    const dir = `${tmp}/a/b/state`;
    assertEquals(prepareStateDir(dir), null);
    const info = Deno.statSync(dir);
    assert(info.isDirectory);
    if (Deno.build.os !== "windows") assertEquals(info.mode! & 0o077, 0);
    // An existing directory is accepted as it is.
    assertEquals(prepareStateDir(dir), null);
  });
});

Deno.test("[state-file-is-untrusted] a file, or a file on the way, in the state directory's place is named as such", () => {
  withTemp((tmp) => {
    Deno.writeTextFileSync(`${tmp}/state`, "");
    assertEquals(prepareStateDir(`${tmp}/state`), "it is a file, not a directory");
    assertEquals(
      prepareStateDir(`${tmp}/state/inner`),
      "a part of its path is a file, not a directory",
    );
    assertEquals(prepareStateDir(""), "the directory name is empty");
  });
});

Deno.test("[state-file-is-untrusted] a symlink is followed only to an existing directory; a dangling one never creates its target", () => {
  withTemp((tmp) => {
    Deno.mkdirSync(`${tmp}/real`);
    Deno.symlinkSync(`${tmp}/real`, `${tmp}/to-dir`);
    assertEquals(prepareStateDir(`${tmp}/to-dir`), null);
    Deno.writeTextFileSync(`${tmp}/file`, "");
    Deno.symlinkSync(`${tmp}/file`, `${tmp}/to-file`);
    assertEquals(
      prepareStateDir(`${tmp}/to-file`),
      "it is a symlink to something not a directory",
    );
    Deno.symlinkSync(`${tmp}/elsewhere/state`, `${tmp}/dangling`);
    assertEquals(
      prepareStateDir(`${tmp}/dangling`),
      "it is a symlink to nothing, which GateGuard does not follow",
    );
    let created = true;
    try {
      Deno.lstatSync(`${tmp}/elsewhere`);
    } catch {
      created = false;
    }
    assertEquals(created, false);
  });
});

Deno.test("[state-file-is-untrusted] file errors read as plain words, whatever the runtime calls them", () => {
  const named = (name: string, code?: string): Error => {
    const err = new Error("run again with the --allow-all flag");
    err.name = name;
    if (code !== undefined) Object.assign(err, { code });
    return err;
  };
  assertEquals(
    fsErrorWords(named("NotCapable")),
    "GateGuard may not write to a device or system path",
  );
  assertEquals(fsErrorWords(named("PermissionDenied", "EACCES")), "this user may not write there");
  assertEquals(fsErrorWords(named("Error", "EROFS")), "the file system is read-only");
  assertEquals(fsErrorWords(named("Error", "ENOSPC")), "the disk is full");
  assertEquals(fsErrorWords(named("Error", "EIO")), "the file system refused the write (EIO)");
  assertEquals(fsErrorWords(named("Weird", "not a code")), "the file system refused the write");
  assertEquals(fsErrorWords("thrown text"), "the file system refused the write");
});
