import { assertEquals } from "../helpers/assert.ts";
import { readBoundedBytes, type SyncReader } from "../../src/platform/bounded_read.ts";

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
  const at = readBoundedBytes(source(5000), 5000, 5000);
  assertEquals(at.ok && at.bytes?.length, 5000);
  assertEquals(readBoundedBytes(source(5001), 5000, 5000), { ok: false });
});

Deno.test("[fail-to-deny] a bounded read of an endless input stops within one chunk past the bound", () => {
  const endless = source(Number.MAX_SAFE_INTEGER, 4096);
  assertEquals(readBoundedBytes(endless, 100_000, 100_000), { ok: false });
  assertEquals(endless.given() <= 100_000 + 4096, true);
});

Deno.test("[fail-to-deny] a bounded read hands back the bytes undecoded, in one piece across chunks", () => {
  const read = readBoundedBytes(source(3_000_000, 70_000), 5_000_000, 5_000_000);
  assertEquals(read.ok && read.size, 3_000_000);
  assertEquals(read.ok && read.bytes?.length, 3_000_000);
  assertEquals(read.ok && read.bytes?.every((b) => b === 0x61), true);
  assertEquals(readBoundedBytes(source(5001), 5000, 5000), { ok: false });
});

Deno.test("[fail-to-deny] an input larger than the caller keeps is read to tell its size, and its bytes are dropped", () => {
  const read = readBoundedBytes(source(3_000_000, 70_000), 5_000_000, 1_000_000);
  assertEquals(read, { ok: true, size: 3_000_000, bytes: null });
  // Past the bound it is still refused, one byte past it at most.
  const endless = source(Number.MAX_SAFE_INTEGER, 4096);
  assertEquals(readBoundedBytes(endless, 100_000, 1000), { ok: false });
  assertEquals(endless.given(), 100_001);
});
