/**
 * The GateGuard version, and the one line that names a build: `--version`
 * and `gateguard doctor` both print it, so a bug report quotes the same text
 * whichever the user ran. The version is kept equal to `version` in
 * deno.json by a test.
 *
 * @module
 */

/** The released version of this build. */
export const VERSION = "0.1.0";

/** What a compiled binary records about its own build. */
export interface BuildInfo {
  /** The Deno target triple the binary was compiled for. */
  target: string;
  /** The commit it was compiled from, `-dirty` appended when the sources differed from it. */
  commit: string;
}

/**
 * The version line: version, target, and the commit of a compiled build, or
 * `from source` with the target of the running Deno when there is no build
 * record (a source checkout knows no commit without running git, which the
 * hook's permissions do not allow).
 */
export function versionLine(build: BuildInfo | null, runtimeTarget: string): string {
  return build === null
    ? `gateguard ${VERSION} (${runtimeTarget}, from source)`
    : `gateguard ${VERSION} (${build.target}, commit ${build.commit})`;
}
