/**
 * Installs the pinned Claude Code release the end-to-end tests drive, into a
 * cache folder outside the repository, and finds its native binary.
 *
 * The install is atomic (see `npm_cache.ts`): a folder at the final path is
 * always a complete install.
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

import { e2eCacheRoot, ensureInstalled, type InstallResult, isFile } from "./npm_cache.ts";

/** The Claude Code release the end-to-end tests are pinned to. */
export const CLAUDE_CODE_VERSION = "2.1.332";

/** The npm package spec that is installed. */
export const CLAUDE_CODE_PACKAGE = `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`;

/** The outcome of making sure the pinned Claude Code is installed. */
export type { InstallResult };

/** Deno's names for the host, mapped to the suffixes of Claude Code's platform packages. */
const OS_NAMES: Readonly<Record<string, string>> = {
  linux: "linux",
  darwin: "darwin",
  windows: "win32",
};
const ARCH_NAMES: Readonly<Record<string, string>> = { x86_64: "x64", aarch64: "arm64" };

/**
 * The cache folder of the pinned release: the end-to-end cache root
 * (`e2eCacheRoot()`) followed by `claude-code-<version>`.
 */
export function claudeCodeCacheDir(): string {
  return `${e2eCacheRoot()}/claude-code-${CLAUDE_CODE_VERSION}`;
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

/**
 * Makes sure the pinned Claude Code is in the cache, installing it with npm
 * when it is missing or broken. Never throws: a failure is returned with the
 * reason, so tests can skip with a clear message.
 */
export function ensureClaudeCode(cacheDir: string = claudeCodeCacheDir()): Promise<InstallResult> {
  return ensureInstalled({
    folder: `claude-code-${CLAUDE_CODE_VERSION}`,
    packageSpec: CLAUDE_CODE_PACKAGE,
    findBinary: findClaudeBinary,
    versionMatches: (stdout) => stdout.startsWith(`${CLAUDE_CODE_VERSION} `),
  }, cacheDir);
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
