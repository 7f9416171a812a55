/**
 * The file gate's rescan for a transcript that lags behind the hook call:
 * Claude Code may run the hook before it has written the pending call's own
 * assistant record, and the previous batch must not be taken for it.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { decide } from "../../src/hook/decide.ts";
import { callFromObject } from "../../src/hook/call.ts";
import type { DecideContext } from "../../src/hook/decision.ts";
import { settingsFrom } from "../../src/config/settings.ts";
import { emptyState } from "../../src/state/schema.ts";
import type { StatResult } from "../../src/platform/fs_port.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { PENDING_RESCAN } from "../../src/session_logs/tail.ts";
import { assistant, filler, jsonl, MemoryFs, prompt, result, ROOT } from "./builder.ts";

const TRANSCRIPT = "/t.jsonl";
const WIDGET = `${ROOT}/src/widget.ts`;
const PROMPT = "0b1c2d3e-0000-4000-8000-00000000b001";
const PENDING = "toolu_edit";
const GREP = "grep -rn widget src";

const TURN = jsonl(
  prompt("make widget return 2", PROMPT),
  assistant("msg_grep", [{ id: "toolu_grep", name: "Bash", input: { command: GREP } }]),
  result("toolu_grep", PROMPT, { content: "src/widget.ts:1:export function widget" }),
);
const EDIT_INPUT = { file_path: WIDGET, old_string: "return 1;", new_string: "return 2;" };
const EDIT_RECORDS = jsonl(
  assistant("msg_edit", [{ id: PENDING, name: "Edit", input: EDIT_INPUT }]),
);

/**
 * A port whose transcript gains the pending Edit's record at the `lag`-th
 * look at the file after the first walk (before any walk for 0, never for
 * null). With `grow`, every such look also appends a record that is not
 * the Edit's.
 */
class LaggingFs extends MemoryFs {
  walks = 0;
  #looks = 0;
  #text = TURN;

  constructor(private readonly lag: number | null, private readonly grow = false) {
    super({ [TRANSCRIPT]: TURN, [WIDGET]: "export function widget() {\n  return 1;\n}\n" }, [
      ROOT,
      `${ROOT}/src`,
    ]);
  }

  override stat(path: string): StatResult {
    if (path === TRANSCRIPT) {
      if (this.walks > 0) this.#looks++;
      if (this.lag !== null && this.#looks >= this.lag && !this.#text.endsWith(EDIT_RECORDS)) {
        this.#text += EDIT_RECORDS;
      } else if (this.grow && this.walks > 0) {
        this.#text += jsonl(filler("attachment", 200));
      }
      this.write(TRANSCRIPT, this.#text);
    }
    return super.stat(path);
  }

  override readRange(path: string, offset: number, length: number): Uint8Array | null {
    const info = super.stat(path);
    // A walk starts with the chunk at the end of the file.
    if (path === TRANSCRIPT && info.ok && offset + length === info.size) this.walks++;
    return super.readRange(path, offset, length);
  }
}

/**
 * Runs `run` while recording the delay of every timer it sets: the gate's
 * pauses between rescans are counted, never measured with a clock.
 */
async function countingPauses<T>(run: () => Promise<T>): Promise<{ result: T; pauses: number[] }> {
  const pauses: number[] = [];
  const real = globalThis.setTimeout;
  globalThis.setTimeout = ((handler: () => void, ms?: number) => {
    pauses.push(ms ?? 0);
    return real(handler, ms);
  }) as typeof setTimeout;
  try {
    return { result: await run(), pauses };
  } finally {
    globalThis.setTimeout = real;
  }
}

function editCall(fs: LaggingFs): DecideContext {
  return {
    call: callFromObject({
      session_id: "s1",
      transcript_path: TRANSCRIPT,
      cwd: ROOT,
      prompt_id: PROMPT,
      tool_use_id: PENDING,
      hook_event_name: "PreToolUse",
      tool_name: "Edit",
      tool_input: EDIT_INPUT,
    }),
    settings: settingsFrom({ CLAUDE_PROJECT_DIR: ROOT }),
    state: emptyState(0),
    ports: { fs, now: 0, processCwd: ROOT, hostWindows: false },
    budget: new WorkBudget(),
  };
}

Deno.test("[same-batch-searches] a grep from the previous batch credits the Edit once the Edit's own record lands", async () => {
  for (const lag of [0, 1, PENDING_RESCAN.retries]) {
    const fs = new LaggingFs(lag);
    const decision = await decide(editCall(fs));
    assertEquals(decision.outcome.kind, "note", `lag ${lag}`);
    if (decision.outcome.kind === "note") assertStringIncludes(decision.outcome.text, GREP);
    assertEquals(decision.delta.inc.fact_force_credited, 1);
    // The first walk, and one more once the file grew by the Edit's record.
    assertEquals(fs.walks, lag === 0 ? 1 : 2, `lag ${lag}`);
  }
});

Deno.test("[same-batch-searches] when the Edit's record never lands, the newest message is taken as its batch after the retries", async () => {
  for (const grow of [false, true]) {
    const fs = new LaggingFs(null, grow);
    const { result: decision, pauses } = await countingPauses(() => decide(editCall(fs)));
    // A file that did not grow is not read again; one that grew is, each time.
    assertEquals(fs.walks, grow ? 1 + PENDING_RESCAN.retries : 1, `grow ${grow}`);
    assertEquals(decision.outcome.kind, "deny");
    if (decision.outcome.kind === "deny") {
      assertStringIncludes(
        decision.outcome.text,
        `Closest search this turn did not count (Bash ${GREP}): it was sent in the same batch`,
      );
    }
    // One pause before each rescan, counted rather than timed.
    assertEquals(
      pauses,
      Array(PENDING_RESCAN.retries).fill(PENDING_RESCAN.delayMs),
      `grow ${grow}`,
    );
  }
});

Deno.test("[same-batch-searches] a call without a tool_use_id is scanned once and falls back at once", async () => {
  const fs = new LaggingFs(null);
  const ctx = editCall(fs);
  ctx.call.toolUseId = null;
  const { result: decision, pauses } = await countingPauses(() => decide(ctx));
  assertEquals(fs.walks, 1);
  assertEquals(pauses, []);
  assertEquals(decision.outcome.kind, "deny");
});
