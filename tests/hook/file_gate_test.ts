/**
 * The file gates in process: sessions of calls decided through `decide()`
 * on the in-memory filesystem, with each call's state changes applied
 * before the next, as the hook saves them. What needs a real disk, a real
 * process or the hook's input and output stays in `tests/e2e/file_gate_test.ts`.
 */

import { assertEquals, assertNotIncludes, assertStringIncludes } from "../helpers/assert.ts";
import { addFile, projectFs, Session } from "./session.ts";
import { ROOT } from "./context.ts";
import { batchPossible } from "../../src/hook/file_gate.ts";
import { assistant, jsonl, prompt, result } from "../session_logs/builder.ts";

const edit = (file: string) => ({ file_path: file, old_string: "x = 1", new_string: "x = 2" });

function session(files: Record<string, string> = {}, dirs: string[] = []): Session {
  return new Session(projectFs(files, dirs));
}

Deno.test("[canonical-path-keys] a.py, ./a.py and the absolute path share one first touch", async () => {
  const s = session({ "a.py": "x = 1\n", "b.py": "x = 1\n" });
  assertEquals((await s.call("Edit", edit("a.py"))).kind, "deny");
  assertEquals((await s.call("Edit", edit("./a.py"))).kind, "pass");
  assertEquals((await s.call("Edit", edit(`${ROOT}/a.py`))).kind, "pass");
  assertEquals((await s.call("Edit", edit(`${ROOT}/sub/../b.py`))).kind, "deny");
  assertEquals((await s.call("Edit", edit("b.py"))).kind, "pass");
});

Deno.test("[write-gate] a first Write asks before creating", async () => {
  const s = session();
  const d = await s.call("Write", {
    file_path: `${ROOT}/src/new_mod.py`,
    content: "import json\n",
  });
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, `Before creating ${ROOT}/src/new_mod.py, present these facts:`);
  assertStringIncludes(d.text, "1. Name the file(s) and line(s) that will call this new file");
});

Deno.test("[questions-by-target-class] README, tests, config and instructions get their class questions", async () => {
  const s = session();
  const cases: [string, string][] = [
    ["README.md", "Name any existing doc this supersedes or duplicates"],
    ["tests/test_widget.py", "Name what behaviour is under test"],
    ["settings.yaml", "Name which process/tool reads this file and when"],
    ["CLAUDE.md", "Name the harness/loader that reads this file"],
  ];
  for (const [file, q] of cases) {
    const d = await s.call("Write", { file_path: `${ROOT}/${file}`, content: "x" }, {}, {
      GATEGUARD_FACT_FORCE_FULL_DENIALS: "9",
    });
    assertEquals(d.kind, "deny", file);
    assertStringIncludes(d.text, q);
    assertNotIncludes(d.text, "import/require", file);
  }
});

Deno.test("[sensitive-targets] .env is denied with the sensitive line, and only once", async () => {
  const s = session({ ".env": "A=1\n" });
  const change = { file_path: `${ROOT}/.env`, old_string: "A=1", new_string: "A=2" };
  const d = await s.call("Edit", change);
  assertEquals(d.kind, "deny");
  assertStringIncludes(
    d.text,
    "Sensitive target: prior-search credit, sibling collapse, and the denial cap do not apply.",
  );
  assertEquals((await s.call("Edit", change)).kind, "pass");
});

Deno.test("[sensitive-targets] the denial cap never passes a sensitive target", async () => {
  const s = session({ "migrations/001.sql": "x" });
  const d = await s.call(
    "Edit",
    { file_path: `${ROOT}/migrations/001.sql`, old_string: "x", new_string: "y" },
    {},
    { GATEGUARD_FACT_FORCE_MAX_DENIALS: "0" },
  );
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, "Sensitive target:");
});

Deno.test("[exempt-globs] exempt globs pass, even a sensitive path; malformed globs grant nothing", async () => {
  const s = session({ "src/auth/a.py": "x = 1\n", "gen/b.py": "x = 1\n" });
  const env = { GATEGUARD_EXEMPT_GLOBS: "src/auth/**,gen/[b.py" };
  assertEquals((await s.call("Edit", edit(`${ROOT}/src/auth/a.py`), {}, env)).kind, "pass");
  assertEquals((await s.call("Edit", edit(`${ROOT}/gen/b.py`), {}, env)).kind, "deny");
});

Deno.test("[exempt-globs] Claude settings files are exempt", async () => {
  const s = session({ ".claude/settings.json": "{}" });
  const d = await s.call("Edit", {
    file_path: `${ROOT}/.claude/settings.json`,
    old_string: "{}",
    new_string: "{ }",
  });
  assertEquals(d.kind, "pass");
});

Deno.test("[subagents] subagent edits pass, but a sensitive path is denied once under a separate key", async () => {
  const s = session({ "src/a.py": "x = 1\n", ".env": "A=1\n" });
  const sub = { agent_id: "agent-7" };
  assertEquals((await s.call("Edit", edit(`${ROOT}/src/a.py`), sub)).kind, "pass");
  const envEdit = { file_path: `${ROOT}/.env`, old_string: "A=1", new_string: "A=2" };
  const d = await s.call("Edit", envEdit, sub);
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, "Sensitive target:");
  assertEquals((await s.call("Edit", envEdit, sub)).kind, "pass");
  // The subagent's retry did not unlock the path for the parent.
  assertEquals((await s.call("Edit", envEdit)).kind, "deny");
  // The ordinary file is still gated for the parent.
  assertEquals((await s.call("Edit", edit(`${ROOT}/src/a.py`))).kind, "deny");
});

Deno.test("[notebookedit] NotebookEdit is gated on notebook_path with the full questions and shares the key", async () => {
  const s = session({ "nb/analysis.ipynb": "{}" });
  const nb = `${ROOT}/nb/analysis.ipynb`;
  const d = await s.call("NotebookEdit", {
    notebook_path: nb,
    new_source: "print(1)",
    file_path: `${ROOT}/other.py`,
  });
  assertEquals(d.kind, "deny");
  assertStringIncludes(d.text, `Before editing ${nb}`);
  assertStringIncludes(d.text, "1. List ALL files that import/require this file");
  assertStringIncludes(d.text, "2. List the public functions/classes affected by this change");
  assertEquals(
    (await s.call("Edit", { file_path: nb, old_string: "{}", new_string: "{ }" })).kind,
    "pass",
  );
});

Deno.test("[multiedit-paths] entries without a path are gated as the call's file; the first unchecked entry is denied", async () => {
  const s = session({ "a.py": "x = 1\n", "b.py": "x = 1\n" });
  const call = {
    file_path: `${ROOT}/a.py`,
    edits: [
      { old_string: "x = 1", new_string: "x = 2" },
      { file_path: `${ROOT}/b.py`, old_string: "x = 1", new_string: "x = 3" },
    ],
  };
  assertStringIncludes((await s.call("MultiEdit", call)).text, `Before editing ${ROOT}/a.py`);
  assertStringIncludes((await s.call("MultiEdit", call)).text, `Before editing ${ROOT}/b.py`);
  assertEquals((await s.call("MultiEdit", call)).kind, "pass");
  // An entry that cannot be read makes the whole call unreadable, on every try.
  for (const edits of ["nope", [...call.edits, "not an object"]]) {
    for (let attempt = 0; attempt < 2; attempt++) {
      assertEquals((await s.call("MultiEdit", { ...call, edits })).kind, "deny");
    }
  }
});

Deno.test("[quick-start] after GATEGUARD_FACT_FORCE_FULL_DENIALS denials the message is one condensed line", async () => {
  const s = new Session(projectFs({ "a.py": "x = 1\n", "b.py": "x = 1\n" }), {
    GATEGUARD_FACT_FORCE_FULL_DENIALS: "1",
  });
  const full = await s.call("Edit", edit(`${ROOT}/a.py`));
  assertStringIncludes(full.text, "present these facts:");
  const short = await s.call("Edit", edit(`${ROOT}/b.py`));
  assertStringIncludes(
    short.text,
    `[Fact-Forcing Gate] Denial #2: before editing ${ROOT}/b.py, present `,
  );
  assertStringIncludes(short.text, "(Earlier denials listed the full questions.)");
  assertNotIncludes(short.text, "present these facts:");
});

Deno.test("[turning-the-gate-off-completely] ECC_GATEGUARD off spellings, GATEGUARD_DISABLED=1 only, and hook ids", async () => {
  const s = session({ "a.py": "x = 1\n" });
  for (const off of ["0", "false", " OFF ", "disabled", "disable"]) {
    assertEquals(
      (await s.call("Edit", edit(`${ROOT}/a.py`), {}, { ECC_GATEGUARD: off })).kind,
      "pass",
      off,
    );
  }
  assertEquals(
    (await s.call("Edit", edit(`${ROOT}/a.py`), {}, { GATEGUARD_DISABLED: "1" })).kind,
    "pass",
  );
  const hooks = {
    ECC_DISABLED_HOOKS: "pre:bash:gateguard-fact-force, pre:edit-write:gateguard-fact-force",
  };
  assertEquals((await s.call("Edit", edit(`${ROOT}/a.py`), {}, hooks)).kind, "pass");
  assertEquals(
    (await s.call("Edit", edit(`${ROOT}/a.py`), {}, { GATEGUARD_DISABLED: "true" })).kind,
    "deny",
  );
});

Deno.test("[questions-fit-the-change] a private change asks for local call sites and drops the data question", async () => {
  const s = session({ "src/calc.py": "def _scale(x):\n    return x * 2\n" });
  const d = await s.call("Edit", {
    file_path: `${ROOT}/src/calc.py`,
    old_string: "return x * 2",
    new_string: "return x * 3",
  });
  assertEquals(d.kind, "deny");
  assertStringIncludes(
    d.text,
    "1. List the call sites in this file or its module that rely on the changed behaviour\n" +
      "2. Quote the user's current instruction verbatim",
  );
});

Deno.test("[questions-fit-the-change] a public change that reads JSON keeps importers, public API and data", async () => {
  const s = session({ "src/load.ts": "export function load(p: string) {\n  return 1;\n}\n" });
  const d = await s.call("Edit", {
    file_path: `${ROOT}/src/load.ts`,
    old_string: "export function load(p: string) {\n  return 1;",
    new_string:
      "export function load(p: string, path: string) {\n  return JSON.parse(Deno.readTextFileSync(path));",
  });
  assertStringIncludes(d.text, "1. List ALL files that import/require this file");
  assertStringIncludes(d.text, "3. If this file reads/writes data files");
});

Deno.test("[comment-and-whitespace-only-edits] a comment-only Edit passes with a note and is not marked checked", async () => {
  const s = session({ "src/calc.py": "def _scale(x):\n    # doubles\n    return x * 2\n" });
  const file = `${ROOT}/src/calc.py`;
  const note = await s.call("Edit", {
    file_path: file,
    old_string: "# doubles",
    new_string: "# doubles x",
  });
  assertEquals(note, { kind: "note", text: `Comment or whitespace-only change to ${file}` });
  assertEquals(
    (await s.call("Edit", {
      file_path: file,
      old_string: "return x * 2",
      new_string: "return x * 4",
    }))
      .kind,
    "deny",
  );
});

Deno.test("[comment-and-whitespace-only-edits] sensitive and config targets never pass as comment-only", async () => {
  const s = session({ "src/auth/calc.py": "# a\nx = 1\n", "conf.yaml": "# a\nx: 1\n" });
  for (const f of ["src/auth/calc.py", "conf.yaml"]) {
    const d = await s.call("Edit", {
      file_path: `${ROOT}/${f}`,
      old_string: "# a",
      new_string: "# b",
    });
    assertEquals(d.kind, "deny", f);
  }
});

Deno.test("[same-turn-sibling-creation-collapse] a second new file of the same class in the same directory passes with a note", async () => {
  const s = session({}, ["src"]);
  const first = await s.call("Write", { file_path: `${ROOT}/src/one.py`, content: "x = 1\n" });
  assertEquals(first.kind, "deny");
  const second = await s.call("Write", { file_path: `${ROOT}/src/two.py`, content: "x = 2\n" });
  assertEquals(second, {
    kind: "note",
    text: `Sibling of ${ROOT}/src/one.py (gated earlier at denial #1 this session)`,
  });
  // A test file in the same directory is another class: denied.
  assertEquals(
    (await s.call("Write", { file_path: `${ROOT}/src/test_two.py`, content: "" })).kind,
    "deny",
  );
  // An existing file is never a sibling, and Edits never collapse.
  addFile(s.fs, "src/three.py", "x = 3\n");
  assertEquals(
    (await s.call("Write", { file_path: `${ROOT}/src/three.py`, content: "x" })).kind,
    "deny",
  );
});

Deno.test("[same-turn-sibling-creation-collapse] dot-directories and config files never collapse", async () => {
  const s = session({}, [".github/scripts", "conf"]);
  for (const dir of [".github/scripts", "conf"]) {
    const ext = dir === "conf" ? "yaml" : "py";
    assertEquals(
      (await s.call("Write", { file_path: `${ROOT}/${dir}/a.${ext}`, content: "x" })).kind,
      "deny",
    );
    assertEquals(
      (await s.call("Write", { file_path: `${ROOT}/${dir}/b.${ext}`, content: "x" })).kind,
      "deny",
    );
  }
});

Deno.test("[same-turn-sibling-creation-collapse] with a transcript, the window is the human turn, not 120 seconds", async () => {
  const s = session({}, ["lib"]);
  const transcript = `${ROOT}/../t.jsonl`;
  const prompt = (id: string) =>
    JSON.stringify({
      type: "user",
      uuid: `u-${id}`,
      promptId: id,
      message: { role: "user", content: `do ${id}` },
    }) + "\n";
  s.fs.write(transcript, prompt("p1"));
  const write = (file: string, promptId: string) =>
    s.call("Write", { file_path: `${ROOT}/lib/${file}`, content: "x = 1\n" }, {
      transcript_path: transcript,
      prompt_id: promptId,
    });
  assertEquals((await write("a.py", "p1")).kind, "deny");
  assertEquals((await write("b.py", "p1")).kind, "note");
  s.fs.write(transcript, prompt("p1") + prompt("p2"));
  assertEquals((await write("c.py", "p2")).kind, "deny");
});

Deno.test("[parallel-batches-and-partial-application] the batch warning comes only when the call may ride in a batch", async () => {
  const s = session({ "a.py": "x = 1\n", "b.py": "x = 1\n", "c.py": "x = 1\n", "d.py": "x = 1\n" });
  const transcript = "/home/u/.claude/projects/p/s1.jsonl";
  const use = (id: string, file: string) => ({ id, name: "Edit", input: edit(`${ROOT}/${file}`) });
  s.fs.write(
    transcript,
    jsonl(
      prompt("change them", "p1"),
      assistant("msg_alone", [use("toolu_a", "a.py")]),
      result("toolu_a", "p1"),
      assistant("msg_pair", [use("toolu_b", "b.py"), { id: "toolu_g", name: "Glob", input: {} }]),
    ),
  );
  const call = (file: string, toolUseId: string | null) =>
    s.call("Edit", edit(`${ROOT}/${file}`), {
      transcript_path: transcript,
      prompt_id: "p1",
      ...(toolUseId ? { tool_use_id: toolUseId } : {}),
    });
  const warning = (file: string) =>
    `Batch warning: if this call rode in a parallel batch, ` +
    `sibling edits to ${ROOT}/${file} may already have been applied`;
  // Alone in its message: no sibling can have touched the file.
  const alone = await call("a.py", "toolu_a");
  assertEquals(alone.kind, "deny");
  assertNotIncludes(alone.text, "Batch warning");
  // Another call rides in the same message.
  assertStringIncludes((await call("b.py", "toolu_b")).text, warning("b.py"));
  // The transcript cannot tell: the pending call is not in it, or there is no pending id.
  assertStringIncludes((await call("c.py", "toolu_missing")).text, warning("c.py"));
  assertStringIncludes((await call("d.py", null)).text, warning("d.py"));
});

Deno.test("[parallel-batches-and-partial-application] without a transcript, or with several targets, a batch is possible", () => {
  const scan = (batchMates?: number | null) => ({ turnId: "p1", calls: [], batchMates });
  assertEquals(batchPossible(1, null), true);
  assertEquals(batchPossible(1, scan()), true);
  assertEquals(batchPossible(1, scan(null)), true);
  assertEquals(batchPossible(1, scan(2)), true);
  assertEquals(batchPossible(2, scan(0)), true);
  assertEquals(batchPossible(1, scan(0)), false);
});
