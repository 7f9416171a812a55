/**
 * Runs a test's child script as a user without root's powers, from
 * anywhere the repository happens to be cloned.
 *
 * As root, the child runs as uid/gid 65534 through `setpriv`; any other
 * user is unprivileged already and runs the child as itself. Either way
 * the child must not depend on the clone: a clone under a 0700 home
 * directory cannot be read by uid 65534. So the child's script and every
 * local module it imports are copied (layout kept) into a fresh directory
 * every user can reach, which also holds the child's Deno cache and the
 * files the test prepares for it. The Deno binary is copied too when that
 * user could not reach it where it is.
 *
 * @module
 */

import { tempDirSync } from "./temp.ts";
import { REPO_ROOT } from "./cli.ts";
import { RUN_CONFIG, sourceTreeArgv } from "../../src/platform/permissions.ts";

/** uid and gid the child runs as when the test runs as root. */
export const NOBODY = 65534;

/** How a root test process drops to `NOBODY` for one command. */
const SETPRIV = [
  "setpriv",
  `--reuid=${NOBODY}`,
  `--regid=${NOBODY}`,
  "--clear-groups",
];

/** Why no unprivileged child can run here, or null when one can. */
export function unprivilegedUnavailable(): string | null {
  if (Deno.build.os === "windows") return "Windows has no POSIX uids";
  if (Deno.uid() !== 0) return null;
  try {
    if (new Deno.Command("setpriv", { args: ["--version"] }).outputSync().success) return null;
  } catch {
    // Not installed: said below.
  }
  return `running as root without setpriv (util-linux), so no child can run as uid ${NOBODY}`;
}

/** True when a user who is neither owner nor in the group may search every folder down to `path`. */
function othersReach(path: string): boolean {
  const parts = path.split("/").filter((p) => p !== "");
  for (let k = 0; k < parts.length; k++) {
    const dir = `/${parts.slice(0, k).join("/")}`;
    if (((Deno.statSync(dir).mode ?? 0) & 0o001) === 0) return false;
  }
  return ((Deno.statSync(path).mode ?? 0) & 0o005) === 0o005;
}

/** A temporary directory every user can enter: the system's, else `/tmp`. */
function reachableTempDir(prefix: string): string {
  const first = Deno.realPathSync(tempDirSync({ prefix }));
  Deno.chmodSync(first, 0o755);
  if (othersReach(first)) return first;
  Deno.removeSync(first, { recursive: true });
  const dir = Deno.realPathSync(tempDirSync({ dir: "/tmp", prefix }));
  Deno.chmodSync(dir, 0o755);
  return dir;
}

/** The local modules `entry` loads (itself included), as paths under the repository. */
async function localModules(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno info ${entry} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  const root = `file://${REPO_ROOT}/`;
  return (info.modules as Array<{ specifier: string }>).map((m) => {
    if (!m.specifier.startsWith(root)) {
      throw new Error(`${entry} loads ${m.specifier}, which is not a file of the repository`);
    }
    return decodeURIComponent(m.specifier.slice(root.length));
  });
}

/** What one child run produced. */
export interface ChildRun {
  code: number;
  stdout: string;
  stderr: string;
  /** True when the child outlived the limit and was killed. */
  killed: boolean;
}

/** Options of one staged run. */
export interface StageRunOptions {
  /** Text written to the child's stdin (closed right after); none by default. */
  stdin?: string;
  /** Variables besides `PATH`, `HOME` and `DENO_DIR` (the staged cache). */
  env?: Record<string, string>;
}

/** A staged copy of a child script, runnable by an unprivileged user. */
export interface Stage extends AsyncDisposable {
  /** The staging directory (0755); put the files the child reads here. */
  dir: string;
  /** Runs the staged program with `args` as the unprivileged user, killed after `killAfterMs`. */
  run(args: string[], killAfterMs: number, options?: StageRunOptions): Promise<ChildRun>;
}

/** Copies `rel` (a path under the repository) to the same place under `code`, readable by all. */
function copyIn(rel: string, code: string): void {
  Deno.mkdirSync(`${code}/${rel}`.replace(/\/[^/]*$/, ""), { recursive: true, mode: 0o755 });
  Deno.copyFileSync(`${REPO_ROOT}/${rel}`, `${code}/${rel}`);
  Deno.chmodSync(`${code}/${rel}`, 0o644);
}

/** Every file under the repository folder `rel`, as repository paths. */
function filesUnder(rel: string): string[] {
  return [...Deno.readDirSync(`${REPO_ROOT}/${rel}`)].flatMap((e) =>
    e.isDirectory ? filesUnder(`${rel}/${e.name}`) : e.isFile ? [`${rel}/${e.name}`] : []
  );
}

/**
 * Copies `script` (a path under the repository, e.g.
 * `tests/platform/read_loop.ts`) and the modules it imports into a
 * directory every user can reach. Check `unprivilegedUnavailable()` first.
 */
export async function stageUnprivileged(script: string): Promise<Stage> {
  const files = await localModules(`${REPO_ROOT}/${script}`);
  return stage(
    files,
    (code) => ["run", "--quiet", "--no-config", "--allow-all", `${code}/${script}`],
  );
}

/**
 * Copies the CLI (`src/` and the run config) into a directory every user
 * can reach; `run` then starts it as the binary runs, with the permission
 * set of that config. Check `unprivilegedUnavailable()` first.
 */
export function stageUnprivilegedCli(): Promise<Stage> {
  return Promise.resolve(stage(
    [RUN_CONFIG, ...filesUnder("src")],
    (code) => sourceTreeArgv("deno", code).slice(1),
  ));
}

function stage(files: string[], denoArgs: (code: string) => string[]): Stage {
  const dir = reachableTempDir("gg-unpriv-");
  try {
    const code = `${dir}/code`;
    for (const rel of files) copyIn(rel, code);
    let deno = Deno.execPath();
    if (!othersReach(deno)) {
      Deno.copyFileSync(deno, `${dir}/deno`);
      Deno.chmodSync(`${dir}/deno`, 0o755);
      deno = `${dir}/deno`;
    }
    const cache = `${dir}/deno_dir`;
    Deno.mkdirSync(cache, { mode: 0o777 });
    Deno.chmodSync(cache, 0o777);
    const wrapper = Deno.uid() === 0 ? SETPRIV : [];
    return {
      dir,
      async run(args: string[], killAfterMs: number, options: StageRunOptions = {}) {
        const argv = [...wrapper, deno, ...denoArgs(code), ...args];
        const child = new Deno.Command(argv[0], {
          args: argv.slice(1),
          cwd: dir,
          clearEnv: true,
          env: {
            ...options.env,
            DENO_DIR: cache,
            HOME: options.env?.HOME ?? cache,
            PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          },
          stdin: options.stdin === undefined ? "null" : "piped",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        if (options.stdin !== undefined) {
          const writer = child.stdin.getWriter();
          await writer.write(new TextEncoder().encode(options.stdin)).catch(() => {});
          await writer.close().catch(() => {});
        }
        let killed = false;
        const timer = setTimeout(() => {
          killed = true;
          child.kill("SIGKILL");
        }, killAfterMs);
        const out = await child.output();
        clearTimeout(timer);
        const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
        return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr), killed };
      },
      async [Symbol.asyncDispose](): Promise<void> {
        await Deno.remove(dir, { recursive: true });
      },
    };
  } catch (err) {
    Deno.removeSync(dir, { recursive: true });
    throw err;
  }
}
