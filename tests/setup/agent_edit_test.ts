import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { editAgentRegistration } from "../../src/setup/agent_edit.ts";
import { AGENT_REGISTRATIONS, agentCommand } from "../../src/setup/agent_registrations.ts";

const CMD = "/opt/bin/gateguard";

function added(agent: keyof typeof AGENT_REGISTRATIONS, original: string | null): string {
  const out = editAgentRegistration(AGENT_REGISTRATIONS[agent], original, CMD, "add");
  if (!out.ok || out.text === null) throw new Error(out.ok ? "no text" : out.error);
  return out.text;
}

Deno.test("[init] Codex: one PreToolUse entry for Bash|apply_patch running hook --agent codex; a second run changes nothing", () => {
  const text = added("codex", null);
  assertEquals(JSON.parse(text), {
    hooks: {
      PreToolUse: [{
        matcher: "Bash|apply_patch",
        hooks: [{ type: "command", command: `${CMD} hook --agent codex`, timeout: 30 }],
      }],
    },
  });
  assertEquals(added("codex", text), text);
});

Deno.test("[init] Gemini: a BeforeTool entry with a millisecond timeout is added beside the user's settings and comments", () => {
  const original = '{\n  // my theme\n  "ui": { "theme": "dark" }\n}\n';
  const text = added("gemini", original);
  assertStringIncludes(text, "// my theme");
  assertStringIncludes(text, '"theme": "dark"');
  const hooks = JSON.parse(text.replace("// my theme", "")).hooks.BeforeTool;
  assertEquals(hooks[0].matcher, "run_shell_command|write_file|replace");
  assertEquals(hooks[0].hooks[0], {
    type: "command",
    name: "gateguard",
    command: `${CMD} hook --agent gemini`,
    timeout: 30000,
  });
  const removed = editAgentRegistration(AGENT_REGISTRATIONS.gemini, text, CMD, "remove");
  assertEquals(removed, { ok: true, text: original, leftAlone: [] });
});

Deno.test("[init] Copilot: its own gateguard.json, written whole, removed whole, never over someone else's hook", () => {
  const reg = AGENT_REGISTRATIONS.copilot;
  const text = added("copilot", null);
  const command = agentCommand(CMD, "copilot");
  assertEquals(JSON.parse(text), {
    version: 1,
    hooks: {
      preToolUse: [{ type: "command", bash: command, powershell: command, timeoutSec: 30 }],
    },
  });
  assertEquals(added("copilot", text), text);
  assertEquals(editAgentRegistration(reg, text, CMD, "remove"), { ok: true, text: null });
  const foreign = JSON.stringify({
    version: 1,
    hooks: { preToolUse: [{ type: "command", bash: "./audit.sh" }] },
  });
  const refused = editAgentRegistration(reg, foreign, CMD, "add");
  assert(!refused.ok);
  assertEquals(editAgentRegistration(reg, foreign, CMD, "remove").ok, false);
  assertEquals(editAgentRegistration(reg, "{ broken", CMD, "add").ok, false);
});

Deno.test("[init] Cursor: a flat preToolUse handler with failClosed, beside the user's hooks, updated in place", () => {
  const original = [
    "{",
    '  "version": 1,',
    '  "hooks": {',
    '    "preToolUse": [',
    '      { "command": "./audit.sh", "matcher": "Shell" }',
    "    ]",
    "  }",
    "}",
    "",
  ].join("\n");
  const text = added("cursor", original);
  const list = JSON.parse(text).hooks.preToolUse;
  assertEquals(list[0], { command: "./audit.sh", matcher: "Shell" });
  assertEquals(list[1], {
    command: `${CMD} hook --agent cursor`,
    matcher: "Shell|Write|Delete",
    timeout: 30,
    failClosed: true,
  });
  assertEquals(added("cursor", text), text);
  const stale = text.replace('"failClosed": true', '"failClosed": false');
  assertEquals(added("cursor", stale), text);
  const removed = editAgentRegistration(AGENT_REGISTRATIONS.cursor, text, CMD, "remove");
  assert(removed.ok && removed.text !== null);
  assertEquals(JSON.parse(removed.text).hooks.preToolUse, [{
    command: "./audit.sh",
    matcher: "Shell",
  }]);
});

Deno.test("[init] removing Cursor's handler takes the list and the hooks object it emptied, comments kept", () => {
  const remove = (text: string) => {
    const out = editAgentRegistration(AGENT_REGISTRATIONS.cursor, text, CMD, "remove");
    assert(out.ok && out.text !== null);
    return out.text;
  };
  // Added to a file of the user's own, removed again: only the user's keys and comments remain.
  const own = '{\n  // team settings\n  "version": 1\n}\n';
  assertEquals(remove(added("cursor", own)), own);
  // Another event stays; the emptied preToolUse goes.
  const other =
    '{\n  "version": 1,\n  "hooks": {\n    // audit\n    "stop": [{ "command": "./done.sh" }]\n  }\n}\n';
  const back = remove(added("cursor", other));
  assertEquals(JSON.parse(back.replace(/\/\/.*\n/g, "\n")), {
    version: 1,
    hooks: { stop: [{ command: "./done.sh" }] },
  });
  assert(back.includes("// audit"));
  // A list or hooks object the user left empty is not ours to take.
  const empty = '{ "version": 1, "hooks": { "preToolUse": [] } }\n';
  assertEquals(remove(empty), empty);
});

Deno.test("[init] every agent's registration reaches its shell and edit tools", () => {
  for (const reg of Object.values(AGENT_REGISTRATIONS)) {
    const layout = reg.layout;
    const matcher = layout.kind === "grouped"
      ? layout.format.entries[0].matcher
      : layout.kind === "flat"
      ? layout.format.handler(CMD).matcher
      : null;
    for (const tool of [...reg.shellTools, ...reg.editTools]) {
      if (matcher === null) continue; // Copilot's hook file has no matcher: every tool reaches it.
      assert(
        layout.kind !== "owned" && layout.format.covers(matcher, tool),
        `${reg.agent}: ${tool}`,
      );
    }
  }
});
