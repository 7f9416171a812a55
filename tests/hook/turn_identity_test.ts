/**
 * The turn a file call belongs to when the transcript does not show it yet:
 * Claude Code creates the transcript after the session's first hook call and
 * writes a new prompt or a compaction a little late, so the payload's
 * `prompt_id` has to name the turn on its own.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { decide } from "../../src/hook/decide.ts";
import { callFromObject } from "../../src/hook/call.ts";
import type { DecideContext, Decision } from "../../src/hook/decision.ts";
import { settingsFrom } from "../../src/config/settings.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { applyDelta, emptyState, type SessionState } from "../../src/state/schema.ts";
import {
  assistant,
  compaction,
  jsonl,
  MemoryFs,
  prompt,
  result,
  ROOT,
} from "../session_logs/builder.ts";

const TRANSCRIPT = "/home/.claude/projects/proj/s1.jsonl";
const NEWMOD = `${ROOT}/src/newmod`;
const P1 = "0b1c2d3e-0000-4000-8000-00000000c001";
const P2 = "0b1c2d3e-0000-4000-8000-00000000c002";

function fsWith(transcript: string | null): MemoryFs {
  const fs = new MemoryFs({}, [ROOT, `${ROOT}/src`, NEWMOD]);
  if (transcript !== null) fs.write(TRANSCRIPT, transcript);
  return fs;
}

function write(
  file: string,
  fs: MemoryFs,
  state: SessionState,
  payload: Record<string, unknown>,
): Promise<Decision> {
  const ctx: DecideContext = {
    call: callFromObject({
      session_id: "s1",
      transcript_path: TRANSCRIPT,
      cwd: ROOT,
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: `${NEWMOD}/${file}`, content: "export const x = 1;\n" },
      ...payload,
    }),
    settings: settingsFrom({ CLAUDE_PROJECT_DIR: ROOT }),
    state,
    ports: { fs, now: 1_000, processCwd: ROOT, hostWindows: false },
    budget: new WorkBudget(),
  };
  return decide(ctx);
}

/** The transcript after the first Write was denied, as the client writes it. */
function afterFirstWrite(promptId: string): string {
  return jsonl(
    prompt("add the newmod module", promptId),
    assistant("msg_1", [{ id: "toolu_1", name: "Write", input: {} }]),
    result("toolu_1", promptId, { error: true, content: "PreToolUse:Write hook error: …" }),
    assistant("msg_2", [{ id: "toolu_2", name: "Write", input: {} }]),
  );
}

/** Denies alpha.ts under `first`, then writes beta.ts under `second`; returns beta's decision. */
async function pair(
  first: { transcript: string | null; payload: Record<string, unknown> },
  second: { transcript: string | null; payload: Record<string, unknown> },
): Promise<{ alpha: Decision; beta: Decision }> {
  const alpha = await write("alpha.ts", fsWith(first.transcript), emptyState(0), first.payload);
  const state = applyDelta(emptyState(0), alpha.delta, 1_000);
  const beta = await write("beta.ts", fsWith(second.transcript), state, second.payload);
  return { alpha, beta };
}

const SIBLING_NOTE = `Sibling of ${NEWMOD}/alpha.ts (gated earlier at denial #1 this session)`;

Deno.test("[turn-identity] the session's first Write, before the transcript exists, is stamped with the payload prompt_id", async () => {
  const { alpha, beta } = await pair(
    { transcript: null, payload: { prompt_id: P1, tool_use_id: "toolu_1" } },
    { transcript: afterFirstWrite(P1), payload: { prompt_id: P1, tool_use_id: "toolu_2" } },
  );
  assertEquals(alpha.outcome.kind, "deny");
  assertEquals(Object.values(alpha.delta.dirGates).map((g) => g.turn), [P1]);
  assertEquals(beta.outcome, { kind: "note", text: SIBLING_NOTE });
});

Deno.test("[turn-identity] a transcript still showing the previous prompt does not hide the new turn", async () => {
  const previous = jsonl(prompt("earlier request", P1), assistant("msg_0", []));
  const { alpha, beta } = await pair(
    { transcript: previous, payload: { prompt_id: P2, tool_use_id: "toolu_1" } },
    { transcript: previous + afterFirstWrite(P2), payload: { prompt_id: P2 } },
  );
  assertEquals(Object.values(alpha.delta.dirGates).map((g) => g.turn), [P2]);
  assertEquals(beta.outcome.kind, "note");
});

Deno.test("[turn-identity] the first Write after a compaction whose records are not written yet keeps the prompt's turn", async () => {
  // The compaction summary carries no id of this prompt; the payload still names the turn.
  const compacted = jsonl(prompt("earlier request", P1), compaction("compaction-prompt"));
  const { beta } = await pair(
    { transcript: jsonl(prompt("earlier request", P1)), payload: { prompt_id: P1 } },
    { transcript: compacted, payload: { prompt_id: P1 } },
  );
  assertEquals(beta.outcome, { kind: "note", text: SIBLING_NOTE });
});

Deno.test("[same-turn-sibling-creation-collapse] a Write of the next prompt is not a sibling, whatever the transcript shows", async () => {
  const { beta } = await pair(
    { transcript: null, payload: { prompt_id: P1 } },
    { transcript: null, payload: { prompt_id: P2 } },
  );
  assertEquals(beta.outcome.kind, "deny");
  if (beta.outcome.kind === "deny") assertStringIncludes(beta.outcome.text, "beta.ts");
});

Deno.test("[same-turn-sibling-creation-collapse] without a prompt_id, a transcript that cannot be read never collapses", async () => {
  const { alpha, beta } = await pair(
    { transcript: null, payload: {} },
    { transcript: null, payload: {} },
  );
  assertEquals(Object.values(alpha.delta.dirGates).map((g) => g.turn), [null]);
  assertEquals(beta.outcome.kind, "deny");
});

Deno.test("[same-turn-sibling-creation-collapse] without any transcript path, the payload prompt_id still decides the turn", async () => {
  const noPath = { transcript_path: null };
  const same = await pair(
    { transcript: null, payload: { ...noPath, prompt_id: P1 } },
    { transcript: null, payload: { ...noPath, prompt_id: P1 } },
  );
  assertEquals(same.beta.outcome.kind, "note");
  const other = await pair(
    { transcript: null, payload: { ...noPath, prompt_id: P1 } },
    { transcript: null, payload: { ...noPath, prompt_id: P2 } },
  );
  assertEquals(other.beta.outcome.kind, "deny");
  const neither = await pair(
    { transcript: null, payload: noPath },
    { transcript: null, payload: noPath },
  );
  assertEquals(neither.beta.outcome.kind, "note");
});
