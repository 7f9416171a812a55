import { tempFile } from "../helpers/temp.ts";
import { assertEquals } from "../helpers/assert.ts";
import { denialSeen, scanTurn, shellResultClean } from "../../src/session_logs/gemini_log.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { SCANNED_TOOL_NAMES } from "../../src/tools/gated.ts";

/** Records shaped like Gemini CLI 0.61.0's chat log lines. */
const header = JSON.stringify({ sessionId: "s", projectHash: "h", kind: "main" });
const prompt = (id: string, text: string) =>
  JSON.stringify({ id, timestamp: "t", type: "user", content: [{ text }] });
const responses = (id: string) =>
  JSON.stringify({
    id,
    type: "user",
    content: [{ functionResponse: { id: "x", name: "run_shell_command", response: {} } }],
  });
const reply = (id: string, toolCalls?: unknown[]) =>
  JSON.stringify({ id, type: "gemini", content: "", ...(toolCalls ? { toolCalls } : {}) });
const shell = (id: string, command: string, output: string, status = "success") => ({
  id,
  name: "run_shell_command",
  args: { command, description: "d" },
  result: [{ functionResponse: { id, name: "run_shell_command", response: { output } } }],
  status,
});

async function scan(lines: string[]) {
  const path = await tempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  const out = scanTurn({
    transcriptPath: path,
    promptId: null,
    toolUseId: null,
    tools: SCANNED_TOOL_NAMES,
  }, denoFs);
  await Deno.remove(path);
  return out;
}

const OK =
  "<untrusted_context>\nOutput: src/a.ts:1:widget\nProcess Group PGID: 1\n</untrusted_context>";
const EXIT1 =
  "<untrusted_context>\nOutput: (empty)\nExit Code: 1\nProcess Group PGID: 2\n</untrusted_context>";

Deno.test("[prior-search-credit] Gemini chat log: this turn's run_shell_command calls, newest version of each record", async () => {
  const out = await scan([
    header,
    prompt("p0", "earlier request"),
    reply("r0", [shell("old", "grep -rn widget src", OK)]),
    prompt("p1", "make widget return 2"),
    reply("r1"),
    reply("r1", [shell("c1", "grep -rn widget src", OK), shell("c2", "grep -rn nope src", EXIT1)]),
    responses("u1"),
    reply("r2"),
  ]);
  assertEquals(out?.turnId, "p1");
  assertEquals(out?.calls.map((c) => [c.id, c.input.command, c.completed, c.sameBatch]), [
    ["c2", "grep -rn nope src", false, false],
    ["c1", "grep -rn widget src", true, false],
  ]);
});

Deno.test("[same-batch-searches] Gemini chat log: calls of the newest reply are the pending batch", async () => {
  const out = await scan([
    prompt("p1", "go"),
    reply("r1", [shell("c1", "grep -rn widget src", OK)]),
  ]);
  assertEquals(out?.calls.map((c) => c.sameBatch), [true]);
});

Deno.test("[turn-boundaries] Gemini chat log: no turn start gives nothing; errors and dir_path give no completed call", async () => {
  assertEquals(await scan([header, reply("r1", [shell("c1", "grep -rn w src", OK)])]), null);
  const elsewhere = {
    ...shell("c3", "grep -rn w .", OK),
    args: { command: "grep -rn w .", dir_path: "/x" },
  };
  const out = await scan([
    prompt("p1", "go"),
    reply("r1", [shell("c1", "grep -rn w src", OK, "error"), elsewhere]),
    reply("r2"),
  ]);
  assertEquals(out?.calls.map((c) => [c.id, c.completed, c.denied]), [["c1", false, true]]);
});

Deno.test("[tool-result-pairing] Gemini chat log: a non-zero exit, a signal or an error line is not clean", () => {
  assertEquals(shellResultClean(OK), true);
  assertEquals(shellResultClean(EXIT1), false);
  assertEquals(shellResultClean("Output: x\nExit Code: 0"), true);
  assertEquals(shellResultClean("Output: x\nSignal: 9"), false);
  assertEquals(shellResultClean("Error: spawn failed"), false);
});

const denied = (id: string, command: string) => ({
  id,
  name: "run_shell_command",
  args: { command },
  result: [{
    functionResponse: {
      id,
      name: "run_shell_command",
      response: { error: "Tool execution blocked: no" },
    },
  }],
  status: "error",
});

async function seen(lines: string[], command = "rm -r build") {
  const path = await tempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  const out = denialSeen({ transcriptPath: path, toolUseId: null, tool: "Bash", command }, denoFs);
  await Deno.remove(path);
  return out;
}

Deno.test("[destructive-bash-gate] Gemini chat log: a retry in a later reply has seen the denial; a copy in the pending reply has not", async () => {
  // As Gemini CLI 0.61.0 wrote it at the retry's hook: the earlier reply with its calls, the pending reply without.
  const retried = [
    header,
    prompt("p1", "clean"),
    reply("r1"),
    reply("r1", [denied("c0", "rm -r build"), denied("c1", "rm -r build")]),
    responses("u1"),
    reply("r2"),
  ];
  assertEquals(await seen(retried), "seen");
  // At the second copy's hook the pending reply's calls are not written yet: no copy found.
  assertEquals(await seen([header, prompt("p1", "clean"), reply("r1")]), "unseen");
  // Should the pending reply already list a copy, it rode in the same reply.
  assertEquals(
    await seen([header, prompt("p1", "clean"), reply("r1", [denied("c0", "rm -r build")])]),
    "unseen",
  );
  // A copy without a recorded result was never answered.
  assertEquals(
    await seen([
      prompt("p1", "clean"),
      reply("r1", [{ id: "c0", name: "run_shell_command", args: { command: "rm -r build" } }]),
      reply("r2"),
    ]),
    "unseen",
  );
  assertEquals(await seen(retried, "rm -r dist"), "unseen");
});

Deno.test("[destructive-bash-gate] Gemini chat log: no reply or no file is unknown", async () => {
  assertEquals(await seen([header, prompt("p1", "clean")]), "unknown");
  assertEquals(
    denialSeen({
      transcriptPath: "/nonexistent.jsonl",
      toolUseId: null,
      tool: "Bash",
      command: "x",
    }, denoFs),
    "unknown",
  );
});
