/**
 * The release build: targets, arguments, checksums, and the smoke test the
 * release workflow runs on each binary.
 */

import { assertEquals, assertThrows } from "../helpers/assert.ts";
import { compileArgs, parseCompileArgs, sha256Sums, TARGETS } from "../../scripts/compile.ts";
import { smoke } from "../../scripts/smoke.ts";
import { CLI_ARGV } from "../helpers/cli.ts";

Deno.test("[release] every Deno target is built: Linux, macOS and Windows on x64 and arm64", () => {
  assertEquals(TARGETS.map((t) => t.triple).sort(), [
    "aarch64-apple-darwin",
    "aarch64-pc-windows-msvc",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "x86_64-pc-windows-msvc",
    "x86_64-unknown-linux-gnu",
  ]);
  for (const t of TARGETS) {
    const args = compileArgs(t.triple, "out");
    assertEquals(args.at(-1), "src/main.ts");
    assertEquals(args[args.indexOf("--output") + 1], `out/${t.asset}`);
    assertEquals(t.asset.endsWith(".exe"), t.triple.includes("windows"));
  }
});

Deno.test("[release] compile arguments are validated", () => {
  assertEquals(parseCompileArgs([]).triples.length, 6);
  assertEquals(parseCompileArgs(["--target", "x86_64-unknown-linux-gnu", "--out", "d"]), {
    triples: ["x86_64-unknown-linux-gnu"],
    outDir: "d",
  });
  assertThrows(() => parseCompileArgs(["--target", "sparc-sun-solaris"]));
  assertThrows(() => parseCompileArgs(["--out"]));
  assertThrows(() => parseCompileArgs(["--bogus"]));
  assertThrows(() => compileArgs("nope", "d"));
});

Deno.test("[release] SHA256SUMS lines are `<hex>  <name>`", async () => {
  const text = await sha256Sums([["a", new TextEncoder().encode("abc")]]);
  assertEquals(text, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a\n");
});

Deno.test("[release] the smoke test passes on the source CLI", async () => {
  assertEquals(await smoke(CLI_ARGV), []);
});

Deno.test("[release] the smoke test fails on a program that is not GateGuard", async () => {
  const failures = await smoke(["true"]);
  assertEquals(failures.length, 2);
});
