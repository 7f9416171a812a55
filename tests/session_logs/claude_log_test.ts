import { assert, assertEquals, assertNotEquals } from "../helpers/assert.ts";
import { denoFs, type FsPort } from "../../src/platform/fs_port.ts";
import { TAIL_WINDOW } from "../../src/session_logs/tail.ts";
import { scanTurn } from "../../src/session_logs/claude_log.ts";
import type { TurnScan, TurnScanResult } from "../../src/session_logs/turn_scan.ts";
import { assistant, compaction, filler, jsonl, MemoryFs, prompt, result, ROOT } from "./builder.ts";
import { realPromptId, realTranscript } from "./real_fixtures.ts";
import { SCANNED_TOOL_NAMES } from "../../src/tools/gated.ts";

const HAND = new URL("../fixtures/transcripts/", import.meta.url).pathname;
const P1 = "0b1c2d3e-0000-4000-8000-00000000a001";
const P2 = "0b1c2d3e-0000-4000-8000-00000000a002";

/** The scan of the transcript at `path`, keeping every tool the gate reads. */
function scanFile(
  path: string,
  promptId: string | null,
  toolUseId: string | null,
  fs: FsPort = denoFs,
): TurnScanResult | null {
  return scanTurn({ transcriptPath: path, promptId, toolUseId, tools: SCANNED_TOOL_NAMES }, fs);
}

function scanText(
  text: string,
  promptId: string | null = null,
  toolUseId: string | null = null,
): TurnScanResult | null {
  return scanFile("/t.jsonl", promptId, toolUseId, new MemoryFs({ "/t.jsonl": text }));
}

/** The calls of a scan as `id:completed:sameBatch` strings, newest first. */
function summary(scan: TurnScan | null): string[] | null {
  return scan?.calls.map((c) =>
    `${c.id}:${c.completed ? "ok" : "no"}:${c.sameBatch ? "batch" : "-"}`
  ) ??
    null;
}

const grep = (id: string, pattern = "tokenizer") => ({
  id,
  name: "Grep",
  input: { pattern, path: ROOT },
});
const edit = (id: string) => ({
  id,
  name: "Edit",
  input: { file_path: `${ROOT}/src/tokenizer.js`, old_string: "a", new_string: "b" },
});

Deno.test("[turn-boundaries] real 2.1.332 transcript: Grep and Glob results pair, a hook-denied Bash does not", () => {
  // The newest assistant message is the final text answer, so no search is in the batch.
  const promptId = realPromptId("grep-glob-tools.jsonl");
  const scan = scanFile(realTranscript("grep-glob-tools.jsonl"), promptId, null);
  assertEquals(scan?.turnId, promptId);
  assertEquals(scan?.calls.map((c) => [c.tool, c.input, c.completed, c.sameBatch]), [
    ["Glob", { pattern: "*.txt", path: "$ROOT" }, true, false],
    ["Grep", { pattern: "hello", path: "$ROOT" }, true, false],
    ["Bash", { command: "mkdir out", description: "Make out" }, false, false],
  ]);
});

Deno.test("[turn-boundaries] the scan keeps the calls of the tools it is asked for, and only those", () => {
  const promptId = realPromptId("grep-glob-tools.jsonl");
  const scan = scanTurn(
    {
      transcriptPath: realTranscript("grep-glob-tools.jsonl"),
      promptId,
      toolUseId: null,
      tools: new Set(["Grep", "Bash"]),
    },
    denoFs,
  );
  assertEquals(scan?.calls.map((c) => [c.tool, c.completed]), [["Grep", true], ["Bash", false]]);
});

Deno.test("[turn-identity] real 2.1.332 transcript without a payload prompt id takes the prompt record's promptId", () => {
  const name = "bash-then-missing-tools.jsonl";
  const scan = scanFile(realTranscript(name), null, null);
  assertEquals(scan?.turnId, realPromptId(name));
  // The build had no Grep/Glob tools: both calls failed with <tool_use_error>.
  assertEquals(scan?.calls.map((c) => [c.tool, c.completed]), [
    ["Glob", false],
    ["Grep", false],
    ["Bash", true],
  ]);
});

Deno.test("[turn-boundaries] real 2.1.332 transcripts with only an Edit give a turn without calls", () => {
  for (const name of ["edit-denied.jsonl", "edit-with-note.jsonl"]) {
    const scan = scanFile(realTranscript(name), null, null);
    assert(scan !== null && typeof scan.turnId === "string", name);
    assertEquals(scan.calls, []);
  }
});

Deno.test("[turn-boundaries] an earlier human turn's searches are left out; a pending Edit batch is located by tool_use_id", () => {
  const scan = scanFile(`${HAND}search-then-edit.jsonl`, P1, "toolu_edit");
  assertEquals(scan?.turnId, P1);
  assertEquals(summary(scan), ["toolu_read:ok:-", "toolu_bash:ok:-", "toolu_grep:ok:-"]);
});

Deno.test("[turn-boundaries] a compaction starts a new turn, so the search before it is gone", () => {
  const scan = scanFile(`${HAND}compacted.jsonl`, null, "toolu_c_edit");
  assertEquals(scan?.turnId, P1);
  assertEquals(scan?.calls, []);
});

Deno.test("[turn-boundaries] a compact_boundary marker alone also starts the turn, identified by its uuid", () => {
  const [boundary] = compaction(null);
  const scan = scanText(jsonl(
    prompt("fix", P1),
    assistant("msg_a", [grep("toolu_old")]),
    result("toolu_old", P1),
    boundary,
    assistant("msg_b", [grep("toolu_new")]),
    result("toolu_new", P1),
  ));
  assertEquals(scan?.turnId, boundary.uuid);
  assertEquals(summary(scan), ["toolu_new:ok:batch"]);
});

Deno.test("[same-batch-searches] a search in the pending call's own message never counts, even with its result written", () => {
  const path = `${HAND}parallel-batch.jsonl`;
  for (const toolUseId of ["toolu_p_edit", null, "toolu_not_in_transcript"]) {
    const scan = scanFile(path, P1, toolUseId);
    assertEquals(summary(scan), ["toolu_p_grep:ok:batch"], String(toolUseId));
  }
});

Deno.test("[same-batch-searches] without the pending id, the newest assistant message is the batch", () => {
  const text = jsonl(
    prompt("fix", P1),
    assistant("msg_a", [grep("toolu_a")]),
    result("toolu_a", P1),
    assistant("msg_b", [grep("toolu_b")]),
    result("toolu_b", P1),
  );
  assertEquals(summary(scanText(text)), ["toolu_b:ok:batch", "toolu_a:ok:-"]);
  assertEquals(summary(scanText(text, P1, "toolu_a")), ["toolu_b:ok:-", "toolu_a:ok:batch"]);
});

Deno.test("[tool-result-pairing] errors, <tool_use_error> content and duplicated ids never complete", () => {
  const scan = scanFile(`${HAND}errors-and-duplicates.jsonl`, P1, "toolu_e_edit");
  assertEquals(summary(scan), [
    "toolu_e_dup:no:-",
    "toolu_e_dup:no:-",
    "toolu_e_str:no:-",
    "toolu_e_glob:no:-",
    "toolu_e_grep:no:-",
  ]);
});

Deno.test("[tool-result-pairing] a call without a result, or with two results, is not completed", () => {
  const scan = scanText(
    jsonl(
      prompt("fix", P1),
      assistant("msg_a", [grep("toolu_twice"), grep("toolu_none")]),
      result("toolu_twice", P1),
      result("toolu_twice", P1),
      assistant("msg_b", [edit("toolu_edit")]),
    ),
    P1,
    "toolu_edit",
  );
  assertEquals(summary(scan), ["toolu_none:no:-", "toolu_twice:no:-"]);
});

Deno.test("[tool-result-pairing] ids are paired within the walked turn: an id reused in an earlier turn is not read", () => {
  const earlier = [
    prompt("old", P1),
    ...assistant("msg_a", [grep("toolu_same")]),
    result("toolu_same", P1),
  ];
  const current = [
    prompt("new", P2),
    ...assistant("msg_b", [grep("toolu_same")]),
    result("toolu_same", P2),
    ...assistant("msg_c", [edit("toolu_edit")]),
  ];
  // The walk stops at the newest turn start, so only the current turn's use and result count.
  assertEquals(summary(scanText(jsonl(earlier, current), P2, "toolu_edit")), ["toolu_same:ok:-"]);
  const twice = [...current.slice(0, -2), result("toolu_same", P2), ...current.slice(-2)];
  assertEquals(summary(scanText(jsonl(earlier, twice), P2, "toolu_edit")), ["toolu_same:no:-"]);
});

Deno.test("[tool-result-pairing] a result stamped with another prompt's id does not complete", () => {
  const text = jsonl(
    prompt("fix", P1),
    assistant("msg_a", [grep("toolu_a")]),
    result("toolu_a", P2),
    assistant("msg_b", [grep("toolu_b")]),
    result("toolu_b", null),
    assistant("msg_c", [edit("toolu_edit")]),
  );
  assertEquals(summary(scanText(text, null, "toolu_edit")), ["toolu_b:ok:-", "toolu_a:no:-"]);
  assertEquals(summary(scanText(text, P1, "toolu_edit")), ["toolu_b:ok:-", "toolu_a:no:-"]);
});

Deno.test("[turn-boundaries] meta, sidechain and transcript-only records neither start a turn nor add calls", () => {
  const scan = scanFile(`${HAND}meta-sidechain.jsonl`, P1, "toolu_m_edit");
  assertEquals(summary(scan), ["toolu_m_grep:ok:-"]);
});

Deno.test("[turn-boundaries] a user record mixing a tool result with text is a turn start", () => {
  const mixed = result("toolu_a", P2);
  const content = (mixed.message as { content: unknown[] }).content;
  content.push({ type: "text", text: "[Request interrupted by user]" });
  const scan = scanText(jsonl(
    prompt("fix", P1),
    assistant("msg_a", [grep("toolu_a")]),
    mixed,
    assistant("msg_b", [grep("toolu_b")]),
    result("toolu_b", P2),
  ));
  assertEquals(scan?.turnId, P2);
  assertEquals(summary(scan), ["toolu_b:ok:batch"]);
});

Deno.test("[turn-identity] without promptId the turn start's uuid, else a hash of its line, is the turn id", () => {
  const start = prompt("fix", P1);
  delete start.promptId;
  assertEquals(scanText(jsonl(start))?.turnId, start.uuid);
  delete start.uuid;
  const first = scanText(jsonl(start))?.turnId;
  assert(typeof first === "string" && /^line:[0-9a-f]{16}$/.test(first));
  assertEquals(scanText(jsonl(start))?.turnId, first);
  assertNotEquals(
    scanText(jsonl({ ...start, message: { role: "user", content: "other" } }))?.turnId,
    first,
  );
});

Deno.test("[turn-identity] a clipped window without a turn start is the turn when its promptIds agree", () => {
  const text = jsonl(
    prompt("fix", P1),
    filler("attachment", TAIL_WINDOW.maxBytes + 1000),
    assistant("msg_a", [grep("toolu_a")]),
    result("toolu_a", P1),
  );
  const scan = scanText(text, null, "toolu_later");
  assertEquals(scan?.turnId, P1);
  assertEquals(summary(scan), ["toolu_a:ok:batch"]);
  assertEquals(scanText(text, P1)?.turnId, P1);
  assertEquals(scanText(text, P2), null);
});

Deno.test("[turn-identity] a clipped window whose promptIds disagree gives no turn", () => {
  const text = jsonl(
    prompt("fix", P1),
    filler("attachment", TAIL_WINDOW.maxBytes + 1000),
    assistant("msg_a", [grep("toolu_a")]),
    result("toolu_a", P1),
    assistant("msg_b", [grep("toolu_b")]),
    result("toolu_b", P2),
  );
  assertEquals(scanText(text), null);
  assertEquals(scanText(text, P2), null);
});

Deno.test("[turn-identity] a clipped window without any promptId is the turn but has no turn id", () => {
  const text = jsonl(
    filler("attachment", TAIL_WINDOW.maxBytes + 1000),
    assistant("msg_a", [grep("toolu_a")]),
    result("toolu_a", null),
    assistant("msg_b", [edit("toolu_edit")]),
  );
  const scan = scanText(text, null, "toolu_edit");
  assertEquals(scan?.turnId, null);
  assertEquals(summary(scan), ["toolu_a:ok:-"]);
});

/** An assistant text record: a message record that carries no tool call. */
function thought(messageId: string): Record<string, unknown> {
  const [text] = assistant(messageId, []);
  return text;
}

Deno.test("[turn-identity] the 2000 message-record cap clips the window too", () => {
  const thoughts = Array.from({ length: TAIL_WINDOW.maxRecords }, () => thought("msg_think"));
  const text = jsonl(
    prompt("fix", P1),
    ...thoughts,
    assistant("msg_a", [grep("toolu_a")]),
    result("toolu_a", P1),
  );
  const scan = scanText(text, null, "toolu_x");
  assertEquals(scan?.turnId, P1);
  assertEquals(summary(scan), ["toolu_a:ok:batch"]);
  // Lines that are not message records do not count against the cap.
  const progress = Array.from({ length: 3 * TAIL_WINDOW.maxRecords }, () => ({ type: "progress" }));
  const start = prompt("fix", P1);
  delete start.promptId;
  const unclipped = jsonl(start, ...progress, assistant("msg_a", [grep("toolu_a")]));
  assertEquals(scanText(unclipped)?.turnId, start.uuid);
});

Deno.test("[turn-identity] an unclipped transcript without a turn start gives no turn", () => {
  assertEquals(scanText(jsonl(assistant("msg_a", [grep("toolu_a")]), result("toolu_a", P1))), null);
});

Deno.test("[turn-identity] the payload prompt_id must match the transcript's turn start", () => {
  const text = jsonl(
    prompt("fix", P1),
    assistant("msg_a", [grep("toolu_a")]),
    result("toolu_a", P1),
  );
  assertEquals(scanText(text, P1)?.turnId, P1);
  assertEquals(scanText(text, P2), null);
});

Deno.test("[turn-identity] the payload prompt_id names a turn started by a compaction without its own id", () => {
  const [boundary] = compaction(null);
  const scan = scanText(
    jsonl(boundary, assistant("msg_a", [grep("toolu_a")]), result("toolu_a", P1)),
    P1,
  );
  assertEquals(scan?.turnId, P1);
});

Deno.test("[fail-to-deny] missing, non-file, empty and garbage transcripts give no scan and never throw", () => {
  const fs = new MemoryFs({
    "/empty.jsonl": "",
    "/garbage.jsonl": "{not json\n\u0000\u0001\n[1,2]\nnull\n",
  }, [
    "/dir",
  ]);
  for (const path of ["/missing.jsonl", "/dir", "/empty.jsonl", "/garbage.jsonl"]) {
    assertEquals(
      scanFile(path, null, null, fs),
      null,
      path,
    );
  }
  const throwing = new MemoryFs({ "/t": jsonl(prompt("fix", P1)) });
  throwing.readRange = () => {
    throw new Error("boom");
  };
  assertEquals(
    scanFile("/t", null, null, throwing),
    null,
  );
});

Deno.test("[fail-to-deny] garbage lines and odd shapes inside a turn are skipped", () => {
  const odd = assistant("msg_a", [grep("toolu_a")]);
  const text = jsonl(prompt("fix", P1), ...odd, result("toolu_a", P1)) +
    '{"type":"assistant","message":{"content":"text"}}\n{"type":"assistant","message":{"content":[{"type":"tool_use","id":7}]}}\nnot json\n{"trunc';
  assertEquals(summary(scanText(text, P1, "toolu_b")), ["toolu_a:ok:-"]);
});

Deno.test("[prior-search-credit] a search without an assistant message id is marked as such", () => {
  const records = assistant("msg_a", [grep("toolu_a")]);
  for (const r of records) delete (r.message as Record<string, unknown>).id;
  const scan = scanText(jsonl(prompt("fix", P1), ...records, result("toolu_a", P1)), P1, "toolu_x");
  assertEquals(scan?.calls.map((c) => [c.id, c.completed, c.messageId, c.sameBatch]), [
    ["toolu_a", true, null, false],
  ]);
});

Deno.test("[same-batch-searches] pendingFound tells whether the pending call's own record was read", () => {
  const turn = [prompt("fix", P1), ...assistant("msg_a", [grep("toolu_a")]), result("toolu_a", P1)];
  const written = jsonl(turn, assistant("msg_b", [edit("toolu_edit")]));
  assertEquals(scanText(written, P1, "toolu_edit")?.pendingFound, true);
  // Not written yet: the previous message stands in as the batch, which the caller may retry.
  const lagging = scanText(jsonl(turn), P1, "toolu_edit");
  assertEquals(lagging?.pendingFound, false);
  assertEquals(summary(lagging), ["toolu_a:ok:batch"]);
  assertEquals(scanText(written, P1, null)?.pendingFound, false);
});

/** A Read call with its result, sized like the real client's (~8 KB per call with output). */
function readCall(n: number, output: number): Record<string, unknown>[] {
  const id = `toolu_read_${n}`;
  const use = { id, name: "Read", input: { file_path: `${ROOT}/src/part${n}.ts` } };
  const content = "r".repeat(output);
  return [
    ...assistant(`msg_r${n}`, [use]),
    filler("api-request", 1250),
    result(id, P1, { content, extra: { toolUseResult: { file: { content } } } }),
  ];
}

Deno.test("[prior-search-credit] a search 40 calls back in a long turn, ~400 KB from the end, is still in the window", () => {
  const calls = Array.from({ length: 40 }, (_, n) => readCall(n, 3000));
  const text = jsonl(
    prompt("old turn", P2),
    filler("attachment", 2 * 1024 * 1024),
    prompt("review every part, then fix the tokenizer", P1),
    assistant("msg_s", [grep("toolu_search")]),
    result("toolu_search", P1),
    filler("attachment", 57_000),
    filler("api-request-shape", 39_000),
    ...calls,
    assistant("msg_e", [edit("toolu_edit")]),
  );
  const fs = new MemoryFs({ "/t.jsonl": text });
  const scan = scanFile("/t.jsonl", P1, "toolu_edit", fs);
  assertEquals(scan?.turnId, P1);
  assertEquals(scan?.calls.at(-1)?.id, "toolu_search");
  assertEquals(scan?.calls.at(-1)?.completed, true);
  assertEquals(scan?.calls.at(-1)?.sameBatch, false);
  const turnBytes = text.length - text.indexOf('"review every part');
  assert(turnBytes > 400_000, `${turnBytes}`);
  // The walk stopped at the turn start instead of reading the earlier 2 MB.
  assert(fs.bytesRead < turnBytes + TAIL_WINDOW.chunkBytes, `${fs.bytesRead}`);
});

/** A repeated line that is not a message record, padding a virtual transcript. */
const PADDING = JSON.stringify({ type: "attachment", attachment: { content: "z".repeat(900) } }) +
  "\n";

/**
 * A port over a virtual transcript of `size` bytes: padding lines, then
 * `tail`. It serves ranges without building the file and counts each byte.
 */
function virtualTranscript(size: number, tail: string): { fs: FsPort; served: () => number } {
  const tailBytes = new TextEncoder().encode(tail);
  const padding = new TextEncoder().encode(PADDING);
  const padEnd = size - tailBytes.length;
  let served = 0;
  const fs = new MemoryFs();
  fs.stat = () => ({
    ok: true,
    isFile: true,
    isDirectory: false,
    isSymlink: false,
    nlink: 1,
    size,
    mtimeMs: 0,
  });
  fs.readRange = (_path, start, length) => {
    const out = new Uint8Array(Math.max(0, Math.min(length, size - start)));
    for (let i = 0; i < out.length; i++) {
      const p = start + i;
      out[i] = p >= padEnd
        ? tailBytes[p - padEnd]
        : padding[(((p - padEnd) % padding.length) + padding.length) % padding.length];
    }
    served += out.length;
    return out;
  };
  fs.readTextBounded = () => {
    throw new Error("the scan must only read ranges");
  };
  return { fs, served: () => served };
}

Deno.test("[turn-boundaries] a 100 MB transcript costs the same bounded read as a 100 KB one", () => {
  const turn = jsonl(
    prompt("fix", P1),
    assistant("msg_a", [grep("toolu_a")]),
    result("toolu_a", P1),
  );
  const costs = [100 * 1024, 100 * 1024 * 1024].map((size) => {
    const { fs, served } = virtualTranscript(size, turn);
    const scan = scanFile("/big.jsonl", P1, null, fs);
    assertEquals(scan?.turnId, P1);
    assertEquals(summary(scan), ["toolu_a:ok:batch"]);
    return served();
  });
  assertEquals(costs, [TAIL_WINDOW.chunkBytes, TAIL_WINDOW.chunkBytes]);
});

Deno.test("[turn-boundaries] without a turn start, a 100 MB transcript costs at most the byte budget", () => {
  const turn = jsonl(assistant("msg_a", [grep("toolu_a")]), result("toolu_a", P1));
  const { fs, served } = virtualTranscript(100 * 1024 * 1024, turn);
  const scan = scanFile("/big.jsonl", null, null, fs);
  // The budget ran out first: a clipped window whose promptIds agree is the turn.
  assertEquals(scan?.turnId, P1);
  assertEquals(served(), TAIL_WINDOW.maxBytes);
});

Deno.test("[turn-identity] with a payload prompt_id, an unstamped human prompt is an earlier turn the file has not moved past", () => {
  const start = prompt("fix", P1);
  delete start.promptId;
  const text = jsonl(start, assistant("msg_a", [grep("toolu_a")]), result("toolu_a", null));
  assertEquals(scanText(text, P1), null);
  // Without a payload id the same transcript is read as before.
  assertEquals(scanText(text)?.turnId, start.uuid);
  // A compaction summary without an id still opens the payload's turn.
  const [, summary] = compaction(null);
  assertEquals(scanText(jsonl(summary, assistant("msg_a", [grep("toolu_a")])), P1)?.turnId, P1);
});

Deno.test("[parallel-batches-and-partial-application] batchMates counts the other tool calls of the pending call's message, of any tool", () => {
  const text = jsonl(
    prompt("rename it", P1),
    assistant("m_alone", [edit("toolu_alone")]),
    result("toolu_alone", P1),
    assistant("m_three", [edit("toolu_a"), edit("toolu_b"), grep("toolu_g")]),
  );
  assertEquals(scanText(text, P1, "toolu_alone")?.batchMates, 0);
  assertEquals(scanText(text, P1, "toolu_a")?.batchMates, 2);
  assertEquals(scanText(text, P1, "toolu_g")?.batchMates, 2);
  // The pending call not in the transcript yet, or no pending id: the log cannot tell.
  assertEquals(scanText(text, P1, "toolu_later")?.batchMates, null);
  assertEquals(scanText(text, P1, null)?.batchMates, null);
});
