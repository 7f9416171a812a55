/**
 * The unified diff `gateguard init --dry-run` prints: a line alignment by
 * longest common subsequence (bounded, falling back to remove-then-add for
 * huge inputs) and hunks with three lines of context.
 *
 * @module
 */

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

type DiffOp = { tag: " " | "-" | "+"; line: string };

/** Longest-common-subsequence alignment of two short line lists. */
function alignLines(a: string[], b: string[]): DiffOp[] {
  // Past this size the alignment table costs too much; a plain replace still reads fine.
  if (a.length * b.length > 1_000_000) {
    return [
      ...a.map((line) => ({ tag: "-" as const, line })),
      ...b.map((line) => ({ tag: "+" as const, line })),
    ];
  }
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j]
        ? table[(i + 1) * width + j + 1] + 1
        : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  const ops: DiffOp[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ tag: " ", line: a[i++] });
      j++;
    } else if (
      i < a.length && (j === b.length || table[(i + 1) * width + j] >= table[i * width + j + 1])
    ) {
      ops.push({ tag: "-", line: a[i++] });
    } else {
      ops.push({ tag: "+", line: b[j++] });
    }
  }
  return ops;
}

/** Lines of context around each change in a diff. */
const CONTEXT = 3;

/** A unified diff of two texts (empty when they have the same lines). */
export function unifiedDiff(
  before: string,
  after: string,
  fromLabel: string,
  toLabel: string,
): string {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  const ops: DiffOp[] = [
    ...a.slice(0, head).map((line) => ({ tag: " " as const, line })),
    ...alignLines(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((line) => ({ tag: " " as const, line })),
  ];
  const hunks: Array<[number, number]> = [];
  ops.forEach((op, idx) => {
    if (op.tag === " ") return;
    const start = Math.max(0, idx - CONTEXT);
    const end = Math.min(ops.length, idx + 1 + CONTEXT);
    const last = hunks[hunks.length - 1];
    if (last && start <= last[1]) last[1] = end;
    else hunks.push([start, end]);
  });
  if (hunks.length === 0) return "";
  const out = [`--- ${fromLabel}`, `+++ ${toLabel}`];
  let oldSeen = 0;
  let newSeen = 0;
  let pos = 0;
  const advance = (to: number): void => {
    for (; pos < to; pos++) {
      if (ops[pos].tag !== "+") oldSeen++;
      if (ops[pos].tag !== "-") newSeen++;
    }
  };
  for (const [start, end] of hunks) {
    advance(start);
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((op) => op.tag !== "+").length;
    const newCount = hunk.filter((op) => op.tag !== "-").length;
    // An empty side names the line before the hunk, as unified diffs do.
    const oldStart = oldCount === 0 ? oldSeen : oldSeen + 1;
    const newStart = newCount === 0 ? newSeen : newSeen + 1;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of hunk) out.push(op.tag + op.line);
    advance(end);
  }
  return out.join("\n") + "\n";
}
