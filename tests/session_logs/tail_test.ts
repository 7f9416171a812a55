import { tempDirSync } from "../helpers/temp.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { denoFs, type FsPort } from "../../src/platform/fs_port.ts";
import {
  keepTypes,
  mayBeMessageRecord,
  TAIL_WINDOW,
  type TailWalk,
  type TailWindow,
  walkTranscriptBack,
} from "../../src/session_logs/tail.ts";
import { assistant, compaction, filler, jsonl, MemoryFs, prompt, result } from "./builder.ts";
import { REAL_FIXTURES, realTranscript } from "./real_fixtures.ts";

/** A message-shaped line the walk hands over, tagged `n`. */
const msg = (n: number | string): string => JSON.stringify({ type: "user", n });

/** Walks `text` and returns what was visited (newest first), how it ended and the bytes read. */
function walk(
  text: string,
  window: Partial<TailWindow> = {},
  stopAt: (line: string) => boolean = () => false,
): { seen: string[]; end: TailWalk | null; bytes: number } {
  const fs = new MemoryFs({ "/t.jsonl": text });
  const seen: string[] = [];
  const end = walkTranscriptBack("/t.jsonl", fs, (line) => {
    seen.push(line);
    return stopAt(line);
  }, { ...TAIL_WINDOW, ...window });
  return { seen, end, bytes: fs.bytesRead };
}

Deno.test("[turn-boundaries] the walk reads 64 KiB chunks within 8 MiB and 2000 message records", () => {
  assertEquals(TAIL_WINDOW, {
    chunkBytes: 64 * 1024,
    maxBytes: 8 * 1024 * 1024,
    maxRecords: 2000,
  });
});

Deno.test("[turn-boundaries] the line check keeps user, assistant and compaction records, however spaced", () => {
  const keep = [
    ...assistant("msg_a", [{ id: "toolu_a", name: "Grep", input: { pattern: "x" } }]),
    prompt("fix", "p1"),
    result("toolu_a", "p1"),
    ...compaction("p1"),
  ].map((r) => JSON.stringify(r));
  keep.push(
    '{"uuid": "u1", "type": "user", "message": {"content": "fix"}}',
    '{"type" :\t"assistant"}',
    '{ "type"\r: "user" }',
    // Escaped letters parse to the same type, so they must not slip past.
    '{"type":"\\u0075ser","message":{"content":"fix"}}',
    '{"typ\\u0065":"assistant"}',
    '{"type":"system","subtype":"compact_boundary"}',
  );
  for (const line of keep) {
    const parsed = JSON.parse(line);
    assert(
      parsed.type === "user" || parsed.type === "assistant" ||
        parsed.subtype === "compact_boundary",
      line,
    );
    assertEquals(mayBeMessageRecord(line), true, line);
  }
  const drop = [
    filler("attachment", 5000),
    { type: "api-request-blob", message: { role: "user", content: [{ type: "text", text: "x" }] } },
    { type: "queue-operation", operation: "enqueue", content: 'say "type":"user"' },
    { type: "system", subtype: "turn_duration", durationMs: 12 },
    { type: "progress", data: { type: "hook_progress", output: "\u001b[31mred\u001b[0m" } },
  ].map((r) => JSON.stringify(r));
  for (const line of drop) assertEquals(mayBeMessageRecord(line), false, line);
});

Deno.test("[turn-boundaries] a compact-JSON log keeps the lines of its named types only", () => {
  const keep = keepTypes("user.message", "assistant.message");
  assertEquals(keep('{"type":"user.message","data":{}}'), true);
  assertEquals(keep('{"data":{},"type":"assistant.message"}'), true);
  // Another type, a name that only starts like one, or a type given as a value elsewhere.
  assertEquals(keep('{"type":"tool.execution_start","data":{}}'), false);
  assertEquals(keep('{"type":"user.message_delta","data":{}}'), false);
  assertEquals(keep('{"type":"user","text":"user.message"}'), false);
  // The clients write compact JSON; a spaced record is not theirs and is skipped.
  assertEquals(keep('{"type": "user.message"}'), false);
  assertEquals(keepTypes("gemini")('{"type":"user"}'), false);
});

Deno.test("[turn-boundaries] on real 2.1.332 transcripts the line check keeps every message record and drops the big ones", () => {
  for (const name of REAL_FIXTURES) {
    const lines = Deno.readTextFileSync(realTranscript(name)).split("\n").filter((l) => l);
    let dropped = 0;
    for (const line of lines) {
      const record = JSON.parse(line);
      const message = record.type === "user" || record.type === "assistant";
      if (!message) dropped++;
      assertEquals(mayBeMessageRecord(line), message, `${name}: ${line.slice(0, 120)}`);
    }
    assert(dropped > 0, `${name} has no other records to drop`);
  }
});

Deno.test("[turn-boundaries] lines come newest first across chunk edges, multi-byte text intact", () => {
  const lines = [msg("first"), msg("héllo wörld ✓ 😀"), msg(3), '{"type":"progress"}', msg(4)];
  for (const chunkBytes of [1, 3, 7, 64, 1 << 16]) {
    const { seen, end } = walk(lines.join("\n") + "\n", { chunkBytes });
    assertEquals(seen, [msg(4), msg(3), msg("héllo wörld ✓ 😀"), msg("first")], `${chunkBytes}`);
    assertEquals(end, { clipped: false });
  }
});

Deno.test("[turn-boundaries] blank lines are skipped and a last line without a newline is still offered", () => {
  const { seen } = walk(`\n${msg(1)}\n\n\n${msg(2)}`, { chunkBytes: 5 });
  assertEquals(seen, [msg(2), msg(1)]);
});

Deno.test("[turn-boundaries] the walk stops where the visitor says, reading only the chunks it needs", () => {
  const text = Array.from({ length: 100 }, (_, i) => msg(i)).join("\n") + "\n";
  const { seen, end, bytes } = walk(text, { chunkBytes: 100 }, (l) => l === msg(97));
  assertEquals(seen, [msg(99), msg(98), msg(97)]);
  assertEquals(end, { clipped: false });
  assertEquals(bytes, 100);
});

Deno.test("[turn-boundaries] a spent byte budget clips the walk and drops the line it cut", () => {
  const text = `${msg("old")}\n${msg("cut-in-half")}\n${msg("new")}\n`;
  const budget = msg("new").length + 1 + 5;
  const { seen, end, bytes } = walk(text, { chunkBytes: 4, maxBytes: budget });
  assertEquals(seen, [msg("new")]);
  assertEquals(end, { clipped: true });
  assertEquals(bytes, budget);
  // A budget that ends exactly at the file start is not a clip.
  assertEquals(walk(text, { maxBytes: text.length }).end, { clipped: false });
});

Deno.test("[turn-boundaries] the record cap counts message lines only, and clips before the next one", () => {
  const other = '{"type":"attachment"}';
  const text = [msg(0), other, msg(1), other, msg(2), other].join("\n") + "\n";
  assertEquals(walk(text, { maxRecords: 2 }), {
    seen: [msg(2), msg(1)],
    end: { clipped: true },
    bytes: text.length,
  });
  assertEquals(walk(text, { maxRecords: 3 }).end, { clipped: false });
});

Deno.test("[turn-boundaries] a missing file, a directory, a file that shrinks or fails mid-walk give no walk", () => {
  const fs = new MemoryFs({}, ["/dir"]);
  const never = () => false;
  assertEquals(walkTranscriptBack("/missing.jsonl", fs, never), null);
  assertEquals(walkTranscriptBack("/dir", fs, never), null);
  const text = `${msg(1)}\n${msg(2)}\n`;
  const shrinking = new MemoryFs({ "/t.jsonl": text });
  const readRange = shrinking.readRange.bind(shrinking);
  shrinking.readRange = (path, start, length) => {
    const bytes = readRange(path, start, length);
    shrinking.write(path, text.slice(0, 3));
    return bytes;
  };
  const small = { ...TAIL_WINDOW, chunkBytes: 8 };
  assertEquals(walkTranscriptBack("/t.jsonl", shrinking, never, small), null);
  const failing: FsPort = new MemoryFs({ "/t.jsonl": text });
  failing.readRange = () => null;
  assertEquals(walkTranscriptBack("/t.jsonl", failing, never), null);
});

Deno.test("[turn-boundaries] the real file port walks a 4 MiB file back to a turn start near its end", () => {
  const dir = tempDirSync();
  try {
    const path = `${dir}/big.jsonl`;
    const big = JSON.stringify(filler("attachment", 1023));
    const text = `${big}\n`.repeat(4096) + jsonl(prompt("fix", "p1"), result("toolu_a", "p1"));
    Deno.writeTextFileSync(path, text);
    let served = 0;
    const counting: FsPort = {
      ...denoFs,
      readRange(p, start, length) {
        const bytes = denoFs.readRange(p, start, length);
        served += bytes?.length ?? 0;
        return bytes;
      },
    };
    const seen: string[] = [];
    const end = walkTranscriptBack(path, counting, (line) => {
      seen.push(line);
      return JSON.parse(line).message?.content === "fix";
    });
    assertEquals(end, { clipped: false });
    assertEquals(seen.length, 2);
    assertEquals(served, TAIL_WINDOW.chunkBytes);
    const last = new TextEncoder().encode(text.slice(-3));
    assertEquals(denoFs.readRange(path, text.length - 3, 10), last);
    assertEquals(denoFs.readRange(`${dir}/none`, 0, 10), null);
    assertEquals(denoFs.readRange(dir, 0, 10), null);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
