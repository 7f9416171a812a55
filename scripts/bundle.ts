/**
 * Builds the bundle a from-source hook runs: `src/` compiled to a handful of
 * minified JavaScript chunks in `.cache/bundle/`, so one tool call reads a
 * few files instead of seventy TypeScript modules.
 *
 * Why a bundle: a hook is one process per tool call, and measured per call
 * most of GateGuard's time over a Deno hello-world went to loading modules
 * (per module, and per byte of source read), not to deciding. `deno run`
 * cannot be told to load less: it builds the whole static graph, and every
 * `import()` named by a string literal, before the entry runs. So the
 * sources name their lazy modules by a URL built at run time (which
 * `deno run` does not follow), and this script undoes that for the bundler:
 *
 * 1. the sources are staged in a temporary folder, each lazy
 *    `import(new URL("./x.ts", import.meta.url).href)` written as
 *    `import("./x.ts")`, so the bundler sees the split points;
 * 2. `deno bundle --code-splitting --minify` writes one entry and a chunk
 *    per group of modules that are loaded together;
 * 3. every `import("./chunk.js")` in the output goes back to the run-time
 *    URL form, so `deno run` again reads only the chunks a call takes;
 * 4. the chunks the entry always loads at start-up are folded into one
 *    file (`bundle_merge.ts`);
 * 5. the hook's functions are written so that V8 compiles them when their
 *    file loads, which keeps them in Deno's code cache (`bundle_eager.ts`).
 *
 * The bundle sits two folders below the checkout's root, as every module
 * under `src/<folder>/` does, so the code that finds the checkout from
 * `import.meta.url` finds the same root in both. A digest of the sources it
 * was built from sits beside it (src/setup/bundle_state.ts): the build is
 * skipped when nothing changed, and `gateguard doctor` tells a stale bundle.
 *
 * Usage: deno run --allow-read --allow-write --allow-run --allow-env scripts/bundle.ts [--force]
 *
 * @module
 */

import { BUNDLE_DIR, HOME_VARIABLE, RUN_CONFIG, sourceEnv } from "../src/platform/permissions.ts";
import { pathOfFileUrl } from "../src/setup/command.ts";
import { bundleState, DIGEST_FILE, filesUnder, sourceDigest } from "../src/setup/bundle_state.ts";

export { DIGEST_FILE };
import { CORE_FILE, coreEntry, pointAtCore, startupChunks } from "./bundle_merge.ts";
import { eagerBundle } from "./bundle_eager.ts";

/** A lazy import as the sources write it, with the module path captured. */
const RUNTIME_URL_IMPORT =
  /import\(\s*new URL\(\s*("\.{1,2}\/[^"]+\.ts")\s*,\s*import\.meta\.url\s*\)\.href\s*\)/g;

/**
 * A module path built at run time that the rewriting above did not reach:
 * in the bundle it would resolve beside the chunk, where no source is.
 */
const LEFT_SOURCE_URL = /new URL\(\s*"\.{1,2}\/[^"]*\.ts"/;

/** A literal import of a chunk in the bundler's output. */
const LITERAL_CHUNK_IMPORT = /import\("(\.\/[^"]+\.js)"\)/g;

/**
 * The lazy modules the bundle loads together with their importer, relative
 * to `src/`: small ones whose own chunk would cost a module round (a
 * dynamic import costs about 1 ms before its first byte, measured in
 * process) for a few hundred bytes, and ones nearly always taken right after
 * their importer. Bytes cost too (roughly 20-90 µs per KiB read and run), so
 * a module only some calls of a class take stays out: the metrics modules
 * load with the metrics writer, which is a round of its own anyway. Chosen
 * by counting the files and bytes each call class reads (`deno task bench`). Every other lazy import starts a
 * chunk of its own in the bundle, so a new one is never folded by accident
 * into a path that does not need it; from the source tree all of them stay
 * lazy.
 */
export const LOADED_WITH_IMPORTER: ReadonlySet<string> = new Set([
  "build_info.ts",
  "hook/escalate.ts",
  // Taken by nearly every call: their own chunks, and the chunks esbuild
  // splits off for what they share, cost more files than their bytes.
  "cli/hook.ts",
  "agents/claude.ts",
  "questions/messages.ts",
  "hook/surface_context.ts",
  "file_facts/resolve.ts",
  "config/trust_rules.ts",
  "config/trust_store.ts",
  // Nearly every first-touch denial reads the change profile right after the
  // file gate's other rules: one module round instead of two.
  "change/profile.ts",
  // Every file call resolves its targets first: a round of its own cost a
  // file call about 1 ms for 3 KiB that a shell call now reads too.
  "hook/file_targets.ts",
]);

/**
 * The subcommands a person types, each bundled whole into a file of its own
 * (module path under `src/` → file in the bundle folder). Bundled with the
 * hook they would share chunks with it, and every module a subcommand shares
 * with the hook would become a chunk boundary the hook pays for.
 */
export const SEPARATE_ENTRIES: Readonly<Record<string, string>> = {
  "cli/report.ts": "report.js",
  "cli/init.ts": "init.js",
  "cli/doctor.ts": "doctor.js",
  "cli/explain.ts": "explain.js",
  "cli/trust.ts": "trust.js",
};

/** Normalises `dir/../x/./y.ts` to `x/y.ts`. */
function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
}

/**
 * Rewrites the run-time URL imports of the source file at `rel` (relative
 * to `src/`) for the bundler: a split point's as a literal `import()`, any
 * other's as a static import of the module handed over as a resolved promise.
 */
export function literalImports(source: string, rel: string): string {
  const dir = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
  const eager: string[] = [];
  const body = source.replace(RUNTIME_URL_IMPORT, (_match, quoted: string) => {
    const target = normalise(`${dir}/${JSON.parse(quoted)}`);
    const separate = SEPARATE_ENTRIES[target];
    if (separate !== undefined) return `import(new URL("./${separate}", import.meta.url).href)`;
    if (!LOADED_WITH_IMPORTER.has(target)) return `import(${quoted})`;
    const name = `__eager${eager.length}`;
    eager.push(`import * as ${name} from ${quoted};`);
    return `Promise.resolve(${name})`;
  });
  return eager.length === 0 ? body : `${eager.join("\n")}\n${body}`;
}

/** Rewrites the bundler's literal chunk imports in the run-time URL form `deno run` skips. */
export function runtimeChunkImports(chunk: string): string {
  return chunk.replace(LITERAL_CHUNK_IMPORT, 'import(new URL("$1",import.meta.url).href)');
}

/** True when the bundle under `repoRoot` was built from the sources there now. */
export async function bundleIsCurrent(repoRoot: string): Promise<boolean> {
  return await bundleState(repoRoot) === "current";
}

/** Copies `src/` into `stage` with literal lazy imports, and the run config (no packages) as its deno.json. */
async function stageSources(repoRoot: string, stage: string): Promise<void> {
  for (const rel of await filesUnder(`${repoRoot}/src`)) {
    const target = `${stage}/src/${rel}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    const text = await Deno.readTextFile(`${repoRoot}/src/${rel}`);
    const staged = rel.endsWith(".ts") ? literalImports(text, rel) : text;
    if (LEFT_SOURCE_URL.test(staged)) {
      throw new Error(`src/${rel} builds a module URL the bundle cannot follow`);
    }
    await Deno.writeTextFile(target, staged);
  }
  await Deno.copyFile(`${repoRoot}/${RUN_CONFIG}`, `${stage}/deno.json`);
}

/**
 * The environment `deno bundle` runs with: the checkout's own `HOME` and
 * Deno cache, as the registered command's (`sourceEnv`). The bundler it
 * fetches and runs writes the code every hook call runs, so it must come
 * from a cache inside the checkout, which self-protection guards, and never
 * from the invoker's (`~/Library/Caches/deno` on macOS, any `DENO_DIR`).
 */
export function bundlerEnv(repoRoot: string): Record<string, string> {
  return Object.fromEntries(sourceEnv(repoRoot).filter(([name]) => name !== HOME_VARIABLE));
}

/** Runs `deno bundle` with `args` (after the shared ones); throws with Deno's message. */
async function runBundler(repoRoot: string, stage: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--config", `${stage}/deno.json`, "--platform", "deno", ...args],
    env: bundlerEnv(repoRoot),
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno bundle failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
}

/**
 * Bundles the staged sources into `outDir`: the hook's entry split into
 * chunks at the split points, each separate entry as one file.
 */
async function bundleInto(repoRoot: string, stage: string, outDir: string): Promise<void> {
  await runBundler(repoRoot, stage, [
    "--code-splitting",
    "--minify",
    "--outdir",
    outDir,
    `${stage}/src/main.ts`,
  ]);
  for (const [module, file] of Object.entries(SEPARATE_ENTRIES)) {
    // A tree without the subcommand (a test's, say) has nothing to bundle for it.
    if ((await Deno.stat(`${stage}/src/${module}`).catch(() => null)) === null) continue;
    await runBundler(repoRoot, stage, [
      "--minify",
      "--output",
      `${outDir}/${file}`,
      `${stage}/src/${module}`,
    ]);
  }
}

/** The entry file of the hook's bundle. */
const ENTRY_FILE = "main.js";

/** The bundle's scripts directly in `outDir` that `keep` accepts, by file name, with their text. */
async function scriptsIn(
  outDir: string,
  keep: (file: string) => boolean = () => true,
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const rel of await filesUnder(outDir)) {
    if (rel.endsWith(".js") && !rel.includes("/") && keep(rel)) {
      files.set(rel, await Deno.readTextFile(`${outDir}/${rel}`));
    }
  }
  return files;
}

/**
 * Folds the chunks the entry in `outDir` loads at start-up into `core.js`
 * (`bundle_merge.ts`), bundling them once more from an entry staged in
 * `outDir` beside them.
 */
async function foldStartupChunks(repoRoot: string, stage: string, outDir: string): Promise<void> {
  const files = await scriptsIn(outDir);
  const folded = startupChunks(files, ENTRY_FILE);
  if (folded.length < 2) return;
  const entry = `${outDir}/core-entry.js`;
  await Deno.writeTextFile(entry, coreEntry(files, folded));
  await runBundler(repoRoot, stage, ["--minify", "--output", `${stage}/${CORE_FILE}`, entry]);
  await Deno.remove(entry);
  for (const file of folded) {
    await Deno.remove(`${outDir}/${file}`);
    files.delete(file);
  }
  for (const [file, text] of files) {
    const pointed = pointAtCore(text, folded);
    if (pointed !== text) await Deno.writeTextFile(`${outDir}/${file}`, pointed);
  }
  await Deno.rename(`${stage}/${CORE_FILE}`, `${outDir}/${CORE_FILE}`);
}

/** Rewrites the hook's files in `outDir` (not the subcommands') for eager compilation. */
async function compileEagerly(outDir: string): Promise<void> {
  const separate = new Set(Object.values(SEPARATE_ENTRIES));
  const files = await scriptsIn(outDir, (file) => !separate.has(file));
  for (const [file, code] of eagerBundle(files)) {
    await Deno.writeTextFile(`${outDir}/${file}`, code);
  }
}

/**
 * Builds the bundle of the checkout at `repoRoot` into its `.cache/bundle/`
 * unless the one there is current (or `force`). The new bundle is written
 * beside the old one and swapped in by renames, so a hook starting meanwhile
 * runs one bundle or the other, never a mix. Returns whether it built.
 */
export async function buildBundle(repoRoot: string, force = false): Promise<boolean> {
  if (!force && await bundleIsCurrent(repoRoot)) return false;
  const target = `${repoRoot}/${BUNDLE_DIR}`;
  const parent = target.slice(0, target.lastIndexOf("/"));
  await Deno.mkdir(parent, { recursive: true });
  const lock = `${target}.lock`;
  await takeLock(lock);
  try {
    // Another build may have finished while this one waited; the digest
    // taken here is the one the new bundle records.
    const digest = await sourceDigest(repoRoot);
    if (!force && await bundleState(repoRoot, digest) === "current") return false;
    await build(repoRoot, target, parent, digest);
  } finally {
    await Deno.remove(lock).catch(() => {});
  }
  return true;
}

/** How long a build may hold its lock before another takes it over, in ms. */
const LOCK_STALE_MS = 120_000;

/** Creates `path` exclusively, waiting while another build holds it. */
async function takeLock(path: string): Promise<void> {
  while (true) {
    try {
      (await Deno.open(path, { write: true, createNew: true })).close();
      return;
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    }
    const since = (await Deno.stat(path).catch(() => null))?.mtime?.getTime();
    if (since !== undefined && Date.now() - since > LOCK_STALE_MS) {
      await Deno.remove(path).catch(() => {});
    } else await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Builds the sources whose digest is `digest` into a folder beside `target`, then swaps it in. */
async function build(
  repoRoot: string,
  target: string,
  parent: string,
  digest: string,
): Promise<void> {
  const stage = await Deno.makeTempDir({ dir: parent, prefix: "bundle-stage-" });
  try {
    await stageSources(repoRoot, stage);
    const fresh = `${stage}/out`;
    await bundleInto(repoRoot, stage, fresh);
    for (const rel of await filesUnder(fresh)) {
      const path = `${fresh}/${rel}`;
      const chunk = runtimeChunkImports(await Deno.readTextFile(path));
      if (/import\("\.\//.test(chunk)) throw new Error(`${rel} keeps a literal import`);
      await Deno.writeTextFile(path, chunk);
    }
    await foldStartupChunks(repoRoot, stage, fresh);
    await compileEagerly(fresh);
    await Deno.writeTextFile(`${fresh}/${DIGEST_FILE}`, `${digest}\n`);
    const old = `${stage}/old`;
    await Deno.rename(target, old).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });
    await Deno.rename(fresh, target);
  } finally {
    await Deno.remove(stage, { recursive: true });
  }
}

if (import.meta.main) {
  const root = pathOfFileUrl(new URL("..", import.meta.url), Deno.build.os === "windows")
    .replace(/\/$/, "");
  const built = await buildBundle(root, Deno.args.includes("--force"));
  if (!Deno.args.includes("--quiet")) {
    console.log(built ? `built ${BUNDLE_DIR}` : `${BUNDLE_DIR} is current`);
  }
}
