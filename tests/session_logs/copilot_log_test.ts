import { tempFile } from "../helpers/temp.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { denialSeen, PENDING_RESCAN, scanTurn } from "../../src/session_logs/copilot_log.ts";
import { copilotCallKey } from "../../src/session_logs/copilot_session.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { SCANNED_TOOL_NAMES } from "../../src/tools/gated.ts";

/**
 * Copilot CLI 1.0.102 event logs copied by a probe hook at the moment the
 * hook ran (paths rewritten to /work/run, the system prompt left out).
 */
const FIXTURES = new URL("../fixtures/copilot-1.0.102/", import.meta.url);
const fixture = (name: string): string => new URL(name, FIXTURES).pathname;

const EDIT = {
  path: "/work/run/proj/src/widget.ts",
  old_str: "return 1;",
  new_str: "return 2;",
};
const rm = { command: "rm -r build", description: "x" };

function scan(name: string, key: string) {
  return scanTurn({
    transcriptPath: fixture(name),
    promptId: null,
    toolUseId: key,
    tools: SCANNED_TOOL_NAMES,
  }, denoFs);
}

async function temp(lines: unknown[]): Promise<string> {
  const path = await tempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

const event = (type: string, data: Record<string, unknown>, extra = {}) => ({
  type,
  data,
  id: crypto.randomUUID(),
  timestamp: "t",
  parentId: null,
  ...extra,
});
const userMessage = (content: string) => event("user.message", { content, turnId: "0" });
const reply = (messageId: string, requests: [string, string, unknown][]) =>
  event("assistant.message", {
    messageId,
    content: "",
    toolRequests: requests.map(([toolCallId, name, args]) => ({
      toolCallId,
      name,
      arguments: args,
      type: "function",
    })),
  });
const complete = (toolCallId: string, exitCode: number | null, success = true) =>
  event("tool.execution_complete", {
    toolCallId,
    success,
    ...(exitCode === null ? {} : { shellExecution: { exitCode } }),
    result: { content: "out" },
  });

Deno.test("[prior-search-credit] Copilot events: a grep of this turn, completed with exit 0, counts for the edit after it", () => {
  const out = scan("grep-then-edit.at-edit-hook.jsonl", copilotCallKey("edit", EDIT));
  assertEquals(out?.pendingFound, true);
  assertEquals(typeof out?.turnId, "string");
  assertEquals(out?.calls.map((c) => [c.id, c.tool, c.input.command, c.completed, c.sameBatch]), [
    ["call_001_1", "Bash", "ls", true, false],
    ["call_001_0", "Bash", "false", false, false],
    ["call_000_0", "Bash", "grep -rn widget src", true, false],
  ]);
});

Deno.test("[same-batch-searches] Copilot events: a reply not yet written leaves the newest written reply as the pending batch", () => {
  // The hook of `false` ran before the client wrote the reply carrying it.
  const key = copilotCallKey("bash", { command: "false", description: "f" });
  const out = scan("grep-then-batch.lagging.jsonl", key);
  assertEquals(out?.pendingFound, false);
  assertEquals(out?.calls.map((c) => [c.id, c.completed, c.sameBatch]), [
    ["call_000_0", true, true],
  ]);
});

Deno.test("[turn-boundaries] Copilot events: the turn starts at the newest user message; no start, no scan", async () => {
  const grep = { command: "grep -rn widget src", description: "d" };
  const path = await temp([
    userMessage("earlier"),
    reply("m0", [["old", "bash", grep]]),
    complete("old", 0),
    userMessage("now"),
    reply("m1", [["c1", "bash", grep]]),
    complete("c1", 0),
  ]);
  const out = scanTurn({
    transcriptPath: path,
    promptId: null,
    toolUseId: "none",
    tools: SCANNED_TOOL_NAMES,
  }, denoFs);
  assertEquals(out?.calls.map((c) => c.id), ["c1"]);
  const headless = await temp([reply("m1", [["c1", "bash", grep]]), complete("c1", 0)]);
  assertEquals(
    scanTurn({
      transcriptPath: headless,
      promptId: null,
      toolUseId: null,
      tools: SCANNED_TOOL_NAMES,
    }, denoFs),
    null,
  );
  await Deno.remove(path);
  await Deno.remove(headless);
});

Deno.test("[tool-result-pairing] Copilot events: only success with exit 0 completes; sub-agents, other shells' options and denials never do", async () => {
  const grep = (extra = {}) => ({ command: "grep -rn widget src", description: "d", ...extra });
  const path = await temp([
    userMessage("go"),
    reply("m1", [
      ["plain", "bash", grep()],
      ["nonzero", "bash", grep()],
      ["noexit", "bash", grep()],
      ["async", "bash", grep({ mode: "async" })],
      ["denied", "bash", grep()],
    ]),
    complete("plain", 0),
    complete("nonzero", 1),
    complete("noexit", null),
    complete("async", 0),
    event("tool.execution_complete", {
      toolCallId: "denied",
      success: false,
      error: { message: "Denied by preToolUse hook: no", code: "denied" },
    }),
    // A sub-agent's events are not this turn's calls.
    event("assistant.message", {
      messageId: "sub",
      toolRequests: [{ toolCallId: "sub1", name: "bash", arguments: grep() }],
    }, { agentId: "a1" }),
    reply("m2", [["edit", "edit", EDIT]]),
  ]);
  const out = scanTurn(
    {
      transcriptPath: path,
      promptId: null,
      toolUseId: copilotCallKey("edit", EDIT),
      tools: SCANNED_TOOL_NAMES,
    },
    denoFs,
  );
  assertEquals(out?.calls.map((c) => [c.id, c.completed, c.denied]), [
    ["denied", false, true],
    ["noexit", false, false],
    ["nonzero", false, false],
    ["plain", true, false],
  ]);
  await Deno.remove(path);
});

Deno.test("[destructive-bash-gate] Copilot events: a copy in the denied call's own reply has not seen the denial; a retry in the next reply has", () => {
  const call = (name: string) => ({
    transcriptPath: fixture(name),
    toolUseId: copilotCallKey("bash", rm),
    tool: "Bash",
    command: "rm -r build",
  });
  assertEquals(denialSeen(call("rm-twice-in-one-reply.at-second-hook.jsonl"), denoFs), "unseen");
  assertEquals(denialSeen(call("rm-retried-next-reply.at-retry-hook.jsonl"), denoFs), "seen");
  // Another command's retry is judged by its own earlier copy: none here.
  assertEquals(
    denialSeen(
      { ...call("rm-retried-next-reply.at-retry-hook.jsonl"), command: "rm -r dist" },
      denoFs,
    ),
    "unseen",
  );
});

Deno.test("[destructive-bash-gate] Copilot events: a pending call not yet written, a missing log or no key is unknown", async () => {
  const lagging = {
    transcriptPath: fixture("grep-then-batch.lagging.jsonl"),
    toolUseId: copilotCallKey("bash", { command: "false", description: "f" }),
    tool: "Bash",
    command: "false",
  };
  assertEquals(denialSeen(lagging, denoFs), "unknown");
  assertEquals(
    denialSeen({ ...lagging, transcriptPath: "/nonexistent/x.jsonl" }, denoFs),
    "unknown",
  );
  assertEquals(denialSeen({ ...lagging, toolUseId: null }, denoFs), "unknown");
  // The earlier copy's denial written only after the pending reply could not be read.
  const path = await temp([
    userMessage("go"),
    reply("m1", [["a", "bash", rm]]),
    reply("m2", [["b", "bash", rm]]),
    complete("a", null, false),
  ]);
  assertEquals(
    denialSeen({
      ...lagging,
      transcriptPath: path,
      toolUseId: copilotCallKey("bash", rm),
      command: "rm -r build",
    }, denoFs),
    "unseen",
  );
  await Deno.remove(path);
});

Deno.test("[same-batch-searches] Copilot events: the gates wait longer for Copilot's lagging log than for a transcript", async () => {
  const { turnReader } = await import("../../src/session_logs/session_logs.ts");
  const { PENDING_RESCAN: transcript } = await import("../../src/session_logs/tail.ts");
  const copilot = (await turnReader("copilot")).PENDING_RESCAN;
  assertEquals(copilot, PENDING_RESCAN);
  assert(copilot.retries * copilot.delayMs > transcript.retries * transcript.delayMs);
  assertEquals((await turnReader("codex")).PENDING_RESCAN, transcript);
});
