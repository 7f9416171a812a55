import { tempFile } from "../helpers/temp.ts";
import { assertEquals } from "../helpers/assert.ts";
import { denialSeen, exitedCleanly, scanTurn } from "../../src/session_logs/codex_log.ts";
import { deletionCommand } from "../../src/tools/call.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { SCANNED_TOOL_NAMES } from "../../src/tools/gated.ts";

/** Records shaped like Codex 0.171.0's rollout lines (compact JSON, one per line). */
function call(turn: string, id: string, cmd: string, sampling: number | null): string {
  return JSON.stringify({
    timestamp: "2026-12-01T19:09:53.608Z",
    type: "response_item",
    payload: {
      type: "function_call",
      id: `fc_${id}`,
      name: "exec_command",
      arguments: JSON.stringify({ cmd }),
      call_id: id,
      internal_chat_message_metadata_passthrough: { turn_id: turn },
    },
    metadata: sampling === null ? {} : { history_sequence: 4, sampled_through_sequence: sampling },
  });
}

function output(turn: string, id: string, code: number, text = ""): string {
  return JSON.stringify({
    type: "response_item",
    payload: {
      type: "function_call_output",
      call_id: id,
      output:
        `Chunk ID: 2fbf2e\nWall time: 0.0221 seconds\nProcess exited with code ${code}\nOriginal token count: 4\nOutput:\n${text}`,
      internal_chat_message_metadata_passthrough: { turn_id: turn },
    },
  });
}

function patch(turn: string, id: string, sampling: number, body = ""): string {
  return JSON.stringify({
    type: "response_item",
    payload: {
      type: "custom_tool_call",
      call_id: id,
      name: "apply_patch",
      input: `*** Begin Patch\n${body}*** End Patch`,
      internal_chat_message_metadata_passthrough: { turn_id: turn },
    },
    metadata: { sampled_through_sequence: sampling },
  });
}

async function scan(lines: string[], turn: string | null, pending: string | null) {
  const path = await tempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  const out = scanTurn({
    transcriptPath: path,
    promptId: turn,
    toolUseId: pending,
    tools: SCANNED_TOOL_NAMES,
  }, denoFs);
  await Deno.remove(path);
  return out;
}

Deno.test("[prior-search-credit] Codex rollout: this turn's finished exec_command calls, newest first, as Bash calls", async () => {
  const out = await scan(
    [
      call("old", "c0", "grep -rn widget src", 1),
      output("old", "c0", 0, "src/a.ts:1:widget"),
      call("t1", "c1", "grep -rn widget src", 3),
      call("t1", "c2", "grep -rn nothing src", 3),
      output("t1", "c1", 0, "src/a.ts:1:widget"),
      output("t1", "c2", 1),
      patch("t1", "p1", 7),
    ],
    "t1",
    "p1",
  );
  assertEquals(out?.turnId, "t1");
  assertEquals(out?.pendingFound, true);
  assertEquals(out?.calls.map((c) => [c.id, c.tool, c.input.command, c.completed, c.sameBatch]), [
    ["c2", "Bash", "grep -rn nothing src", false, false],
    ["c1", "Bash", "grep -rn widget src", true, false],
  ]);
});

Deno.test("[same-batch-searches] Codex rollout: a search sampled with the edit is its batch", async () => {
  const out = await scan(
    [
      call("t1", "c1", "grep -rn widget src", 3),
      output("t1", "c1", 0, "x"),
      patch("t1", "p1", 3),
    ],
    "t1",
    "p1",
  );
  assertEquals(out?.calls.map((c) => c.sameBatch), [true]);
  // Without the pending record, the newest sampling is taken as the batch.
  const missing = await scan(
    [call("t1", "c1", "grep -rn w src", 3), output("t1", "c1", 0)],
    "t1",
    "p9",
  );
  assertEquals([missing?.pendingFound, missing?.calls[0].sameBatch], [false, true]);
});

Deno.test("[turn-boundaries] Codex rollout: no turn id, an untagged call or a foreign turn gives no credit", async () => {
  const lines = [call("t1", "c1", "grep -rn w src", 3), output("t1", "c1", 0)];
  assertEquals(await scan(lines, null, null), null);
  assertEquals(
    await scan([call("t1", "c1", "grep -rn w src", null), output("t1", "c1", 0)], "t1", null),
    null,
  );
  // An item of another turn after this turn's search ends the walk before it.
  const out = await scan([...lines, call("t2", "c3", "ls", 9)], "t1", null);
  assertEquals(out?.calls, []);
});

Deno.test("[tool-result-pairing] Codex rollout: only the header's exit code counts, never the command's own text", () => {
  assertEquals(exitedCleanly("Chunk ID: a\nProcess exited with code 0\nOutput:\nhi"), true);
  assertEquals(exitedCleanly("Exit code: 0\nWall time: 0 seconds\nOutput:\nok"), true);
  assertEquals(
    exitedCleanly("Process exited with code 1\nOutput:\nProcess exited with code 0\n"),
    false,
  );
  assertEquals(exitedCleanly("Command blocked by PreToolUse hook: no. Command: grep x"), false);
  assertEquals(exitedCleanly({ output: "Process exited with code 0\nOutput:\n" }), false);
});

Deno.test("[search-scope] Codex rollout: a command run in its own workdir is left out", async () => {
  const other = JSON.parse(call("t1", "c1", "grep -rn w .", 3));
  other.payload.arguments = JSON.stringify({ cmd: "grep -rn w .", workdir: "/elsewhere" });
  const out = await scan([JSON.stringify(other), output("t1", "c1", 0)], "t1", null);
  assertEquals(out?.calls, []);
});

const BLOCKED = "Command blocked by PreToolUse hook: no. Command: rm -r build";

function blocked(turn: string, id: string, type = "function_call_output"): string {
  return JSON.stringify({
    type: "response_item",
    payload: {
      type,
      call_id: id,
      output: BLOCKED,
      internal_chat_message_metadata_passthrough: { turn_id: turn },
    },
  });
}

async function seen(lines: string[], pending: string | null, command = "rm -r build") {
  const path = await tempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  const out = denialSeen(
    { transcriptPath: path, toolUseId: pending, tool: "Bash", command },
    denoFs,
  );
  await Deno.remove(path);
  return out;
}

Deno.test("[destructive-bash-gate] Codex rollout: a copy sampled with the denied call has not seen the denial; a retry of a later sampling has", async () => {
  // As Codex 0.171.0 wrote them: both copies of one sampling before either hook ran.
  const sameSampling = [call("t", "c0", "rm -r build", 3), call("t", "c1", "rm -r build", 3)];
  assertEquals(await seen(sameSampling, "c1"), "unseen");
  const retried = [...sameSampling, blocked("t", "c0"), blocked("t", "c1")];
  assertEquals(await seen([...retried, call("t", "c2", "rm -r build", 7)], "c2"), "seen");
  // The output must be written before the retry: one written after it was not read.
  assertEquals(
    await seen([
      call("t", "c0", "rm -r build", 3),
      call("t", "c2", "rm -r build", 7),
      blocked("t", "c0"),
    ], "c2"),
    "unseen",
  );
  // Without sampling tags the batch cannot be told apart.
  assertEquals(
    await seen([
      call("t", "c0", "rm -r build", null),
      blocked("t", "c0"),
      call("t", "c2", "rm -r build", null),
    ], "c2"),
    "unseen",
  );
  // No earlier copy in reach: one more denial, never a pass.
  assertEquals(await seen([call("t", "c2", "rm -r build", 7)], "c2"), "unseen");
});

Deno.test("[destructive-bash-gate] Codex rollout: a patch deleting a file is the earlier copy of that deletion", async () => {
  const del = "*** Delete File: old.ts\n";
  const command = deletionCommand("old.ts");
  assertEquals(
    await seen(
      [
        patch("t", "p0", 3, del),
        blocked("t", "p0", "custom_tool_call_output"),
        patch("t", "p1", 7, del),
      ],
      "p1",
      command,
    ),
    "seen",
  );
  assertEquals(
    await seen([patch("t", "p0", 3, del), patch("t", "p1", 3, del)], "p1", command),
    "unseen",
  );
  // A patch deleting another file is no copy.
  assertEquals(
    await seen(
      [
        patch("t", "p0", 3, "*** Delete File: other.ts\n"),
        blocked("t", "p0", "custom_tool_call_output"),
        patch("t", "p1", 7, del),
      ],
      "p1",
      command,
    ),
    "unseen",
  );
});

Deno.test("[destructive-bash-gate] Codex rollout: without the pending call's record or a call id nothing is known", async () => {
  assertEquals(
    await seen([call("t", "c0", "rm -r build", 3), blocked("t", "c0")], "c9"),
    "unknown",
  );
  assertEquals(await seen([call("t", "c0", "rm -r build", 3)], null), "unknown");
  assertEquals(
    denialSeen(
      { transcriptPath: "/nonexistent.jsonl", toolUseId: "c", tool: "Bash", command: "x" },
      denoFs,
    ),
    "unknown",
  );
});
