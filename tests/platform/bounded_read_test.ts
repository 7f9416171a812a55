import { assertEquals } from "../helpers/assert.ts";
import { readBounded, readBoundedBytes, type SyncReader } from "../../src/platform/bounded_read.ts";

/** A reader of `total` bytes handed out in chunks of at most `chunk`, counting what it gave. */
function source(total: number, chunk = 1000): SyncReader & { given: () => number } {
  let given = 0;
  return {
    readSync(p: Uint8Array): number | null {
      if (given >= total) return null;
      const n = Math.min(p.length, chunk, total - given);
      p.fill(0x61, 0, n);
      given += n;
      return n;
    },
    given: () => given,
  };
}

Deno.test("[fail-to-deny] a bounded read returns an input of exactly the bound and refuses one byte more", () => {
  const at = readBounded(source(5000), 5000);
  assertEquals(at.ok && at.text.length, 5000);
  assertEquals(readBounded(source(5001), 5000), { ok: false });
});

Deno.test("[fail-to-deny] a bounded read of an endless input stops within one chunk past the bound", () => {
  const endless = source(Number.MAX_SAFE_INTEGER, 4096);
  assertEquals(readBounded(endless, 100_000), { ok: false });
  assertEquals(endless.given() <= 100_000 + 4096, true);
});

Deno.test("[fail-to-deny] a bounded read can hand back the bytes undecoded, so a caller refuses by size before decoding", () => {
  const read = readBoundedBytes(source(3000), 5000);
  assertEquals(read.ok && read.bytes.length, 3000);
  assertEquals(read.ok && read.bytes[0], 0x61);
  assertEquals(readBoundedBytes(source(5001), 5000), { ok: false });
});
