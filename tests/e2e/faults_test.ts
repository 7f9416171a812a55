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
import { type Sandbox, sandbox } from "../helpers/sandbox.ts";
import { waitFor } from "../helpers/wait.ts";
import { skipName } from "../helpers/skip.ts";
import { stageUnprivilegedCli, unprivilegedUnavailable } from "../helpers/unprivileged.ts";
import {
  deeplyNestedJson,
  deepTarget,
  hostileSearchTurn,
  manyEdits,
  retryAfterDenial,
  SEARCH_TURN_PROMPT,
  twiceInOneMessage,
} from "../helpers/hostile.ts";
import { stateErrorText, tooComplexLine, tooComplexText } from "../../src/questions/messages.ts";

interface Answer {
  kind: "pass" | "note" | "deny";
  text: string;
  stderr: string;
}

/** Runs the hook once: the CLI of the checkout, or a staged one run as another user. */
type HookRunner = (
  payload: Record<string, unknown>,
  env: Record<string, string>,
) => Promise<{ code: number; stdout: string; stderr: string }>;

const checkoutHook: HookRunner = (payload, env) => runHook(payload, { env });

async function hook(
  payload: Record<string, unknown>,
  env: Record<string, string>,
  run: HookRunner = checkoutHook,
): Promise<Answer> {
  const r = await run({ hook_event_name: "PreToolUse", ...payload }, env);
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

/** The denial of a call whose check cannot be recorded in `dir`, for `reason`. */
function stateDenial(dir: string, reason: string): string {
  return stateErrorText(`the state directory ${dir} cannot be used: ${reason}`);
}

function edit(session: string, root: string, file = "src/app.ts"): Record<string, unknown> {
  return {
    session_id: session,
    cwd: root,
    tool_name: "Edit",
    tool_input: { file_path: `${root}/${file}`, old_string: "1", new_string: "2" },
  };
}

Deno.test("[destructive-bash-gate] state that cannot be saved keeps a destructive command denied, and the file and routine gates too", async () => {
  const box = await sandbox({ "src/app.ts": "export const a = 1;\n" });
  Deno.writeTextFileSync(`${box.tmp}/blocker`, "x");
  const dir = `${box.tmp}/blocker/state`;
  const env = { ...box.env, GATEGUARD_STATE_DIR: dir };
  const reason = "a part of its path is a file, not a directory";
  const rm = bash("faults-unwritable", box.root, "rm -rf build");
  for (let i = 0; i < 3; i++) {
    const r = await hook(rm, env);
    assertEquals(r.kind, "deny", `run ${i}`);
    assertStringIncludes(r.text, "Destructive command detected.");
    assertStringIncludes(
      r.text,
      `GateGuard could not save its session state (the state directory ${dir} cannot be used: ` +
        `${reason}), so this destructive command stays denied until it can. Ask the user to make ` +
        "it a writable directory (or to set GATEGUARD_STATE_DIR to one), then retry.",
    );
  }
  for (
    const call of [
      edit("faults-unwritable", box.root),
      bash("faults-unwritable", box.root, "npm test"),
    ]
  ) {
    for (let i = 0; i < 2; i++) {
      const r = await hook(call, env);
      assertEquals(
        [r.kind, r.text],
        ["deny", stateDenial(dir, reason)],
        `${call.tool_name} run ${i}`,
      );
      assertEquals(r.stderr, `gateguard: the state directory ${dir} cannot be used: ${reason}\n`);
    }
  }
  // A read-only command needs no state, and still passes.
  assertEquals((await hook(bash("faults-unwritable", box.root, "ls"), env)).kind, "pass");
  Deno.removeSync(box.tmp, { recursive: true });
});

/**
 * Ways an agent's command (or a mistaken setting) leaves the state
 * directory unusable, each with the reason the denial gives. Each returns
 * the environment of the calls after the fault.
 */
const UNUSABLE_STATE_DIRS: {
  name: string;
  reason: string;
  skip?: boolean;
  /** The hook runs as a user without root's powers (root writes through any mode bits). */
  unprivileged?: boolean;
  /** Undoes what would keep the sandbox from being removed. */
  undo?(box: Sandbox): void;
  fault(box: Sandbox): Promise<{ env: Record<string, string>; dir: string }>;
}[] = [
  {
    name: "made a plain file by mv and touch",
    reason: "it is a file, not a directory",
    async fault(box) {
      // A first call makes the directory, so there is state to lose.
      assertEquals((await hook(edit("faults-mv", box.root, "src/b.ts"), box.env)).kind, "deny");
      Deno.renameSync(box.state, `${box.state}.old`);
      Deno.writeTextFileSync(box.state, "");
      return { env: box.env, dir: box.state };
    },
  },
  {
    name: "moved by the environment onto a file",
    reason: "it is a file, not a directory",
    fault(box) {
      const file = `${box.root}/README.md`;
      Deno.writeTextFileSync(file, "# readme\n");
      return Promise.resolve({ env: { ...box.env, GATEGUARD_STATE_DIR: file }, dir: file });
    },
  },
  {
    name: "moved by the environment to a system path GateGuard may not write",
    reason: "GateGuard may not write to a device or system path",
    skip: Deno.build.os !== "linux",
    fault(box) {
      const dir = "/proc/gateguard-state";
      return Promise.resolve({ env: { ...box.env, GATEGUARD_STATE_DIR: dir }, dir });
    },
  },
  {
    name: "a dangling symlink, never followed",
    reason: "it is a symlink to nothing, which GateGuard does not follow",
    fault(box) {
      Deno.symlinkSync(`${box.tmp}/elsewhere/state`, box.state);
      return Promise.resolve({ env: box.env, dir: box.state });
    },
  },
  {
    name: "a directory this user may not write",
    reason: "this user may not write there",
    unprivileged: true,
    fault(box) {
      Deno.mkdirSync(box.state, { mode: 0o500 });
      Deno.chmodSync(box.state, 0o500);
      return Promise.resolve({ env: box.env, dir: box.state });
    },
    undo: (box) => Deno.chmodSync(box.state, 0o700),
  },
];

for (const c of UNUSABLE_STATE_DIRS) {
  const skipped = c.skip === true
    ? "not on this system"
    : c.unprivileged
    ? unprivilegedUnavailable()
    : null;
  Deno.test({
    name: skipName(
      `[state-file-is-untrusted] a state directory ${c.name} denies first touches and the routine gate, in GateGuard's words`,
      skipped,
    ),
    ignore: skipped !== null,
    async fn() {
      // As root, the hook runs from a copy every user can read, as uid 65534, on a project there.
      await using stage = c.unprivileged ? await stageUnprivilegedCli() : null;
      const run: HookRunner = stage === null
        ? checkoutHook
        : (payload, env) => stage.run([], 60_000, { stdin: JSON.stringify(payload), env });
      const box = await sandbox(
        { "src/app.ts": "export const a = 1;\n", "src/b.ts": "1\n" },
        "gg-e2e-",
        stage?.dir,
      );
      if (stage !== null) Deno.chmodSync(box.tmp, 0o755);
      try {
        const { env, dir } = await c.fault(box);
        const session = "faults-unusable";
        for (const call of [edit(session, box.root), bash(session, box.root, "npm test")]) {
          // The retry a denial invites is denied the same way: nothing was recorded.
          for (let i = 0; i < 2; i++) {
            const r = await hook(call, env, run);
            assertEquals([r.kind, r.text], ["deny", stateDenial(dir, c.reason)], `run ${i}`);
            for (const runtimeWords of ["--allow", "NotCapable", "os error"]) {
              assert(!r.stderr.includes(runtimeWords), r.stderr);
            }
          }
        }
      } finally {
        c.undo?.(box);
        Deno.removeSync(box.tmp, { recursive: true });
      }
    },
  });
}

Deno.test("[state-file-is-untrusted] a stuck lock slows a save but switches no gate off", async () => {
  const box = await sandbox({ "src/app.ts": "export const a = 1;\n" });
  try {
    const session = "faults-stuck-lock";
    assertEquals((await hook(bash(session, box.root, "rm -rf build"), box.env)).kind, "deny");
    // A lock no save ever releases, created just now and never touched.
    Deno.writeTextFileSync(`${stateFile(box.state)}.lock`, "1-stuck");
    const first = await hook(edit(session, box.root), box.env);
    assertEquals(first.kind, "deny");
    assertStringIncludes(first.text, "src/app.ts");
    assertStringIncludes(
      first.stderr,
      "the session lock stayed busy for 2 s; state saved without it",
    );
    // The denial was recorded around the lock: the retry passes, as without one.
    assertEquals((await hook(edit(session, box.root), box.env)).kind, "pass");
    assertEquals((await hook(bash(session, box.root, "rm -rf dist"), box.env)).kind, "deny");
  } finally {
    Deno.removeSync(box.tmp, { recursive: true });
  }
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
  // Dated 1970 until the toucher runs: its first write is the sign it did.
  Deno.utimeSync(lock, 0, 0);
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
    await waitFor("a write of the lock", () => (Deno.statSync(lock).mtime?.getTime() ?? 0) > 0);
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
