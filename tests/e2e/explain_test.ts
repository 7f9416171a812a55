/**
 * `gateguard explain`: the rule of the order of checks that decides each
 * kind of call, shown without saving state or writing metrics.
 */

import { tempDir } from "../helpers/temp.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { CLI_ARGV, type CliResult, denoDir, runCli, runHook } from "../helpers/cli.ts";
import { assistant, jsonl, prompt, result } from "../session_logs/builder.ts";
import { tooComplexText } from "../../src/questions/messages.ts";
import { trustProjectFile } from "../helpers/trust.ts";

interface Explained {
  tool: string;
  gated: boolean;
  decision: string;
  message: string | null;
  targets: {
    rule: string | null;
    decision: string;
    reason: string;
    steps: { rule: string; applied: boolean }[];
  }[];
}

async function setup() {
  const tmp = await Deno.realPath(await tempDir({ prefix: "gg-explain-" }));
  const root = `${tmp}/proj`;
  await Deno.mkdir(`${root}/src`, { recursive: true });
  await Deno.writeTextFile(`${root}/src/a.py`, "x = 1\n# note\n");
  await Deno.writeTextFile(`${root}/.env`, "A=1\n");
  const env = { GATEGUARD_STATE_DIR: `${tmp}/state`, CLAUDE_PROJECT_DIR: root, HOME: tmp };
  const payload = (
    tool: string,
    input: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) => ({
    session_id: "ex",
    cwd: root,
    tool_name: tool,
    tool_input: input,
    ...extra,
  });
  const explain = async (p: unknown, more: Record<string, string> = {}): Promise<Explained> => {
    const r = await runCli(["explain", "--json"], {
      stdin: JSON.stringify(p),
      env: { ...env, ...more },
      cwd: root,
    });
    assertEquals(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  return { tmp, root, env, payload, explain };
}

Deno.test("[order-of-checks] explain names the deciding rule of every file-gate step", async () => {
  const { root, payload, explain, env, tmp } = await setup();
  const edit = (file: string, o = "x = 1", n = "x = 2") => ({
    file_path: file,
    old_string: o,
    new_string: n,
  });
  const cases: [unknown, Record<string, string>, string, string][] = [
    [payload("Edit", {}), {}, "input", "malformed-input"],
    [
      payload("Edit", edit(`${root}/src/a.py`)),
      { GATEGUARD_EXEMPT_GLOBS: "src/**" },
      "exempt",
      "exempt-glob",
    ],
    [payload("Edit", edit(`${root}/src/a.py`), { agent_id: "sub" }), {}, "subagent", "subagent"],
    [payload("Edit", edit(`${root}/.env`, "A=1", "A=2")), {}, "strict", "sensitive"],
    [
      payload("Edit", edit(`${root}/src/a.py`, "# note", "# note!")),
      {},
      "trivial",
      "comment-whitespace",
    ],
    [
      payload("Edit", edit(`${root}/src/a.py`)),
      { GATEGUARD_FACT_FORCE_MAX_DENIALS: "0" },
      "cap",
      "max-denials",
    ],
    [payload("Edit", edit(`${root}/src/a.py`)), {}, "deny", "first-touch"],
  ];
  for (const [p, more, rule, reason] of cases) {
    const x = await explain(p, more);
    assertEquals([x.targets[0].rule, x.targets[0].reason], [rule, reason], JSON.stringify(p));
    assertEquals(x.targets[0].steps.at(-1), { rule, applied: true });
  }
  // Nothing was saved: the same Edit is still a first touch for the real hook.
  assertEquals(await Deno.stat(`${tmp}/state`).then(() => true, () => false), false);
  const real = await runHook(payload("Edit", edit(`${root}/src/a.py`)), { env, cwd: root });
  assertStringIncludes(real.stdout, '"permissionDecision":"deny"');
  const checked = await explain(payload("Edit", edit(`${root}/src/a.py`)));
  assertEquals([checked.targets[0].rule, checked.decision], ["checked", "pass"]);
});

Deno.test("[order-of-checks] explain shows credit and sibling collapse from a transcript", async () => {
  const { root, payload, explain, tmp } = await setup();
  const transcript = `${tmp}/t.jsonl`;
  await Deno.writeTextFile(
    transcript,
    jsonl(
      prompt("add widgets", "p1"),
      assistant("m1", [{ id: "t1", name: "Bash", input: { command: "grep -rn widget src" } }], {
        cwd: root,
      }),
      result("t1", "p1"),
      assistant("m2", [{ id: "t2", name: "Edit", input: {} }]),
    ),
  );
  await Deno.writeTextFile(`${root}/src/widget.py`, "x = 1\n");
  const turn = { transcript_path: transcript, prompt_id: "p1", tool_use_id: "t2" };
  const credit = await explain(
    payload("Edit", {
      file_path: `${root}/src/widget.py`,
      old_string: "x = 1",
      new_string: "x = 2",
    }, turn),
  );
  assertEquals([credit.targets[0].rule, credit.decision], ["credit", "note"]);
  assertStringIncludes(credit.message ?? "", "grep -rn widget src");
});

Deno.test("[order-of-checks] explain names the deciding rule of the shell gates", async () => {
  const { payload, explain } = await setup();
  const cases: [string, Record<string, string>, string][] = [
    ["git status", {}, "readonly-git"],
    ["rm -rf build", {}, "destructive"],
    ["npm test", { GATEGUARD_BASH_ROUTINE_DISABLED: "1" }, "routine-disabled"],
    ["ls -la", {}, "readonly"],
    ["npm test", {}, "routine"],
  ];
  for (const [command, more, rule] of cases) {
    const x = await explain(payload("Bash", { command }), more);
    assertEquals(x.targets[0].rule, rule, command);
  }
});

Deno.test("[order-of-checks] explain reads --payload files, prints text, and rejects bad options", async () => {
  const { payload, tmp, env } = await setup();
  const file = `${tmp}/payload.json`;
  await Deno.writeTextFile(file, JSON.stringify(payload("Bash", { command: "rm -rf build" })));
  const text = await runCli(["explain", "--payload", file], { env });
  assertEquals(text.code, 0);
  assertStringIncludes(text.stdout, "Bash: deny");
  assertStringIncludes(text.stdout, "-> destructive command: applies");
  const bad = await runCli(["explain", "--nope"], { env });
  assertEquals(bad.code, 2);
  const missing = await runCli(["explain", "--payload", `${tmp}/missing.json`], { env });
  assertEquals(missing.code, 1);
  const garbage = await runCli(["explain"], { stdin: "not json", env });
  assertEquals([garbage.code, garbage.stdout], [1, ""]);
  assertEquals(
    garbage.stderr.trim(),
    "gateguard explain: the payload is not valid JSON: at line 1, column 1 (offset 0) a value " +
      "(object, array, string, number, true, false or null) was expected; the hook would let " +
      "such a call through unchecked",
  );
});

Deno.test("[order-of-checks] explain of a broken payload is an error naming its line and column", async () => {
  const { env } = await setup();
  const broken = '{\n  "tool_name": "Bash",\n  "tool_input": {"command": "rm -rf /"\n}';
  const r = await runCli(["explain", "--json"], { stdin: broken, env });
  assertEquals([r.code, r.stdout], [1, ""]);
  assertStringIncludes(r.stderr, "at line 4, column 2 (offset 65) ',' or '}' was expected");
  const array = await runCli(["explain"], { stdin: "[]", env });
  assertEquals(array.code, 1);
  assertStringIncludes(array.stderr, "the payload is JSON but not an object");
});

Deno.test("[order-of-checks] explain --command and --file build the call; the plain-language answer comes first", async () => {
  const { root, env, tmp } = await setup();
  const run = (args: string[]) => runCli(["explain", ...args], { env, cwd: root });
  const rm = await run(["--command", "rm -rf build"]);
  assertEquals(rm.code, 0, rm.stderr);
  const lines = rm.stdout.split("\n");
  assertEquals(
    lines[0],
    "GateGuard would deny this call because the command is destructive: it deletes a " +
      "directory tree and every file below it (rule core/rm-recursive).",
  );
  assertEquals(lines.slice(1, 3), ["", "Bash: deny"]);
  assertStringIncludes(rm.stdout, "  -> destructive command: applies\n");
  assertStringIncludes(rm.stdout, "\nWhat the agent is told:\n\n[Fact-Forcing Gate]\n");
  const ps = JSON.parse(
    (await run([
      "--command",
      "Remove-Item -Recurse -Force build",
      "--shell",
      "powershell",
      "--json",
    ]))
      .stdout,
  );
  assertEquals([ps.tool, ps.decision, ps.destructive.rule], [
    "PowerShell",
    "deny",
    "remove-item-recurse",
  ]);
  const ls = await run(["--command", "git status"]);
  assertEquals(
    ls.stdout.split("\n")[0],
    "GateGuard would let this call through because the command only reads the git repository.",
  );
  // An existing file: an Edit whose change cannot be read, so the full questions.
  const edit = JSON.parse((await run(["--file", "src/a.py", "--json"])).stdout);
  assertEquals([edit.tool, edit.decision, edit.targets[0].reason], ["Edit", "deny", "first-touch"]);
  assertEquals(edit.targets[0].questions, [
    "importers",
    "public-api",
    "data-schema",
    "quote-instruction",
  ]);
  assertStringIncludes(edit.message, `Before editing ${root}/src/a.py, present these facts:`);
  const write = JSON.parse((await run(["--file", "src/new.py", "--json"])).stdout);
  assertEquals([write.tool, write.decision], ["Write", "deny"]);
  assertStringIncludes(write.message, `Before creating ${root}/src/new.py`);
  const secret = await run(["--file", ".env"]);
  assertEquals(
    secret.stdout.split("\n")[0],
    "GateGuard would deny this call because the file is sensitive (secrets, keys, " +
      "credentials), which is always asked about.",
  );
  // Nothing was saved.
  assertEquals(await Deno.stat(`${tmp}/state`).then(() => true, () => false), false);
  const both = await run(["--command", "ls", "--file", "a"]);
  assertEquals(both.code, 2);
  assertStringIncludes(both.stderr, "--payload, --command and --file each name the call");
});

Deno.test("[agents] explain --agent reads the payload with that agent's adapter, as the hook does", async () => {
  const { root, env } = await setup();
  await Deno.writeTextFile(`${root}/old.py`, "x = 1\n");
  const patch = {
    session_id: "codex-ex",
    turn_id: "t1",
    cwd: root,
    hook_event_name: "PreToolUse",
    tool_name: "apply_patch",
    tool_input: { command: "*** Begin Patch\n*** Delete File: old.py\n*** End Patch\n" },
  };
  const stdin = JSON.stringify(patch);
  const x = JSON.parse(
    (await runCli(["explain", "--agent", "codex", "--json"], { stdin, env, cwd: root })).stdout,
  );
  assertEquals([x.agent, x.tool, x.decision], ["codex", "apply_patch", "deny"]);
  assertEquals(x.targets.map((t: { tool: string; rule: string }) => [t.tool, t.rule]), [
    ["MultiEdit", "destructive"],
    ["MultiEdit", "deny"],
  ]);
  assertEquals(x.destructive, { pack: "tool", rule: "delete-file", destroys: "deletes old.py" });
  const text = await runCli(["explain", "--agent", "codex"], { stdin, env, cwd: root });
  assertEquals(text.stdout.split("\n").slice(0, 3), [
    "GateGuard would deny this call:",
    "- target 1 (MultiEdit): because the command is destructive: it deletes old.py (rule " +
    "tool/delete-file).",
    "- target 2 (MultiEdit): because it is the first change to the file this session and no " +
    "search earlier in the turn covered it.",
  ]);
  // What it would print is exactly what the hook prints for the same payload; after that
  // denial, explain reads the hook's state and sees the retry.
  const hook = await runCli(["hook", "--agent", "codex"], { stdin, env, cwd: root });
  assertEquals(x.stdout.trim(), hook.stdout.trim());
  const retry = await runCli(["explain", "--agent", "codex"], { stdin, env, cwd: root });
  assertEquals(retry.stdout.split("\n")[0], "GateGuard would let this call through:");
  // Read as Claude Code's, the same payload is another agent's: denied, naming the fix,
  // rather than passed as a tool Claude Code does not have.
  const claude = await runCli(["explain"], { stdin, env, cwd: root });
  assertStringIncludes(claude.stdout, "GateGuard would deny this call");
  assertStringIncludes(claude.stdout, "`gateguard init --agent codex`");
  const bad = await runCli(["explain", "--agent", "vim"], { stdin, env });
  assertEquals(bad.code, 2);
  assertStringIncludes(bad.stderr, "--agent takes one of claude, codex, gemini, copilot, cursor");
});

Deno.test("[order-of-checks] explain names the project file when it turns the file gates off", async () => {
  const { root, payload, explain, env } = await setup();
  await Deno.writeTextFile(`${root}/.gateguard.jsonc`, `{ "fileGates": false }`);
  await trustProjectFile(root, env.GATEGUARD_STATE_DIR);
  const x = await explain(
    payload("Edit", { file_path: `${root}/src/a.py`, old_string: "x = 1", new_string: "x = 2" }),
  );
  assertEquals([x.targets[0].rule, x.targets[0].reason, x.decision], [
    "project-file",
    "file-gates-off",
    "pass",
  ]);
});

Deno.test("[order-of-checks] explain's text reads the way the rules decided: a call with a path is not an unreadable one", async () => {
  const { root, payload, env } = await setup();
  const edit = payload("Edit", {
    file_path: `${root}/src/a.py`,
    old_string: "x = 1",
    new_string: "x = 2",
  });
  const r = await runCli(["explain"], { stdin: JSON.stringify(edit), env, cwd: root });
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, "   input too large to check, or not readable: no\n");
  assertStringIncludes(r.stdout, "-> first-touch denial: applies");
  const none = await runCli(["explain"], { stdin: JSON.stringify(payload("Edit", {})), env });
  assertStringIncludes(none.stdout, "-> input too large to check, or not readable: applies");
  assertStringIncludes(
    none.stdout,
    "GateGuard cannot read this Edit call: `file_path` is missing.",
  );
});

/** Runs explain with stdin read from `path` by the shell, as `explain < path` does. */
async function explainFrom(path: string, env: Record<string, string>): Promise<CliResult> {
  const cache = await denoDir();
  const out = await new Deno.Command("sh", {
    args: ["-c", 'exec "$@" < "$0"', path, ...CLI_ARGV, "explain"],
    env: cache ? { ...env, DENO_DIR: cache } : env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test("[fail-to-deny] explain reads an endless input only up to the hook's 64 MiB bound", async () => {
  const { env } = await setup();
  const withPath = { ...env, PATH: Deno.env.get("PATH") ?? "" };
  const expected = "the hook would deny: the input is larger than 67108864 bytes";
  const fromFile = await runCli(["explain", "--payload", "/dev/zero"], { env });
  assertEquals(fromFile.code, 0, fromFile.stderr);
  assertStringIncludes(fromFile.stdout, expected);
  assertStringIncludes(fromFile.stdout, "Split the change into smaller calls.");
  const fromStdin = await explainFrom("/dev/zero", withPath);
  assertEquals(fromStdin.code, 0, fromStdin.stderr);
  assertStringIncludes(fromStdin.stdout, expected);
  const json = await runCli(["explain", "--json", "--payload", "/dev/zero"], { env });
  assertEquals(JSON.parse(json.stdout).decision, "deny");
});

Deno.test("[fail-to-deny] explain refuses a FIFO as --payload instead of waiting for a writer", async () => {
  const { tmp, env } = await setup();
  const fifo = `${tmp}/payload.fifo`;
  const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assertEquals(made.code, 0);
  const r = await runCli(["explain", "--payload", fifo], { env });
  assertEquals(r.code, 1);
  assertStringIncludes(r.stderr, "the payload file is a FIFO; pipe it to stdin instead");
});

Deno.test("[fail-to-deny] explain turns a payload away as too complex exactly where the hook does", async () => {
  const { env, root, payload } = await setup();
  const edits = (count: number) => Array.from({ length: count }, () => ({ old_string: "a" }));
  const nested = (depth: number) => JSON.parse("[".repeat(depth) + "]".repeat(depth));
  const cases: [string, unknown][] = [
    // More arrays and objects than any real call holds.
    [
      "100,001 objects",
      payload("MultiEdit", { file_path: `${root}/src/a.py`, edits: edits(100_001) }),
    ],
    // Nested deeper than the payload bound.
    [
      "513 levels deep",
      payload("Edit", { file_path: `${root}/src/a.py`, old_string: nested(513) }),
    ],
    // Larger than the whole call's work budget: refused unread.
    ["17 MB command", payload("Bash", { command: "echo " + "a".repeat(17_000_000) })],
  ];
  for (const [name, p] of cases) {
    const stdin = JSON.stringify(p);
    const hook = await runHook(p as Record<string, unknown>, { env });
    assertEquals(hook.code, 0, hook.stderr);
    const denial = JSON.parse(hook.stdout).hookSpecificOutput;
    assertEquals(denial.permissionDecision, "deny", name);
    assertEquals(denial.permissionDecisionReason, tooComplexText("call"), name);
    const json = await runCli(["explain", "--json"], { stdin, env, cwd: root });
    assertEquals(json.code, 0, json.stderr);
    assertEquals(
      JSON.parse(json.stdout),
      { gated: true, decision: "deny", message: tooComplexText("call") },
      name,
    );
    const text = await runCli(["explain"], { stdin, env, cwd: root });
    assertStringIncludes(
      text.stdout,
      `the hook would deny: the input is too large or too complex to check\n\n${
        tooComplexText("call")
      }`,
    );
  }
  // Just inside the bounds, both read the call and decide it as usual.
  const within = payload("MultiEdit", { file_path: `${root}/src/a.py`, edits: edits(99_990) });
  const explained = await runCli(["explain", "--json"], {
    stdin: JSON.stringify(within),
    env,
    cwd: root,
  });
  assertEquals(JSON.parse(explained.stdout).tool, "MultiEdit");
});
