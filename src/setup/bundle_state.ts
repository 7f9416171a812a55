/**
 * Whether a source checkout's bundle (the file a from-source registration
 * runs, built by scripts/bundle.ts) was built from the sources the checkout
 * holds now. A `git pull` without a rebuild leaves the hook running the
 * code of before, so `doctor` says so; the build itself skips a bundle that
 * is current.
 *
 * @module
 */

import { BUNDLE_DIR, BUNDLE_ENTRY, RUN_CONFIG } from "../platform/permissions.ts";
import { sha256BytesHex } from "../platform/sha256.ts";

/** The file beside the bundle naming the digest of the sources it was built from. */
export const DIGEST_FILE = "SOURCES.sha256";

/**
 * The build recipe, relative to the checkout: the build script and the
 * passes it runs over the bundler's output. A change to any of them makes a
 * new bundle too.
 */
export const RECIPE: readonly string[] = [
  "scripts/bundle.ts",
  "scripts/bundle_merge.ts",
  "scripts/bundle_eager.ts",
];

/** Every file under `dir` (recursively), as paths relative to it, sorted. */
export async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(prefix === "" ? dir : `${dir}/${prefix}`)) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory) out.push(...await filesUnder(dir, rel));
    else if (entry.isFile) out.push(rel);
  }
  return out.sort();
}

/** The bytes of `path`, or none when it cannot be read (a tree without the recipe). */
async function bytesOf(path: string): Promise<Uint8Array> {
  return await Deno.readFile(path).catch(() => new Uint8Array());
}

/**
 * The digest of what a bundle is built from: every file under `src/` (name
 * and content), deno.json, the run config and the files of the build recipe.
 */
export async function sourceDigest(checkout: string): Promise<string> {
  const parts: string[] = [];
  for (const rel of await filesUnder(`${checkout}/src`)) {
    parts.push(`src/${rel}`, await sha256BytesHex(await Deno.readFile(`${checkout}/src/${rel}`)));
  }
  for (const config of ["deno.json", RUN_CONFIG]) {
    parts.push(config, await sha256BytesHex(await Deno.readFile(`${checkout}/${config}`)));
  }
  for (const file of RECIPE) {
    parts.push(file, await sha256BytesHex(await bytesOf(`${checkout}/${file}`)));
  }
  return await sha256BytesHex(new TextEncoder().encode(parts.join("\n")));
}

/** What the checkout's bundle is, next to its sources. */
export type BundleState = "current" | "stale" | "missing";

/**
 * Whether the bundle of the checkout at `checkout` is there and built from
 * the sources whose digest is `digest` (by default, the ones there now).
 */
export async function bundleState(
  checkout: string,
  digest?: string,
): Promise<BundleState> {
  const entry = await Deno.stat(`${checkout}/${BUNDLE_ENTRY}`).catch(() => null);
  if (entry === null || !entry.isFile) return "missing";
  const recorded = await Deno.readTextFile(`${checkout}/${BUNDLE_DIR}/${DIGEST_FILE}`)
    .catch(() => "");
  return recorded.trim() === (digest ?? await sourceDigest(checkout)) ? "current" : "stale";
}
