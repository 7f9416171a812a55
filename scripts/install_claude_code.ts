/**
 * Installs the pinned Claude Code release the end-to-end tests drive, into a
 * cache folder outside the repository, and finds its native binary.
 *
 * The install goes to a scratch folder first and is renamed into place only
 * once the binary answers `--version` with the pinned version, so a folder at
 * the final path is always a complete install, and two processes warming the
 * cache at once cannot leave a half-written one behind.
 *
 * Run it directly to warm the cache (CI does so before the tests):
 *
 * ```sh
 * deno run --allow-env --allow-read --allow-write --allow-run scripts/install_claude_code.ts
 * ```
 *
 * It prints the binary path and exits 0, or prints why it could not install
 * and exits 1.
 *
 * @module
 */

/** The Claude Code release the end-to-end tests are pinned to. */
export const CLAUDE_CODE_VERSION = "2.1.332";

/** The npm package spec that is installed. */
export const CLAUDE_CODE_PACKAGE = `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`;

/** The outcome of making sure the pinned Claude Code is installed. */
export type InstallResult =
  | { ok: true; binary: string; cacheDir: string; installed: boolean }
  | { ok: false; reason: string };

/** How long npm may take before the install counts as failed. */
const NPM_TIMEOUT_MS = 300_000;

/** Deno's names for the host, mapped to the suffixes of Claude Code's platform packages. */
const OS_NAMES: Readonly<Record<string, string>> = {
  linux: "linux",
  darwin: "darwin",
  windows: "win32",
};
const ARCH_NAMES: Readonly<Record<string, string>> = { x86_64: "x64", aarch64: "arm64" };

/**
 * The cache folder of the pinned release: `$GATEGUARD_E2E_CACHE`, else
 * `$XDG_CACHE_HOME/gateguard-e2e`, else `~/.cache/gateguard-e2e`, each followed
 * by `claude-code-<version>`.
 */
export function claudeCodeCacheDir(): string {
  const env = (name: string): string | undefined => Deno.env.get(name) || undefined;
  const base = env("GATEGUARD_E2E_CACHE") ??
    `${
      env("XDG_CACHE_HOME") ?? `${env("HOME") ?? env("USERPROFILE") ?? "."}/.cache`
    }/gateguard-e2e`;
  return `${base}/claude-code-${CLAUDE_CODE_VERSION}`;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * The native binary inside an install: the host's platform package first
 * (glibc, then musl on Linux), then the wrapper's `bin/claude.exe`, which the
 * package's postinstall step replaces with the same binary. Null when none is
 * there.
 */
export async function findClaudeBinary(installDir: string): Promise<string | null> {
  const scope = `${installDir}/node_modules/@anthropic-ai`;
  const os = OS_NAMES[Deno.build.os];
  const arch = ARCH_NAMES[Deno.build.arch];
  const exe = Deno.build.os === "windows" ? "claude.exe" : "claude";
  const candidates = os && arch
    ? [
      `${scope}/claude-code-${os}-${arch}/${exe}`,
      `${scope}/claude-code-${os}-${arch}-musl/${exe}`,
    ]
    : [];
  candidates.push(`${scope}/claude-code/bin/claude.exe`);
  for (const path of candidates) {
    if (await isFile(path)) return path;
  }
  return null;
}

async function run(cmd: string, args: string[], timeoutMs: number): Promise<Deno.CommandOutput> {
  const child = new Deno.Command(cmd, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).spawn();
  return await child.output();
}

/** True when `binary --version` reports the pinned version. */
async function answersVersion(binary: string): Promise<boolean> {
  try {
    const out = await run(binary, ["--version"], 30_000);
    return out.success &&
      new TextDecoder().decode(out.stdout).startsWith(`${CLAUDE_CODE_VERSION} `);
  } catch {
    return false;
  }
}

function tail(bytes: Uint8Array, max = 800): string {
  const text = new TextDecoder().decode(bytes).trim();
  return text.length > max ? `…${text.slice(-max)}` : text;
}

/** Installs the package into `dir` with npm; returns the failure text, or null on success. */
async function npmInstall(dir: string): Promise<string | null> {
  const npm = Deno.build.os === "windows" ? "npm.cmd" : "npm";
  try {
    const out = await run(
      npm,
      [
        "install",
        "--prefix",
        dir,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        CLAUDE_CODE_PACKAGE,
      ],
      NPM_TIMEOUT_MS,
    );
    return out.success ? null : `npm exited with ${out.code}: ${tail(out.stderr)}`;
  } catch (err) {
    return `npm could not run: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** Returns the working binary of a complete install at `dir`, or null. */
async function usableBinary(dir: string): Promise<string | null> {
  const binary = await findClaudeBinary(dir);
  return binary !== null && await answersVersion(binary) ? binary : null;
}

/**
 * Makes sure the pinned Claude Code is in the cache, installing it with npm
 * when it is missing or broken. Never throws: a failure is returned with the
 * reason, so tests can skip with a clear message.
 */
export async function ensureClaudeCode(cacheDir = claudeCodeCacheDir()): Promise<InstallResult> {
  try {
    const cached = await usableBinary(cacheDir);
    if (cached) return { ok: true, binary: cached, cacheDir, installed: false };
    const parent = cacheDir.slice(0, cacheDir.lastIndexOf("/"));
    await Deno.mkdir(parent, { recursive: true });
    const scratch = await Deno.makeTempDir({ dir: parent, prefix: ".install-" });
    try {
      if (Deno.build.os !== "windows") await Deno.chmod(scratch, 0o755);
      const failure = await npmInstall(scratch);
      if (failure) return { ok: false, reason: failure };
      if (!await usableBinary(scratch)) {
        return {
          ok: false,
          reason: `no working Claude Code ${CLAUDE_CODE_VERSION} binary in the package`,
        };
      }
      await Deno.remove(cacheDir, { recursive: true }).catch(() => {});
      try {
        await Deno.rename(scratch, cacheDir);
      } catch {
        // Another process finished first; its install is as good as ours.
      }
      const binary = await usableBinary(cacheDir);
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

if (import.meta.main) {
  const result = await ensureClaudeCode();
  if (result.ok) {
    console.log(`${result.installed ? "installed" : "cached"}: ${result.binary}`);
  } else {
    console.error(`could not install ${CLAUDE_CODE_PACKAGE}: ${result.reason}`);
    Deno.exit(1);
  }
}
