import { assertEquals } from "../helpers/assert.ts";
import { loadAdapter, mergeOutcomes, type Translation } from "../../src/agents/adapter.ts";
import { toolArgsOf } from "../../src/agents/copilot.ts";

const calls = (t: Translation) => {
  if (t.kind !== "calls") throw new Error(`refused: ${t.text}`);
  return t.calls;
};

Deno.test("[agents] Codex: Bash is a shell call; apply_patch is one file call per file, a deletion also destructive", async () => {
  const codex = await loadAdapter("codex");
  const base = {
    session_id: "s1",
    turn_id: "t1",
    transcript_path: "/h/.codex/sessions/2026/12/01/rollout-x-s1.jsonl",
    cwd: "/p",
    hook_event_name: "PreToolUse",
    model: "gpt-5.5",
    permission_mode: "bypassPermissions",
    tool_use_id: "call_1",
  };
  assertEquals(
    calls(codex.translate({ ...base, tool_name: "Bash", tool_input: { command: "ls" } })),
    [
      {
        session_id: "s1",
        cwd: "/p",
        tool_name: "Bash",
        tool_input: { command: "ls" },
      },
    ],
  );
  const patch =
    "*** Begin Patch\n*** Add File: n.ts\n+x\n*** Update File: a.ts\n@@\n-1\n+2\n*** Delete File: d.ts\n*** End Patch\n";
  const out = calls(
    codex.translate({ ...base, tool_name: "apply_patch", tool_input: { command: patch } }),
  );
  assertEquals(out.map((c) => [c.tool_name, c.tool_input]), [
    ["Write", { file_path: "n.ts", content: "x\n" }],
    ["MultiEdit", {
      file_path: "a.ts",
      edits: [{ file_path: "a.ts", old_string: "1", new_string: "2" }],
    }],
    ["Bash", { command: "rm -rf -- 'd.ts'" }],
    ["MultiEdit", { file_path: "d.ts", edits: [] }],
  ]);
  for (const c of out) assertEquals([c.session_id, c.cwd], ["s1", "/p"]);
  // Shell calls carry no rollout: the shell gate would read it as Claude Code's transcript.
  assertEquals(out.map((c) => c.log_kind ?? null), ["codex", "codex", null, "codex"]);
  assertEquals(out[2].transcript_path, undefined);
  assertEquals(calls(codex.translate({ ...base, tool_name: "web_search", tool_input: {} })), []);
});

Deno.test("[agents] Codex: a denial and a note use the hookSpecificOutput form", async () => {
  const codex = await loadAdapter("codex");
  assertEquals(JSON.parse(codex.render({ kind: "deny", text: "why" })), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "why",
    },
  });
  assertEquals(JSON.parse(codex.render({ kind: "note", text: "n" })), {
    hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "n" },
  });
  assertEquals(codex.render({ kind: "pass" }), "");
});

Deno.test("[agents] Gemini: shell runs in dir_path, replace and write_file keep a relative path for the cwd", async () => {
  const gemini = await loadAdapter("gemini");
  const base = {
    session_id: "g1",
    transcript_path: "/h/.gemini/tmp/proj/chats/session-x.jsonl",
    cwd: "/p",
    hook_event_name: "BeforeTool",
    timestamp: "2026-12-01T18:29:43.274Z",
  };
  assertEquals(
    calls(gemini.translate({
      ...base,
      tool_name: "run_shell_command",
      tool_input: { command: "rm -rf build", description: "d", dir_path: "sub" },
    })),
    [{
      session_id: "g1",
      cwd: "/p/sub",
      transcript_path: "/h/.gemini/tmp/proj/chats/session-x.jsonl",
      log_kind: "gemini",
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
    }],
  );
  assertEquals(
    calls(
      gemini.translate({
        ...base,
        tool_name: "run_shell_command",
        tool_input: { command: "ls", dir_path: "/abs" },
      }),
    )[0].cwd,
    "/abs",
  );
  assertEquals(
    calls(gemini.translate({
      ...base,
      tool_name: "replace",
      tool_input: {
        file_path: "a.txt",
        old_string: "one",
        new_string: "two",
        instruction: "i",
        allow_multiple: true,
      },
    })),
    [{
      session_id: "g1",
      cwd: "/p",
      transcript_path: "/h/.gemini/tmp/proj/chats/session-x.jsonl",
      log_kind: "gemini",
      tool_name: "Edit",
      tool_input: { file_path: "a.txt", old_string: "one", new_string: "two", replace_all: true },
    }],
  );
  assertEquals(
    calls(
      gemini.translate({
        ...base,
        tool_name: "write_file",
        tool_input: { file_path: "b.txt", content: "new" },
      }),
    ),
    [{
      session_id: "g1",
      cwd: "/p",
      transcript_path: "/h/.gemini/tmp/proj/chats/session-x.jsonl",
      log_kind: "gemini",
      tool_name: "Write",
      tool_input: { file_path: "b.txt", content: "new" },
    }],
  );
  assertEquals(calls(gemini.translate({ ...base, tool_name: "read_file", tool_input: {} })), []);
});

Deno.test("[agents] Gemini: a denial is decision/reason, never continue:false; a note passes silently", async () => {
  const gemini = await loadAdapter("gemini");
  const denial = JSON.parse(gemini.render({ kind: "deny", text: "why" }));
  assertEquals(denial, { decision: "deny", reason: "why" });
  assertEquals("continue" in denial, false);
  assertEquals(gemini.render({ kind: "note", text: "n" }), "");
  assertEquals(gemini.render({ kind: "pass" }), "");
});

Deno.test("[agents] Copilot: camelCase payloads with toolArgs as an object or a JSON string", async () => {
  const copilot = await loadAdapter("copilot");
  const base = { sessionId: "c1", timestamp: 1796149823079, cwd: "/p" };
  const edit = { path: "/p/a.txt", old_str: "one", new_str: "two" };
  const expected = [{
    session_id: "c1",
    cwd: "/p",
    tool_name: "Edit",
    tool_input: { file_path: "/p/a.txt", old_string: "one", new_string: "two" },
  }];
  assertEquals(calls(copilot.translate({ ...base, toolName: "edit", toolArgs: edit })), expected);
  assertEquals(
    calls(copilot.translate({ ...base, toolName: "edit", toolArgs: JSON.stringify(edit) })),
    expected,
  );
  assertEquals(
    calls(
      copilot.translate({
        ...base,
        toolName: "create",
        toolArgs: { path: "/p/b.txt", file_text: "new" },
      }),
    )[0]
      .tool_input,
    { file_path: "/p/b.txt", content: "new" },
  );
  assertEquals(
    calls(
      copilot.translate({
        ...base,
        toolName: "bash",
        toolArgs: { command: "mkdir x", description: "d" },
      }),
    )[0],
    { session_id: "c1", cwd: "/p", tool_name: "Bash", tool_input: { command: "mkdir x" } },
  );
  assertEquals(
    calls(copilot.translate({ ...base, toolName: "powershell", toolArgs: { command: "ls" } }))[0]
      .tool_name,
    "PowerShell",
  );
  assertEquals(calls(copilot.translate({ ...base, toolName: "view", toolArgs: {} })), []);
  assertEquals(calls(copilot.translate({ ...base, toolName: "constructor", toolArgs: {} })), []);
  assertEquals(toolArgsOf("not json"), {});
  assertEquals(toolArgsOf("[1]"), {});
  assertEquals(JSON.parse(copilot.render({ kind: "deny", text: "why" })), {
    permissionDecision: "deny",
    permissionDecisionReason: "why",
  });
  assertEquals(copilot.render({ kind: "note", text: "n" }), "");
});

Deno.test("[agents] Cursor: Shell, Write, and Delete as destructive plus a file touch", async () => {
  const cursor = await loadAdapter("cursor");
  const base = {
    conversation_id: "k1",
    generation_id: "g",
    model: "m",
    hook_event_name: "preToolUse",
    cursor_version: "1",
    workspace_roots: ["/p"],
    transcript_path: null,
    tool_use_id: "t",
    cwd: "/p",
  };
  assertEquals(
    calls(
      cursor.translate({
        ...base,
        tool_name: "Shell",
        tool_input: { command: "ls", working_directory: "/p/sub" },
      }),
    ),
    [{ session_id: "k1", cwd: "/p/sub", tool_name: "Bash", tool_input: { command: "ls" } }],
  );
  assertEquals(
    calls(
      cursor.translate({
        ...base,
        tool_name: "Write",
        tool_input: { file_path: "/p/a.ts", content: "x" },
      }),
    ),
    [{
      session_id: "k1",
      cwd: "/p",
      tool_name: "Write",
      tool_input: { file_path: "/p/a.ts", content: "x" },
    }],
  );
  assertEquals(
    calls(cursor.translate({ ...base, tool_name: "Delete", tool_input: { path: "/p/it's.ts" } }))
      .map((c) => c.tool_input),
    [{ command: `rm -rf -- '/p/it'"'"'s.ts'` }, { file_path: "/p/it's.ts", edits: [] }],
  );
  assertEquals(JSON.parse(cursor.render({ kind: "deny", text: "why" })), {
    permission: "deny",
    agent_message: "why",
    user_message: "why",
  });
  assertEquals(cursor.render({ kind: "note", text: "n" }), "");
});

Deno.test("[agents] merged outcomes: every denial kept, else notes joined, else a pass", () => {
  assertEquals(
    mergeOutcomes([{ kind: "deny", text: "a" }, { kind: "note", text: "n" }, {
      kind: "deny",
      text: "b",
    }]),
    { kind: "deny", text: "a\n\nb" },
  );
  assertEquals(
    mergeOutcomes([{ kind: "note", text: "n" }, { kind: "pass" }, { kind: "note", text: "m" }]),
    {
      kind: "note",
      text: "n\nm",
    },
  );
  assertEquals(mergeOutcomes([]), { kind: "pass" });
});
