/**
 * The control-surface context of a call: built once per call, with its path
 * lookups remembered for that call and never for another.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { contextFor, MemoryFs, ROOT } from "./context.ts";
import { surfaceContextOf } from "../../src/hook/surface_context.ts";
import { denoFs } from "../../src/platform/fs_port.ts";

/** An in-memory filesystem that counts its lookups and reads by path. */
class CountingFs extends MemoryFs {
  readonly counts = new Map<string, number>();

  #count(what: string, path: string): void {
    const key = `${what} ${path}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  override lstat(path: string): ReturnType<MemoryFs["lstat"]> {
    this.#count("lstat", path);
    return super.lstat(path);
  }

  override realPath(path: string): ReturnType<MemoryFs["realPath"]> {
    this.#count("realPath", path);
    return super.realPath(path);
  }

  override readTextBounded(path: string, maxBytes: number): string | null {
    this.#count("read", path);
    return super.readTextBounded(path, maxBytes);
  }
}

Deno.test("[self-protection] a call's control surface is built once, and each path is looked up once for it", () => {
  const fs = new CountingFs({ [`${ROOT}/.claude/settings.json`]: "{}" }, [ROOT]);
  const ctx = contextFor("Bash", { command: "rm -rf build" }, { fs });
  const surface = surfaceContextOf(ctx);
  assert(surfaceContextOf(ctx) === surface, "built again for the same call");
  for (let i = 0; i < 3; i++) {
    surface.fs!.realPath(`${ROOT}/.claude`);
    surface.fs!.lstat(`${ROOT}/.codex`);
    surface.fs!.readTextBounded(`${ROOT}/.claude/settings.json`, 1024);
  }
  assertEquals(fs.counts.get(`realPath ${ROOT}/.claude`), 1);
  assertEquals(fs.counts.get(`lstat ${ROOT}/.codex`), 1);
  // Contents are read afresh every time.
  assertEquals(fs.counts.get(`read ${ROOT}/.claude/settings.json`), 3);
});

Deno.test("[self-protection] another call looks again: a folder made between two calls is seen by the second", () => {
  const fs = new CountingFs({}, [ROOT]);
  const first = surfaceContextOf(contextFor("Bash", { command: "ls" }, { fs }));
  assertEquals(first.fs!.lstat(`${ROOT}/.codex`).ok, false);
  fs.dirs.add(`${ROOT}/.codex`);
  const second = surfaceContextOf(contextFor("Bash", { command: "ls" }, { fs }));
  assertEquals(second.fs!.lstat(`${ROOT}/.codex`).ok, true);
});

Deno.test("[self-protection] the call's filesystem keeps every method of the port, listing folders included", () => {
  // The real port's methods are the ones production calls reach: none may be dropped on the way.
  const ctx = contextFor("Write", { file_path: `${ROOT}/a`, content: "" }, {});
  ctx.ports.fs = denoFs;
  const fs = surfaceContextOf(ctx).fs!;
  assertEquals(
    Object.keys(denoFs).filter((name) =>
      typeof (fs as unknown as Record<string, unknown>)[name] !== "function"
    ),
    [],
  );
  // A listing goes through to the port.
  let asked = "";
  const listed = Object.assign(new MemoryFs({}, [ROOT]), {
    listNames: (dir: string) => {
      asked = dir;
      return [];
    },
  });
  const viaMemory = contextFor("Write", { file_path: `${ROOT}/a`, content: "" }, { fs: listed });
  surfaceContextOf(viaMemory).fs!.listNames?.(`${ROOT}/.github/hooks`, 8);
  assertEquals(asked, `${ROOT}/.github/hooks`);
});
