import { assertEquals } from "../helpers/assert.ts";
import { parseCall } from "../../src/hook/call.ts";

Deno.test("[pretooluse-input] non-JSON and non-object stdin are not calls", () => {
  assertEquals(parseCall("not json"), { ok: false, reason: "stdin is not JSON" });
  assertEquals(parseCall("[1,2]"), { ok: false, reason: "stdin is not a JSON object" });
  assertEquals(parseCall("null"), { ok: false, reason: "stdin is not a JSON object" });
  assertEquals(parseCall('"Edit"'), { ok: false, reason: "stdin is not a JSON object" });
});

Deno.test("[pretooluse-input] fields of the wrong type read as absent", () => {
  const r = parseCall(JSON.stringify({
    tool_name: 7,
    tool_input: [1],
    session_id: { a: 1 },
    transcript_path: "",
    cwd: null,
    tool_use_id: 3,
    prompt_id: [],
    agent_id: "",
    permission_mode: { mode: "bypassPermissions" },
  }));
  assertEquals(r, {
    ok: true,
    call: {
      toolName: "",
      toolInput: null,
      sessionId: null,
      transcriptPath: null,
      cwd: null,
      toolUseId: null,
      promptId: null,
      agentId: null,
      permissionMode: null,
    },
  });
});

Deno.test("[subagents] any of the four subagent fields marks a subagent call", () => {
  for (const field of ["agent_id", "agentId", "parent_tool_use_id", "parentToolUseId"]) {
    const r = parseCall(JSON.stringify({ tool_name: "Edit", [field]: "sub-1" }));
    assertEquals(r.ok && r.call.agentId, "sub-1", field);
  }
  const none = parseCall(JSON.stringify({ tool_name: "Edit", agent_id: 5, agentId: "" }));
  assertEquals(none.ok && none.call.agentId, null);
});

Deno.test("[pretooluse-input] a full Claude Code payload is read field by field", () => {
  const r = parseCall(JSON.stringify({
    session_id: "3ad2",
    transcript_path: "/h/.claude/projects/p/3ad2.jsonl",
    cwd: "/tmp/proj",
    prompt_id: "8d65",
    permission_mode: "acceptEdits",
    hook_event_name: "PreToolUse",
    tool_name: "Edit",
    tool_input: { file_path: "/tmp/proj/a.txt", old_string: "a", new_string: "b" },
    tool_use_id: "toolu_1",
  }));
  assertEquals(r, {
    ok: true,
    call: {
      toolName: "Edit",
      toolInput: { file_path: "/tmp/proj/a.txt", old_string: "a", new_string: "b" },
      sessionId: "3ad2",
      transcriptPath: "/h/.claude/projects/p/3ad2.jsonl",
      cwd: "/tmp/proj",
      toolUseId: "toolu_1",
      promptId: "8d65",
      agentId: null,
      permissionMode: "acceptEdits",
    },
  });
});
