/**
 * Builds the release binaries with `deno compile`, one per target, with the
 * `gateguard` permission set of the run config (the same set `deno task
 * gateguard` and the tests run under), and writes SHA256SUMS beside them.
 *
 * Each target is compiled from a staged copy of `src/` and the run config whose
 * `src/build_info.ts` records the target and the commit, so
 * `gateguard --version` can name them without any permission at run time;
 * the checkout itself is never modified.
 *
 * Usage: deno task compile [--target <triple>]... [--out dist] [--commit <sha>]
 *
 * @module
 */

import { RUN_CONFIG, runtimeFlags } from "../src/platform/permissions.ts";
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
const STAGED_CONFIG = RUN_CONFIG;
const STAGED_DIR = "src";

/** A commit as recorded in a build: hex, optionally marked `-dirty`. */
const COMMIT_PATTERN = /^[0-9a-f]{7,40}(-dirty)?$/;

/** The `deno compile` arguments that build one target from `stageDir` into `outDir`. */
export function compileArgs(triple: string, outDir: string, stageDir: string): string[] {
  const target = TARGETS.find((t) => t.triple === triple);
  if (!target) throw new Error(`unknown target ${triple}`);
  return [
    "compile",
    ...runtimeFlags(`${stageDir}/${STAGED_CONFIG}`),
    "--target",
    triple,
    "--output",
    `${outDir}/${target.asset}`,
    // The lazily loaded modules are imported by a URL built at run time (so
    // `deno run` reads only what a call takes); compile cannot see those
    // imports, so the whole source folder is embedded.
    "--include",
    `${stageDir}/src`,
    // A compiled binary keeps V8's code cache in the temp folder, named after
    // the executable, where any process can write it. V8 checks only the
    // source's length against the cached code, so a planted cache would run
    // as the gate's own code; the binary compiles from its embedded source.
    "--no-code-cache",
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
  await copyTree(`${repoRoot}/${STAGED_DIR}`, `${stageDir}/${STAGED_DIR}`);
  // The run config names no import map and no lockfile (src imports no
  // package), so no npm package can end up inside a binary.
  await Deno.copyFile(`${repoRoot}/${STAGED_CONFIG}`, `${stageDir}/${STAGED_CONFIG}`);
  await Deno.writeTextFile(`${stageDir}/src/build_info.ts`, module);
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
    if (!TARGETS.some((x) => x.triple === t)) {
      throw new Error(
        `unknown target ${t}; the targets are ${TARGETS.map((x) => x.triple).join(", ")}`,
      );
    }
  }
  if (commit !== null && !COMMIT_PATTERN.test(commit)) throw new Error(`not a commit: ${commit}`);
  return { triples: triples.length > 0 ? triples : TARGETS.map((t) => t.triple), outDir, commit };
}

/** A terminal colour sequence (Deno colours its errors when it may). */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** Where `deno compile` fetches the runtime of a target from (this Deno's own version). */
export function runtimeUrl(triple: string, denoVersion: string): string {
  return `https://dl.deno.land/release/v${denoVersion}/denort-${triple}.zip`;
}

/**
 * One line for a failed `deno compile`, from its stderr: a runtime that
 * could not be downloaded is said as such with the address it came from
 * (Deno's own report is a chain of causes and a stack trace); any other
 * failure keeps Deno's first error line.
 */
export function compileFailure(triple: string, stderr: string): string {
  const plain = stderr.replace(COLOUR, "");
  const url = /error sending request for url \((\S+?)\)/.exec(plain)?.[1];
  if (url !== undefined || plain.includes("Setting up base binary")) {
    return `compile: the Deno runtime for ${triple} could not be downloaded from ${
      url ?? runtimeUrl(triple, Deno.version.deno)
    }; deno compile needs it once (it is kept in the Deno cache after that), so run again ` +
      "with network access";
  }
  const first = plain.split("\n").map((line) => line.trim()).find((line) => line !== "");
  return `compile: deno compile failed for ${triple}: ${first ?? "no error output"}`;
}

/**
 * Builds every asked target into `outDir` and writes SHA256SUMS; returns the
 * exit code. Whatever happens, no staging directory is left behind, and an
 * output directory this run created is removed again when no binary landed
 * in it.
 */
export async function compileAll(repoRoot: string, args: string[]): Promise<number> {
  let options: CompileOptions;
  try {
    options = parseCompileArgs(args);
  } catch (err) {
    console.error(`compile: ${(err as Error).message}`);
    return 2;
  }
  const { triples, outDir, commit } = options;
  let builtFrom: string;
  try {
    builtFrom = commit ?? await currentCommit(repoRoot);
  } catch (err) {
    console.error(`compile: ${(err as Error).message}`);
    return 1;
  }
  const outExisted = await Deno.lstat(outDir).then(() => true, () => false);
  const built: [string, Uint8Array][] = [];
  try {
    await Deno.mkdir(outDir, { recursive: true });
    for (const triple of triples) {
      const asset = TARGETS.find((t) => t.triple === triple)!.asset;
      const stageDir = await Deno.makeTempDir({ prefix: "gateguard-stage-" });
      try {
        await stageBuild(repoRoot, stageDir, { target: triple, commit: builtFrom });
        const out = await new Deno.Command(Deno.execPath(), {
          args: compileArgs(triple, outDir, stageDir),
          env: { NO_COLOR: "1" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        if (!out.success) {
          console.error(compileFailure(triple, new TextDecoder().decode(out.stderr)));
          return 1;
        }
      } finally {
        await Deno.remove(stageDir, { recursive: true });
      }
      built.push([asset, await Deno.readFile(`${outDir}/${asset}`)]);
      console.error(`compile: built ${outDir}/${asset} (${triple})`);
    }
    await Deno.writeTextFile(`${outDir}/SHA256SUMS`, await sha256Sums(built));
    console.error(
      `compile: wrote ${built.length} binaries and ${outDir}/SHA256SUMS from commit ${builtFrom}`,
    );
    return 0;
  } finally {
    if (!outExisted && built.length === 0) {
      await Deno.remove(outDir, { recursive: true }).catch(() => {});
    }
  }
}

if (import.meta.main) {
  // `deno task` runs in the directory of deno.json: the repository root.
  Deno.exitCode = await compileAll(Deno.cwd(), Deno.args);
}
