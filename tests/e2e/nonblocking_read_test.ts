/**
 * No read of the hook can be made to block: a FIFO swapped in and out of
 * the project file's and the transcript's place while hook processes run.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { REPO_ROOT, runCli } from "../helpers/cli.ts";
import { sandbox } from "../helpers/sandbox.ts";
import { pooled } from "../helpers/pool.ts";

/** Kill a hook process only when it is plainly stuck; a stuck one counts as hung. */
const STUCK_AFTER_MS = 30_000;

interface Run {
  code: number;
  hung: boolean;
  stdout: string;
  stderr: string;
}

/** Runs the hook once, killing it if stuck. */
async function runHookBounded(
  payload: unknown,
  env: Record<string, string>,
  cwd: string,
): Promise<Run> {
  const r = await runCli([], {
    stdin: JSON.stringify(payload),
    env,
    cwd,
    killAfterMs: STUCK_AFTER_MS,
  });
  return { code: r.code, hung: r.killed === true, stdout: r.stdout, stderr: r.stderr };
}

function mkfifo(path: string): void {
  const r = new Deno.Command("mkfifo", { args: [path] }).outputSync();
  assert(r.success, `mkfifo ${path}`);
}

const NOTE = "Project rule R1.";

Deno.test("[project-config] a FIFO swapped in and out of the project file's and transcript's place never blocks a hook call", async () => {
  const { tmp, root, env } = await sandbox({}, "gg-swap-");
  const config = `${root}/.gateguard.jsonc`;
  const transcript = `${tmp}/session.jsonl`;
  const prompt = JSON.stringify({
    type: "user",
    promptId: "p1",
    message: { role: "user", content: "write the files" },
  });
  const inodes = {
    config: [`${tmp}/config.file`, `${tmp}/config.fifo`],
    transcript: [`${tmp}/transcript.file`, `${tmp}/transcript.fifo`],
  };
  Deno.writeTextFileSync(inodes.config[0], JSON.stringify({ domainText: NOTE }));
  Deno.writeTextFileSync(inodes.transcript[0], `${prompt}\n`);
  mkfifo(inodes.config[1]);
  mkfifo(inodes.transcript[1]);
  Deno.linkSync(inodes.config[0], config);
  Deno.linkSync(inodes.transcript[0], transcript);

  const stop = `${tmp}/stop`;
  const swappers = [[config, ...inodes.config], [transcript, ...inodes.transcript]].map((args) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", `${REPO_ROOT}/tests/helpers/path_swapper.ts`, ...args, stop],
      stdout: "null",
      stderr: "null",
    }).spawn()
  );
  // A few hook processes at a time: the swappers spin for as long as the
  // calls take, on the cores those calls and the rest of the suite need.
  let runs: Run[] = [];
  try {
    runs = await pooled(Array.from({ length: 24 }, (_, k) => k), (k) =>
      runHookBounded(
        {
          session_id: "swap",
          cwd: root,
          transcript_path: transcript,
          tool_name: "Write",
          tool_input: { file_path: `${root}/m${k}/f.py`, content: "x = 1\n" },
        },
        env,
        root,
      ));
  } finally {
    Deno.writeTextFileSync(stop, "");
    const ended = await Promise.all(swappers.map((s) => s.status));
    // A swapper that did not run would make this a test of plain files.
    assertEquals(ended.map((status) => status.code), [0, 0], "a path swapper did not run");
  }
  assertEquals(runs.filter((r) => r.hung).length, 0, "hook calls blocked on a FIFO");
  for (const r of runs) {
    assertEquals(r.code, 0, r.stderr);
    assertEquals(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, "deny", r.stdout);
  }
  // The race was real: some calls read the project file, some found a FIFO there.
  const noted = runs.filter((r) => r.stdout.includes(NOTE)).length;
  assert(noted > 0, "no call ever read the project file");
});
