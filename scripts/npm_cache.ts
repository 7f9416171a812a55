/**
 * Installs a pinned npm package into the end-to-end cache, atomically: npm
 * writes into a scratch folder beside the final one, which is renamed into
 * place only once the package's binary answers `--version` with the pinned
 * version. A folder at the final path is therefore always a complete
 * install, and two processes warming the cache at once cannot leave a
 * half-written one behind.
 *
 * The real-client installers (`install_claude_code.ts`, `install_agents.ts`)
 * declare what to install and where its binary is; this module does the rest.
 *
 * @module
 */

/** One pinned package and how to find and recognise its binary. */
export interface NpmInstallSpec {
  /** The cache sub-folder, e.g. `codex-0.171.0`. */
  folder: string;
  /** The package spec handed to npm, e.g. `@openai/codex@0.171.0`. */
  packageSpec: string;
  /** The binary inside a complete install, or null when none is there. */
  findBinary(installDir: string): Promise<string | null>;
  /** True when the `--version` output names the pinned version. */
  versionMatches(stdout: string): boolean;
  /**
   * Environment the version check runs with, given the install folder; the
   * check may leave files there (a client that unpacks itself on first run),
   * which then move with the folder.
   */
  versionEnv?(installDir: string): Record<string, string>;
}

/** The outcome of making sure a pinned package is installed. */
export type InstallResult =
  | { ok: true; binary: string; cacheDir: string; installed: boolean }
  | { ok: false; reason: string };

/** How long npm may take before the install counts as failed. */
const NPM_TIMEOUT_MS = 300_000;

/** How long a `--version` check may take (a first run may unpack itself). */
const VERSION_TIMEOUT_MS = 120_000;

/**
 * The end-to-end cache root: `$GATEGUARD_E2E_CACHE`, else
 * `$XDG_CACHE_HOME/gateguard-e2e`, else `~/.cache/gateguard-e2e`.
 */
export function e2eCacheRoot(): string {
  const env = (name: string): string | undefined => Deno.env.get(name) || undefined;
  return env("GATEGUARD_E2E_CACHE") ??
    `${
      env("XDG_CACHE_HOME") ?? `${env("HOME") ?? env("USERPROFILE") ?? "."}/.cache`
    }/gateguard-e2e`;
}

/** The line printed before a package is installed: what, and where it goes. */
export function installLine(packageSpec: string, cacheDir: string): string {
  return `installing ${packageSpec} with npm into ${cacheDir} (once; later runs reuse it)`;
}

/** True when `path` is a regular file (following links). */
export async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function run(
  cmd: string,
  args: string[],
  timeoutMs: number,
  env?: Record<string, string>,
): Promise<Deno.CommandOutput> {
  const child = new Deno.Command(cmd, {
    args,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).spawn();
  return await child.output();
}

function tail(bytes: Uint8Array, max = 800): string {
  const text = new TextDecoder().decode(bytes).trim();
  return text.length > max ? `…${text.slice(-max)}` : text;
}

/** Installs the package into `dir` with npm; returns the failure text, or null on success. */
async function npmInstall(dir: string, packageSpec: string): Promise<string | null> {
  const npm = Deno.build.os === "windows" ? "npm.cmd" : "npm";
  try {
    const out = await run(
      npm,
      ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", packageSpec],
      NPM_TIMEOUT_MS,
    );
    return out.success ? null : `npm exited with ${out.code}: ${tail(out.stderr)}`;
  } catch (err) {
    return `npm could not run: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** Returns the working binary of a complete install at `dir`, or null. */
async function usableBinary(spec: NpmInstallSpec, dir: string): Promise<string | null> {
  const binary = await spec.findBinary(dir);
  if (binary === null) return null;
  try {
    const out = await run(binary, ["--version"], VERSION_TIMEOUT_MS, spec.versionEnv?.(dir));
    return out.success && spec.versionMatches(new TextDecoder().decode(out.stdout)) ? binary : null;
  } catch {
    return null;
  }
}

/**
 * Makes sure the pinned package is in the cache, installing it with npm when
 * it is missing or broken. Never throws: a failure is returned with the
 * reason, so tests can skip with a clear message.
 */
export async function ensureInstalled(
  spec: NpmInstallSpec,
  cacheDir: string = `${e2eCacheRoot()}/${spec.folder}`,
): Promise<InstallResult> {
  try {
    const cached = await usableBinary(spec, cacheDir);
    if (cached) return { ok: true, binary: cached, cacheDir, installed: false };
    const parent = cacheDir.slice(0, cacheDir.lastIndexOf("/"));
    await Deno.mkdir(parent, { recursive: true });
    // Said before npm starts: these installs are hundreds of megabytes each.
    console.error(installLine(spec.packageSpec, cacheDir));
    const scratch = await Deno.makeTempDir({ dir: parent, prefix: ".install-" });
    try {
      if (Deno.build.os !== "windows") await Deno.chmod(scratch, 0o755);
      const failure = await npmInstall(scratch, spec.packageSpec);
      if (failure) return { ok: false, reason: failure };
      if (!await usableBinary(spec, scratch)) {
        return { ok: false, reason: `no working ${spec.packageSpec} binary in the package` };
      }
      await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
      try {
        await Deno.rename(scratch, cacheDir);
      } catch {
        // Another process finished first; its install is as good as ours.
      }
      const binary = await usableBinary(spec, cacheDir);
      return binary
        ? { ok: true, binary, cacheDir, installed: true }
        : { ok: false, reason: `the install at ${cacheDir} does not run` };
    } finally {
      await Deno.remove(scratch, { recursive: true }).catch(() => {});
    }
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}
