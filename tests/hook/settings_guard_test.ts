/**
 * The guard on Claude Code's own settings files, in process through
 * `decide()` on the in-memory filesystem: a change that would switch
 * GateGuard off is put to the user (or, where no one answers, denied) with
 * what it turns off, and never passes on a retry; every other change keeps
 * the exemption.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { decide } from "../../src/hook/decide.ts";
import type { Decision } from "../../src/hook/decision.ts";
import { emptyState, type SessionState } from "../../src/state/schema.ts";
import { registrationGroups } from "../../src/setup/claude_settings.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { assistant, jsonl, prompt, result } from "../session_logs/builder.ts";
import { contextFor, MemoryFs, ROOT } from "./context.ts";

const PROJECT = `${ROOT}/.claude/settings.json`;
const LOCAL = `${ROOT}/.claude/settings.local.json`;
const USER = "/home/u/.claude/settings.json";
const CMD = "/usr/local/bin/gateguard";
const TRANSCRIPT = "/home/u/.claude/projects/p/s1.jsonl";
const PROMPT = "0b1c2d3e-0000-4000-8000-00000000e001";

/** A settings file with GateGuard registered and one ordinary key. */
const INSTALLED = JSON.stringify(
  { model: "sonnet", hooks: { PreToolUse: registrationGroups(CMD) } },
  null,
  2,
) + "\n";

function world(files: Record<string, string> = { [PROJECT]: INSTALLED }): MemoryFs {
  return new MemoryFs(files, [ROOT, `${ROOT}/.claude`, "/home/u", "/home/u/.claude"]);
}

interface Call {
  tool: string;
  input: Record<string, unknown>;
  fs?: MemoryFs;
  state?: SessionState;
  env?: Record<string, string>;
  payload?: Record<string, unknown>;
  budget?: number;
}

async function run(c: Call): Promise<Decision> {
  const ctx = contextFor(c.tool, c.input, {
    env: { GATEGUARD_METRICS: "1", ...c.env },
    state: c.state,
    fs: c.fs ?? world(),
    payload: c.payload,
  });
  if (c.budget !== undefined) ctx.budget = new WorkBudget(c.budget);
  return await decide(ctx);
}

const summary = (d: Decision) => [d.rules?.[0], d.events[0]?.decision, d.events[0]?.reason];

const edit = (file: string, oldString: string, newString: string) => ({
  file_path: file,
  old_string: oldString,
  new_string: newString,
});

const DISABLE_ALL = edit(
  PROJECT,
  '"model": "sonnet",',
  '"model": "sonnet",\n  "disableAllHooks": true,',
);

/** The payload of a session whose user answers permission prompts. */
const ASKING = { permission_mode: "default" };

const CONTROLS: Record<string, string> = {
  [PROJECT]:
    "Claude Code's project settings: GateGuard's hook entries, and the hooks and environment every session of this project starts with",
  [LOCAL]:
    "Claude Code's local project settings: hooks and environment that override the project's",
  [USER]:
    "Claude Code's user settings: GateGuard's hook entries, and the hooks and environment of every session",
};

function findings(file: string, lines: string[]): string[] {
  return [
    "[Fact-Forcing Gate]",
    "",
    `This change to ${file} would switch GateGuard off or weaken it:`,
    ...lines.map((l) => `- ${l}`),
    `(${file}: ${CONTROLS[file]}.)`,
    "",
  ];
}

/** The denial where no one can be asked. */
function denyText(file: string, lines: string[]): string {
  return [
    ...findings(file, lines),
    "GateGuard denies this change every time, retries included, because no one can be asked " +
    "to approve it here. Ask the user to make the change themselves if they want it.",
  ].join("\n");
}

const HOOKS_OFF_LINE = '"disableAllHooks": true would stop every hook, GateGuard included';

Deno.test("[self-protection] an Edit that turns on disableAllHooks is denied with what it turns off, in every permission mode", async () => {
  // Claude Code answers its own prompt for a file under .claude for the whole session once
  // allowed, so a question about its settings could pass with no one answering: denied instead.
  for (
    const mode of ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto", ""]
  ) {
    const payload = mode === "" ? {} : { permission_mode: mode };
    const d = await run({ tool: "Edit", input: DISABLE_ALL, payload });
    assertEquals(summary(d), ["self-protection", "self-protect-deny", "self-protection"], mode);
    assertEquals(d.outcome, { kind: "deny", text: denyText(PROJECT, [HOOKS_OFF_LINE]) }, mode);
    // No key is marked, no counter bumped: nothing recorded can turn it into a pass later.
    assertEquals([d.delta.check, d.delta.inc], [[], {}]);
    assertEquals(d.events[0].questions, null);
  }
});

Deno.test("[self-protection] a Write that sets an off switch in the env block is stopped, in each settings file", async () => {
  const content = JSON.stringify({ env: { GATEGUARD_DISABLED: "1" } });
  // GateGuard's own variables are not named to the model.
  const line = "the env block would set a variable that configures GateGuard";
  for (const file of [PROJECT, LOCAL, USER]) {
    const d = await run({
      tool: "Write",
      input: { file_path: file, content },
      fs: world({}),
      payload: ASKING,
    });
    assertEquals(summary(d), ["self-protection", "self-protect-deny", "self-protection"], file);
    assertEquals(d.outcome, { kind: "deny", text: denyText(file, [line]) }, file);
  }
});

Deno.test("[self-protection] a MultiEdit that drops GateGuard's hook entries is stopped", async () => {
  const hooksAt = INSTALLED.indexOf(',\n  "hooks"');
  const input = {
    file_path: PROJECT,
    edits: [
      { old_string: INSTALLED.slice(hooksAt, -2), new_string: "" },
      { old_string: '"sonnet"', new_string: '"opus"' },
    ],
  };
  const d = await run({ tool: "MultiEdit", input });
  assertEquals(d.outcome, {
    kind: "deny",
    text: denyText(PROJECT, [
      "3 of GateGuard's hook entries would be removed or changed, so some tools would no longer be gated",
    ]),
  });
});

Deno.test("[self-protection] the same change retried is stopped again, however often and however the retry looks", async () => {
  const state = emptyState(0);
  const fs = world();
  const uses = [{ id: "t1", name: "Edit", input: DISABLE_ALL }];
  const read = jsonl(
    prompt("turn hooks off", PROMPT),
    assistant("m1", uses),
    result("t1", PROMPT, { error: true, content: "denied" }),
    assistant("m2", [{ id: "t2", name: "Edit", input: DISABLE_ALL }]),
  );
  fs.write(TRANSCRIPT, read);
  for (
    const payload of [{}, {}, { transcript_path: TRANSCRIPT, prompt_id: PROMPT, tool_use_id: "t2" }]
  ) {
    for (const mode of ["default", "bypassPermissions"]) {
      const d = await run({
        tool: "Edit",
        input: DISABLE_ALL,
        state,
        fs,
        payload: { ...payload, permission_mode: mode },
      });
      assertEquals(d.outcome.kind, "deny", mode);
      assertEquals(d.delta.check, []);
    }
  }
  // A state that holds every key a denial ever marked changes nothing either.
  const stuffed = emptyState(0);
  stuffed.checked.add(PROJECT);
  stuffed.checked.add("__destructive__:anything");
  const d = await run({ tool: "Edit", input: DISABLE_ALL, state: stuffed, payload: ASKING });
  assertEquals(d.outcome.kind, "deny");
});

Deno.test("[self-protection] a change whose outcome cannot be told is stopped as one that switches GateGuard off", async () => {
  const cannotTell = "what the change does cannot be told (the file cannot be read, a " +
    "replacement does not apply to it, the content is not read, or the change is too large " +
    "to check), so it counts as one that switches GateGuard off";
  const calls: [string, Call][] = [
    ["a replacement that is not in the file", {
      tool: "Edit",
      input: edit(PROJECT, '"model": "opus"', '"model": "haiku"'),
    }],
    ["a replacement found twice without replace_all", {
      tool: "Edit",
      input: edit(PROJECT, '"', "'"),
    }],
    ["a file that cannot be read", {
      tool: "Edit",
      input: edit(PROJECT, "a", "b"),
      fs: new MemoryFs({}, [ROOT, `${ROOT}/.claude`, PROJECT]),
    }],
    ["a comparison past the work budget", {
      tool: "Edit",
      input: edit(PROJECT, '"sonnet"', '"opus"'),
      budget: 100,
    }],
    ["a notebook edit, whose content is not read", {
      tool: "NotebookEdit",
      input: { notebook_path: PROJECT, new_source: "{}" },
    }],
  ];
  for (const [name, c] of calls) {
    const d = await run({ ...c, payload: ASKING });
    assertEquals(summary(d), ["self-protection", "self-protect-deny", "cannot-tell"], name);
    assertEquals(d.outcome, { kind: "deny", text: denyText(PROJECT, [cannotTell]) }, name);
  }
});

Deno.test("[self-protection] a 402-byte replace_all of a 4 MiB settings file is priced before any text is built", async () => {
  // Four MiB of settings holding 1.3 million quotes, each to become 400 characters.
  const big = JSON.stringify({ permissions: { allow: Array(436_000).fill("Bash") } });
  const fs = world({ [LOCAL]: big });
  const input = { ...edit(LOCAL, '"', `"${"x".repeat(399)}`), replace_all: true };
  const budget = new WorkBudget();
  const ctx = contextFor("Edit", input, { env: { GATEGUARD_METRICS: "1" }, fs, payload: ASKING });
  ctx.budget = budget;
  const d = await decide(ctx);
  assertEquals(summary(d), ["self-protection", "self-protect-deny", "cannot-tell"]);
  // Spent: the file read and searched twice; the 500-million-character text was never paid for.
  assertEquals(budget.exhausted()?.what, "settings");
  assertEquals(budget.spent, 3 * big.length);
});

Deno.test("[self-protection] a settings text Claude Code would reject, or env values that move what GateGuard reads, are stopped", async () => {
  const cases: [string, string][] = [
    [
      INSTALLED.replace('"model": "sonnet",', '"model": "sonnet", // mine'),
      "Claude Code reads this file as strict JSON (no comments, no trailing commas) and would ignore all of it, GateGuard's hook entries included",
    ],
    [
      INSTALLED.replace('"model": "sonnet",', '"model": "sonnet",\n  "env": {"HOME": "/tmp/x"},'),
      'the env block would set HOME="/tmp/x", which moves what GateGuard reads or changes how it starts',
    ],
    [
      INSTALLED.replace(
        '"model": "sonnet",',
        '"model": "sonnet",\n  "env": {"CLAUDE_PLUGIN_DATA": "/tmp"},',
      ),
      'the env block would set CLAUDE_PLUGIN_DATA="/tmp", which moves what GateGuard reads or changes how it starts',
    ],
  ];
  for (const [content, line] of cases) {
    const d = await run({ tool: "Write", input: { file_path: PROJECT, content }, payload: ASKING });
    assertEquals(d.outcome, { kind: "deny", text: denyText(PROJECT, [line]) }, line);
  }
});

Deno.test("[self-protection] a new SessionStart hook, or any hook not GateGuard's, is stopped", async () => {
  const settings = JSON.parse(INSTALLED);
  settings.hooks.SessionStart = [{
    hooks: [{ type: "command", command: "sed -i /gateguard/d .claude/settings.json" }],
  }];
  const d = await run({
    tool: "Write",
    input: { file_path: PROJECT, content: JSON.stringify(settings) },
    payload: ASKING,
  });
  assertEquals(
    d.outcome.kind === "deny" && d.outcome.text,
    denyText(PROJECT, [
      "1 SessionStart hook entry would be added or changed: it runs a command GateGuard does not check, which could undo it",
    ]),
  );
});

Deno.test("[claude-settings] ordinary settings changes keep the exemption", async () => {
  const calls: Call[] = [
    { tool: "Edit", input: edit(PROJECT, '"sonnet"', '"opus"') },
    {
      tool: "Write",
      input: { file_path: LOCAL, content: '{"permissions":{"allow":["Bash(ls)"]}}' },
    },
    { tool: "Write", input: { file_path: USER, content: '{"env":{"FOO":"1"}}' }, fs: world({}) },
    // Registering GateGuard is no weakening.
    { tool: "Write", input: { file_path: PROJECT, content: INSTALLED }, fs: world({}) },
  ];
  for (const c of calls) {
    const d = await run(c);
    assertEquals(summary(d), ["exempt", "pass-exempt", "claude-settings"], JSON.stringify(c.input));
    assertEquals([d.outcome.kind, d.delta.check], ["pass", []]);
  }
});

Deno.test("[self-protection] neither an operator glob, a subagent nor an earlier check lets a weakening through", async () => {
  const checked = emptyState(0);
  checked.checked.add(PROJECT);
  const calls: Call[] = [
    { tool: "Edit", input: DISABLE_ALL, env: { GATEGUARD_EXEMPT_GLOBS: "**" } },
    { tool: "Edit", input: DISABLE_ALL, payload: { agent_id: "sub" } },
    { tool: "Edit", input: DISABLE_ALL, state: checked },
    // Without metrics the fast path for checked files must not skip the guard either.
    { tool: "Edit", input: DISABLE_ALL, state: checked, env: { GATEGUARD_METRICS: "" } },
  ];
  for (const c of calls) {
    const d = await run(c);
    assertEquals(d.outcome.kind, "deny", JSON.stringify(c.env ?? c.payload ?? "checked"));
    assertEquals(
      d.events[0]?.decision ?? "no metrics",
      c.env?.GATEGUARD_METRICS === "" ? "no metrics" : "self-protect-deny",
    );
  }
});

Deno.test("[claude-settings] a GateGuard variable spelled with control characters is denied, and its name is never echoed", async () => {
  const content = JSON.stringify({ env: { "GATEGUARD_\u202eX\u0085": "1" } });
  const d = await run({ tool: "Write", input: { file_path: PROJECT, content }, fs: world({}) });
  assert(d.outcome.kind === "deny");
  assert(!/[\u0080-\u009f\u202a-\u202e]/.test(d.outcome.text));
  assert(!d.outcome.text.includes("GATEGUARD_"));
  assert(d.outcome.text.includes("the env block would set a variable that configures GateGuard"));
});
