/**
 * Runs the GateGuard CLI as a subprocess exactly as the compiled binary runs:
 * `deno run` with the `gateguard` permission set of the run config
 * (`RUN_CONFIG`), the one source of the binary's permissions.
 *
 * Besides `PATH`, every child gets `DENO_DIR`, the test runner's own Deno
 * cache. Tests point `HOME` at a fresh folder, and Deno keeps its cache under
 * `HOME` unless told otherwise: each new `HOME` would compile every module
 * again, about three times the cost of a warm start. GateGuard cannot see the
 * variable (it is not in the permission set's env list), so the answer is
 * the same either way.
 *
 * @module
 */

import { sourceArgv } from "../../src/platform/permissions.ts";
import { registrationCommand } from "../../src/setup/command.ts";
import { buildBundle } from "../../scripts/bundle.ts";

/** Repository root (absolute, no trailing slash). */
export const REPO_ROOT: string = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

// The CLI runs from the bundle, as a registered from-source command does;
// a test file run on its own after a source change rebuilds it first
// (`deno task test` builds it before any test starts).
await buildBundle(REPO_ROOT);

/** The argv prefix that runs the CLI from source with the binary's permissions. */
export const CLI_ARGV: readonly string[] = sourceArgv(Deno.execPath(), REPO_ROOT);

/** The hook command `init` registers when run from this checkout (a POSIX shell line). */
export const SOURCE_COMMAND: string = registrationCommand(
  Deno.execPath(),
  new URL("../../src/setup/command.ts", import.meta.url).href,
  false,
);

let cache: Promise<string | null> | undefined;

/** Deno's cache folder as the test runner uses it, looked up once per test module. */
export function denoDir(): Promise<string | null> {
  cache ??= lookUpDenoDir();
  return cache;
}

async function lookUpDenoDir(): Promise<string | null> {
  const fromEnv = Deno.env.get("DENO_DIR");
  if (fromEnv) return fromEnv;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).output();
  try {
    const info = JSON.parse(new TextDecoder().decode(out.stdout));
    return typeof info.denoDir === "string" ? info.denoDir : null;
  } catch {
    return null;
  }
}

/** What one CLI run produced. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** True when the run outlived `killAfterMs` and was killed. */
  killed?: boolean;
}

/** Options of one CLI run. */
export interface CliOptions {
  /** Text written to stdin (closed right after). */
  stdin?: string | Uint8Array;
  /** The whole environment of the child (nothing is inherited but PATH and Deno's cache). */
  env?: Record<string, string>;
  /** Working directory of the child. */
  cwd?: string;
  /** Kills the child (SIGKILL) after this many ms, so a hang fails the test instead of stalling it. */
  killAfterMs?: number;
  /** Another way to start the CLI than `CLI_ARGV` (the source tree, say). */
  argv?: readonly string[];
}

/** Runs `gateguard <args>` and collects its exit code and output. */
export async function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const denoCache = await denoDir();
  const argv = opts.argv ?? CLI_ARGV;
  const cmd = new Deno.Command(argv[0], {
    args: [...argv.slice(1), ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    cwd: opts.cwd,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      ...(denoCache ? { DENO_DIR: denoCache } : {}),
      ...(opts.env ?? {}),
    },
  });
  const child = cmd.spawn();
  let killed = false;
  const timer = opts.killAfterMs === undefined ? undefined : setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, opts.killAfterMs);
  const writer = child.stdin.getWriter();
  if (opts.stdin !== undefined) {
    const bytes = typeof opts.stdin === "string"
      ? new TextEncoder().encode(opts.stdin)
      : opts.stdin;
    await writer.write(bytes).catch(() => {});
  }
  await writer.close().catch(() => {});
  const out = await child.output();
  clearTimeout(timer);
  const dec = new TextDecoder();
  const result = { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  return timer === undefined ? result : { ...result, killed };
}

/** Runs the hook with one JSON payload. */
export function runHook(
  payload: unknown,
  opts: Omit<CliOptions, "stdin"> = {},
): Promise<CliResult> {
  return runCli([], { ...opts, stdin: JSON.stringify(payload) });
}
