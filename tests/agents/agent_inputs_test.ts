/**
 * Other agents' tool inputs, read strictly: Copilot CLI's `write_bash`,
 * `write_powershell` and `apply_patch` from real recorded payloads, Cursor's
 * path spellings, and every adapter's route for an input it cannot read,
 * which is denied on every try instead of passing with no command or file.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import type { Translation } from "../../src/agents/adapter.ts";
import { type AgentName, loadAdapter } from "../../src/agents/registry.ts";
import { typedCommand } from "../../src/agents/copilot_input.ts";
import { decide } from "../../src/hook/decide.ts";
import type { HookCall } from "../../src/hook/call.ts";
import type { Decision } from "../../src/hook/decision.ts";
import { malformedInputText } from "../../src/questions/messages.ts";
import { OPEN_INPUT_PROBLEM } from "../../src/tools/session_input.ts";
import { contextFor, ROOT } from "../hook/context.ts";

const ENV = { HOME: "/home/u" };

/** The hook payloads Copilot CLI 1.0.102 sent (tests/fixtures/copilot-1.0.102/README.md). */
const RECORDED: Record<string, unknown>[] = JSON.parse(
  await Deno.readTextFile(
    new URL("../fixtures/copilot-1.0.102/hook-payloads.json", import.meta.url),
  ),
);

function recorded(toolName: string): Record<string, unknown> {
  const found = RECORDED.find((p) => p.toolName === toolName);
  if (!found) throw new Error(`no recorded ${toolName} payload`);
  return found;
}

const calls = (t: Translation): HookCall[] => {
  if (t.kind !== "calls") throw new Error(`refused: ${t.text}`);
  return t.calls;
};

const asked = (c: HookCall): unknown[] => [c.toolName, c.typed];

async function translate(agent: AgentName, payload: Record<string, unknown>): Promise<HookCall[]> {
  return calls((await loadAdapter(agent)).translate(payload, ENV));
}

/** Decides an adapter's gate call in a fresh session of the in-memory project. */
function decideCall(call: HookCall, env: Record<string, string> = {}): Promise<Decision> {
  const ctx = contextFor("Edit", {}, { env });
  return decide({ ...ctx, call: { ...call, cwd: ROOT } });
}

function deniedText(d: Decision): string {
  return d.outcome.kind === "deny" ? d.outcome.text : `(${d.outcome.kind})`;
}

Deno.test("[agents] Copilot: the recorded write_bash and write_powershell read as shell calls typed into a session", async () => {
  const bash = await translate("copilot", recorded("write_bash"));
  assertEquals(bash.map(asked), [[
    "Bash",
    { kind: "shell", dialect: "bash", command: "rm -rf build", session: "write_bash" },
  ]]);
  assertEquals(
    [bash[0].sessionId, bash[0].cwd, bash[0].logKind],
    ["234791ec-7d8f-48da-b617-1bf013db4ecc", "/work/run/proj", "copilot"],
  );
  const ps = await translate("copilot", recorded("write_powershell"));
  assertEquals(ps.map(asked), [[
    "PowerShell",
    {
      kind: "shell",
      dialect: "powershell",
      command: "Remove-Item -Recurse build",
      session: "write_powershell",
    },
  ]]);
  // Both go through the destructive gate like any shell command.
  for (const call of [...bash, ...ps]) {
    const d = await decideCall(call, { GATEGUARD_METRICS: "1" });
    assertStringIncludes(deniedText(d), "Destructive command detected");
    assertEquals(d.events.map((e) => e.reason), ["destructive"]);
  }
});

Deno.test("[agents] Copilot: the recorded apply_patch, raw patch text, reads as one file touch per file and a destructive deletion", async () => {
  const out = await translate("copilot", recorded("apply_patch"));
  assertEquals(out.map(asked), [
    ["Write", {
      kind: "file",
      touches: [{ path: "b.txt", verb: "write", change: { kind: "write", content: "new\n" } }],
    }],
    ["MultiEdit", {
      kind: "file",
      touches: [{
        path: "/work/run/proj/a.txt",
        verb: "edit",
        change: {
          kind: "edits",
          edits: [{ oldString: "one", newString: "two", replaceAll: false }],
        },
      }],
    }],
    ["MultiEdit", {
      kind: "shell",
      dialect: "bash",
      command: "rm -rf -- '/work/run/proj/c.txt'",
      deletion: "/work/run/proj/c.txt",
    }],
    ["MultiEdit", {
      kind: "file",
      touches: [{
        path: "/work/run/proj/c.txt",
        verb: "edit",
        change: { kind: "opaque", removes: true },
      }],
    }],
  ]);
  // The relative path resolves against the payload's cwd, where Copilot CLI created the file.
  assertEquals(out[0].cwd, "/work/run/proj");
  // The session log records a free-form tool's arguments as the text itself.
  assertEquals(out[0].toolUseId, JSON.stringify(["apply_patch", recorded("apply_patch").toolArgs]));
});

Deno.test("[fail-to-deny] Copilot: typed input is read only as whole lines it runs; keys that edit the line, control characters and an unended line are not", () => {
  assertEquals(typedCommand("ls{enter}pwd\r\n"), { ok: true, value: "ls\npwd" });
  assertEquals(typedCommand("y\n"), { ok: true, value: "y" });
  assertEquals(typedCommand(""), { ok: true, value: "" });
  const editing = (key: string) =>
    `it sends the key {${key}}, which edits or recalls the shell's line in a way GateGuard ` +
    `cannot follow`;
  const control = "it sends a control character (such as a tab, which completes a word), " +
    "which edits the shell's line in a way GateGuard cannot follow";
  const unended = "its last line does not end with {enter}, so the next input would finish it " +
    "and run it unseen";
  const cases: [string, string][] = [
    ["{up}{enter}", editing("up")],
    ["rm -rf ~/x{left}{left}{backspace}{enter}", editing("left")],
    ["x -rf ~{home}rm {enter}", editing("home")],
    ["echo ${HOME}{enter}", editing("HOME")],
    ["rm -rf sr\t{enter}", control],
    ["rm -rf x\x15ls\n", control],
    ["\x1b[A\n", control],
    ["rm -rf ~", unended],
    ["ls\nrm -rf ~", unended],
    ["ls{Enter}", editing("Enter")],
  ];
  for (const [input, problem] of cases) {
    assertEquals(typedCommand(input), { ok: false, problem }, JSON.stringify(input));
  }
});

Deno.test("[fail-to-deny] Copilot: typed input that leaves a command open for the next input is denied on every try, naming the tool", async () => {
  const base = { sessionId: "c9", timestamp: 1, cwd: ROOT };
  const open = [
    ["write_bash", "echo 'x{enter}"],
    ["write_bash", "rm -rf \\{enter}"],
    ["write_bash", "cat <<EOF{enter}x{enter}"],
    ["write_bash", "ls |{enter}"],
    ["write_powershell", "Remove-Item -Recurse `{enter}"],
    ["write_powershell", "gci |{enter}"],
    ["write_powershell", "@'{enter}x{enter}"],
  ];
  for (const [toolName, input] of open) {
    const [call] = await translate("copilot", {
      ...base,
      toolName,
      toolArgs: { shellId: "s", input, delay: 5 },
    });
    for (let attempt = 0; attempt < 2; attempt++) {
      const d = await decideCall(call, { GATEGUARD_METRICS: "1" });
      assertEquals(deniedText(d), malformedInputText(toolName, OPEN_INPUT_PROBLEM), input);
      assertEquals(d.events.map((e) => e.reason), ["malformed-input"]);
    }
  }
  // A whole line passes the open-input check and meets the shell gates as usual.
  const [ls] = await translate("copilot", {
    ...base,
    toolName: "write_bash",
    toolArgs: { shellId: "s", input: "ls -la{enter}", delay: 5 },
  });
  const d = await decideCall(ls, { GATEGUARD_METRICS: "1" });
  assertEquals(d.events.map((e) => e.reason), ["readonly"]);
});

Deno.test("[fail-to-deny] every adapter denies a gated tool whose input it cannot read, naming the tool and the field", async () => {
  const codex = { session_id: "s", cwd: ROOT };
  const gemini = { session_id: "s", cwd: ROOT };
  const copilot = { sessionId: "s", cwd: ROOT };
  const cursor = { conversation_id: "s", cwd: ROOT };
  const cases: [AgentName, Record<string, unknown>, string, string][] = [
    ["codex", { ...codex, tool_name: "Bash" }, "Bash", "`tool_input` is missing"],
    [
      "codex",
      { ...codex, tool_name: "Bash", tool_input: { cmd: "ls" } },
      "Bash",
      "`command` is missing",
    ],
    [
      "codex",
      { ...codex, tool_name: "apply_patch", tool_input: "x" },
      "apply_patch",
      "`tool_input` is not an object",
    ],
    [
      "codex",
      { ...codex, tool_name: "apply_patch", tool_input: { patch: "x" } },
      "apply_patch",
      "`command` is missing",
    ],
    [
      "codex",
      { ...codex, tool_name: "apply_patch", tool_input: { command: "rm -rf x" } },
      "apply_patch",
      "the patch names no file",
    ],
    [
      "gemini",
      { ...gemini, tool_name: "write_file", tool_input: { path: "a.ts", content: "x" } },
      "write_file",
      "`file_path` is missing",
    ],
    [
      "gemini",
      {
        ...gemini,
        tool_name: "replace",
        tool_input: { file_path: "a.ts", old_string: "a", new_string: "b", allow_multiple: "yes" },
      },
      "replace",
      "`allow_multiple` is not true or false",
    ],
    [
      "gemini",
      { ...gemini, tool_name: "run_shell_command", tool_input: { command: "ls", dir_path: 3 } },
      "run_shell_command",
      "`dir_path` is not text",
    ],
    [
      "copilot",
      { ...copilot, toolName: "bash", toolArgs: "not json" },
      "bash",
      "`toolArgs` is not an object",
    ],
    ["copilot", { ...copilot, toolName: "bash" }, "bash", "`toolArgs` is missing"],
    [
      "copilot",
      { ...copilot, toolName: "edit", toolArgs: { file_path: "/p/a", old_str: "a" } },
      "edit",
      "`path` is missing",
    ],
    [
      "copilot",
      { ...copilot, toolName: "create", toolArgs: { path: "/p/a", content: "x" } },
      "create",
      "`file_text` is missing",
    ],
    [
      "copilot",
      { ...copilot, toolName: "write_bash", toolArgs: { shellId: "s", text: "ls\n" } },
      "write_bash",
      "`input` is missing",
    ],
    [
      "copilot",
      { ...copilot, toolName: "apply_patch", toolArgs: { input: "*** Begin Patch" } },
      "apply_patch",
      "`toolArgs` is not patch text",
    ],
    [
      "copilot",
      {
        ...copilot,
        toolName: "apply_patch",
        toolArgs: '{"input":"*** Begin Patch\\n*** Add File: x\\n+y\\n*** End Patch"}',
      },
      "apply_patch",
      "the patch names no file",
    ],
    [
      "cursor",
      { ...cursor, tool_name: "Shell", tool_input: { cmd: "ls" } },
      "Shell",
      "`command` is missing",
    ],
    [
      "cursor",
      { ...cursor, tool_name: "Write", tool_input: { content: "x" } },
      "Write",
      "it names no file (no `file_path`, `target_file`, `path`)",
    ],
    [
      "cursor",
      { ...cursor, tool_name: "Write", tool_input: { file_path: "/p/a", content: 1 } },
      "Write",
      "`content` is not text",
    ],
    [
      "cursor",
      { ...cursor, tool_name: "Delete", tool_input: { file_path: "/p/a", target_file: "/p/b" } },
      "Delete",
      "it names two different paths, `file_path` and `target_file`",
    ],
    [
      "cursor",
      { ...cursor, tool_name: "Delete", tool_input: { target_file: 7 } },
      "Delete",
      "`target_file` is not text",
    ],
  ];
  for (const [agent, payload, tool, problem] of cases) {
    const out = await translate(agent, payload);
    assertEquals(
      out.map((c) => c.typed),
      [{ kind: "malformed", tool, problem }],
      `${agent} ${tool}`,
    );
    for (let attempt = 0; attempt < 2; attempt++) {
      assertEquals(deniedText(await decideCall(out[0])), malformedInputText(tool, problem));
    }
  }
  // Optional fields stay optional: Copilot's edit without new_str deletes the old text.
  const [cut] = await translate("copilot", {
    ...copilot,
    toolName: "edit",
    toolArgs: { path: "/p/a", old_str: "a" },
  });
  assertEquals(cut.typed, {
    kind: "file",
    touches: [{
      path: "/p/a",
      verb: "edit",
      change: { kind: "edits", edits: [{ oldString: "a", newString: "", replaceAll: false }] },
    }],
  });
});

Deno.test("[agents] Cursor: target_file and path are read like file_path; Shell's cwd and the workspace root say where a call runs", async () => {
  const base = { conversation_id: "k1", hook_event_name: "preToolUse", cwd: "/p" };
  for (const field of ["file_path", "target_file", "path"]) {
    assertEquals(
      (await translate("cursor", { ...base, tool_name: "Delete", tool_input: { [field]: "/p/x" } }))
        .map(asked),
      [
        ["MultiEdit", {
          kind: "shell",
          dialect: "bash",
          command: "rm -rf -- '/p/x'",
          deletion: "/p/x",
        }],
        ["MultiEdit", {
          kind: "file",
          touches: [{ path: "/p/x", verb: "edit", change: { kind: "opaque", removes: true } }],
        }],
      ],
      field,
    );
  }
  // The same path under two spellings is one path.
  assertEquals(
    (await translate("cursor", {
      ...base,
      tool_name: "Write",
      tool_input: { file_path: "/p/a", target_file: "/p/a", content: "x" },
    })).map(asked),
    [["Write", {
      kind: "file",
      touches: [{ path: "/p/a", verb: "write", change: { kind: "write", content: "x" } }],
    }]],
  );
  // A Write without content is still gated; its change is not read.
  assertEquals(
    (await translate("cursor", {
      ...base,
      tool_name: "Write",
      tool_input: { target_file: "/p/a" },
    }))
      .map(asked),
    [["Write", {
      kind: "file",
      touches: [{ path: "/p/a", verb: "write", change: { kind: "opaque" } }],
    }]],
  );
  const [shell] = await translate("cursor", {
    ...base,
    cwd: "",
    workspace_roots: ["/C:/Users/u/proj"],
    tool_name: "Shell",
    tool_input: { command: "git status", cwd: "", timeout: 30000 },
  });
  assertEquals([shell.cwd, shell.typed], ["C:/Users/u/proj", {
    kind: "shell",
    dialect: "bash",
    command: "git status",
  }]);
  const [sub] = await translate("cursor", {
    ...base,
    tool_name: "Shell",
    tool_input: { command: "ls", cwd: "sub" },
  });
  assertEquals(sub.cwd, "/p/sub");
});

Deno.test("[fail-to-deny] a file call naming no file is denied by the file gate, never passed", async () => {
  const [call] = await translate("copilot", {
    sessionId: "s",
    cwd: ROOT,
    toolName: "create",
    toolArgs: { path: `${ROOT}/a.ts`, file_text: "x" },
  });
  const none = { ...call, typed: { kind: "file" as const, touches: [] } };
  const d = await decideCall(none, { GATEGUARD_METRICS: "1" });
  assertEquals(deniedText(d), malformedInputText("Write", "it names no file"));
  assertEquals([d.rules, d.events.map((e) => e.reason)], [["input"], ["malformed-input"]]);
});
