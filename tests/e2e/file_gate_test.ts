/**
 * End-to-end tests of the file gates: the real CLI as a subprocess, with the
 * binary's permissions, on a real temporary project with real symlinks,
 * hard links and state files.
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
import { tooComplexText } from "../../src/questions/messages.ts";
import { assistant, jsonl, prompt, result } from "../transcript/builder.ts";

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
  assertStringIncludes(first.text, "ECC_GATEGUARD=off");
  assertEquals(decisionOf(await p.hook("Edit", edit(`${p.root}/src/app.py`))).kind, "pass");
});

Deno.test("[canonical-path-keys] a.py, ./a.py and the absolute path share one first touch", async () => {
  const p = await project({ "a.py": "x = 1\n", "b.py": "x = 1\n" });
  assertEquals(decisionOf(await p.hook("Edit", edit("a.py"))).kind, "deny");
  assertEquals(decisionOf(await p.hook("Edit", edit("./a.py"))).kind, "pass");
  assertEquals(decisionOf(await p.hook("Edit", edit(`${p.root}/a.py`))).kind, "pass");
  assertEquals(decisionOf(await p.hook("Edit", edit(`${p.root}/sub/../b.py`))).kind, "deny");
  assertEquals(decisionOf(await p.hook("Edit", edit("b.py"))).kind, "pass");
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

Deno.test("[write-gate] a first Write asks before creating", async () => {
  const p = await project();
  const d = decisionOf(
    await p.hook("Write", { file_path: `${p.root}/src/new_mod.py`, content: "import json\n" }),
  );
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, `Before creating ${p.root}/src/new_mod.py, present these facts:`);
  assertStringIncludes(d.text, "1. Name the file(s) and line(s) that will call this new file");
});

Deno.test("[questions-by-target-class] README, tests, config and instructions get their class questions", async () => {
  const p = await project();
  const cases: [string, string][] = [
    ["README.md", "Name any existing doc this supersedes or duplicates"],
    ["tests/test_widget.py", "Name what behaviour is under test"],
    ["settings.yaml", "Name which process/tool reads this file and when"],
    ["CLAUDE.md", "Name the harness/loader that reads this file"],
  ];
  for (const [file, q] of cases) {
    const d = decisionOf(
      await p.hook("Write", { file_path: `${p.root}/${file}`, content: "x" }, {}, {
        GATEGUARD_FACT_FORCE_FULL_DENIALS: "9",
      }),
    );
    assertEquals(d.kind, "deny", file);
    assertStringIncludes(d.text, q);
    assertNotIncludes(d.text, "import/require", file);
  }
});

Deno.test("[sensitive-targets] .env is denied with the sensitive line, and only once", async () => {
  const p = await project({ ".env": "A=1\n" });
  const d = decisionOf(
    await p.hook("Edit", { file_path: `${p.root}/.env`, old_string: "A=1", new_string: "A=2" }),
  );
  assertEquals(d.kind, "deny");
  assertStringIncludes(
    d.text,
    "Sensitive target: prior-search credit, sibling collapse, and the denial cap do not apply.",
  );
  assertEquals(
    decisionOf(
      await p.hook("Edit", { file_path: `${p.root}/.env`, old_string: "A=1", new_string: "A=2" }),
    ).kind,
    "pass",
  );
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

Deno.test("[sensitive-targets] the denial cap never passes a sensitive target", async () => {
  const p = await project({ "migrations/001.sql": "x" });
  const d = decisionOf(
    await p.hook(
      "Edit",
      { file_path: `${p.root}/migrations/001.sql`, old_string: "x", new_string: "y" },
      {},
      {
        GATEGUARD_FACT_FORCE_MAX_DENIALS: "0",
      },
    ),
  );
  assertEquals(d.kind, "deny");
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

Deno.test("[exempt-globs] exempt globs pass, even a sensitive path; malformed globs grant nothing", async () => {
  const p = await project({ "src/auth/a.py": "x = 1\n", "gen/b.py": "x = 1\n" });
  const env = { GATEGUARD_EXEMPT_GLOBS: "src/auth/**,gen/[b.py" };
  assertEquals(
    decisionOf(await p.hook("Edit", edit(`${p.root}/src/auth/a.py`), {}, env)).kind,
    "pass",
  );
  assertEquals(decisionOf(await p.hook("Edit", edit(`${p.root}/gen/b.py`), {}, env)).kind, "deny");
});

Deno.test("[exempt-globs] Claude settings files are exempt", async () => {
  const p = await project({ ".claude/settings.json": "{}" });
  const d = decisionOf(
    await p.hook("Edit", {
      file_path: `${p.root}/.claude/settings.json`,
      old_string: "{}",
      new_string: "{ }",
    }),
  );
  assertEquals(d.kind, "pass");
});

Deno.test("[subagents] subagent edits pass, but a sensitive path is denied once under a separate key", async () => {
  const p = await project({ "src/a.py": "x = 1\n", ".env": "A=1\n" });
  const sub = { agent_id: "agent-7" };
  assertEquals(decisionOf(await p.hook("Edit", edit(`${p.root}/src/a.py`), sub)).kind, "pass");
  const envEdit = { file_path: `${p.root}/.env`, old_string: "A=1", new_string: "A=2" };
  const d = decisionOf(await p.hook("Edit", envEdit, sub));
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, "Sensitive target:");
  assertEquals(decisionOf(await p.hook("Edit", envEdit, sub)).kind, "pass");
  // The subagent's retry did not unlock the path for the parent.
  assertEquals(decisionOf(await p.hook("Edit", envEdit)).kind, "deny");
  // The ordinary file is still gated for the parent.
  assertEquals(decisionOf(await p.hook("Edit", edit(`${p.root}/src/a.py`))).kind, "deny");
});

Deno.test("[notebookedit] NotebookEdit is gated on notebook_path with the full questions and shares the key", async () => {
  const p = await project({ "nb/analysis.ipynb": "{}" });
  const nb = `${p.root}/nb/analysis.ipynb`;
  const d = decisionOf(
    await p.hook("NotebookEdit", {
      notebook_path: nb,
      new_source: "print(1)",
      file_path: `${p.root}/other.py`,
    }),
  );
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, `Before editing ${nb}`);
  assertStringIncludes(d.text, "1. List ALL files that import/require this file");
  assertStringIncludes(d.text, "2. List the public functions/classes affected by this change");
  assertEquals(
    decisionOf(await p.hook("Edit", { file_path: nb, old_string: "{}", new_string: "{ }" })).kind,
    "pass",
  );
});

Deno.test("[multiedit-paths] entries without a path are gated as the call's file; the first unchecked entry is denied", async () => {
  const p = await project({ "a.py": "x = 1\n", "b.py": "x = 1\n" });
  const call = {
    file_path: `${p.root}/a.py`,
    edits: [
      { old_string: "x = 1", new_string: "x = 2" },
      { file_path: `${p.root}/b.py`, old_string: "x = 1", new_string: "x = 3" },
      "not an object",
    ],
  };
  const d1 = decisionOf(await p.hook("MultiEdit", call));
  assertStringIncludes(d1.text, `Before editing ${p.root}/a.py`);
  const d2 = decisionOf(await p.hook("MultiEdit", call));
  assertStringIncludes(d2.text, `Before editing ${p.root}/b.py`);
  assertEquals(decisionOf(await p.hook("MultiEdit", call)).kind, "pass");
  assertEquals(
    decisionOf(await p.hook("MultiEdit", { file_path: `${p.root}/c.py`, edits: "nope" })).kind,
    "deny",
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

Deno.test("[quick-start] after GATEGUARD_FACT_FORCE_FULL_DENIALS denials the message is one condensed line", async () => {
  const p = await project({ "a.py": "x = 1\n", "b.py": "x = 1\n" });
  const env = { GATEGUARD_FACT_FORCE_FULL_DENIALS: "1" };
  const full = decisionOf(await p.hook("Edit", edit(`${p.root}/a.py`), {}, env));
  assertStringIncludes(full.text, "present these facts:");
  const short = decisionOf(await p.hook("Edit", edit(`${p.root}/b.py`), {}, env));
  assertStringIncludes(
    short.text,
    `[Fact-Forcing Gate] Denial #2: before editing ${p.root}/b.py, present `,
  );
  assertStringIncludes(short.text, "GATEGUARD_FACT_FORCE_MAX_DENIALS");
  assertNotIncludes(short.text, "present these facts:");
});

Deno.test("[turning-the-gate-off-completely] ECC_GATEGUARD off spellings, GATEGUARD_DISABLED=1 only, and hook ids", async () => {
  const p = await project({ "a.py": "x = 1\n" });
  for (const off of ["0", "false", " OFF ", "disabled", "disable"]) {
    assertEquals(
      decisionOf(await p.hook("Edit", edit(`${p.root}/a.py`), {}, { ECC_GATEGUARD: off })).kind,
      "pass",
      off,
    );
  }
  assertEquals(
    decisionOf(await p.hook("Edit", edit(`${p.root}/a.py`), {}, { GATEGUARD_DISABLED: "1" })).kind,
    "pass",
  );
  const hooks = {
    ECC_DISABLED_HOOKS: "pre:bash:gateguard-fact-force, pre:edit-write:gateguard-fact-force",
  };
  assertEquals(decisionOf(await p.hook("Edit", edit(`${p.root}/a.py`), {}, hooks)).kind, "pass");
  assertEquals(
    decisionOf(await p.hook("Edit", edit(`${p.root}/a.py`), {}, { GATEGUARD_DISABLED: "true" }))
      .kind,
    "deny",
  );
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

Deno.test("[quick-start] state that cannot be saved allows the call with a warning naming GATEGUARD_STATE_DIR", async () => {
  const p = await project({ "a.py": "x = 1\n" });
  await Deno.writeTextFile(`${p.state}`, "a file where the state dir should be");
  const r = await p.hook("Edit", edit(`${p.root}/a.py`));
  const d = decisionOf(r);
  assertEquals(d.kind, "note");
  assertStringIncludes(d.text, "GATEGUARD_STATE_DIR");
  assertStringIncludes(r.stderr, "GATEGUARD_STATE_DIR");
});

Deno.test("[pretooluse-input] tools GateGuard does not gate pass silently without touching state", async () => {
  const p = await project();
  const r = await p.hook("Read", { file_path: `${p.root}/a.py` });
  assertEquals(r.stdout, "");
  assertEquals(r.stderr, "");
  const exists = await Deno.stat(p.state).then(() => true, () => false);
  assertEquals(exists, false);
});

Deno.test("[questions-fit-the-change] a private change asks for local call sites and drops the data question", async () => {
  const p = await project({ "src/calc.py": "def _scale(x):\n    return x * 2\n" });
  const d = decisionOf(
    await p.hook("Edit", {
      file_path: `${p.root}/src/calc.py`,
      old_string: "return x * 2",
      new_string: "return x * 3",
    }),
  );
  assertEquals(d.kind, "deny");
  assertStringIncludes(
    d.text,
    "1. List the call sites in this file or its module that rely on the changed behaviour\n" +
      "2. Quote the user's current instruction verbatim",
  );
});

Deno.test("[questions-fit-the-change] a public change that reads JSON keeps importers, public API and data", async () => {
  const p = await project({ "src/load.ts": "export function load(p: string) {\n  return 1;\n}\n" });
  const d = decisionOf(
    await p.hook("Edit", {
      file_path: `${p.root}/src/load.ts`,
      old_string: "export function load(p: string) {\n  return 1;",
      new_string:
        "export function load(p: string, path: string) {\n  return JSON.parse(Deno.readTextFileSync(path));",
    }),
  );
  assertStringIncludes(d.text, "1. List ALL files that import/require this file");
  assertStringIncludes(d.text, "3. If this file reads/writes data files");
});

Deno.test("[comment-and-whitespace-only-edits] a comment-only Edit passes with a note and is not marked checked", async () => {
  const p = await project({ "src/calc.py": "def _scale(x):\n    # doubles\n    return x * 2\n" });
  const file = `${p.root}/src/calc.py`;
  const note = decisionOf(
    await p.hook("Edit", { file_path: file, old_string: "# doubles", new_string: "# doubles x" }),
  );
  assertEquals(note, { kind: "note", text: `Comment or whitespace-only change to ${file}` });
  assertEquals(
    decisionOf(
      await p.hook("Edit", {
        file_path: file,
        old_string: "return x * 2",
        new_string: "return x * 4",
      }),
    ).kind,
    "deny",
  );
});

Deno.test("[comment-and-whitespace-only-edits] sensitive and config targets never pass as comment-only", async () => {
  const p = await project({ "src/auth/calc.py": "# a\nx = 1\n", "conf.yaml": "# a\nx: 1\n" });
  for (const f of ["src/auth/calc.py", "conf.yaml"]) {
    const d = decisionOf(
      await p.hook("Edit", { file_path: `${p.root}/${f}`, old_string: "# a", new_string: "# b" }),
    );
    assertEquals(d.kind, "deny", f);
  }
});

Deno.test("[same-turn-sibling-creation-collapse] a second new file of the same class in the same directory passes with a note", async () => {
  const p = await project();
  await Deno.mkdir(`${p.root}/src`);
  const first = decisionOf(
    await p.hook("Write", { file_path: `${p.root}/src/one.py`, content: "x = 1\n" }),
  );
  assertEquals(first.kind, "deny");
  const second = decisionOf(
    await p.hook("Write", { file_path: `${p.root}/src/two.py`, content: "x = 2\n" }),
  );
  assertEquals(second, {
    kind: "note",
    text: `Sibling of ${p.root}/src/one.py (gated earlier at denial #1 this session)`,
  });
  // A test file in the same directory is another class: denied.
  assertEquals(
    decisionOf(await p.hook("Write", { file_path: `${p.root}/src/test_two.py`, content: "" })).kind,
    "deny",
  );
  // An existing file is never a sibling, and Edits never collapse.
  await Deno.writeTextFile(`${p.root}/src/three.py`, "x = 3\n");
  assertEquals(
    decisionOf(await p.hook("Write", { file_path: `${p.root}/src/three.py`, content: "x" })).kind,
    "deny",
  );
});

Deno.test("[same-turn-sibling-creation-collapse] dot-directories and config files never collapse", async () => {
  const p = await project();
  await Deno.mkdir(`${p.root}/.github/scripts`, { recursive: true });
  await Deno.mkdir(`${p.root}/conf`);
  for (const dir of [".github/scripts", "conf"]) {
    const ext = dir === "conf" ? "yaml" : "py";
    assertEquals(
      decisionOf(await p.hook("Write", { file_path: `${p.root}/${dir}/a.${ext}`, content: "x" }))
        .kind,
      "deny",
    );
    assertEquals(
      decisionOf(await p.hook("Write", { file_path: `${p.root}/${dir}/b.${ext}`, content: "x" }))
        .kind,
      "deny",
    );
  }
});

Deno.test("[same-turn-sibling-creation-collapse] with a transcript, the window is the human turn, not 120 seconds", async () => {
  const p = await project();
  await Deno.mkdir(`${p.root}/lib`);
  const transcript = `${p.root}/../t.jsonl`;
  const prompt = (id: string) =>
    JSON.stringify({
      type: "user",
      uuid: `u-${id}`,
      promptId: id,
      message: { role: "user", content: `do ${id}` },
    }) + "\n";
  await Deno.writeTextFile(transcript, prompt("p1"));
  const write = (file: string, promptId: string) =>
    p.hook("Write", { file_path: `${p.root}/lib/${file}`, content: "x = 1\n" }, {
      transcript_path: transcript,
      prompt_id: promptId,
    });
  assertEquals(decisionOf(await write("a.py", "p1")).kind, "deny");
  assertEquals(decisionOf(await write("b.py", "p1")).kind, "note");
  await Deno.writeTextFile(transcript, prompt("p2"), { append: true });
  assertEquals(decisionOf(await write("c.py", "p2")).kind, "deny");
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
