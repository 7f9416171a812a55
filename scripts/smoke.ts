/**
 * Smoke test of a built GateGuard: `--version` names the expected build, and
 * a first Edit of a file in a fresh project is denied with the Edit
 * questions. The release workflow runs it on each binary, on a runner that
 * executes it natively; the test suite runs it on the source CLI so the
 * check itself is known to work.
 *
 * Usage: deno run --allow-all scripts/smoke.ts [--target <triple> --commit <sha>] <binary> [args...]
 * (without `--target`, the version line of a source run is expected).
 *
 * @module
 */

import { type BuildInfo, versionLine } from "../src/version.ts";

async function exec(
  argv: readonly string[],
  stdin: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string }> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
    env,
  }).spawn();
  const w = child.stdin.getWriter();
  // A program that exits without reading its input closes the pipe early.
  await w.write(new TextEncoder().encode(stdin)).catch(() => {});
  await w.close().catch(() => {});
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

/**
 * Runs the smoke checks against the command `argv`, which should report
 * `build` (null: a source run); returns the failures.
 */
export async function smoke(argv: readonly string[], build: BuildInfo | null): Promise<string[]> {
  const failures: string[] = [];
  const tmp = await Deno.makeTempDir({ prefix: "gateguard-smoke-" });
  try {
    const version = await exec([...argv, "--version"], "", {});
    if (version.code !== 0 || version.stdout !== `${versionLine(build, Deno.build.target)}\n`) {
      failures.push(`--version printed ${JSON.stringify(version.stdout)} (exit ${version.code})`);
    }
    const file = `${tmp}/project/app.py`;
    await Deno.mkdir(`${tmp}/project`);
    await Deno.writeTextFile(file, "x = 1\n");
    const payload = JSON.stringify({
      session_id: "smoke",
      cwd: `${tmp}/project`,
      hook_event_name: "PreToolUse",
      tool_name: "Edit",
      tool_input: { file_path: file, old_string: "x = 1", new_string: "x = 2" },
    });
    const env = { GATEGUARD_STATE_DIR: `${tmp}/state`, CLAUDE_PROJECT_DIR: `${tmp}/project` };
    const denied = await exec(argv, payload, env);
    let decision: unknown;
    try {
      decision = JSON.parse(denied.stdout)?.hookSpecificOutput?.permissionDecision;
    } catch {
      decision = undefined;
    }
    if (denied.code !== 0 || decision !== "deny" || !denied.stdout.includes("Before editing")) {
      failures.push(`first Edit was not denied: ${JSON.stringify(denied.stdout.slice(0, 200))}`);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
  return failures;
}

/** Splits the command line into the expected build and the command to test. */
export function parseSmokeArgs(
  args: readonly string[],
): { build: BuildInfo | null; argv: string[] } {
  if (args[0] !== "--target") return { build: null, argv: [...args] };
  const [, target, commitFlag, commit, ...argv] = args;
  if (commitFlag !== "--commit" || commit === undefined) throw new Error("--target needs --commit");
  return { build: { target, commit }, argv };
}

if (import.meta.main) {
  const { build, argv } = parseSmokeArgs(Deno.args);
  if (argv.length === 0) {
    console.error("usage: smoke.ts [--target <triple> --commit <sha>] <binary> [args...]");
    Deno.exit(2);
  }
  const failures = await smoke(argv, build);
  for (const f of failures) console.error(`smoke: ${f}`);
  console.error(failures.length === 0 ? "smoke: ok" : `smoke: ${failures.length} failure(s)`);
  Deno.exit(failures.length === 0 ? 0 : 1);
}
