import { tempDir } from "../helpers/temp.ts";
import { assertEquals } from "../helpers/assert.ts";
import { forEachLine } from "../../src/report/lines.ts";

async function withFile(
  content: string | Uint8Array,
  fn: (path: string, dir: string) => void,
): Promise<void> {
  const dir = await tempDir({ prefix: "gg-lines-" });
  try {
    const path = `${dir}/metrics.jsonl`;
    if (typeof content === "string") Deno.writeTextFileSync(path, content);
    else Deno.writeFileSync(path, content);
    fn(path, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function collectLines(path: string, max = 4096): { lines: (string | null)[]; kind: string } {
  const lines: (string | null)[] = [];
  const outcome = forEachLine(path, max, (l) => lines.push(l));
  return { lines, kind: outcome.kind };
}

Deno.test("[metrics] lines are split on newlines; CR and blank lines are dropped", () =>
  withFile("a\r\n\nb\n\n\nc", (path) => {
    assertEquals(collectLines(path), { lines: ["a", "b", "c"], kind: "read" });
  }));

Deno.test("[metrics] lines and multi-byte characters survive chunk boundaries", () => {
  // 64 KiB chunks: put a line and a 3-byte character across the first boundary.
  const head = "x".repeat(65536 - 2);
  const text = `${head}€tail\nnext\n`;
  return withFile(text, (path) => {
    assertEquals(collectLines(path, 1 << 20).lines, [`${head}€tail`, "next"]);
  });
});

Deno.test("[metrics] an overlong line is passed as null without being kept", () =>
  withFile(`short\n${"y".repeat(200_000)}\nafter\n${"z".repeat(50)}`, (path) => {
    assertEquals(collectLines(path, 40).lines, ["short", null, "after", null]);
  }));

Deno.test("[metrics] a missing file is missing, a directory is an error", async () => {
  const dir = await tempDir({ prefix: "gg-lines-" });
  try {
    assertEquals(forEachLine(`${dir}/nope`, 10, () => {}), { kind: "missing" });
    assertEquals(forEachLine(`${dir}/nope/deeper`, 10, () => {}), { kind: "missing" });
    assertEquals(forEachLine(dir, 10, () => {}), { kind: "error", reason: "is a directory" });
    Deno.writeTextFileSync(`${dir}/file`, "");
    assertEquals(forEachLine(`${dir}/file/x`, 10, () => {}), {
      kind: "error",
      reason: "a path component is not a directory",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
