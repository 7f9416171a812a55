import { assertEquals } from "../helpers/assert.ts";
import { denialCouldBeSeen } from "../../src/session_logs/denial_seen.ts";
import { denialSeen } from "../../src/session_logs/claude_log.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { assistant, jsonl, MemoryFs, prompt, result, ROOT } from "./builder.ts";
import { retryAfterDenial, twiceInOneMessage } from "../helpers/hostile.ts";

const PATH = `${ROOT}/t.jsonl`;
const RM = "rm -rf build";

function seen(text: string, toolUseId: string, command = RM): ReturnType<typeof denialSeen> {
  return denialSeen(
    { transcriptPath: PATH, toolUseId, tool: "Bash", command },
    new MemoryFs({
      [PATH]: text,
    }),
  );
}

Deno.test("[destructive-bash-gate] a copy in the denied call's own message has not seen the denial", () => {
  assertEquals(seen(twiceInOneMessage("t1", "t2", RM, "p"), "t2"), "unseen");
  // Even once the first copy's result is written after the message.
  const later = twiceInOneMessage("t1", "t2", RM, "p") + jsonl(result("t1", "p", { error: true }));
  assertEquals(seen(later, "t2"), "unseen");
});

Deno.test("[destructive-bash-gate] a retry sent after the denied call's result has seen it", () => {
  assertEquals(seen(retryAfterDenial("t1", "t2", RM, "p"), "t2"), "seen");
  // A different command, or another tool, is not the denied call.
  assertEquals(seen(retryAfterDenial("t1", "t2", RM, "p"), "t2", "rm -rf dist"), "seen");
});

Deno.test("[destructive-bash-gate] a retry whose earlier copy has no result before it has not seen the denial", () => {
  const text = jsonl(
    prompt("clean", "p"),
    assistant("m1", [{ id: "t1", name: "Bash", input: { command: RM } }]),
    assistant("m2", [{ id: "t2", name: "Bash", input: { command: RM } }]),
    result("t1", "p", { error: true }),
  );
  assertEquals(seen(text, "t2"), "unseen");
  // The newest earlier copy decides, not an older one whose result was read.
  const older = retryAfterDenial("t0", "t1", RM, "p") + jsonl(
    assistant("m3", [{ id: "t2", name: "Bash", input: { command: RM } }]),
  );
  assertEquals(seen(older, "t2"), "unseen");
});

Deno.test("[destructive-bash-gate] without the pending call's record or a walk, nothing is known and the retry waits", async () => {
  assertEquals(seen(retryAfterDenial("t1", "t2", RM, "p"), "t9"), "unknown");
  const fs = new MemoryFs({ [PATH]: retryAfterDenial("t1", "t2", RM, "p") });
  const call = { transcriptPath: PATH, toolUseId: "t2", tool: "Bash", command: RM };
  assertEquals(denialSeen(call, fs, new WorkBudget(10)), "unknown");
  assertEquals(await denialCouldBeSeen({ ...call, toolUseId: "t9" }, fs), false);
  assertEquals(await denialCouldBeSeen(call, fs), true);
});

Deno.test("[claude-settings] a file call is matched by its whole input, whatever the key order", () => {
  const input = { file_path: "/p/.claude/settings.json", content: '{"disableAllHooks":true}' };
  const reordered = { content: input.content, file_path: input.file_path };
  const sameMessage = jsonl(
    prompt("hooks off", "p"),
    assistant("m1", [{ id: "t1", name: "Write", input }, { id: "t2", name: "Write", input }]),
  );
  const fileSeen = (text: string, pending: Record<string, unknown>) =>
    denialSeen(
      { transcriptPath: PATH, toolUseId: "t2", tool: "Write", input: pending },
      new MemoryFs({ [PATH]: text }),
    );
  assertEquals(fileSeen(sameMessage, reordered), "unseen");
  // Another content is another call: nothing earlier was denied for it.
  assertEquals(fileSeen(sameMessage, { ...input, content: "{}" }), "seen");
});
