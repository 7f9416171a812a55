/**
 * Whole-process latency benchmark of the hook, reported as ratios to a Deno
 * hello-world started with the same flags in the same run (absolute times
 * on a shared 2-core machine mean little), plus a few in-process costs.
 *
 * Usage: deno task bench [--runs N] [--hostile-runs N] [--only CLASS[,CLASS]]
 *        [--reference DIR] [--json]
 *
 * Each call class also reports how many source modules its process read and
 * evaluated (from Deno's debug log of one run, see module_census.ts).
 *
 * `--reference DIR` times a reference hook in Node on the same payloads,
 * paired with ours run by run: DIR holds `run_hook.js`, a wrapper that feeds
 * stdin to the reference hook's `run()` and prints its answer. The ratio
 * reported is ours over the reference (below 1 means ours is faster).
 *
 * `--only` times just the named slow-input classes (beside the plain
 * first-touch denial they are measured against) and skips the rest.
 *
 * @module
 */

import {
  BUNDLE_DIR,
  RUN_CONFIG,
  runtimeFlags,
  sourceArgv,
  sourceTreeArgv,
} from "../src/platform/permissions.ts";
import { buildBundle } from "./bundle.ts";
import { moduleCensus } from "./module_census.ts";
import { assistant, filler, jsonl, prompt, result } from "../tests/session_logs/builder.ts";

const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/** One whole-process scenario: a payload (fresh per run when a function) and env. */
interface Scenario {
  name: string;
  payload: (run: number) => string;
  env: Record<string, string>;
  /** Runs once before timing (e.g. to mark a file checked). */
  prime?: boolean;
  /** Also timed against the reference hook when `--reference` is given. */
  paired?: boolean;
}

/** What one call of a class loads: source modules (run from `src/`) and bundle chunks. */
interface ModuleCount {
  read: number;
  evaluated: number;
  chunks: number;
  chunkBytes: number;
}

/** The first `node` on PATH, for the reference hook. */
function nodePath(): string {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (Deno.statSync(`${dir}/node`).isFile) return `${dir}/node`;
    } catch {
      // not in this directory
    }
  }
  throw new Error("--reference needs node on PATH");
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Runs one hook process; returns its wall time and stdout. */
async function spawnHook(
  argv: string[],
  stdin: string,
  env: Record<string, string>,
): Promise<{ ms: number; stdout: string }> {
  // Encoded before the clock starts: a 66 MB payload takes a while to encode,
  // and that is the bench's work, not the hook's.
  const bytes = new TextEncoder().encode(stdin);
  const start = performance.now();
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    env,
    clearEnv: true,
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(bytes);
  await w.close();
  const out = await child.output();
  return { ms: performance.now() - start, stdout: new TextDecoder().decode(out.stdout).trim() };
}

async function timeOnce(
  argv: string[],
  stdin: string,
  env: Record<string, string>,
): Promise<number> {
  return (await spawnHook(argv, stdin, env)).ms;
}

async function outcomeOf(
  argv: string[],
  stdin: string,
  env: Record<string, string>,
): Promise<string> {
  const { stdout } = await spawnHook(argv, stdin, env);
  if (stdout === "") return "pass";
  const o = JSON.parse(stdout).hookSpecificOutput;
  return o.permissionDecision === "deny" ? "deny" : "note";
}

function edit(project: string, session: string, file: string): string {
  return JSON.stringify({
    session_id: session,
    cwd: project,
    hook_event_name: "PreToolUse",
    tool_name: "Edit",
    tool_input: { file_path: `${project}/${file}`, old_string: "x = 1", new_string: "x = 2" },
  });
}

function bash(project: string, session: string, command: string): string {
  return JSON.stringify({
    session_id: session,
    cwd: project,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
  });
}

/**
 * A transcript of about `bytes` bytes whose current turn holds a grep for
 * widget, its records placed in `project` as Claude Code places them: a
 * record's `cwd` is where the search ran, so any other directory would make
 * the credit classes time a denial instead of a credit.
 */
export function transcript(bytes: number, project: string): string {
  const records = [
    prompt("edit widget", "p-1"),
    ...assistant("m1", [{ id: "t1", name: "Bash", input: { command: "grep -rn widget src" } }]),
    result("t1", "p-1"),
    ...assistant("m2", [{ id: "t2", name: "Edit", input: {} }]),
  ].map((record) => ({ ...record, cwd: project }));
  const turn = jsonl(...records);
  const fillers = Math.max(0, Math.floor((bytes - turn.length) / 4001));
  return jsonl(...Array.from({ length: fillers }, () => filler("attachment", 4000))) + turn;
}

/** The value after `flag` on the command line, or null. */
function argValue(flag: string): string | null {
  const at = Deno.args.indexOf(flag);
  return at < 0 ? null : Deno.args[at + 1] ?? null;
}

/** Times only the named slow-input classes and prints them. */
async function benchOnly(names: string[], hostileRuns: number, asJson: boolean): Promise<void> {
  const cli = sourceArgv(Deno.execPath(), REPO);
  const { measureHostile } = await import("./bench_hostile.ts");
  const hostile = await measureHostile(
    (stdin, env) => spawnHook(cli, stdin, env),
    hostileRuns,
    names,
  );
  if (asJson) console.log(JSON.stringify({ hostile }, null, 2));
  else printHostile(hostile, hostileRuns);
}

function printHostile(
  hostile: { name: string; ms: number; ratio: number; outcome: string }[],
  hostileRuns: number,
): void {
  console.log(
    `slow-input classes, median of ${hostileRuns} runs, as a ratio to a plain first-touch denial:`,
  );
  for (const row of hostile) {
    console.log(
      `  ${row.name.padEnd(28)} ${row.ratio.toFixed(2)}x  ${
        row.ms.toFixed(0).padStart(6)
      } ms  (${row.outcome})`,
    );
  }
}

const only = argValue("--only");
if (import.meta.main && only !== null) {
  await benchOnly(
    only.split(","),
    Number(argValue("--hostile-runs")) || 3,
    Deno.args.includes("--json"),
  );
} else if (import.meta.main) {
  await buildBundle(REPO);
  const runs = Number(argValue("--runs")) || 15;
  const asJson = Deno.args.includes("--json");
  const tmp = await Deno.makeTempDir({ prefix: "gateguard-bench-" });
  const project = `${tmp}/project`;
  await Deno.mkdir(`${project}/src`, { recursive: true });
  await Deno.writeTextFile(`${project}/src/app.py`, "x = 1\n");
  await Deno.writeTextFile(`${project}/src/widget.py`, "x = 1\n");
  const configured = `${tmp}/configured`;
  await Deno.mkdir(`${configured}/src`, { recursive: true });
  await Deno.writeTextFile(`${configured}/src/app.py`, "x = 1\n");
  await Deno.copyFile(`${REPO}/tests/fixtures/gateguard.jsonc`, `${configured}/.gateguard.jsonc`);
  const small = `${tmp}/small.jsonl`;
  const large = `${tmp}/large.jsonl`;
  await Deno.writeTextFile(small, transcript(100 * 1024, project));
  {
    const chunk = transcript(1024 * 1024, project);
    const f = await Deno.open(large, { write: true, create: true });
    // 100 MB: 99 chunks of old turns, then one chunk ending in the current turn.
    for (let i = 0; i < 100; i++) await f.write(new TextEncoder().encode(chunk));
    f.close();
  }
  const hello = `${tmp}/hello.ts`;
  await Deno.writeTextFile(hello, 'console.log("hello");\n');
  const base = { GATEGUARD_STATE_DIR: `${tmp}/state`, CLAUDE_PROJECT_DIR: project, HOME: tmp };
  const cli = sourceArgv(Deno.execPath(), REPO);
  const helloArgv = [Deno.execPath(), "run", ...runtimeFlags(`${REPO}/${RUN_CONFIG}`), hello];

  const credit = (path: string) => (run: number) =>
    JSON.stringify({
      ...JSON.parse(
        edit(
          project,
          `credit-${path.endsWith("large.jsonl") ? "large" : "small"}-${run}`,
          "src/widget.py",
        ),
      ),
      transcript_path: path,
      prompt_id: "p-1",
      tool_use_id: "t2",
    });
  const scenarios: Scenario[] = [
    {
      name: "edit-first-touch-deny",
      payload: (r) => edit(project, `deny-${r}`, "src/app.py"),
      env: base,
      paired: true,
    },
    {
      name: "edit-retry-pass",
      payload: () => edit(project, "retry", "src/app.py"),
      env: base,
      prime: true,
      paired: true,
    },
    {
      name: "bash-routine-ls",
      payload: (r) => bash(project, `ls-${r}`, "ls"),
      env: base,
      paired: true,
    },
    {
      name: "bash-destructive-deny",
      payload: (r) => bash(project, `rm-${r}`, "rm -rf build"),
      env: base,
      paired: true,
    },
    {
      name: "edit-deny-metrics-on",
      payload: (r) => edit(project, `metrics-${r}`, "src/app.py"),
      env: { ...base, GATEGUARD_METRICS: "1" },
    },
    {
      name: "edit-deny-project-config",
      payload: (r) => edit(configured, `cfg-${r}`, "src/app.py"),
      env: { ...base, CLAUDE_PROJECT_DIR: configured },
    },
    { name: "credit-100kb-transcript", payload: credit(small), env: base },
    { name: "credit-100mb-transcript", payload: credit(large), env: base },
  ];
  const referenceDir = argValue("--reference");
  const reference = referenceDir === null ? null : [nodePath(), `${referenceDir}/run_hook.js`];
  // The reference keeps its own state, so neither hook reads the other's files.
  const refEnv = (env: Record<string, string>) => ({
    ...env,
    GATEGUARD_STATE_DIR: `${tmp}/reference-state`,
  });
  const paired = scenarios.filter((s) => s.paired);
  for (const s of scenarios) if (s.prime) await timeOnce(cli, s.payload(0), s.env);
  if (reference) {
    for (const s of paired) if (s.prime) await timeOnce(reference, s.payload(0), refEnv(s.env));
  }
  const srcHref = new URL("../src/", import.meta.url).href;
  const bundleHref = new URL(`../${BUNDLE_DIR}/`, import.meta.url).href;
  const tree = sourceTreeArgv(Deno.execPath(), REPO);
  const modules: Record<string, ModuleCount> = {};
  for (const s of scenarios) {
    const census = await moduleCensus(tree, s.payload(-3), s.env, srcHref);
    const chunks = await moduleCensus(cli, s.payload(-2), s.env, bundleHref);
    let bytes = 0;
    for (const chunk of chunks.read) {
      bytes += (await Deno.stat(`${REPO}/${BUNDLE_DIR}/${chunk}`)).size;
    }
    modules[s.name] = {
      read: census.read.length,
      evaluated: census.evaluated.length,
      chunks: chunks.read.length,
      chunkBytes: bytes,
    };
  }
  // What each scenario actually decides, so a ratio never hides a wrong path.
  const outcomes: Record<string, string> = {};
  for (const s of scenarios) outcomes[s.name] = await outcomeOf(cli, s.payload(-1), s.env);
  for (const name of ["credit-100kb-transcript", "credit-100mb-transcript"]) {
    // A credit class that does not earn credit measures a near-miss denial instead.
    if (outcomes[name] !== "note") {
      throw new Error(`${name} decides "${outcomes[name]}", not a credit note`);
    }
  }
  const refOutcomes: Record<string, string> = {};
  if (reference) {
    for (const s of paired) {
      refOutcomes[s.name] = await outcomeOf(reference, s.payload(-1), refEnv(s.env));
    }
  }
  const times: Record<string, number[]> = { hello: [] };
  for (const s of scenarios) times[s.name] = [];
  /** Per paired run, our time over the reference's. */
  const versus: Record<string, number[]> = {};
  for (const s of paired) versus[s.name] = [];
  // Interleaved, so machine noise hits every scenario alike.
  await timeOnce(helloArgv, "", base);
  for (let r = 0; r < runs; r++) {
    times.hello.push(await timeOnce(helloArgv, "", base));
    for (const s of scenarios) {
      const ours = await timeOnce(cli, s.payload(r + 1), s.env);
      times[s.name].push(ours);
      if (reference && s.paired) {
        const theirs = await timeOnce(reference, s.payload(r + 1), refEnv(s.env));
        versus[s.name].push(ours / theirs);
      }
    }
  }
  const vsReference: Record<string, number> = {};
  if (reference) { for (const s of paired) vsReference[s.name] = median(versus[s.name]); }
  const helloMs = median(times.hello);
  const ratios: Record<string, number> = {};
  for (const s of scenarios) ratios[s.name] = median(times[s.name]) / helloMs;
  ratios["credit-100mb/100kb"] = median(times["credit-100mb-transcript"]) /
    median(times["credit-100kb-transcript"]);
  ratios["project-config/none"] = median(times["edit-deny-project-config"]) /
    median(times["edit-first-touch-deny"]);
  ratios["metrics-on/off"] = median(times["edit-deny-metrics-on"]) /
    median(times["edit-first-touch-deny"]);

  const hostileRuns = Number(argValue("--hostile-runs")) || 3;
  const hostile = await import("./bench_hostile.ts").then((m) =>
    m.measureHostile((stdin, env) => spawnHook(cli, stdin, env), hostileRuns)
  );
  const inProcess = await import("./bench_inprocess.ts").then((m) => m.measureInProcess());
  await Deno.remove(tmp, { recursive: true });
  if (asJson) {
    console.log(
      JSON.stringify(
        { runs, ratios, outcomes, modules, vsReference, refOutcomes, hostile, inProcess },
        null,
        2,
      ),
    );
  } else {
    console.log(
      `whole-process latency, median of ${runs} interleaved runs, as a ratio to hello-world:`,
    );
    for (const [k, v] of Object.entries(ratios)) {
      const outcome = outcomes[k] ? `  (${outcomes[k]})` : "";
      const m = modules[k]
        ? `  ${modules[k].read} modules (${modules[k].evaluated} run); bundle: ${
          modules[k].chunks
        } chunks, ${(modules[k].chunkBytes / 1024).toFixed(0)} KiB`
        : "";
      console.log(`  ${k.padEnd(28)} ${v.toFixed(2)}x${outcome}${m}`);
    }
    if (reference) {
      console.log(
        `against the reference (${referenceDir}), median of ${runs} paired runs, ours / theirs:`,
      );
      for (const [k, v] of Object.entries(vsReference)) {
        console.log(
          `  ${k.padEnd(28)} ${v.toFixed(2)}x  (ours ${outcomes[k]}, theirs ${refOutcomes[k]})`,
        );
      }
    }
    printHostile(hostile, hostileRuns);
    console.log("in-process costs:");
    for (const [k, v] of Object.entries(inProcess)) console.log(`  ${k.padEnd(28)} ${v}`);
  }
}
