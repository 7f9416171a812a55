/**
 * End-to-end tests of the file gates: the real CLI as a subprocess, with the
 * binary's permissions, on a real temporary project with real symlinks,
 * hard links and state files. What a session of calls decides on plain files
 * is tested in process (`tests/hook/file_gate_test.ts`); here stay the cases
 * that need the disk, the process or the hook's input and output, and a
 * first touch and its switches seen through the CLI.
 */

import {
  assert,
  assertEquals,
  assertNotIncludes,
  assertStringIncludes,
} from "../helpers/assert.ts";
import { type CliResult, runCli, runHook } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";
import { CALL_WORK_UNITS } from "../../src/platform/budget.ts";
import { stateErrorText, tooComplexText } from "../../src/questions/messages.ts";
import { assistant, jsonl, prompt, result } from "../session_logs/builder.ts";

interface Project {
  root: string;
  state: string;
  env: Record<string, string>;
  hook(
    tool: string,
    input: Record<string, unknown>,
    extra?: Record<string, unknown>,
    env?: Record<string, string>,
  ): Promise<CliResult>;
}

async function project(files: Record<string, string> = {}): Promise<Project> {
  const { root, state, env } = await sandbox(files);
  return {
    root,
    state,
    env,
    hook: (tool, input, extra = {}, moreEnv = {}) =>
      runHook(
        {
          session_id: "s1",
          cwd: root,
          hook_event_name: "PreToolUse",
          tool_name: tool,
          tool_input: input,
          ...extra,
        },
        { env: { ...env, ...moreEnv }, cwd: root },
      ),
  };
}

function decisionOf(r: CliResult): { kind: "pass" | "note" | "deny"; text: string } {
  assertEquals(r.code, 0, r.stderr);
  if (r.stdout.trim() === "") return { kind: "pass", text: "" };
  const out = JSON.parse(r.stdout).hookSpecificOutput;
  assertEquals(out.hookEventName, "PreToolUse");
  if (out.permissionDecision === "deny") {
    return { kind: "deny", text: out.permissionDecisionReason };
  }
  assertEquals(out.permissionDecision, undefined, "never an allow decision");
  return { kind: "note", text: out.additionalContext };
}

const edit = (file: string) => ({ file_path: file, old_string: "x = 1", new_string: "x = 2" });

Deno.test("[edit-multiedit-gate] first Edit is denied with the code questions; the retry passes", async () => {
  const p = await project({ "src/app.py": "x = 1\n" });
  const first = decisionOf(await p.hook("Edit", edit(`${p.root}/src/app.py`)));
  assertEquals(first.kind, "deny");
  assertStringIncludes(first.text, `Before editing ${p.root}/src/app.py, present these facts:`);
  assertStringIncludes(first.text, "Quote the user's current instruction verbatim");
  assertStringIncludes(first.text, "tell the user why and ask how to proceed.");
  assertEquals(decisionOf(await p.hook("Edit", edit(`${p.root}/src/app.py`))).kind, "pass");
});

Deno.test("[canonical-path-keys] raw keys written by earlier versions are honoured", async () => {
  const p = await project({ "a.py": "x = 1\n" });
  await Deno.mkdir(p.state, { recursive: true });
  await Deno.writeTextFile(
    `${p.state}/state-s1.json`,
    JSON.stringify({ checked: ["./a.py"], last_active: Date.now() }),
  );
  assertEquals(decisionOf(await p.hook("Edit", edit("./a.py"))).kind, "pass");
});

Deno.test("[sensitive-targets] a symlinked directory into auth/ is sensitive", async () => {
  const p = await project({ "auth/login.py": "x = 1\n" });
  await Deno.mkdir(`${p.root}/src`);
  await Deno.symlink("../auth", `${p.root}/src/tools`);
  const d = decisionOf(await p.hook("Edit", edit(`${p.root}/src/tools/login.py`)));
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, "Sensitive target:");
});

Deno.test("[sensitive-targets] a dangling symlink counts as sensitive", async () => {
  const p = await project();
  await Deno.symlink(`${p.root}/nowhere/x.py`, `${p.root}/link.py`);
  const d = decisionOf(await p.hook("Write", { file_path: `${p.root}/link.py`, content: "x" }));
  assertStringIncludes(d.text, "Sensitive target:");
});

Deno.test("[hard-linked-targets] a file with a second name is denied with the hard-linked line", async () => {
  const p = await project({ "vendor/token.py": "x = 1\n" });
  await Deno.link(`${p.root}/vendor/token.py`, `${p.root}/token_copy.py`);
  const d = decisionOf(
    await p.hook("Edit", edit(`${p.root}/token_copy.py`), {}, {
      GATEGUARD_FACT_FORCE_MAX_DENIALS: "0",
    }),
  );
  assertEquals(d.kind, "deny");
  assertStringIncludes(
    d.text,
    "Hard-linked target: prior-search credit, sibling collapse, and the denial cap do not apply.",
  );
});

Deno.test("[denial-cap] after the cap new paths pass; a malformed cap warns once and is inactive", async () => {
  const p = await project({ "a.py": "x = 1\n", "b.py": "x = 1\n", "c.py": "x = 1\n" });
  const cap = { GATEGUARD_FACT_FORCE_MAX_DENIALS: " 1 " };
  assertEquals(decisionOf(await p.hook("Edit", edit(`${p.root}/a.py`), {}, cap)).kind, "deny");
  assertEquals(decisionOf(await p.hook("Edit", edit(`${p.root}/b.py`), {}, cap)).kind, "pass");
  const bad = await p.hook("Edit", edit(`${p.root}/c.py`), {}, {
    GATEGUARD_FACT_FORCE_MAX_DENIALS: "3oops",
  });
  assertEquals(decisionOf(bad).kind, "deny");
  assertStringIncludes(
    bad.stderr,
    "ignoring malformed GATEGUARD_FACT_FORCE_MAX_DENIALS=3oops; the denial cap is not active.",
  );
  assertEquals(bad.stderr.split("GATEGUARD_FACT_FORCE_MAX_DENIALS").length - 1, 1);
});

Deno.test("[turning-the-gate-off-completely] through the CLI, ECC_GATEGUARD=off and GATEGUARD_DISABLED=1 pass a first touch that is otherwise denied", async () => {
  const p = await project({ "a.py": "x = 1\n" });
  const switches: Record<string, string>[] = [{ ECC_GATEGUARD: "off" }, {
    GATEGUARD_DISABLED: "1",
  }];
  for (const off of switches) {
    const d = decisionOf(await p.hook("Edit", edit(`${p.root}/a.py`), {}, off));
    assertEquals(d.kind, "pass", JSON.stringify(off));
  }
  assertEquals(decisionOf(await p.hook("Edit", edit(`${p.root}/a.py`))).kind, "deny");
});

Deno.test("[fail-to-deny] bad stdin passes with one stderr line and no stack trace", async () => {
  for (const stdin of ["not json", "[1,2]", "", "null", '{"tool_name":'] as const) {
    const r = await runCli([], { stdin, env: { GATEGUARD_STATE_DIR: "/nonexistent-gg" } });
    assertEquals(r.code, 0);
    assertEquals(r.stdout, "");
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertNotIncludes(r.stderr, "    at ");
  }
});

Deno.test("[fail-to-deny] wrong field types and a missing tool_input never crash", async () => {
  const p = await project();
  const payloads: unknown[] = [
    { tool_name: "Edit" },
    { tool_name: "Edit", tool_input: "x" },
    { tool_name: "Edit", tool_input: { file_path: 42 } },
    { tool_name: "Write", tool_input: { file_path: ["a"] }, session_id: 5, cwd: {} },
    { tool_name: "MultiEdit", tool_input: { edits: [null, 1, { file_path: {} }] } },
    { tool_name: "Bash", tool_input: { command: { rm: true } }, session_id: "b1" },
    { tool_name: 12, tool_input: {} },
  ];
  for (const payload of payloads) {
    const r = await runHook(payload, { env: p.env, cwd: p.root });
    assertEquals(r.code, 0, JSON.stringify(payload));
    assertNotIncludes(r.stderr, "    at ");
    if (r.stdout !== "") assert(JSON.parse(r.stdout).hookSpecificOutput, r.stdout);
  }
});

Deno.test("[fail-to-deny] a 10 MB Write is inspected and gated normally", async () => {
  const p = await project();
  const r = await p.hook("Write", {
    file_path: `${p.root}/big.py`,
    content: "x = 1\n".repeat(1_750_000),
  });
  assertEquals(decisionOf(r).kind, "deny");
});

Deno.test("[fail-to-deny] a payload past 64 MiB is denied as uninspectable", async () => {
  const p = await project();
  const big = new Uint8Array(64 * 1024 * 1024 + 16).fill(0x20);
  const r = await runCli([], { stdin: big, env: p.env, cwd: p.root });
  const d = decisionOf(r);
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, "could not be inspected");
});

Deno.test("[fail-to-deny] a payload larger than the call's work budget is denied unread as too complex", async () => {
  const p = await project();
  const payload = JSON.stringify({
    session_id: "s1",
    tool_name: "Write",
    tool_input: { file_path: `${p.root}/big.py`, content: "x".repeat(CALL_WORK_UNITS) },
  });
  const r = await runCli([], { stdin: payload, env: p.env, cwd: p.root });
  const d = decisionOf(r);
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, tooComplexText("call"));
});

Deno.test("[state-file-is-untrusted] corrupted, truncated and hostile state files load as empty", async () => {
  const p = await project({ "a.py": "x = 1\n" });
  await Deno.mkdir(p.state, { recursive: true });
  for (
    const text of [
      '{"checked": ["',
      "\u0000\u0001garbage",
      '{"__proto__":{"checked":["a.py"]}}',
      "[]",
    ]
  ) {
    await Deno.writeTextFile(`${p.state}/state-s1.json`, text);
    const d = decisionOf(await p.hook("Edit", edit(`${p.root}/a.py`)));
    assertEquals(d.kind, "deny", text);
    await Deno.remove(`${p.state}/state-s1.json`);
  }
});

Deno.test("[quick-start] state that cannot be saved denies the first touch, naming the state directory and GATEGUARD_STATE_DIR", async () => {
  const p = await project({ "a.py": "x = 1\n" });
  await Deno.writeTextFile(`${p.state}`, "a file where the state dir should be");
  const error = `the state directory ${p.state} cannot be used: it is a file, not a directory`;
  for (let i = 0; i < 2; i++) {
    const r = await p.hook("Edit", edit(`${p.root}/a.py`));
    assertEquals(decisionOf(r), { kind: "deny", text: stateErrorText(error) });
    assertStringIncludes(stateErrorText(error), "GATEGUARD_STATE_DIR");
    assertEquals(r.stderr, `gateguard: ${error}\n`);
  }
});

Deno.test("[pretooluse-input] tools GateGuard does not gate pass silently without touching state", async () => {
  const p = await project();
  const r = await p.hook("Read", { file_path: `${p.root}/a.py` });
  assertEquals(r.stdout, "");
  assertEquals(r.stderr, "");
  const exists = await Deno.stat(p.state).then(() => true, () => false);
  assertEquals(exists, false);
});

Deno.test("[exempt-globs] the Claude settings exemption does not follow a symlink or a second hard link", async () => {
  const p = await project({ "src/auth/login.py": "x = 1\n", "src/auth/token.py": "x = 1\n" });
  await Deno.mkdir(`${p.root}/.claude`);
  await Deno.symlink("../src/auth/login.py", `${p.root}/.claude/settings.json`);
  await Deno.link(`${p.root}/src/auth/token.py`, `${p.root}/.claude/settings.local.json`);
  for (const name of ["settings.json", "settings.local.json"]) {
    const d = decisionOf(await p.hook("Edit", edit(`${p.root}/.claude/${name}`)));
    assertEquals(d.kind, "deny", name);
  }
});

Deno.test("[state-file-is-untrusted] 32 hook processes of one session gating 32 files at once leave all 32 checked", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 32; i++) files[`src/m${i}.py`] = "x = 1\n";
  const p = await project(files);
  const first = await Promise.all(
    Array.from({ length: 32 }, (_, i) => p.hook("Edit", edit(`${p.root}/src/m${i}.py`))),
  );
  assertEquals(first.map((r) => decisionOf(r).kind), Array(32).fill("deny"));
  // A process that waited its full 2 s for the lock saves without it and
  // says so; only then may an update be lost, and the loss is a second
  // denial, never a pass. How many waited depends on the machine's load.
  const unlocked = first.filter((r) => r.stderr.includes("the session lock stayed busy")).length;
  const retry = await Promise.all(
    Array.from({ length: 32 }, (_, i) => p.hook("Edit", edit(`${p.root}/src/m${i}.py`))),
  );
  const kinds = retry.map((r) => decisionOf(r).kind);
  const state = JSON.parse(await Deno.readTextFile(`${p.state}/state-s1.json`));
  if (unlocked === 0) {
    assertEquals(kinds, Array(32).fill("pass"));
    assertEquals(state.fact_force_denials, 32);
  } else {
    assertEquals(kinds.filter((k) => k !== "pass" && k !== "deny"), []);
  }
});

Deno.test("[closest-search-that-did-not-count] a denial names the search that missed, and metrics record near-miss", async () => {
  const p = await project({ "src/payment_gateway.py": "x = 1\n" });
  const transcript = `${p.root}/../near.jsonl`;
  await Deno.writeTextFile(
    transcript,
    jsonl(
      prompt("fix the gateway", "p9"),
      assistant("m1", [{ id: "t1", name: "Bash", input: { command: "rg payment_gateway docs" } }]),
      result("t1", "p9"),
      assistant("m2", [{ id: "t2", name: "Edit", input: {} }]),
    ),
  );
  const r = await p.hook(
    "Edit",
    edit(`${p.root}/src/payment_gateway.py`),
    { transcript_path: transcript, prompt_id: "p9", tool_use_id: "t2" },
    { GATEGUARD_METRICS: "1" },
  );
  const d = decisionOf(r);
  assertEquals(d.kind, "deny");
  assertStringIncludes(
    d.text,
    "Closest search this turn did not count (Bash rg payment_gateway docs): its search path does not contain this file.",
  );
  const line = JSON.parse((await Deno.readTextFile(`${p.state}/metrics.jsonl`)).trim());
  assertEquals([line.decision, line.reason], ["deny", "near-miss:out-of-scope"]);
});

Deno.test("[hard-linked-targets] a backslash in the file name does not make a hard link or symlink on a POSIX host foreign", async () => {
  if (Deno.build.os === "windows") return;
  const p = await project({ "src/auth/token.py": "x = 1\n", "src/auth/login.py": "x = 1\n" });
  await Deno.link(`${p.root}/src/auth/token.py`, `${p.root}/vendor\\token.py`);
  const capped = { GATEGUARD_FACT_FORCE_MAX_DENIALS: "0" };
  const d = decisionOf(await p.hook("Edit", edit(`${p.root}/vendor\\token.py`), {}, capped));
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, "Hard-linked target:");
  // A symlink spelled like the Claude settings file is not exempt either.
  await Deno.symlink("src/auth/login.py", `${p.root}/.claude\\settings.json`);
  const s = decisionOf(await p.hook("Edit", edit(`${p.root}/.claude\\settings.json`)));
  assertEquals(s.kind, "deny");
});

Deno.test("[canonical-path-keys] a file path spelled like the shell gate's state key is not already checked", async () => {
  if (Deno.build.os === "windows") return;
  const p = await project({ "src/auth/token.py": "x = 1\n" });
  assertEquals(decisionOf(await p.hook("Bash", { command: "echo hi" })).kind, "deny");
  await Deno.link(`${p.root}/src/auth/token.py`, `${p.root}/__bash_session__`);
  const d = decisionOf(await p.hook("Edit", edit("__bash_session__")));
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, "Hard-linked target:");
});

Deno.test("[sensitive-targets] a .claude directory linked to src/payments makes .claude/settings.json a payments file, not Claude's settings", async () => {
  if (Deno.build.os === "windows") return;
  const p = await project({ "src/payments/settings.json": '{"x": 1}\n' });
  await Deno.symlink("src/payments", `${p.root}/.claude`);
  const change = { file_path: `${p.root}/.claude/settings.json`, old_string: "1", new_string: "2" };
  const d = decisionOf(await p.hook("Edit", change));
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, "Sensitive target:");
  // Benign: a real .claude directory keeps the exemption.
  const q = await project({ ".claude/settings.json": '{"x": 1}\n' });
  const real = { file_path: `${q.root}/.claude/settings.json`, old_string: "1", new_string: "2" };
  assertEquals(decisionOf(await q.hook("Edit", real)).kind, "pass");
});

Deno.test("[exempt-globs] GATEGUARD_EXEMPT_GLOBS=tests/** does not cover src/auth reached through a symlink in tests/", async () => {
  if (Deno.build.os === "windows") return;
  const p = await project({ "src/auth/login.py": "x = 1\n", "tests/test_login.py": "x = 1\n" });
  await Deno.symlink("../src/auth", `${p.root}/tests/authlink`);
  const exempt = { GATEGUARD_EXEMPT_GLOBS: "tests/**" };
  const d = decisionOf(await p.hook("Edit", edit(`${p.root}/tests/authlink/login.py`), {}, exempt));
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, "Sensitive target:");
  // Benign: a file really under tests/ stays exempt.
  const t = decisionOf(await p.hook("Edit", edit(`${p.root}/tests/test_login.py`), {}, exempt));
  assertEquals(t.kind, "pass");
});
