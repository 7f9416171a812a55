/**
 * How GateGuard is launched: the flags shared by `deno run` (tests, the
 * `gateguard` task, a from-source install) and `deno compile` (release
 * binaries). The permissions themselves are the `gateguard` permission set
 * in deno.run.json (`RUN_CONFIG`): read, write, and only the environment
 * variables GateGuard reads; no net, run, ffi or sys.
 *
 * Deno reads `$HOME/.npmrc` on every start, whatever the config holds, and
 * keeps its module cache under `$HOME/.cache/deno`: both before any
 * GateGuard code runs, both files the agent can plant (a directory there
 * makes every start fail, a FIFO makes it hang). A registered from-source
 * command therefore runs Deno with `HOME` and `DENO_DIR` inside the checkout
 * (`SOURCE_ENV`), and hands the user's home to GateGuard as `GATEGUARD_HOME`.
 *
 * @module
 */

/** Name of the permission set in the run config. */
export const PERMISSION_SET = "gateguard";

/**
 * The Deno config every GateGuard run names with `--config`, relative to the
 * checkout's root: the permission set and nothing else. Given a folder's own
 * `deno.json`, Deno also reads the `deno.json`, `deno.jsonc` and
 * `package.json` of every folder above it, looking for a workspace: a
 * malformed one there stops Deno before GateGuard starts, and a workspace
 * that lists the checkout can map GateGuard's own modules to other files.
 * Those folders (the home among them) are the agent's to write. Deno skips
 * that search for a config file its folder would not have chosen by itself,
 * hence a name other than `deno.json` or `deno.jsonc`.
 */
export const RUN_CONFIG = "deno.run.json";

/**
 * V8's flags for every GateGuard process: a young generation big enough
 * that a call never stops to collect it. With V8's default (a 1 MB semi-space
 * to start), a destructive check or a credit read ran one scavenge of 3-5 ms;
 * with 16 MB none, and paired whole-process runs of a destructive denial
 * took about 4 ms less. Every run of the same files must pass the same
 * flags: V8 keys Deno's code cache by them, so a run with other flags would
 * discard the cache the next hook call needs.
 */
export const V8_FLAGS = "--v8-flags=--min-semi-space-size=16";

/**
 * Runtime flags, given the path of the run config. `--quiet` also hides Deno's
 * notice that config-file permissions are experimental.
 */
export function runtimeFlags(configPath: string): string[] {
  return [
    "--quiet",
    "--no-prompt",
    V8_FLAGS,
    "--config",
    configPath,
    `--permission-set=${PERMISSION_SET}`,
  ];
}

/**
 * Where a checkout keeps the bundle its registered command runs, relative to
 * its root (built by scripts/bundle.ts). Two folders deep, as the modules
 * under `src/<folder>/` are, so code that finds the checkout from its own
 * module URL finds the same root from either.
 */
export const BUNDLE_DIR = ".cache/bundle";

/** The bundle's entry, relative to the checkout's root. */
export const BUNDLE_ENTRY = `${BUNDLE_DIR}/main.js`;

/**
 * The argv that runs the CLI from a source checkout at `repoRoot`, as a
 * from-source registration does: the checkout's bundle of `src/`.
 */
export function sourceArgv(denoPath: string, repoRoot: string): string[] {
  return [
    denoPath,
    "run",
    ...runtimeFlags(`${repoRoot}/${RUN_CONFIG}`),
    `${repoRoot}/${BUNDLE_ENTRY}`,
  ];
}

/** The argv that runs the CLI straight from `src/` (development, and the module census). */
export function sourceTreeArgv(denoPath: string, repoRoot: string): string[] {
  return [denoPath, "run", ...runtimeFlags(`${repoRoot}/${RUN_CONFIG}`), `${repoRoot}/src/main.ts`];
}

/** The variable a from-source hook command hands the user's home in, since `HOME` is moved. */
export const HOME_VARIABLE = "GATEGUARD_HOME";

/**
 * The environment a registered from-source command sets before `deno run`,
 * as name and value; `$HOME` is the user's home as the agent's shell expands
 * it. Deno then looks for `.npmrc` in the checkout (where it looks anyway,
 * beside the config) and caches modules in the checkout's ignored `.cache/`.
 */
export function sourceEnv(repoRoot: string): Array<[string, string]> {
  return [[HOME_VARIABLE, "$HOME"], ["HOME", repoRoot], ["DENO_DIR", `${repoRoot}/.cache/deno`]];
}

/** The names `sourceEnv` sets, in order. */
export const SOURCE_ENV_NAMES: readonly string[] = [HOME_VARIABLE, "HOME", "DENO_DIR"];
