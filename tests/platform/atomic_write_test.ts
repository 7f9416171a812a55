import { tempDirSync } from "../helpers/temp.ts";
import { assertEquals, assertThrows } from "../helpers/assert.ts";
import { writeAtomic } from "../../src/platform/atomic_write.ts";

Deno.test("[state-file-is-untrusted] an atomic write replaces the file whole, with the mode asked for, and leaves no temporary file", () => {
  const dir = tempDirSync({ prefix: "gg-atomic-" });
  const path = `${dir}/state.json`;
  Deno.writeTextFileSync(path, "old");
  writeAtomic(path, "new", { temp: `${dir}/state.json.tmp`, mode: 0o600 });
  assertEquals(Deno.readTextFileSync(path), "new");
  if (Deno.build.os !== "windows") assertEquals(Deno.statSync(path).mode! & 0o777, 0o600);
  assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["state.json"]);
});

Deno.test("[state-file-is-untrusted] a failed atomic write leaves the target as it was and removes its temporary file", () => {
  const dir = tempDirSync({ prefix: "gg-atomic-" });
  const path = `${dir}/target`;
  // A directory in the target's place makes the rename fail after the temporary file exists.
  Deno.mkdirSync(path);
  assertThrows(() => writeAtomic(path, "x", { temp: `${dir}/target.tmp` }));
  assertEquals(Deno.statSync(path).isDirectory, true);
  assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["target"]);
  // A temporary name already taken is never overwritten.
  Deno.writeTextFileSync(`${dir}/taken`, "someone else's");
  assertThrows(() => writeAtomic(`${dir}/other`, "x", { temp: `${dir}/taken` }));
});

Deno.test({
  name: "[init] an atomic write gives the new file the owner asked for",
  ignore: Deno.build.os === "windows",
  fn: () => {
    const dir = tempDirSync({ prefix: "gg-atomic-" });
    const path = `${dir}/settings.json`;
    Deno.writeTextFileSync(path, "{}");
    // Root may give any owner; anyone else may keep their own.
    const owner = Deno.uid() === 0
      ? { uid: 4321, gid: 4322 }
      : { uid: Deno.uid()!, gid: Deno.gid()! };
    writeAtomic(path, '{"a":1}', { temp: `${dir}/settings.json.tmp`, mode: 0o640, owner });
    const info = Deno.statSync(path);
    assertEquals([info.uid, info.gid, info.mode! & 0o777], [owner.uid, owner.gid, 0o640]);
    assertEquals(Deno.readTextFileSync(path), '{"a":1}');
  },
});
