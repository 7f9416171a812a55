/**
 * The binary's permissions: one permission set in the run config, used by
 * every launcher, with exactly the environment variables GateGuard reads.
 */

import { tempFile } from "../helpers/temp.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { ENV_VARIABLES } from "../../src/config/env.ts";
import {
  BUNDLE_ENTRY,
  RUN_CONFIG,
  runtimeFlags,
  sourceArgv,
  sourceEnv,
  sourceTreeArgv,
} from "../../src/platform/permissions.ts";
import { compileArgs } from "../../scripts/compile.ts";
import { VERSION } from "../../src/version.ts";
import { runCli } from "../helpers/cli.ts";

const config = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)));
const runConfig = JSON.parse(
  Deno.readTextFileSync(new URL(`../../${RUN_CONFIG}`, import.meta.url)),
);

Deno.test("[permissions] the permission set allows read, write and only the variables GateGuard reads", () => {
  const set = runConfig.permissions.gateguard;
  assertEquals([...set.env].sort(), [...ENV_VARIABLES].sort());
  assertEquals(
    {
      read: set.read,
      write: set.write,
      net: set.net,
      run: set.run,
      ffi: set.ffi,
      sys: set.sys,
      import: set.import,
    },
    // `sh` only, for doctor's probes; every other path gives it up first (src/main.ts).
    { read: true, write: true, net: false, run: ["sh"], ffi: false, sys: false, import: false },
  );
});

Deno.test("[permissions] the gateguard task, compile and source runs share the same flags", () => {
  // The task sets the same variables as a registered from-source command, relative to the checkout.
  const env = sourceEnv(".").map(([name, value]) =>
    value === "$HOME" ? `${name}="$HOME"` : `${name}=${value.replace(/^\.\//, "")}`
  );
  // It brings the bundle a registration runs up to date first.
  assertEquals(
    config.tasks.gateguard,
    `${config.tasks.bundle} --quiet && ` +
      [...env, "deno", "run", ...runtimeFlags(RUN_CONFIG), "src/main.ts"].join(" "),
  );
  const args = compileArgs("aarch64-apple-darwin", "dist", "stage");
  assertEquals(args, [
    "compile",
    ...runtimeFlags(`stage/${RUN_CONFIG}`),
    "--target",
    "aarch64-apple-darwin",
    "--output",
    "dist/gateguard-macos-arm64",
    "--include",
    "stage/src",
    "--no-code-cache",
    "stage/src/main.ts",
  ]);
  assertEquals(sourceArgv("deno", "/r").slice(2, -1), runtimeFlags(`/r/${RUN_CONFIG}`));
  assertEquals(sourceArgv("deno", "/r").at(-1), `/r/${BUNDLE_ENTRY}`);
  assertEquals(sourceTreeArgv("deno", "/r"), [
    ...sourceArgv("deno", "/r").slice(0, -1),
    "/r/src/main.ts",
  ]);
});

Deno.test("[self-protection] a run names a config Deno would not find by itself, holding only the permission set", () => {
  // Deno looks for a workspace in the folders above a folder's own deno.json
  // or deno.jsonc, and stops before any GateGuard code on a broken one there.
  assert(!["deno.json", "deno.jsonc"].includes(RUN_CONFIG));
  for (const argv of [sourceArgv("deno", "/r"), sourceTreeArgv("deno", "/r")]) {
    assertEquals(argv[argv.indexOf("--config") + 1], `/r/${RUN_CONFIG}`);
  }
  // Nothing that reaches outside the checkout: no workspace, import map or lockfile.
  assertEquals(Object.keys(runConfig).sort(), ["lock", "permissions"]);
  assertEquals(runConfig.lock, false);
  // The permission set is declared once.
  assertEquals(config.permissions, undefined);
});

Deno.test("[permissions] the version constant matches deno.json", () => {
  assertEquals(VERSION, config.version);
});

Deno.test("[permissions] the CLI cannot read variables outside the list, spawn processes or use the network", async () => {
  const probe = await tempFile({ suffix: ".ts" });
  await Deno.writeTextFile(
    probe,
    `const out = [];
try { Deno.env.get("SHELL"); out.push("env"); } catch { out.push("no-env"); }
try { await new Deno.Command("true").output(); out.push("run"); } catch { out.push("no-run"); }
try { await fetch("http://127.0.0.1:9"); out.push("net"); } catch (e) { out.push(e instanceof Deno.errors.NotCapable || String(e).includes("NotCapable") ? "no-net" : "net-error"); }
console.log(out.join(","));`,
  );
  const repo = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", ...runtimeFlags(`${repo}/${RUN_CONFIG}`), probe],
    stdout: "piped",
    stderr: "piped",
  });
  const ran = await cmd.output();
  await Deno.remove(probe);
  assertEquals(ran.code, 0, new TextDecoder().decode(ran.stderr));
  const out = new TextDecoder().decode(ran.stdout).trim();
  assertEquals(out.split(",").slice(0, 2), ["no-env", "no-run"]);
  assertEquals(out.split(",")[2] !== "net", true, out);
  // And the real CLI runs under them.
  assertEquals((await runCli(["--version"])).code, 0);
});

Deno.test("[permissions] every command but doctor gives up starting sh before it runs", async () => {
  const probe = await Deno.makeTempFile({ suffix: ".ts" });
  const main = new URL("../../src/main.ts", import.meta.url).href;
  await Deno.writeTextFile(
    probe,
    `const { run } = await import(${JSON.stringify(main)});
const sh = async () => { try { await new Deno.Command("sh", { args: ["-c", "true"] }).output(); return "run"; } catch { return "no-run"; } };
const before = await sh();
const code = await run(Deno.args);
console.log([before, code, await sh()].join(","));`,
  );
  const repo = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
  const answer = async (args: string[]): Promise<string> => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...runtimeFlags(`${repo}/${RUN_CONFIG}`), probe, ...args],
      stdout: "piped",
      stderr: "null",
      stdin: "null",
    }).output();
    return new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) ?? "";
  };
  try {
    assertEquals(await answer(["--version"]), "run,0,no-run");
    assertEquals(await answer(["report", "--help"]), "run,0,no-run");
    assertEquals(await answer(["doctor", "--help"]), "run,0,run");
  } finally {
    await Deno.remove(probe);
  }
});
