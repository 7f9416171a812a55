/**
 * End-to-end tests of the faults an agent can cause, through the real CLI:
 * none of them may switch a gate off or stall a call. Each test breaks the
 * state directory, the lock or the transcript the way a command the agent
 * may run would, then checks what the next calls decide.
 *
 * @module
 */

import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runHook } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";
import {
  deeplyNestedJson,
  deepTarget,
  hostileSearchTurn,
  manyEdits,
  retryAfterDenial,
  SEARCH_TURN_PROMPT,
  twiceInOneMessage,
} from "../helpers/hostile.ts";
import { tooComplexLine, tooComplexText } from "../../src/questions/messages.ts";

interface Answer {
  kind: "pass" | "note" | "deny";
  text: string;
  stderr: string;
}

async function hook(
  payload: Record<string, unknown>,
  env: Record<string, string>,
): Promise<Answer> {
  const r = await runHook({ hook_event_name: "PreToolUse", ...payload }, { env });
  assertEquals(r.code, 0, r.stderr);
  if (r.stdout === "") return { kind: "pass", text: "", stderr: r.stderr };
  const out = JSON.parse(r.stdout).hookSpecificOutput;
  return out.permissionDecision === "deny"
    ? { kind: "deny", text: out.permissionDecisionReason, stderr: r.stderr }
    : { kind: "note", text: out.additionalContext, stderr: r.stderr };
}

function bash(session: string, cwd: string, command: string, extra = {}): Record<string, unknown> {
  return { session_id: session, cwd, tool_name: "Bash", tool_input: { command }, ...extra };
}

/** The one state file of the state directory. */
function stateFile(dir: string): string {
  const names = [...Deno.readDirSync(dir)].map((e) => e.name)
    .filter((n) => /^state-.*\.json$/.test(n));
  assertEquals(names.length, 1, names.join(", "));
  return `${dir}/${names[0]}`;
}

Deno.test("[destructive-bash-gate] a directory in place of the state file never lets rm -rf through; the state starts afresh", async () => {
  const box = await sandbox();
  const rm = bash("faults-dir", box.root, "rm -rf build");
  assertEquals((await hook(rm, box.env)).kind, "deny");
  // `rm <state file>; mkdir <state file>`: neither command is gated.
  const file = stateFile(box.state);
  Deno.removeSync(file);
  Deno.mkdirSync(file);
  const after = await hook(rm, box.env);
  assertEquals(after.kind, "deny");
  assertStringIncludes(after.text, "Destructive command detected.");
  const lines = after.stderr.trim().split("\n");
  assertEquals(lines, [
    `gateguard: the session state file ${file} was a directory; it was moved aside and a fresh state started`,
  ]);
  // The recovered state works: the retry passes once, the next run is gated.
  assertEquals((await hook(rm, box.env)).kind, "pass");
  assertEquals((await hook(rm, box.env)).kind, "deny");
});

Deno.test("[destructive-bash-gate] state that cannot be saved keeps a destructive command denied; the file gate still fails open", async () => {
  const box = await sandbox({ "src/app.ts": "export const a = 1;\n" });
  Deno.writeTextFileSync(`${box.tmp}/blocker`, "x");
  const env = { ...box.env, GATEGUARD_STATE_DIR: `${box.tmp}/blocker/state` };
  const rm = bash("faults-unwritable", box.root, "rm -rf build");
  for (let i = 0; i < 3; i++) {
    const r = await hook(rm, env);
    assertEquals(r.kind, "deny", `run ${i}`);
    assertStringIncludes(r.text, "Destructive command detected.");
    assertStringIncludes(r.text, "so this destructive command stays denied until it can");
  }
  const edit = await hook({
    session_id: "faults-unwritable",
    cwd: box.root,
    tool_name: "Edit",
    tool_input: { file_path: `${box.root}/src/app.ts`, old_string: "1", new_string: "2" },
  }, env);
  assertEquals(edit.kind, "note");
  assertStringIncludes(edit.text, "could not save its session state, so this call is allowed");
});

Deno.test("[state-file-is-untrusted] a lock path that is a directory or a symlink is taken at once", async () => {
  for (const kind of ["directory", "symlink"]) {
    const box = await sandbox();
    const rm = bash(`faults-lock-${kind}`, box.root, "rm -rf build");
    assertEquals((await hook(rm, box.env)).kind, "deny");
    const lock = `${stateFile(box.state)}.lock`;
    if (kind === "directory") Deno.mkdirSync(lock);
    else Deno.symlinkSync(`${box.tmp}/nowhere`, lock);
    const retry = await hook(rm, box.env);
    assertEquals(retry.kind, "pass", kind);
    // A save that had to wait the lock out, or write around it, says so.
    assertEquals(retry.stderr, "", kind);
    assertEquals((await hook(rm, box.env)).kind, "deny", kind);
    assert(
      [...Deno.readDirSync(box.state)].some((e) => e.name.includes(".lock.tmp-aside-")),
      kind,
    );
  }
});

Deno.test("[state-file-is-untrusted] a lock another process keeps fresh is broken, not waited for on every call", async () => {
  const box = await sandbox();
  const rm = bash("faults-fresh-lock", box.root, "rm -rf build");
  assertEquals((await hook(rm, box.env)).kind, "deny");
  const lock = `${stateFile(box.state)}.lock`;
  Deno.writeTextFileSync(lock, "1-held-forever");
  const toucher = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const p = ${JSON.stringify(lock)}; ` +
      `for (;;) { try { Deno.writeTextFileSync(p, "1-held-forever"); } catch { /* gone */ } ` +
      `await new Promise((r) => setTimeout(r, 15)); }`,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (let i = 0; i < 2; i++) {
      const retry = await hook(rm, box.env);
      assertEquals(retry.kind, "pass", `run ${i}`);
      assertEquals(retry.stderr, "", `run ${i}`);
      assertEquals((await hook(rm, box.env)).kind, "deny", `run ${i}`);
    }
  } finally {
    toucher.kill();
    await toucher.status;
  }
});

Deno.test("[state-file-is-untrusted] a 16 MiB state file nested millions deep reads as empty and is replaced", async () => {
  const box = await sandbox({ "src/app.ts": "export const a = 1;\n" });
  const edit = (session: string) => ({
    session_id: session,
    cwd: box.root,
    tool_name: "Edit",
    tool_input: { file_path: `${box.root}/src/app.ts`, old_string: "1", new_string: "2" },
  });
  assertEquals((await hook(edit("faults-nested"), box.env)).kind, "deny");
  const file = stateFile(box.state);
  Deno.writeTextFileSync(file, deeplyNestedJson(16 * 1024 * 1024));
  const r = await hook(edit("faults-nested"), box.env);
  assertEquals(r.kind, "deny");
  assertEquals(r.stderr, "");
  assertEquals(JSON.parse(Deno.readTextFileSync(file)).checked.length, 1);
  assertEquals((await hook(edit("faults-nested"), box.env)).kind, "pass");
});

Deno.test("[destructive-bash-gate] the same rm -rf twice in one message: the second copy is denied until the denial could be read", async () => {
  const box = await sandbox();
  const transcript = `${box.tmp}/session.jsonl`;
  const command = "rm -rf build";
  const prompt = "p-twice";
  const call = (id: string) =>
    bash("faults-twice", box.root, command, {
      transcript_path: transcript,
      prompt_id: prompt,
      tool_use_id: id,
    });
  Deno.writeTextFileSync(transcript, twiceInOneMessage("t1", "t2", command, prompt));
  assertEquals((await hook(call("t1"), box.env)).kind, "deny");
  const second = await hook(call("t2"), box.env);
  assertEquals(second.kind, "deny");
  assertStringIncludes(second.text, "Destructive command detected.");
  // The model reads the denial, then sends the command again: a retry.
  Deno.writeTextFileSync(transcript, retryAfterDenial("t1", "t3", command, prompt));
  assertEquals((await hook(call("t3"), box.env)).kind, "pass");
  assertEquals((await hook(call("t4"), box.env)).kind, "deny");
});

Deno.test("[fail-to-deny] a first touch 60 directories deep after 999 hostile searches is denied, never credited", async () => {
  const target = deepTarget(60);
  const box = await sandbox({ [target]: "export const widget = 1;\n" });
  const transcript = `${box.tmp}/session.jsonl`;
  Deno.writeTextFileSync(transcript, hostileSearchTurn(999));
  const r = await hook({
    session_id: "faults-search-turn",
    cwd: box.root,
    transcript_path: transcript,
    prompt_id: SEARCH_TURN_PROMPT,
    tool_use_id: "toolu_absent",
    tool_name: "Edit",
    tool_input: { file_path: `${box.root}/${target}`, old_string: "= 1", new_string: "= 2" },
  }, box.env);
  assertEquals(r.kind, "deny");
  // The walk and the judging spend within a few percent of the call budget,
  // and the length of the temporary root the searches resolve against moves
  // the total across it: either the budget ran out, or every search was
  // judged and none counted.
  const judged = r.text.includes(tooComplexLine("searches")) ||
    r.text.includes("Closest search this turn did not count (Bash rg widget");
  assert(judged, r.text);
});

Deno.test("[fail-to-deny] a MultiEdit of 2.9 million entries is denied as too complex before it is parsed", async () => {
  const box = await sandbox({ "src/app.ts": "export const a = 1;\n" });
  const r = await hook({
    session_id: "faults-multiedit",
    cwd: box.root,
    tool_name: "MultiEdit",
    tool_input: { file_path: `${box.root}/src/app.ts`, edits: manyEdits(2_900_000) },
  }, box.env);
  assertEquals(r.kind, "deny");
  assertEquals(r.text, tooComplexText("call"));
});
