/**
 * The guard on Claude Code's own settings files, in process through
 * `decide()` on the in-memory filesystem: a change that would switch
 * GateGuard off is denied with what it turns off and passes once when the
 * same change is retried; every other change keeps the exemption.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { decide } from "../../src/hook/decide.ts";
import type { Decision } from "../../src/hook/decision.ts";
import { emptyState, type SessionState } from "../../src/state/schema.ts";
import { registrationGroups } from "../../src/setup/claude_settings.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { assistant, jsonl, prompt, result } from "../transcript/builder.ts";
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

function denialText(file: string, lines: string[]): string {
  return [
    "[Fact-Forcing Gate]",
    "",
    `This change to ${file} would switch GateGuard off or weaken it:`,
    ...lines.map((l) => `- ${l}`),
    "",
    "Before making it, present these facts:",
    "",
    "1. Quote the user's current instruction verbatim, where it asks for this change",
    "2. Say what the change turns off, and how the user turns it back on",
    "",
    "Present the facts, then retry the same change; any other change is asked about again.",
  ].join("\n");
}

Deno.test("[claude-settings] an Edit that turns on disableAllHooks is denied with what it turns off", async () => {
  const d = await run({ tool: "Edit", input: DISABLE_ALL });
  assertEquals(summary(d), ["settings-guard", "destructive-deny", "settings-weakening"]);
  assertEquals(d.outcome, {
    kind: "deny",
    text: denialText(PROJECT, [
      '"disableAllHooks": true would stop every hook, GateGuard included',
    ]),
  });
  assertEquals(d.delta.check.length, 1);
  assert(d.delta.check[0].startsWith("__destructive__:"));
  // Not a first-touch denial: the denial cap and the first-touch counters are untouched.
  assertEquals(d.delta.inc, {});
  assertEquals(d.events[0].questions, null);
});

Deno.test("[claude-settings] a Write that sets an off switch in the env block is denied, in each settings file", async () => {
  const content = JSON.stringify({ env: { GATEGUARD_DISABLED: "1" } });
  for (const file of [PROJECT, LOCAL, USER]) {
    const d = await run({ tool: "Write", input: { file_path: file, content }, fs: world({}) });
    assertEquals(summary(d), ["settings-guard", "destructive-deny", "settings-weakening"], file);
    assertEquals(d.outcome, {
      kind: "deny",
      text: denialText(file, [
        'the env block would set GATEGUARD_DISABLED="1", which configures GateGuard',
      ]),
    }, file);
  }
});

Deno.test("[claude-settings] a MultiEdit that drops GateGuard's hook entries is denied", async () => {
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
    text: denialText(PROJECT, [
      "2 of GateGuard's hook entries would be removed or changed, so some tools would no longer be gated",
    ]),
  });
});

Deno.test("[claude-settings] the same change retried passes once; the next copy and any other change are asked again", async () => {
  const state = emptyState(0);
  const first = await run({ tool: "Edit", input: DISABLE_ALL, state });
  const [key] = first.delta.check;
  state.checked.add(key);
  const other = await run({
    tool: "Edit",
    input: edit(PROJECT, '"model": "sonnet",', '"model": "sonnet",\n  "disableAllHooks": true ,'),
    state,
  });
  assertEquals(summary(other), ["settings-guard", "destructive-deny", "settings-weakening"]);
  assert(other.delta.check[0] !== key);
  const retry = await run({ tool: "Edit", input: DISABLE_ALL, state });
  assertEquals(summary(retry), ["settings-guard", "pass", "settings-weakening-retry"]);
  assertEquals([retry.outcome.kind, retry.delta.uncheck, retry.delta.check], ["pass", [key], []]);
  state.checked.delete(key);
  const again = await run({ tool: "Edit", input: DISABLE_ALL, state });
  assertEquals(again.outcome.kind, "deny");
});

Deno.test("[claude-settings] a copy sent in the same message as the denied change is no retry", async () => {
  const state = emptyState(0);
  const denied = await run({ tool: "Edit", input: DISABLE_ALL, state });
  state.checked.add(denied.delta.check[0]);
  const uses = [
    { id: "t1", name: "Edit", input: DISABLE_ALL },
    { id: "t2", name: "Edit", input: DISABLE_ALL },
  ];
  const sameMessage = jsonl(prompt("turn hooks off", PROMPT), assistant("m1", uses));
  const payload = { transcript_path: TRANSCRIPT, prompt_id: PROMPT, tool_use_id: "t2" };
  const fs = world();
  fs.write(TRANSCRIPT, sameMessage);
  const copy = await run({ tool: "Edit", input: DISABLE_ALL, state, fs, payload });
  assertEquals(summary(copy), ["settings-guard", "destructive-deny", "unseen-denial"]);
  assertEquals([copy.outcome.kind, copy.delta.uncheck], ["deny", []]);

  const read = jsonl(
    prompt("turn hooks off", PROMPT),
    assistant("m1", [uses[0]]),
    result("t1", PROMPT, { error: true, content: "denied" }),
    assistant("m2", [uses[1]]),
  );
  fs.write(TRANSCRIPT, read);
  const retry = await run({ tool: "Edit", input: DISABLE_ALL, state, fs, payload });
  assertEquals(summary(retry), ["settings-guard", "pass", "settings-weakening-retry"]);
});

Deno.test("[claude-settings] a change whose outcome cannot be told is denied as one that switches GateGuard off", async () => {
  const cannotTell = [
    "[Fact-Forcing Gate]",
    "",
    `GateGuard cannot tell what this change does to its hook entries and settings in ${PROJECT} ` +
    "(the file cannot be read, or a replacement does not apply to it), so it is treated as " +
    "one that switches GateGuard off.",
    "",
    "Before making it, present these facts:",
    "",
    "1. Quote the user's current instruction verbatim, where it asks for this change",
    "2. Say what the change turns off, and how the user turns it back on",
    "",
    "Present the facts, then retry the same change; any other change is asked about again.",
  ].join("\n");
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
  ];
  for (const [name, c] of calls) {
    const d = await run(c);
    assertEquals(summary(d), ["settings-guard", "destructive-deny", "settings-weakening"], name);
    assertEquals(d.outcome, { kind: "deny", text: cannotTell }, name);
  }
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

Deno.test("[claude-settings] neither an operator glob, a subagent nor an earlier check lets a weakening through", async () => {
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
  }
});

Deno.test("[claude-settings] a key spelled with control characters is shown cleaned", async () => {
  const content = JSON.stringify({ env: { "GATEGUARD_\u202eX\u0085": "1" } });
  const d = await run({ tool: "Write", input: { file_path: PROJECT, content }, fs: world({}) });
  assert(d.outcome.kind === "deny");
  assert(!/[\u0080-\u009f\u202a-\u202e]/.test(d.outcome.text));
  assert(d.outcome.text.includes("GATEGUARD_ X "));
});
