import { assertEquals } from "../helpers/assert.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { readTranscriptTail, TAIL_WINDOW } from "../../src/transcript/tail.ts";
import { MemoryFs } from "./builder.ts";

Deno.test("[turn-boundaries] the tail window is 256 KiB and 2000 lines", () => {
  assertEquals(TAIL_WINDOW, { maxBytes: 256 * 1024, maxLines: 2000 });
});

Deno.test("[turn-boundaries] a whole small file is read unclipped", () => {
  const fs = new MemoryFs({ "/t.jsonl": "a\nb\nc\n" });
  assertEquals(readTranscriptTail("/t.jsonl", fs), { lines: ["a", "b", "c"], clipped: false });
});

Deno.test("[turn-boundaries] a line cut by the byte bound is dropped", () => {
  const fs = new MemoryFs({ "/t.jsonl": "first-line\nsecond\nthird\n" });
  const tail = readTranscriptTail("/t.jsonl", fs, { maxBytes: 10, maxLines: 10 });
  assertEquals(tail, { lines: ["third"], clipped: true });
});

Deno.test("[turn-boundaries] only the last lines within the line bound are kept", () => {
  const text = Array.from({ length: 10 }, (_, i) => `l${i}`).join("\n") + "\n";
  const fs = new MemoryFs({ "/t.jsonl": text });
  const tail = readTranscriptTail("/t.jsonl", fs, { maxBytes: 1000, maxLines: 3 });
  assertEquals(tail, { lines: ["l7", "l8", "l9"], clipped: true });
});

Deno.test("[turn-boundaries] a missing file or a directory has no tail", () => {
  const fs = new MemoryFs({}, ["/dir"]);
  assertEquals(readTranscriptTail("/missing.jsonl", fs), null);
  assertEquals(readTranscriptTail("/dir", fs), null);
});

Deno.test("[turn-boundaries] the real file port reads only the window of a 1 MiB file", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/big.jsonl`;
    const line = "y".repeat(1023);
    Deno.writeTextFileSync(path, `${line}\n`.repeat(1024) + "last\n");
    const tail = readTranscriptTail(path, denoFs);
    assertEquals(tail?.clipped, true);
    // 256 KiB hold "last" and 255 whole lines; the cut line before them is dropped.
    assertEquals(tail?.lines.length, 256);
    assertEquals(tail?.lines.at(-1), "last");
    assertEquals(tail?.lines.slice(0, -1).every((l) => l === line), true);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
