import { assertEquals } from "../helpers/assert.ts";
import { mergeOutcomes, type Translation } from "../../src/agents/adapter.ts";
import { loadAdapter } from "../../src/agents/registry.ts";
import { toolArgsOf } from "../../src/agents/copilot.ts";
import { copilotCallKey, copilotLogPath } from "../../src/session_logs/copilot_session.ts";
import type { HookCall } from "../../src/hook/call.ts";
import { AGENT_TOOLS, type OtherAgent } from "../../src/tools/gated.ts";

const calls = (t: Translation): HookCall[] => {
  if (t.kind !== "calls") throw new Error(`refused: ${t.text}`);
  return t.calls;
};

/** What a gate call asks: the tool it is decided as and the typed call. */
const asked = (c: HookCall): unknown[] => [c.toolName, c.typed];

const ENV = { HOME: "/home/u" };

Deno.test("[agents] Codex: Bash is a shell call; apply_patch is one file call per file, a deletion also destructive and reported as the file tool", async () => {
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
  const shell = calls(
    codex.translate({ ...base, tool_name: "Bash", tool_input: { command: "ls" } }, ENV),
  );
  assertEquals(shell, [{
    toolName: "Bash",
    toolInput: null,
    typed: { kind: "shell", dialect: "bash", command: "ls" },
    sessionId: "s1",
    transcriptPath: "/h/.codex/sessions/2026/12/01/rollout-x-s1.jsonl",
    cwd: "/p",
    toolUseId: "call_1",
    promptId: "t1",
    agentId: null,
    logKind: "codex",
  }]);
  const patch =
    "*** Begin Patch\n*** Add File: n.ts\n+x\n*** Update File: a.ts\n@@\n-1\n+2\n*** Delete File: d.ts\n*** End Patch\n";
  const out = calls(
    codex.translate({ ...base, tool_name: "apply_patch", tool_input: { command: patch } }, ENV),
  );
  assertEquals(out.map(asked), [
    ["Write", {
      kind: "file",
      touches: [{ path: "n.ts", verb: "write", change: { kind: "write", content: "x\n" } }],
    }],
    ["MultiEdit", {
      kind: "file",
      touches: [{
        path: "a.ts",
        verb: "edit",
        change: { kind: "edits", edits: [{ oldString: "1", newString: "2", replaceAll: false }] },
      }],
    }],
    [
      "MultiEdit",
      { kind: "shell", dialect: "bash", command: "rm -rf -- 'd.ts'", deletion: "d.ts" },
    ],
    ["MultiEdit", {
      kind: "file",
      touches: [{ path: "d.ts", verb: "edit", change: { kind: "opaque", removes: true } }],
    }],
  ]);
  for (const c of out) {
    assertEquals([c.sessionId, c.cwd, c.logKind, c.toolUseId], ["s1", "/p", "codex", "call_1"]);
  }
  assertEquals(
    calls(codex.translate({ ...base, tool_name: "web_search", tool_input: {} }, ENV)),
    [],
  );
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
  const translate = (tool_name: string, tool_input: Record<string, unknown>) =>
    calls(gemini.translate({ ...base, tool_name, tool_input }, ENV));
  const [shell] = translate("run_shell_command", {
    command: "rm -rf build",
    description: "d",
    dir_path: "sub",
  });
  assertEquals(asked(shell), ["Bash", { kind: "shell", dialect: "bash", command: "rm -rf build" }]);
  assertEquals(
    [shell.sessionId, shell.cwd, shell.transcriptPath, shell.logKind, shell.toolUseId],
    ["g1", "/p/sub", "/h/.gemini/tmp/proj/chats/session-x.jsonl", "gemini", null],
  );
  assertEquals(translate("run_shell_command", { command: "ls", dir_path: "/abs" })[0].cwd, "/abs");
  const replace = {
    file_path: "a.txt",
    old_string: "one",
    new_string: "two",
    instruction: "i",
    allow_multiple: true,
  };
  const [edit] = translate("replace", replace);
  assertEquals(asked(edit), ["Edit", {
    kind: "file",
    touches: [{
      path: "a.txt",
      verb: "edit",
      change: { kind: "edits", edits: [{ oldString: "one", newString: "two", replaceAll: true }] },
    }],
  }]);
  assertEquals([edit.cwd, edit.logKind], ["/p", "gemini"]);
  assertEquals(asked(translate("write_file", { file_path: "b.txt", content: "new" })[0]), [
    "Write",
    {
      kind: "file",
      touches: [{ path: "b.txt", verb: "write", change: { kind: "write", content: "new" } }],
    },
  ]);
  assertEquals(translate("read_file", {}), []);
});

Deno.test("[self-protection] Gemini: an MCP tool whose name says it changes files goes on with its input; a reading one is not asked about", async () => {
  const gemini = await loadAdapter("gemini");
  const base = { session_id: "g2", cwd: "/p", hook_event_name: "BeforeTool" };
  const translate = (tool_name: string, tool_input: unknown) =>
    calls(gemini.translate({ ...base, tool_name, tool_input }, ENV));
  const input = { path: "/h/.gemini/settings.json", content: "{}" };
  const [write] = translate("mcp_filesystem_write_file", input);
  assertEquals(
    [write.toolName, write.toolInput, write.typed, write.sessionId, write.cwd, write.logKind],
    ["mcp_filesystem_write_file", input, undefined, "g2", "/p", "gemini"],
  );
  // An input that is not an object names no path; the call still goes on.
  assertEquals(translate("mcp_filesystem_move_file", "x")[0].toolInput, null);
  assertEquals(translate("mcp_filesystem_read_file", input), []);
  assertEquals(translate("web_fetch", input), []);
});

Deno.test("[agents] Gemini: a denial is decision/reason, never continue:false; a note passes silently", async () => {
  const gemini = await loadAdapter("gemini");
  const denial = JSON.parse(gemini.render({ kind: "deny", text: "why" }));
  assertEquals(denial, { decision: "deny", reason: "why" });
  assertEquals("continue" in denial, false);
  assertEquals(gemini.render({ kind: "note", text: "n" }), "");
  assertEquals(gemini.render({ kind: "pass" }), "");
});

Deno.test("[agents] Copilot: a Claude-style hook file's snake_case payloads, with Claude Code's tool names over Copilot's arguments, are read as the camelCase ones", async () => {
  const copilot = await loadAdapter("copilot");
  // As Copilot CLI 1.0.102 sends them to a `PreToolUse` entry of a Claude-style file.
  const snake = (tool_name: string, tool_input: unknown) =>
    calls(copilot.translate({
      hook_event_name: "PreToolUse",
      session_id: "c1",
      timestamp: "2026-12-05T10:22:39.772Z",
      cwd: "/p",
      tool_name,
      tool_input,
    }, ENV));
  const camel = (toolName: string, toolArgs: unknown) =>
    calls(copilot.translate({ sessionId: "c1", timestamp: 1, cwd: "/p", toolName, toolArgs }, ENV));
  const pairs: [string, string, Record<string, unknown>][] = [
    ["Bash", "bash", { command: "rm -rf build", description: "d" }],
    ["PowerShell", "powershell", { command: "Remove-Item -Recurse build" }],
    ["Edit", "edit", { path: "/p/a.txt", old_str: "one", new_str: "two" }],
    ["Write", "create", { path: "/p/b.txt", file_text: "new" }],
    // A tool it does not rename keeps its own name there.
    ["apply_patch", "apply_patch", { input: "x" }],
  ];
  for (const [claudeName, copilotName, args] of pairs) {
    const input = copilotName === "apply_patch" ? "*** Begin Patch\n*** End Patch" : args;
    assertEquals(snake(claudeName, input), camel(copilotName, input), claudeName);
  }
  assertEquals(
    snake("Bash", { command: "ls" })[0].transcriptPath,
    "/home/u/.copilot/session-state/c1/events.jsonl",
  );
  // Read and other ungated tools stay ungated.
  assertEquals(snake("Read", { path: "/p/a.txt" }), []);
});

Deno.test("[agents] Copilot: camelCase payloads with toolArgs as an object or a JSON string; the log found by session id", async () => {
  const copilot = await loadAdapter("copilot");
  const base = { sessionId: "c1", timestamp: 1796149823079, cwd: "/p" };
  const translate = (toolName: string, toolArgs: unknown, env: Record<string, string> = ENV) =>
    calls(copilot.translate({ ...base, toolName, toolArgs }, env));
  const edit = { path: "/p/a.txt", old_str: "one", new_str: "two" };
  const typedEdit = {
    kind: "file",
    touches: [{
      path: "/p/a.txt",
      verb: "edit",
      change: { kind: "edits", edits: [{ oldString: "one", newString: "two", replaceAll: false }] },
    }],
  };
  const [fromObject] = translate("edit", edit);
  assertEquals(asked(fromObject), ["Edit", typedEdit]);
  assertEquals(asked(translate("edit", JSON.stringify(edit))[0]), ["Edit", typedEdit]);
  assertEquals(
    [fromObject.sessionId, fromObject.cwd, fromObject.transcriptPath, fromObject.logKind],
    ["c1", "/p", "/home/u/.copilot/session-state/c1/events.jsonl", "copilot"],
  );
  // The call is known in the log by its name and arguments, whatever their key order.
  assertEquals(
    fromObject.toolUseId,
    copilotCallKey("edit", { old_str: "one", new_str: "two", path: "/p/a.txt" }),
  );
  assertEquals(asked(translate("create", { path: "/p/b.txt", file_text: "new" })[0]), ["Write", {
    kind: "file",
    touches: [{ path: "/p/b.txt", verb: "write", change: { kind: "write", content: "new" } }],
  }]);
  assertEquals(asked(translate("bash", { command: "mkdir x", description: "d" })[0]), [
    "Bash",
    { kind: "shell", dialect: "bash", command: "mkdir x" },
  ]);
  assertEquals(asked(translate("powershell", { command: "ls" })[0]), [
    "PowerShell",
    { kind: "shell", dialect: "powershell", command: "ls" },
  ]);
  assertEquals(
    translate("bash", { command: "ls" }, { HOME: "/home/u", COPILOT_HOME: "/ch/" })[0]
      .transcriptPath,
    "/ch/session-state/c1/events.jsonl",
  );
  assertEquals(translate("view", {}), []);
  assertEquals(translate("constructor", {}), []);
  assertEquals(toolArgsOf("not json"), { ok: false, problem: "`toolArgs` is not an object" });
  assertEquals(toolArgsOf("[1]"), { ok: false, problem: "`toolArgs` is not an object" });
  assertEquals(JSON.parse(copilot.render({ kind: "deny", text: "why" })), {
    permissionDecision: "deny",
    permissionDecisionReason: "why",
  });
  assertEquals(copilot.render({ kind: "note", text: "n" }), "");
});

Deno.test("[agents] Copilot: a session id that is not one plain path segment names no log", () => {
  for (const id of ["../x", "a/b", "a\\b", "..", ".hidden", "", "x".repeat(200)]) {
    assertEquals(copilotLogPath(id, ENV), null, id);
  }
  assertEquals(copilotLogPath("ok-1", {}), null);
  assertEquals(
    copilotLogPath("ok-1", { USERPROFILE: "C:/Users/u" }),
    "C:/Users/u/.copilot/session-state/ok-1/events.jsonl",
  );
});

Deno.test("[agents] Cursor: Shell, Write, and Delete as destructive plus a file touch, both reported as the file tool", async () => {
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
  const translate = (tool_name: string, tool_input: Record<string, unknown>) =>
    calls(cursor.translate({ ...base, tool_name, tool_input }, ENV));
  const [shell] = translate("Shell", { command: "ls", working_directory: "/p/sub" });
  assertEquals(asked(shell), ["Bash", { kind: "shell", dialect: "bash", command: "ls" }]);
  // No transcript: Cursor's format is unknown here.
  assertEquals([shell.sessionId, shell.cwd, shell.transcriptPath], ["k1", "/p/sub", null]);
  assertEquals(asked(translate("Write", { file_path: "/p/a.ts", content: "x" })[0]), ["Write", {
    kind: "file",
    touches: [{ path: "/p/a.ts", verb: "write", change: { kind: "write", content: "x" } }],
  }]);
  assertEquals(translate("Delete", { target_file: "/p/it's.ts" }).map(asked), [
    [
      "MultiEdit",
      {
        kind: "shell",
        dialect: "bash",
        command: `rm -rf -- '/p/it'"'"'s.ts'`,
        deletion: "/p/it's.ts",
      },
    ],
    ["MultiEdit", {
      kind: "file",
      touches: [{ path: "/p/it's.ts", verb: "edit", change: { kind: "opaque", removes: true } }],
    }],
  ]);
  assertEquals(translate("Delete", {}).map(asked), [["MultiEdit", {
    kind: "malformed",
    tool: "Delete",
    problem: "it names no file (no `file_path`, `target_file`, `path`)",
  }]]);
  assertEquals(JSON.parse(cursor.render({ kind: "deny", text: "why" })), {
    permission: "deny",
    agent_message: "why",
    user_message: "why",
  });
  assertEquals(cursor.render({ kind: "note", text: "n" }), "");
});

Deno.test("[agents] every tool of the gated-tools table reaches its gate, and only those", async () => {
  for (
    const [agent, tools] of Object.entries(AGENT_TOOLS) as [OtherAgent, typeof AGENT_TOOLS.codex][]
  ) {
    const adapter = await loadAdapter(agent);
    for (const tool of tools) {
      const payload = agent === "copilot"
        ? {
          sessionId: "s",
          cwd: "/p",
          toolName: tool.name,
          toolArgs: tool.shape === "patch"
            ? "*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n*** End Patch\n"
            : {
              command: "ls",
              input: "ls{enter}",
              path: "/p/a",
              old_str: "a",
              new_str: "b",
              file_text: "x",
            },
        }
        : {
          session_id: "s",
          conversation_id: "s",
          cwd: "/p",
          tool_name: tool.name,
          tool_input: {
            command: tool.shape === "patch"
              ? "*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n*** End Patch\n"
              : "ls",
            file_path: "/p/a",
            old_string: "a",
            new_string: "b",
            content: "x",
          },
        };
      const out = calls(adapter.translate(payload, ENV));
      const kinds: unknown[] = [...new Set(out.map((c) => c.typed?.kind))];
      const want = tool.gate === "shell"
        ? ["shell"]
        : tool.shape === "delete"
        ? ["shell", "file"]
        : ["file"];
      assertEquals(kinds, want, `${agent} ${tool.name}`);
    }
    const other = agent === "copilot"
      ? { sessionId: "s", toolName: "Read", toolArgs: {} }
      : { session_id: "s", tool_name: "Read", tool_input: {} };
    assertEquals(calls(adapter.translate(other, ENV)), [], agent);
  }
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

Deno.test("[fail-to-deny] GateGuard registered as Claude Code's hook in another agent's file denies that agent's calls, naming the fix, instead of passing them unread", async () => {
  const claude = await loadAdapter("claude");
  const refused = (payload: Record<string, unknown>) => {
    const t = claude.translate(payload, ENV);
    return t.kind === "refuse" ? t.text : null;
  };
  const text = (agents: string, init: string) =>
    "[Fact-Forcing Gate] GateGuard is registered here as Claude Code's hook, but this call came " +
    `from ${agents}, whose calls it cannot read in that form, so it is denied. Ask the user to ` +
    `register GateGuard for this agent with ${init}.`;
  // Copilot CLI's own camelCase form.
  assertEquals(
    refused({ sessionId: "c1", cwd: "/p", toolName: "bash", toolArgs: { command: "rm -rf x" } }),
    text("Copilot CLI", "`gateguard init --agent copilot`"),
  );
  // Tool names no Claude Code tool has.
  assertEquals(
    refused({ session_id: "g", cwd: "/p", tool_name: "run_shell_command", tool_input: {} }),
    text("Gemini CLI", "`gateguard init --agent gemini`"),
  );
  assertEquals(
    refused({ session_id: "x", cwd: "/p", tool_name: "apply_patch", tool_input: {} }),
    text(
      "Codex CLI or Copilot CLI",
      "`gateguard init --agent codex` or `gateguard init --agent copilot`",
    ),
  );
  // Cursor loads Claude Code's own hook files, beside its own: its calls are not refused there.
  assertEquals(refused({ session_id: "x", cwd: "/p", tool_name: "Shell", tool_input: {} }), null);
  // Claude Code's own tools, gated or not, and tools GateGuard knows nothing of, are its own.
  for (
    const tool_name of [
      "Bash",
      "Edit",
      "Write",
      "Read",
      "Glob",
      "WebFetch",
      "mcp__srv__run",
      "Task",
    ]
  ) {
    assertEquals(
      refused({ session_id: "s", cwd: "/p", tool_name, tool_input: {} }),
      null,
      tool_name,
    );
  }
  // A camelCase name that is no Copilot tool is not taken for one.
  assertEquals(refused({ sessionId: "s", toolName: "view", toolArgs: {} }), null);
});
