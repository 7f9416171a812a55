/**
 * The shell gate's self-protection and never-on-a-retry rules, decided in
 * process through `decide()`: a command that reaches GateGuard's control
 * surface, runs its hook by hand or destroys a protected place is asked of
 * the user where a person answers, denied every time elsewhere, and never
 * passed by repeating it.
 */
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { addFile, projectFs, Session } from "./session.ts";
import { MemoryFs, ROOT } from "./context.ts";
import type { RealPathResult, StatResult } from "../../src/platform/fs_port.ts";

const ASKING = { permission_mode: "default" };
const BYPASS = { permission_mode: "bypassPermissions" };

async function twice(
  command: string,
  payload: Record<string, unknown>,
): Promise<{ kind: string; text: string }[]> {
  const session = new Session(projectFs({ ".claude/settings.json": "{}" }));
  // The routine gate is used up first, so only the rules under test decide.
  await session.call("Bash", { command: "true" }, payload);
  return [
    await session.call("Bash", { command }, payload),
    await session.call("Bash", { command }, payload),
  ];
}

Deno.test("[self-protection] a shell edit of Claude's settings is denied every time, retries included", async () => {
  for (const payload of [ASKING, BYPASS, {}]) {
    const answers = await twice(`sed -i 's/"hooks"/"x"/' .claude/settings.json`, payload);
    for (const answer of answers) {
      assertEquals(answer.kind, "deny");
      assertStringIncludes(answer.text, "This change to .claude/settings.json would switch");
      assertStringIncludes(
        answer.text,
        "a shell command may write, move, delete, link or replace it",
      );
      assertStringIncludes(answer.text, "retries included");
    }
  }
});

Deno.test("[self-protection] a shell write to GateGuard's project file is asked of the user where one answers", async () => {
  const [first, retry] = await twice(`echo '{"fileGates": false}' > .gateguard.jsonc`, ASKING);
  assertEquals([first.kind, retry.kind], ["ask", "ask"]);
  assertStringIncludes(first.text, "Only the user can allow this change");
  const [bypassed] = await twice(`echo '{}' > .gateguard.jsonc`, BYPASS);
  assertEquals(bypassed.kind, "deny");
});

Deno.test("[self-protection] running GateGuard's hook by hand is never passed; its reports are", async () => {
  const answers = await twice(`echo '{"tool_name":"Bash"}' | gateguard hook`, BYPASS);
  assertEquals(answers.map((a) => a.kind), ["deny", "deny"]);
  assertStringIncludes(answers[0].text, "running GateGuard's hook by hand");
  const reports = await twice("gateguard report --since 1d", ASKING);
  assertEquals(reports.map((a) => a.kind), ["pass", "pass"]);
  // Its trust and registration subcommands are named for what they reach.
  const [trusted] = await twice("gateguard trust .gateguard.jsonc", BYPASS);
  assertEquals(trusted.kind, "deny");
  assertStringIncludes(
    trusted.text,
    "This change to GateGuard's trust store would switch GateGuard off or weaken it:\n" +
      "- trusting a project file by hand lets its loosening keys apply without the user having " +
      "read them",
  );
  const [registered] = await twice("gateguard init --agent codex", BYPASS);
  assertStringIncludes(
    registered.text,
    "- registering GateGuard by hand can remove or replace the hook entries that run it",
  );
});

Deno.test("[self-protection] storing a variable GateGuard reads for later sessions is asked of the user, never passed on a retry", async () => {
  const [first, retry] = await twice("launchctl setenv ECC_GATEGUARD off", ASKING);
  assertEquals([first.kind, retry.kind], ["ask", "ask"]);
  assertStringIncludes(
    first.text,
    "This change to launchctl setenv ECC_GATEGUARD off would switch",
  );
  assertStringIncludes(
    first.text,
    "- a variable stored for later sessions reaches GateGuard's hook when the agent next starts, " +
      "and can switch it off or move what it reads",
  );
  const [bypassed] = await twice("setx GATEGUARD_STATE_DIR /tmp/elsewhere", BYPASS);
  assertEquals(bypassed.kind, "deny");
  assertStringIncludes(bypassed.text, "retries included");
  // A variable GateGuard does not read is the routine gate's business.
  assertEquals((await twice("setx JAVA_HOME /opt/jdk", ASKING)).map((a) => a.kind), [
    "pass",
    "pass",
  ]);
});

Deno.test("[self-protection] an agent started with GateGuard switched off or without its hooks is never passed on a retry", async () => {
  const [first, retry] = await twice("GATEGUARD_DISABLED=1 claude -p 'tidy up'", ASKING);
  assertEquals([first.kind, retry.kind], ["ask", "ask"]);
  assertStringIncludes(
    first.text,
    "- the programs it starts would run with GateGuard switched off or without its hooks, " +
      "so an agent among them would act ungated",
  );
  const [bypassed] = await twice("claude -p --bare 'tidy up'", BYPASS);
  assertEquals(bypassed.kind, "deny");
  assertEquals((await twice("claude -p 'tidy up'", ASKING)).map((a) => a.kind), ["pass", "pass"]);
});

/** A project holding `loop`, a link that leads back to itself. */
class LoopFs extends MemoryFs {
  readonly loop = `${ROOT}/loop`;
  override lstat(path: string): StatResult {
    if (path !== this.loop) return super.lstat(path);
    return {
      ok: true,
      isFile: false,
      isDirectory: false,
      isSymlink: true,
      nlink: 1,
      size: 0,
      mtimeMs: 0,
    };
  }
  override realPath(path: string): RealPathResult {
    return path === this.loop ? { ok: false, code: "ELOOP" } : super.realPath(path);
  }
  readLink(path: string): string | null {
    return path === this.loop ? this.loop : null;
  }
}

Deno.test("[self-protection] a write through a link that never resolves is denied every time, and no person is asked to judge it", async () => {
  const fs = new LoopFs({}, [ROOT]);
  addFile(fs, ".claude/settings.json", "{}");
  for (const payload of [ASKING, BYPASS]) {
    const session = new Session(fs);
    await session.call("Bash", { command: "true" }, payload);
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await session.call("Bash", { command: "echo '{}' > loop" }, payload);
      assertEquals(answer.kind, "deny");
      assertStringIncludes(
        answer.text,
        "This change to loop would switch GateGuard off or weaken it:\n- the path cannot be " +
          "resolved (a dangling link or a loop), so it may stand for one of GateGuard's control " +
          "files\n(loop: a path GateGuard cannot resolve.)",
      );
      assertStringIncludes(answer.text, "retries included");
    }
  }
  const plain = new Session(fs);
  await plain.call("Bash", { command: "true" });
  assertEquals((await plain.call("Bash", { command: "echo x > out.txt" })).kind, "pass");
});

Deno.test("[never-on-retry] rm -rf ~ and rm -rf / are asked of the user, never passed on a retry", async () => {
  for (
    const command of ["rm -rf ~", "sudo rm -rf / --no-preserve-root", "rm -rf .git", "rm -rf ."]
  ) {
    const asked = await twice(command, ASKING);
    assertEquals(asked.map((a) => a.kind), ["ask", "ask"], command);
    assertStringIncludes(asked[0].text, "GateGuard never passes it on a retry.");
    assertStringIncludes(asked[0].text, "Only the user can allow it, and they are asked now.");
    const denied = await twice(command, BYPASS);
    assertEquals(denied.map((a) => a.kind), ["deny", "deny"], command);
    assertStringIncludes(denied[0].text, "ask the user to run it themselves");
  }
});

Deno.test("[destructive-gate] an ordinary destructive command still passes on its retry", async () => {
  const answers = await twice("rm -rf dist", ASKING);
  assertEquals(answers.map((a) => a.kind), ["deny", "pass"]);
  assert(!answers[0].text.includes("never passes it on a retry"));
});

Deno.test("[destructive-gate] destructiveDecision ask puts a destructive command to the user where one answers, and keeps deny-then-retry elsewhere", async () => {
  const { decide } = await import("../../src/hook/decide.ts");
  const { contextFor } = await import("./context.ts");
  const decideWith = async (payload: Record<string, unknown>) => {
    const ctx = contextFor("Bash", { command: "rm -rf dist" }, {
      payload,
      env: { GATEGUARD_BASH_ROUTINE_DISABLED: "1" },
    });
    return (await decide({ ...ctx, settings: { ...ctx.settings, destructiveDecision: "ask" } }))
      .outcome;
  };
  const asked = await decideWith(ASKING);
  assertEquals(asked.kind, "ask");
  if (asked.kind === "ask") {
    assertStringIncludes(asked.text, "the user decides whether it runs");
    assertStringIncludes(asked.denyText, "Present the facts, then retry the same command.");
  }
  assertEquals((await decideWith(BYPASS)).kind, "deny");
});

Deno.test("[self-protection] a write below a folder, whatever its names, is the destructive gate's when it destroys and self-protection's when it does not", async () => {
  // find -exec rm over the project is `rm -rf .`: never passed on a retry, asked where one answers.
  const [wiped, wipedAgain] = await twice("find . -exec rm -rf {} +", ASKING);
  assertEquals([wiped.kind, wipedAgain.kind], ["ask", "ask"]);
  assertStringIncludes(wiped.text, "Destructive command aimed at the project root (.)");
  // The same reach rewriting files instead: it may rewrite Claude's settings, so never passed.
  for (const command of ["find . -type f -exec sed -i s/a/b/ {} +", "tar -xf /tmp/e.tar"]) {
    const answers = await twice(command, ASKING);
    assertEquals(answers.map((a) => a.kind), ["deny", "deny"], command);
    assertStringIncludes(answers[0].text, "would switch GateGuard off or weaken it");
  }
  // A name test that reaches a control file keeps it self-protection's, destructive or not.
  const [named] = await twice("find . -name settings.json -exec rm {} +", ASKING);
  assertEquals(named.kind, "deny");
  assertStringIncludes(named.text, "This change to ./<whatever find changes> would switch");
  // Naming no folder changes nothing: the working folder is the project root.
  for (const command of ["find -type f -delete", "git clean -fdx"]) {
    const answers = await twice(command, ASKING);
    assertEquals(answers.map((a) => a.kind), ["ask", "ask"], command);
    assertStringIncludes(answers[0].text, "Destructive command aimed at the project root (./<");
  }
  // An archiver that deletes what it archives is destructive; over the project, never retried.
  for (const command of ["tar --remove-files -cf /tmp/a.tar .", "zip -rm /tmp/a.zip ."]) {
    const answers = await twice(command, ASKING);
    assertEquals(answers.map((a) => a.kind), ["ask", "ask"], command);
    assertStringIncludes(answers[0].text, "Destructive command aimed at the project root (.)");
  }
  // Another destructive command on the line does not hand an extraction to the destructive gate.
  const both = await twice("rm -rf build && tar -xf /tmp/e.tar", ASKING);
  assertEquals(both.map((a) => a.kind), ["deny", "deny"]);
  assertStringIncludes(both[0].text, "This change to ./<whatever tar writes> would switch");
  // Stashing the untracked files takes them out of the worktree: never passed on a retry.
  const stashed = await twice("git stash -u", ASKING);
  assertEquals(stashed.map((a) => a.kind), ["deny", "deny"]);
  assertStringIncludes(stashed[0].text, "<whatever git stash writes> would switch");
});

Deno.test("[self-protection] an MCP tool that may change files is asked about for GateGuard's own files and passes for any other", async () => {
  const session = new Session(projectFs({ ".claude/settings.json": "{}", "src/a.ts": "x\n" }));
  const write = (path: string, payload: Record<string, unknown> = ASKING) =>
    session.call("mcp__filesystem__write_file", { path, content: "{}" }, payload);
  const config = await write("/work/proj/.gateguard.jsonc");
  assertEquals(config.kind, "ask");
  assertStringIncludes(
    config.text,
    "- the tool mcp__filesystem__write_file, which GateGuard does not read, may write, move or " +
      "delete it, and what it would leave behind cannot be read before it runs",
  );
  assertEquals((await write("/work/proj/.gateguard.jsonc")).kind, "ask", "a retry is asked again");
  assertEquals((await write("/work/proj/.gateguard.jsonc", BYPASS)).kind, "deny");
  // Claude Code's own settings are never put to a question it would answer itself.
  assertEquals((await write(".claude/settings.json")).kind, "deny");
  const moved = await session.call("mcp__filesystem__move_file", {
    source: "/tmp/evil.json",
    destination: "/home/u/.claude/settings.json",
  }, ASKING);
  assertEquals(moved.kind, "deny");
  // Any other file, and any reading tool, passes: nothing else of such a call is gated.
  assertEquals((await write("/work/proj/src/a.ts")).kind, "pass");
  assertEquals(
    (await session.call("mcp__filesystem__read_file", { path: "/work/proj/.gateguard.jsonc" }))
      .kind,
    "pass",
  );
});
