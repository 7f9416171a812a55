/**
 * Builds the release binaries with `deno compile`, one per target, with the
 * `gateguard` permission set of deno.json (the same set `deno task
 * gateguard` and the tests run under), and writes SHA256SUMS beside them.
 *
 * Usage: deno task compile [--target <triple>]... [--out dist]
 *
 * @module
 */

import { runtimeFlags } from "../src/platform/permissions.ts";

/** Every platform a release ships for: Deno target triple and asset name. */
export const TARGETS: readonly { triple: string; asset: string }[] = [
  { triple: "x86_64-unknown-linux-gnu", asset: "gateguard-linux-x64" },
  { triple: "aarch64-unknown-linux-gnu", asset: "gateguard-linux-arm64" },
  { triple: "x86_64-apple-darwin", asset: "gateguard-macos-x64" },
  { triple: "aarch64-apple-darwin", asset: "gateguard-macos-arm64" },
  { triple: "x86_64-pc-windows-msvc", asset: "gateguard-windows-x64.exe" },
  { triple: "aarch64-pc-windows-msvc", asset: "gateguard-windows-arm64.exe" },
];

/** The `deno compile` arguments that build one target into `outDir`. */
export function compileArgs(triple: string, outDir: string): string[] {
  const target = TARGETS.find((t) => t.triple === triple);
  if (!target) throw new Error(`unknown target ${triple}`);
  return [
    "compile",
    ...runtimeFlags("deno.json"),
    "--target",
    triple,
    "--output",
    `${outDir}/${target.asset}`,
    "src/main.ts",
  ];
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

/** Parses `--target T` (repeatable) and `--out DIR`. */
export function parseCompileArgs(args: string[]): { triples: string[]; outDir: string } {
  const triples: string[] = [];
  let outDir = "dist";
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = args[i + 1];
    if ((a === "--target" || a === "--out") && value === undefined) {
      throw new Error(`${a} needs a value`);
    }
    if (a === "--target") triples.push(args[++i]);
    else if (a === "--out") outDir = args[++i];
    else throw new Error(`unknown argument ${a}`);
  }
  for (const t of triples) {
    if (!TARGETS.some((x) => x.triple === t)) throw new Error(`unknown target ${t}`);
  }
  return { triples: triples.length > 0 ? triples : TARGETS.map((t) => t.triple), outDir };
}

if (import.meta.main) {
  const { triples, outDir } = parseCompileArgs(Deno.args);
  Deno.mkdirSync(outDir, { recursive: true });
  const built: [string, Uint8Array][] = [];
  for (const triple of triples) {
    const args = compileArgs(triple, outDir);
    console.error(`deno ${args.join(" ")}`);
    const { code } = await new Deno.Command(Deno.execPath(), { args }).spawn().status;
    if (code !== 0) Deno.exit(code);
    const asset = TARGETS.find((t) => t.triple === triple)!.asset;
    built.push([asset, Deno.readFileSync(`${outDir}/${asset}`)]);
  }
  Deno.writeTextFileSync(`${outDir}/SHA256SUMS`, await sha256Sums(built));
  console.error(`wrote ${built.length} binaries and ${outDir}/SHA256SUMS`);
}
