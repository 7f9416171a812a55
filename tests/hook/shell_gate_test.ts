/**
 * The shell gates in process, for what the Bash and PowerShell tables do
 * not reach: a deletion by a file tool (a Codex `*** Delete File`, a Cursor
 * `Delete`), decided by the destructive gate as its stand-in command.
 */

import { assert, assertEquals, assertNotIncludes } from "../helpers/assert.ts";
import { decide } from "../../src/hook/decide.ts";
import { deletionHit } from "../../src/hook/shell_gate.ts";
import { destructiveDenialText } from "../../src/questions/shell_texts.ts";
import { type AgentName, loadAdapter } from "../../src/agents/registry.ts";
import { applyDelta, emptyState, type SessionState } from "../../src/state/schema.ts";
import { contextFor, ROOT } from "./context.ts";
import { projectFs } from "./session.ts";

/** The destructive gate's answers to the shell calls an agent's payload becomes, in order. */
async function deletionAnswers(
  agent: AgentName,
  payload: Record<string, unknown>,
  times: number,
): Promise<string[]> {
  const fs = projectFs({ "old.ts": "x\n" });
  let state: SessionState = emptyState(0);
  const adapter = await loadAdapter(agent);
  const answers: string[] = [];
  for (let i = 0; i < times; i++) {
    const translated = adapter.translate({ session_id: "s1", cwd: ROOT, ...payload }, {});
    assert(translated.kind === "calls");
    for (const call of translated.calls.filter((c) => c.typed?.kind === "shell")) {
      const d = await decide({ ...contextFor("x", {}, { fs, state }), call });
      state = applyDelta(state, d.delta, 1_000);
      answers.push(d.outcome.kind === "deny" ? d.outcome.text : d.outcome.kind);
    }
  }
  return answers;
}

Deno.test("[destructive-bash-gate] a Codex Delete File denial says it deletes that file, under its own rule", async () => {
  const [first, retry, again] = await deletionAnswers("codex", {
    tool_name: "apply_patch",
    tool_input: { command: "*** Begin Patch\n*** Delete File: old.ts\n*** End Patch\n" },
  }, 3);
  assertEquals(first, destructiveDenialText("tool", "delete-file", "deletes old.ts"));
  assert(first.endsWith("\nWhat it destroys (tool/delete-file): deletes old.ts."), first);
  assertNotIncludes(first, "directory tree");
  assertNotIncludes(first, "rm -rf");
  // The retry passes once, as for any destructive command; the next attempt is denied again.
  assertEquals(retry, "pass");
  assertEquals(again, first);
});

Deno.test("[destructive-bash-gate] a Cursor Delete denial names the file it deletes", async () => {
  const [first] = await deletionAnswers("cursor", {
    hook_event_name: "preToolUse",
    tool_name: "Delete",
    tool_input: { file_path: `${ROOT}/old.ts` },
  }, 1);
  assertEquals(first, destructiveDenialText("tool", "delete-file", `deletes ${ROOT}/old.ts`));
});

Deno.test("[fail-to-deny] a deletion's path is shown without control characters", () => {
  assertEquals(deletionHit("a\nb\u202e.ts"), {
    pack: "tool",
    rule: "delete-file",
    destroys: "deletes a b .ts",
  });
});
