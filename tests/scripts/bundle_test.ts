/**
 * The bundle a from-source registration runs: how the sources' lazy imports
 * are rewritten for the bundler and back, when a bundle counts as current,
 * and that the bundle decides every call class as the source tree does.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { REPO_ROOT, runCli } from "../helpers/cli.ts";
import { tempDir } from "../helpers/temp.ts";
import { tempCheckout } from "../helpers/checkout.ts";
import {
  buildBundle,
  bundleIsCurrent,
  bundlerEnv,
  literalImports,
  LOADED_WITH_IMPORTER,
  runtimeChunkImports,
  SEPARATE_ENTRIES,
} from "../../scripts/bundle.ts";
import { sourceTreeArgv } from "../../src/platform/permissions.ts";
import { RECIPE } from "../../src/setup/bundle_state.ts";

/** A checkout of its own whose `src/` holds `sources`. */
function checkout(sources: Record<string, string>): Promise<string> {
  return tempCheckout(
    Object.fromEntries(Object.entries(sources).map(([rel, text]) => [`src/${rel}`, text])),
  );
}

const lazy = (path: string) =>
  `const m = await (import(new URL("${path}", import.meta.url).href) as Promise<typeof import("${path}")>);`;

Deno.test("[lazy-loading] a lazy import stays a literal import for the bundler to split at", () => {
  assert(!LOADED_WITH_IMPORTER.has("hook/shell_gate.ts"));
  assertEquals(
    literalImports(lazy("./shell_gate.ts"), "hook/decide.ts"),
    'const m = await (import("./shell_gate.ts") as Promise<typeof import("./shell_gate.ts")>);',
  );
});

Deno.test("[lazy-loading] a small module listed as loaded with its importer is imported statically in the bundle", () => {
  assert(LOADED_WITH_IMPORTER.has("hook/escalate.ts"));
  assertEquals(
    literalImports(lazy("./escalate.ts"), "hook/shell_gate.ts"),
    'import * as __eager0 from "./escalate.ts";\n' +
      'const m = await (Promise.resolve(__eager0) as Promise<typeof import("./escalate.ts")>);',
  );
});

Deno.test("[lazy-loading] a subcommand a person types is a bundle file of its own, found beside the chunk", () => {
  assertEquals(SEPARATE_ENTRIES["cli/report.ts"], "report.js");
  assertEquals(
    literalImports(lazy("./cli/report.ts"), "main.ts"),
    'const m = await (import(new URL("./report.js", import.meta.url).href) as Promise<typeof import("./cli/report.ts")>);',
  );
  // Paths are resolved from the importing module before the tables are asked.
  assertEquals(
    literalImports(lazy("../cli/report.ts"), "hook/x.ts"),
    'const m = await (import(new URL("./report.js", import.meta.url).href) as Promise<typeof import("../cli/report.ts")>);',
  );
});

Deno.test("[lazy-loading] the bundler's chunk imports go back to the run-time form deno run does not follow", () => {
  assertEquals(
    runtimeChunkImports('a=import("./chunk-AB12.js");b=import("./x.js")'),
    'a=import(new URL("./chunk-AB12.js",import.meta.url).href);' +
      'b=import(new URL("./x.js",import.meta.url).href)',
  );
  // Static imports between chunks are left as they are: the call needs them.
  assertEquals(
    runtimeChunkImports('import{a}from"./chunk-AB12.js";'),
    'import{a}from"./chunk-AB12.js";',
  );
});

Deno.test("[lazy-loading] a bundle is current only while the sources it was built from are unchanged", async () => {
  const root = await checkout({
    "main.ts":
      'const m = await (import(new URL("./lazy.ts", import.meta.url).href) as Promise<typeof import("./lazy.ts")>);\nconsole.log(m.word);\n',
    "lazy.ts": 'export const word = "one";\n',
  });
  assertEquals(await bundleIsCurrent(root), false);
  assertEquals(await buildBundle(root), true);
  assertEquals(await bundleIsCurrent(root), true);
  assertEquals(await buildBundle(root), false, "a current bundle is not built again");
  await Deno.writeTextFile(`${root}/src/lazy.ts`, 'export const word = "two";\n');
  assertEquals(await bundleIsCurrent(root), false);
  assertEquals(await buildBundle(root), true);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-config", "--allow-read", `${root}/.cache/bundle/main.js`],
    stdout: "piped",
  }).output();
  assertEquals(new TextDecoder().decode(out.stdout), "two\n");
  // Each pass of the recipe counts, not only the script that runs it.
  for (const file of RECIPE) {
    assertEquals(await bundleIsCurrent(root), true, file);
    await Deno.mkdir(`${root}/scripts`, { recursive: true });
    await Deno.writeTextFile(`${root}/${file}`, `// ${file} changed\n`);
    assertEquals(await bundleIsCurrent(root), false, file);
    await Deno.remove(`${root}/${file}`);
  }
  // No staging folder or lock is left behind (`deno` is the linked cache).
  const left = [...Deno.readDirSync(`${root}/.cache`)].map((e) => e.name).sort();
  assertEquals(left, ["bundle", "deno"]);
});

Deno.test("[lazy-loading] the bundle decides each call class as the source tree does", async () => {
  const home = await tempDir({ prefix: "gg-bundle-same-" });
  const project = `${home}/project`;
  await Deno.mkdir(`${project}/src`, { recursive: true });
  await Deno.writeTextFile(`${project}/src/app.py`, "def run():\n    return 1\n");
  const calls: [string, Record<string, unknown>][] = [
    ["Edit", { file_path: `${project}/src/app.py`, old_string: "1", new_string: "2" }],
    ["Write", { file_path: `${project}/.claude/settings.json`, content: "{}" }],
    ["Bash", { command: "ls" }],
    ["Bash", { command: "rm -rf build" }],
    ["Bash", { command: "sed -i d .claude/settings.json" }],
    ["PowerShell", { command: "Remove-Item -Recurse build" }],
  ];
  const tree = sourceTreeArgv(Deno.execPath(), REPO_ROOT);
  for (const [i, [tool, input]] of calls.entries()) {
    const payload = JSON.stringify({
      session_id: `same-${i}`,
      cwd: project,
      hook_event_name: "PreToolUse",
      tool_name: tool,
      tool_input: input,
    });
    const env = { HOME: home, CLAUDE_PROJECT_DIR: project };
    const bundled = await runCli([], {
      stdin: payload,
      env: { ...env, GATEGUARD_STATE_DIR: `${home}/b` },
    });
    const fromTree = await runCli([], {
      stdin: payload,
      env: { ...env, GATEGUARD_STATE_DIR: `${home}/t` },
      argv: tree,
    });
    assertEquals(bundled.stdout, fromTree.stdout, `${tool} ${JSON.stringify(input)}`);
    assertEquals(bundled.code, fromTree.code);
  }
});

Deno.test("[lazy-loading] the bundle decides another agent's destructive retry, read against its log, as the source tree does", async () => {
  const home = await tempDir({ prefix: "gg-bundle-codex-" });
  const project = `${home}/project`;
  await Deno.mkdir(project, { recursive: true });
  const rollout = `${home}/.codex/sessions/rollout-s1.jsonl`;
  await Deno.mkdir(`${home}/.codex/sessions`, { recursive: true });
  await Deno.writeTextFile(rollout, "");
  const payload = (id: string) =>
    JSON.stringify({
      session_id: "s1",
      turn_id: "t1",
      transcript_path: rollout,
      cwd: project,
      hook_event_name: "PreToolUse",
      model: "gpt-5.5",
      permission_mode: "bypassPermissions",
      tool_use_id: id,
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
    });
  const tree = sourceTreeArgv(Deno.execPath(), REPO_ROOT);
  const answers: Record<string, string[]> = { bundle: [], tree: [] };
  for (const [form, argv] of [["bundle", undefined], ["tree", tree]] as const) {
    const env = { HOME: home, GATEGUARD_STATE_DIR: `${home}/state-${form}` };
    // The denial, then its retry: the retry reads the Codex rollout through its log reader.
    for (const id of ["call_1", "call_2"]) {
      const r = await runCli(["hook", "--agent", "codex"], { stdin: payload(id), env, argv });
      answers[form].push(`${r.code} ${r.stdout} ${r.stderr}`);
    }
  }
  assertEquals(answers.bundle, answers.tree);
  assert(!answers.bundle.join("").includes("internal error"), answers.bundle.join("\n"));
});

Deno.test("[lazy-loading] a lazy import written over several lines is rewritten like one on a line", () => {
  const source =
    'const m = await (import(\n  new URL("../x/y.ts", import.meta.url).href\n) as Promise<unknown>);';
  assertEquals(
    literalImports(source, "hook/z.ts"),
    'const m = await (import("../x/y.ts") as Promise<unknown>);',
  );
});

Deno.test("[lazy-loading] a source that builds a module URL the bundle cannot follow fails the build", async () => {
  // In the bundle this would resolve beside the chunk, where no source is.
  const root = await checkout({
    "main.ts": 'const where = new URL("./lazy.ts", import.meta.url).href;\nconsole.log(where);\n',
  });
  let message = "";
  try {
    await buildBundle(root);
  } catch (err) {
    message = (err as Error).message;
  }
  assertEquals(message, "src/main.ts builds a module URL the bundle cannot follow");
  assertEquals(await bundleIsCurrent(root), false);
});

Deno.test("[self-protection] the bundler runs from the checkout's own home and Deno cache, never the invoker's", () => {
  // What it fetches and runs writes the code every hook call runs; the
  // checkout's cache is in GateGuard's control surface, the invoker's may not be.
  assertEquals(bundlerEnv("/src/gg"), { HOME: "/src/gg", DENO_DIR: "/src/gg/.cache/deno" });
});
