/**
 * Builds the release binaries with `deno compile`, one per target, with the
 * `gateguard` permission set of deno.json (the same set `deno task
 * gateguard` and the tests run under), and writes SHA256SUMS beside them.
 *
 * Each target is compiled from a staged copy of `src/` and deno.json whose
 * `src/build_info.ts` records the target and the commit, so
 * `gateguard --version` can name them without any permission at run time;
 * the checkout itself is never modified.
 *
 * Usage: deno task compile [--target <triple>]... [--out dist] [--commit <sha>]
 *
 * @module
 */

import { runtimeFlags } from "../src/platform/permissions.ts";
import type { BuildInfo } from "../src/version.ts";

/** Every platform a release ships for: Deno target triple and asset name. */
export const TARGETS: readonly { triple: string; asset: string }[] = [
  { triple: "x86_64-unknown-linux-gnu", asset: "gateguard-linux-x64" },
  { triple: "aarch64-unknown-linux-gnu", asset: "gateguard-linux-arm64" },
  { triple: "x86_64-apple-darwin", asset: "gateguard-macos-x64" },
  { triple: "aarch64-apple-darwin", asset: "gateguard-macos-arm64" },
  { triple: "x86_64-pc-windows-msvc", asset: "gateguard-windows-x64.exe" },
  { triple: "aarch64-pc-windows-msvc", asset: "gateguard-windows-arm64.exe" },
];

/** What the staged tree holds, relative to the repository root. */
const STAGED_CONFIG = "deno.json";
const STAGED_DIR = "src";

/** A commit as recorded in a build: hex, optionally marked `-dirty`. */
const COMMIT_PATTERN = /^[0-9a-f]{7,40}(-dirty)?$/;

/** The `deno compile` arguments that build one target from `stageDir` into `outDir`. */
export function compileArgs(triple: string, outDir: string, stageDir: string): string[] {
  const target = TARGETS.find((t) => t.triple === triple);
  if (!target) throw new Error(`unknown target ${triple}`);
  return [
    "compile",
    ...runtimeFlags(`${stageDir}/deno.json`),
    "--target",
    triple,
    "--output",
    `${outDir}/${target.asset}`,
    `${stageDir}/src/main.ts`,
  ];
}

/** The text of `src/build_info.ts` for one build. */
export function buildInfoModule(info: BuildInfo): string {
  if (!TARGETS.some((t) => t.triple === info.target)) {
    throw new Error(`unknown target ${info.target}`);
  }
  if (!COMMIT_PATTERN.test(info.commit)) throw new Error(`not a commit: ${info.commit}`);
  return [
    "/**",
    " * The build record of this binary, written by `deno task compile`.",
    " *",
    " * @module",
    " */",
    "",
    'import type { BuildInfo } from "./version.ts";',
    "",
    "/** The build record. */",
    `export const BUILD_INFO: BuildInfo | null = ${JSON.stringify(info)};`,
    "",
  ].join("\n");
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else if (entry.isFile) await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

/**
 * Copies what `deno compile` reads from `repoRoot` into `stageDir` and writes
 * the build record there.
 */
export async function stageBuild(
  repoRoot: string,
  stageDir: string,
  info: BuildInfo,
): Promise<void> {
  const module = buildInfoModule(info);
  const config = stagedConfig(await Deno.readTextFile(`${repoRoot}/${STAGED_CONFIG}`));
  await copyTree(`${repoRoot}/${STAGED_DIR}`, `${stageDir}/${STAGED_DIR}`);
  await Deno.writeTextFile(`${stageDir}/${STAGED_CONFIG}`, config);
  await Deno.writeTextFile(`${stageDir}/src/build_info.ts`, module);
}

/**
 * The deno.json a binary is compiled with: the project's, without the
 * import map and lockfile, which serve only the scripts and tests (src
 * imports no package), so no npm package can end up inside a binary.
 */
export function stagedConfig(configText: string): string {
  const config = JSON.parse(configText);
  delete config.imports;
  config.lock = false;
  return `${JSON.stringify(config, null, 2)}\n`;
}

async function git(repoRoot: string, args: string[]): Promise<Deno.CommandOutput> {
  return await new Deno.Command("git", {
    args: ["-C", repoRoot, ...args],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
}

/**
 * The commit the sources are at, with `-dirty` when the compiled inputs
 * differ from it. Throws when git cannot tell (pass `--commit` then).
 */
export async function currentCommit(repoRoot: string): Promise<string> {
  const head = await git(repoRoot, ["rev-parse", "--short=12", "HEAD"]);
  if (!head.success) {
    throw new Error(
      `git cannot name the commit (${new TextDecoder().decode(head.stderr).trim()}); pass --commit`,
    );
  }
  const sha = new TextDecoder().decode(head.stdout).trim();
  const diff = await git(repoRoot, ["diff", "--quiet", "HEAD", "--", STAGED_DIR, STAGED_CONFIG]);
  return diff.success ? sha : `${sha}-dirty`;
}

/** The SHA256SUMS text for files given as [asset name, bytes]. */
export async function sha256Sums(files: readonly [string, Uint8Array][]): Promise<string> {
  const lines: string[] = [];
  for (const [name, bytes] of files) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    lines.push(`${hex}  ${name}`);
  }
  return lines.join("\n") + "\n";
}

/** Parsed command line of the compile script. */
export interface CompileOptions {
  triples: string[];
  outDir: string;
  /** The commit to record; null to ask git. */
  commit: string | null;
}

/** Parses `--target T` (repeatable), `--out DIR` and `--commit SHA`. */
export function parseCompileArgs(args: string[]): CompileOptions {
  const triples: string[] = [];
  let outDir = "dist";
  let commit: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = args[i + 1];
    if (!["--target", "--out", "--commit"].includes(a)) throw new Error(`unknown argument ${a}`);
    if (value === undefined) throw new Error(`${a} needs a value`);
    i++;
    if (a === "--target") triples.push(value);
    else if (a === "--out") outDir = value;
    else commit = value;
  }
  for (const t of triples) {
    if (!TARGETS.some((x) => x.triple === t)) throw new Error(`unknown target ${t}`);
  }
  if (commit !== null && !COMMIT_PATTERN.test(commit)) throw new Error(`not a commit: ${commit}`);
  return { triples: triples.length > 0 ? triples : TARGETS.map((t) => t.triple), outDir, commit };
}

if (import.meta.main) {
  // `deno task` runs in the directory of deno.json: the repository root.
  const repoRoot = Deno.cwd();
  const { triples, outDir, commit } = parseCompileArgs(Deno.args);
  const builtFrom = commit ?? await currentCommit(repoRoot);
  Deno.mkdirSync(outDir, { recursive: true });
  const built: [string, Uint8Array][] = [];
  for (const triple of triples) {
    const stageDir = await Deno.makeTempDir({ prefix: "gateguard-stage-" });
    try {
      await stageBuild(repoRoot, stageDir, { target: triple, commit: builtFrom });
      const args = compileArgs(triple, outDir, stageDir);
      console.error(`deno ${args.join(" ")}`);
      const { code } = await new Deno.Command(Deno.execPath(), { args }).spawn().status;
      if (code !== 0) Deno.exit(code);
    } finally {
      await Deno.remove(stageDir, { recursive: true });
    }
    const asset = TARGETS.find((t) => t.triple === triple)!.asset;
    built.push([asset, Deno.readFileSync(`${outDir}/${asset}`)]);
  }
  Deno.writeTextFileSync(`${outDir}/SHA256SUMS`, await sha256Sums(built));
  console.error(`wrote ${built.length} binaries and ${outDir}/SHA256SUMS from commit ${builtFrom}`);
}
