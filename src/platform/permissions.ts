/**
 * How GateGuard is launched: the flags shared by `deno run` (tests, the
 * `gateguard` task, a from-source install) and `deno compile` (release
 * binaries). The permissions themselves are the `gateguard` permission set
 * in deno.json: read, write, and only the environment variables GateGuard
 * reads; no net, run, ffi or sys.
 *
 * @module
 */

/** Name of the permission set in deno.json. */
export const PERMISSION_SET = "gateguard";

/**
 * Runtime flags, given the path of deno.json. `--quiet` also hides Deno's
 * notice that config-file permissions are experimental.
 */
export function runtimeFlags(configPath: string): string[] {
  return ["--quiet", "--no-prompt", "--config", configPath, `--permission-set=${PERMISSION_SET}`];
}

/** The argv that runs the CLI from a source checkout at `repoRoot`. */
export function sourceArgv(denoPath: string, repoRoot: string): string[] {
  return [denoPath, "run", ...runtimeFlags(`${repoRoot}/deno.json`), `${repoRoot}/src/main.ts`];
}
