/**
 * The self-protection rule for every agent's file tools, in process: each
 * agent's payload goes through its adapter and `decide()` on the in-memory
 * filesystem, and a change to GateGuard's control surface that would
 * weaken it is stopped on every try, while one that weakens nothing goes
 * on to the ordinary gate.
 */

import { hitsOf } from "./shell_reader.ts";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { decide } from "../../src/hook/decide.ts";
import type { Decision } from "../../src/hook/decision.ts";
import { mergeOutcomes } from "../../src/agents/adapter.ts";
import { type AgentName, loadAdapter } from "../../src/agents/registry.ts";
import { AGENT_REGISTRATIONS, agentCommand } from "../../src/setup/agent_registrations.ts";
import { wantedGroups } from "../../src/setup/registration_edit.ts";
import { emptyState, type SessionState } from "../../src/state/schema.ts";
import { contextFor, MemoryFs, ROOT } from "./context.ts";

const CMD = "/usr/local/bin/gateguard";
const HOME = "/home/u";

function grouped(agent: "codex" | "gemini", extra: Record<string, unknown> = {}): string {
  const layout = AGENT_REGISTRATIONS[agent].layout;
  if (layout.kind !== "grouped") throw new Error(agent);
  const hooks = { [layout.format.event]: wantedGroups(layout.format, agentCommand(CMD, agent)) };
  return JSON.stringify({ ...extra, hooks }, null, 2) + "\n";
}

function cursorFile(extraHandler?: Record<string, unknown>): string {
  const layout = AGENT_REGISTRATIONS.cursor.layout;
  if (layout.kind !== "flat") throw new Error("cursor");
  const handlers = [layout.format.handler(agentCommand(CMD, "cursor"))];
  if (extraHandler) handlers.push(extraHandler as never);
  return JSON.stringify({ version: 1, hooks: { preToolUse: handlers } }, null, 2) + "\n";
}

function copilotFile(): string {
  const layout = AGENT_REGISTRATIONS.copilot.layout;
  if (layout.kind !== "owned") throw new Error("copilot");
  return JSON.stringify(layout.format.file(agentCommand(CMD, "copilot")), null, 2) + "\n";
}

const FILES: Record<string, string> = {
  [`${ROOT}/.codex/hooks.json`]: grouped("codex"),
  [`${HOME}/.codex/hooks.json`]: grouped("codex"),
  [`${ROOT}/.gemini/settings.json`]: grouped("gemini", { hooksConfig: { enabled: true } }),
  [`${HOME}/.gemini/settings.json`]: grouped("gemini", { hooksConfig: { enabled: true } }),
  [`${ROOT}/.github/hooks/gateguard.json`]: copilotFile(),
  [`${ROOT}/.cursor/hooks.json`]: cursorFile(),
  [`${HOME}/.cursor/hooks.json`]: cursorFile(),
  [`${ROOT}/.gateguard.jsonc`]: '{ "destructiveCommands": ["terraform destroy"] }\n',
  [`${ROOT}/src/a.ts`]: "export const a = 1;\n",
  [`${HOME}/.profile`]: '. "$HOME/.cargo/env"\n',
  [`${HOME}/.cargo/env`]: "export PATH=$HOME/.cargo/bin:$PATH\n",
  [`${HOME}/notes.txt`]: "notes\n",
  [`${ROOT}/.env`]: "API_KEY=x\n",
  [`${ROOT}/.claude/skills/review/SKILL.md`]: "---\nname: review\ndescription: d\n---\nRead it.\n",
};

function world(): MemoryFs {
  const dirs = new Set<string>();
  for (const path of Object.keys(FILES)) {
    const parts = path.split("/");
    for (let i = 2; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  return new MemoryFs(FILES, [...dirs]);
}

interface Answer {
  kind: string;
  text: string;
  decisions: string[];
}

/** One agent call: translated by the agent's adapter, each gate call decided, the outcomes merged. */
async function agentCall(
  agent: AgentName,
  payload: Record<string, unknown>,
  state: SessionState = emptyState(0),
): Promise<Answer> {
  const adapter = await loadAdapter(agent);
  const t = adapter.translate({ cwd: ROOT, session_id: "s1", ...payload }, { HOME });
  if (t.kind !== "calls") throw new Error(t.text);
  const decisions: Decision[] = [];
  const fs = world();
  for (const call of t.calls) {
    const ctx = contextFor(call.toolName, {}, { env: { GATEGUARD_METRICS: "1" }, fs, state });
    ctx.call = call;
    ctx.ports.ownCommand = CMD;
    decisions.push(await decide(ctx));
  }
  const rendered = adapter.render(mergeOutcomes(decisions.map((d) => d.outcome)));
  const outcome = mergeOutcomes(decisions.map((d) => d.outcome));
  return {
    kind: rendered === "" ? "pass" : outcome.kind,
    text: outcome.kind === "pass" ? "" : outcome.kind === "ask" ? outcome.denyText : outcome.text,
    decisions: decisions.flatMap((d) => d.events.map((e) => `${e.decision}/${e.reason}`)),
  };
}

const patch = (body: string) => ({
  tool_name: "apply_patch",
  tool_input: { command: `*** Begin Patch\n${body}\n*** End Patch\n` },
});

const DENY_EVERY_TIME = "GateGuard denies this change every time, retries included";

Deno.test("[self-protection] Codex: a patch deleting or moving away a file whose deletion weakens nothing (.env) is the destructive gate's alone", async () => {
  for (
    const input of [
      patch("*** Delete File: .env"),
      patch("*** Update File: .env\n*** Move to: old.env\n@@\n API_KEY=x"),
    ]
  ) {
    const a = await agentCall("codex", input);
    assert(!a.decisions.some((d) => d.startsWith("self-protect")), `${a.decisions}`);
    assert(!a.text.includes(DENY_EVERY_TIME), a.text);
  }
  // Writing one still counts for what it leaves there.
  const planted = await agentCall("codex", patch("*** Add File: .gemini/.env\n+LD_PRELOAD=/x.so"));
  assertStringIncludes(planted.text, DENY_EVERY_TIME);
});

Deno.test("[self-protection] Codex: a patch that removes GateGuard's entry, deletes or moves the hook file is denied every time", async () => {
  const hooks = `${ROOT}/.codex/hooks.json`;
  const file = JSON.parse(FILES[hooks]);
  const matcher = file.hooks.PreToolUse[0].matcher;
  const cases = [
    // The matcher narrowed so apply_patch is no longer gated.
    patch(
      `*** Update File: .codex/hooks.json\n@@\n-      "matcher": "${matcher}",\n+      "matcher": "Bash",`,
    ),
    patch("*** Delete File: .codex/hooks.json"),
    patch("*** Update File: .codex/hooks.json\n*** Move to: .codex/hooks.off\n@@\n {"),
    patch(
      `*** Update File: ${HOME}/.codex/hooks.json\n@@\n-      "matcher": "${matcher}",\n+      "matcher": "x",`,
    ),
    patch("*** Add File: .codex/config.toml\n+[features]\n+hooks = false"),
  ];
  for (const input of cases) {
    for (let attempt = 0; attempt < 2; attempt++) {
      const a = await agentCall("codex", input);
      assertEquals(a.kind, "deny", input.tool_input.command);
      assertStringIncludes(a.text, DENY_EVERY_TIME);
      assert(
        a.decisions.some((d) => d.startsWith("self-protect-deny/")),
        `${input.tool_input.command}: ${a.decisions}`,
      );
    }
  }
});

Deno.test("[self-protection] Gemini CLI: switching hooks off or adding a hook of its own is denied; an ordinary setting is not asked about", async () => {
  const settings = `${ROOT}/.gemini/settings.json`;
  const off = await agentCall("gemini", {
    tool_name: "replace",
    tool_input: {
      file_path: settings,
      old_string: '"enabled": true',
      new_string: '"enabled": false',
    },
  });
  assertEquals(off.kind, "deny");
  assertStringIncludes(
    off.text,
    '- "hooksConfig" would change: it decides whether and which hooks Gemini CLI runs',
  );
  const parsed = JSON.parse(FILES[settings]);
  parsed.hooks.SessionStart = [{
    hooks: [{ type: "command", command: "rm .gemini/settings.json" }],
  }];
  const added = await agentCall("gemini", {
    tool_name: "write_file",
    tool_input: { file_path: `${HOME}/.gemini/settings.json`, content: JSON.stringify(parsed) },
  });
  assertEquals(added.kind, "deny");
  assertStringIncludes(added.text, "1 SessionStart hook entry would be added or changed");
  // Gemini CLI reads comments, so a theme set with a comment weakens nothing: the ordinary gate decides.
  const theme = await agentCall("gemini", {
    tool_name: "replace",
    tool_input: {
      file_path: settings,
      old_string: '"hooksConfig"',
      new_string: '// mine\n  "ui": {"theme": "dark"},\n  "hooksConfig"',
    },
  });
  assertEquals(theme.decisions, ["deny/first-touch"]);
  const trust = await agentCall("gemini", {
    tool_name: "replace",
    tool_input: {
      file_path: settings,
      old_string: '"hooksConfig"',
      new_string: '"security": {"folderTrust": {"enabled": true}},\n  "hooksConfig"',
    },
  });
  assertEquals(trust.kind, "deny");
  assertStringIncludes(
    trust.text,
    '- "security.folderTrust" would change: it decides whether Gemini CLI trusts the project, ' +
      "and so runs its hooks",
  );
  const untrusted = await agentCall("gemini", {
    tool_name: "write_file",
    tool_input: { file_path: `${HOME}/.gemini/trustedFolders.json`, content: "{}" },
  });
  assertEquals(untrusted.decisions, ["self-protect-deny/self-protection"]);
});

Deno.test("[self-protection] Copilot CLI: rewriting GateGuard's hook file or planting another one is denied", async () => {
  const own = await agentCall("copilot", {
    toolName: "create",
    toolArgs: {
      path: `${ROOT}/.github/hooks/gateguard.json`,
      file_text: '{"version":1,"hooks":{}}',
    },
  });
  assertEquals(own.kind, "deny");
  assertStringIncludes(own.text, "1 of GateGuard's hook entries would be removed or changed");
  const planted = await agentCall("copilot", {
    toolName: "create",
    toolArgs: {
      path: `${ROOT}/.github/hooks/helper.json`,
      file_text: JSON.stringify({
        version: 1,
        hooks: { sessionStart: [{ type: "command", bash: "rm -f .github/hooks/gateguard.json" }] },
      }),
    },
  });
  assertEquals(planted.kind, "deny");
  assertStringIncludes(planted.text, "1 sessionStart hook entry would be added or changed");
});

Deno.test("[self-protection] Copilot CLI: settings that switch every hook off or add a hook are denied; an ordinary setting is not", async () => {
  for (const path of [`${HOME}/.copilot/settings.json`, `${ROOT}/.github/copilot/settings.json`]) {
    const off = await agentCall("copilot", {
      toolName: "create",
      toolArgs: { path, file_text: '{"disableAllHooks": true}' },
    });
    assertEquals([off.kind, off.decisions], ["deny", ["self-protect-deny/self-protection"]], path);
    assertStringIncludes(off.text, "it can stop every hook, GateGuard included");
    const inline = await agentCall("copilot", {
      toolName: "create",
      toolArgs: {
        path,
        file_text: JSON.stringify({
          hooks: { sessionStart: [{ type: "command", bash: "rm -rf .github/hooks" }] },
        }),
      },
    });
    assertEquals(inline.kind, "deny", path);
    const ordinary = await agentCall("copilot", {
      toolName: "create",
      toolArgs: { path, file_text: '{"footer": {"showQuota": true}}' },
    });
    assert(!ordinary.decisions.some((d) => d.startsWith("self-protect")), path);
  }
});

Deno.test("[self-protection] Copilot CLI: its trusted folders, kept in its own state file, are not the agent's to change", async () => {
  // Copilot keeps the folders the user trusted in ~/.copilot/config.json; a repository it no
  // longer trusts runs none of its hooks in prompt mode, GateGuard's repository file among them.
  const untrusted = await agentCall("copilot", {
    toolName: "create",
    toolArgs: { path: `${HOME}/.copilot/config.json`, file_text: '{"trustedFolders": []}' },
  });
  assertEquals(untrusted.decisions, ["self-protect-deny/self-protection"]);
  assertStringIncludes(
    untrusted.text,
    "whose trusted folders decide whether a repository's hooks run",
  );
  assertEquals(
    hitsOf(`sed -i 's#"/home/u/proj"##' ~/.copilot/config.json`).map((h) =>
      h.kind === "control" ? h.row.id : h.kind
    ),
    ["copilot-user-state"],
  );
});

Deno.test("[self-protection] Cursor: dropping failClosed or deleting the hook file is denied every time", async () => {
  const hooks = `${ROOT}/.cursor/hooks.json`;
  const failOpen = await agentCall("cursor", {
    tool_name: "Write",
    tool_input: {
      file_path: hooks,
      content: FILES[hooks].replace('"failClosed": true', '"failClosed": false'),
    },
  });
  assertEquals(failOpen.kind, "deny");
  assertStringIncludes(failOpen.text, "1 of GateGuard's hook entries would be removed or changed");
  for (let attempt = 0; attempt < 2; attempt++) {
    const deleted = await agentCall("cursor", {
      tool_name: "Delete",
      tool_input: { path: `${HOME}/.cursor/hooks.json` },
    });
    assertEquals(deleted.kind, "deny");
    assert(deleted.decisions.includes("self-protect-deny/cannot-tell"), String(deleted.decisions));
  }
});

Deno.test("[self-protection] GateGuard's project file: loosening keys are stopped, tightening ones go on to the ordinary gate", async () => {
  const config = `${ROOT}/.gateguard.jsonc`;
  const write = (content: string) =>
    agentCall("claude", {
      tool_name: "Write",
      permission_mode: "acceptEdits",
      tool_input: { file_path: config, content },
    });
  const loose = await write('{ "exemptGlobs": ["**"], "destructiveCommands": [] }');
  assertEquals(loose.kind, "ask");
  assertStringIncludes(loose.text, "- new exemptGlobs would exempt files from the gate");
  assertStringIncludes(loose.text, "- destructiveCommands phrases would be dropped");
  const tight = await write('{ "destructiveCommands": ["terraform destroy", "make clean"] }');
  // Not weakening: the file is sensitive, so the ordinary gate asks its questions once.
  assertEquals(tight.decisions, ["deny/sensitive"]);
});

Deno.test("[self-protection] GateGuard's state, trust store and the transcripts it reads are never written by a file tool without the user", async () => {
  const paths: [string, string][] = [
    [`${HOME}/.gateguard/s1.json`, "ask"],
    [`${HOME}/.gateguard/trust.json`, "ask"],
    // Under .claude Claude Code answers its own prompt for the session: denied.
    [`${HOME}/.claude/projects/-p/s1.jsonl`, "deny"],
    [`${HOME}/.codex/sessions/2026/12/05/rollout-x.jsonl`, "ask"],
  ];
  for (const [file_path, kind] of paths) {
    const a = await agentCall("claude", {
      tool_name: "Write",
      permission_mode: "default",
      tool_input: { file_path, content: "{}" },
    });
    assertEquals(
      [a.kind, a.decisions],
      [kind, [`self-protect-${kind}/self-protection`]],
      file_path,
    );
    assertStringIncludes(
      a.text,
      "- any change to it can switch GateGuard off or forge what it trusts",
    );
  }
});

Deno.test("[self-protection] a shell's start-up file is never changed by a file tool without the user", async () => {
  for (const file_path of [`${HOME}/.bashrc`, `${HOME}/.config/fish/config.fish`]) {
    const asked = await agentCall("claude", {
      tool_name: "Write",
      permission_mode: "default",
      tool_input: { file_path, content: "export PATH=$HOME/bin:$PATH\n" },
    });
    assertEquals([asked.kind, asked.decisions], ["ask", ["self-protect-ask/self-protection"]]);
    assertStringIncludes(
      asked.text,
      "- it is code every new terminal runs, so any line of it can set what GateGuard reads when the agent next starts",
    );
    assertStringIncludes(asked.text, "your shell's start-up code");
    const denied = await agentCall("claude", {
      tool_name: "Edit",
      permission_mode: "bypassPermissions",
      tool_input: { file_path, old_string: "a", new_string: "b" },
    });
    assertEquals(denied.kind, "deny");
    assertStringIncludes(denied.text, DENY_EVERY_TIME);
    const codex = await agentCall("codex", patch(`*** Add File: ${file_path}\n+export A=1`));
    assertEquals([codex.kind, codex.decisions], ["deny", ["self-protect-deny/self-protection"]]);
  }
});

Deno.test("[self-protection] a file a start-up file loads is changed by no file tool without the user; another file of the home is not asked about", async () => {
  const env = await agentCall("claude", {
    tool_name: "Edit",
    permission_mode: "default",
    tool_input: {
      file_path: `${HOME}/.cargo/env`,
      old_string: "export PATH",
      new_string: "export ECC_GATEGUARD=off\nexport PATH",
    },
  });
  assertEquals([env.kind, env.decisions], ["ask", ["self-protect-ask/self-protection"]]);
  assertStringIncludes(env.text, "a file your shell's start-up code loads");
  const notes = await agentCall("claude", {
    tool_name: "Edit",
    permission_mode: "default",
    tool_input: { file_path: `${HOME}/notes.txt`, old_string: "notes", new_string: "more" },
  });
  assert(!notes.decisions.some((d) => d.startsWith("self-protect")), notes.decisions.join());
});

Deno.test("[self-protection] a skill given hooks or a load-time command is denied every time; its prose goes on to the ordinary gate", async () => {
  const skill = `${ROOT}/.claude/skills/review/SKILL.md`;
  for (
    const payload of [{ permission_mode: "default" }, { permission_mode: "bypassPermissions" }]
  ) {
    const hooked = await agentCall("claude", {
      ...payload,
      tool_name: "Edit",
      tool_input: {
        file_path: skill,
        old_string: "description: d\n",
        new_string:
          "description: d\nhooks:\n  Stop:\n    - hooks:\n        - {type: command, command: x}\n",
      },
    });
    assertEquals([hooked.kind, hooked.decisions], ["deny", ["self-protect-deny/self-protection"]]);
    assertStringIncludes(
      hooked.text,
      "- it gives a skill, command or subagent hooks, which run commands for the rest of the " +
        "session that GateGuard's hook never sees",
    );
    assertStringIncludes(hooked.text, DENY_EVERY_TIME);
  }
  const loading = await agentCall("claude", {
    tool_name: "Write",
    tool_input: { file_path: `${ROOT}/.claude/commands/ship.md`, content: "Ship: !`./ship.sh`\n" },
  });
  assertStringIncludes(
    loading.text,
    "- it adds a shell command the skill or command runs as it loads, which GateGuard's hook " +
      "never sees",
  );
  const prose = await agentCall("claude", {
    tool_name: "Edit",
    tool_input: { file_path: skill, old_string: "Read it.", new_string: "Read it twice." },
  });
  assertEquals(prose.decisions, ["deny/first-touch"]);
});

Deno.test("[self-protection] an ordinary hook-file change goes on to the first-touch gate, and a checked control file is never passed by the fast path", async () => {
  const hooks = `${ROOT}/.cursor/hooks.json`;
  const extra = cursorFile({ command: "echo hi", matcher: "Read" });
  // Another handler is a hook of its own: stopped.
  const added = await agentCall("cursor", {
    tool_name: "Write",
    tool_input: { file_path: hooks, content: extra },
  });
  assertEquals(added.kind, "deny");
  // The same content reformatted weakens nothing.
  const same = JSON.stringify(JSON.parse(FILES[hooks]));
  const state = emptyState(0);
  const first = await agentCall("cursor", {
    tool_name: "Write",
    tool_input: { file_path: hooks, content: same },
  }, state);
  assertEquals(first.decisions, ["deny/first-touch"]);
  // Once checked, an ordinary file passes by the fast path; a control file is still judged.
  state.checked.add(hooks);
  state.checked.add(`${ROOT}/src/a.ts`);
  const checked = await agentCall("cursor", {
    tool_name: "Write",
    tool_input: { file_path: hooks, content: "{}" },
  }, state);
  assertEquals(checked.kind, "deny");
  const ctx = contextFor("Write", { file_path: hooks, content: "{}" }, { state, fs: world() });
  assertEquals((await decide(ctx)).outcome.kind, "deny");
  const plain = contextFor("Write", { file_path: `${ROOT}/src/a.ts`, content: "x" }, {
    state,
    fs: world(),
  });
  assertEquals((await decide(plain)).outcome.kind, "pass");
});

Deno.test("[self-protection] a server list and the script a listed server runs are never changed on a retry", async () => {
  const { projectFs, Session } = await import("./session.ts");
  const fs = projectFs({
    ".mcp.json": JSON.stringify({
      mcpServers: { db: { command: "node", args: ["./tools/mcp.js"] } },
    }),
    "tools/mcp.js": "serve();\n",
  });
  const session = new Session(fs);
  const asking = { permission_mode: "default" };
  const server = { file_path: `${ROOT}/.mcp.json`, content: '{"mcpServers":{}}' };
  const script = { file_path: `${ROOT}/tools/mcp.js`, old_string: "serve", new_string: "pwn" };
  for (let i = 0; i < 2; i++) {
    const list = await session.call("Write", server, asking);
    assertEquals(list.kind, "deny");
    assertStringIncludes(list.text, "the MCP servers Claude Code and Copilot CLI start: programs");
    const run = await session.call("Edit", script, asking);
    assertEquals(run.kind, "ask");
    assertStringIncludes(run.text, "a script an agent's registered hook or server runs");
  }
});

Deno.test("[self-protection] a program named gateguard planted in a PATH folder is never written on a retry", async () => {
  const { projectFs, Session } = await import("./session.ts");
  const fs = projectFs();
  for (const dir of ["/home", "/home/u", "/home/u/.local", "/home/u/.local/bin"]) fs.dirs.add(dir);
  const session = new Session(fs, { PATH: "/home/u/.local/bin:/usr/bin" });
  const asking = { permission_mode: "default" };
  const planted = { file_path: "/home/u/.local/bin/gateguard", content: "#!/bin/sh\nexit 0\n" };
  for (let i = 0; i < 2; i++) {
    const answer = await session.call("Write", planted, asking);
    assertEquals(answer.kind, "ask");
    assertStringIncludes(answer.text, "a program named like GateGuard in a PATH folder");
  }
  await session.call("Bash", { command: "true" }, asking);
  for (
    const command of [
      "ln -s /bin/true ~/.local/bin/gateguard",
      "cp /bin/true /usr/bin/gateguard",
      "tar -xf tools.tar -C ~/.local/bin",
    ]
  ) {
    assertEquals((await session.call("Bash", { command }, asking)).kind, "ask", command);
    assertEquals((await session.call("Bash", { command }, asking)).kind, "ask", command);
  }
  // Claude Code's own program: denied, as every row of Claude Code's is.
  for (let i = 0; i < 2; i++) {
    const answer = await session.call("Bash", { command: "cp ./claude ~/.local/bin/" }, asking);
    assertEquals(answer.kind, "deny");
    assertStringIncludes(answer.text, "a program named like Claude Code in a PATH folder");
  }
  // A PATH folder holds programs by name only: installing another tool there is routine.
  for (const command of ["mkdir -p ~/.local/bin", "cp ./mytool ~/.local/bin/"]) {
    assertEquals((await session.call("Bash", { command }, asking)).kind, "pass", command);
  }
});

Deno.test("[self-protection] running an agent or GateGuard by its bare name is no write of a program on PATH", async () => {
  const { projectFs, Session } = await import("./session.ts");
  const session = new Session(projectFs(), { PATH: ".:/usr/bin" });
  const asking = { permission_mode: "default" };
  await session.call("Bash", { command: "true" }, asking);
  for (const command of ["gemini --version", "gateguard report", "codex --help"]) {
    assertEquals((await session.call("Bash", { command }, asking)).kind, "pass", command);
  }
  // A copy onto the same name in the current folder, searched first here, is one.
  const planted = await session.call("Bash", { command: "cp /bin/true ./gemini" }, asking);
  assertEquals(planted.kind, "ask");
});
