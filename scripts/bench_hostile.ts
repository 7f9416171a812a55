/**
 * The slow-input classes of the bounded-time work, timed as whole hook
 * processes and reported as ratios to a plain first-touch Edit denial in
 * the same run: the hostile search turn (a first touch 60 directories deep
 * after 999 crafted searches that repeat one search or share no pattern),
 * searches of 900 operands each run 1,300 directories deep, crafted
 * project globs against a
 * long path, a MultiEdit of millions of entries, huge and quadratic shell
 * commands, a deeply nested state file, and the lock faults. The inputs
 * come from `tests/helpers/hostile.ts`, the ones the tests count work on.
 *
 * @module
 */

import * as H from "../tests/helpers/hostile.ts";
import { trustProjectFile } from "../tests/helpers/trust.ts";

/** Runs one hook process with a payload; returns wall time and the decision. */
export type SpawnHook = (
  stdin: string,
  env: Record<string, string>,
) => Promise<{ ms: number; stdout: string }>;

/** One class's result: median wall time, its ratio to the plain denial, and what was decided. */
export interface HostileRow {
  name: string;
  ms: number;
  ratio: number;
  outcome: string;
}

/** A class: how to set it up once, and the payload of each run. */
interface HostileClass {
  name: string;
  setup?: (dir: string) => Promise<void> | void;
  payload: (dir: string, run: number) => unknown;
  /** Runs after each timed run (e.g. to put a fault back). */
  reset?: (dir: string) => void;
  /** Runs once after the class (e.g. to stop a helper process). */
  teardown?: (dir: string) => Promise<void>;
}

/** A process that rewrites the lock file every 15 ms, keeping it fresh. */
let toucher: Deno.ChildProcess | null = null;

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function decisionOf(stdout: string): string {
  if (stdout === "") return "pass";
  const o = JSON.parse(stdout).hookSpecificOutput;
  return o.permissionDecision === "deny" ? "deny" : "note";
}

const base = (dir: string, session: string) => ({
  session_id: session,
  cwd: `${dir}/proj`,
  hook_event_name: "PreToolUse",
});

const shell = (tool: string, command: string) => (dir: string, run: number) => ({
  ...base(dir, `${tool}-${command.length}-${run}`),
  tool_name: tool,
  tool_input: { command },
});

const firstTouch = (dir: string, session: string, file = "src/app.ts") => ({
  ...base(dir, session),
  tool_name: "Edit",
  tool_input: { file_path: `${dir}/proj/${file}`, old_string: "1", new_string: "2" },
});

/** The state file of the fixed session every fault class uses. */
const FAULT_SESSION = "bench-fault";

function stateFileOf(dir: string): string {
  const name = [...Deno.readDirSync(`${dir}/state`)].map((e) => e.name)
    .find((n) => n.startsWith(`state-${FAULT_SESSION}`) && n.endsWith(".json"));
  if (!name) throw new Error("the fault session has no state file");
  return `${dir}/state/${name}`;
}

/** Removes a fault left in the lock's place by the last run of a class. */
function clearLock(dir: string): Promise<void> {
  try {
    Deno.removeSync(`${stateFileOf(dir)}.lock`);
  } catch {
    // Nothing left there.
  }
  return Promise.resolve();
}

/**
 * A first touch of the file 60 directories deep after a turn of 999 hostile
 * searches (written to `<tag>.jsonl`), each with its own patterns when
 * `distinct`; the pending call is not in the transcript.
 */
function deepEditClass(name: string, tag: string, distinct: boolean): HostileClass {
  return {
    name,
    setup: (dir) => {
      Deno.mkdirSync(parentOf(`${dir}/proj/${H.deepTarget(60)}`), { recursive: true });
      Deno.writeTextFileSync(`${dir}/proj/${H.deepTarget(60)}`, "export const widget = 1;\n");
      Deno.writeTextFileSync(`${dir}/${tag}.jsonl`, H.hostileSearchTurn(999, distinct));
    },
    payload: (dir, run) => ({
      ...firstTouch(dir, `${tag}-${run}`, H.deepTarget(60)),
      transcript_path: `${dir}/${tag}.jsonl`,
      prompt_id: H.SEARCH_TURN_PROMPT,
      tool_use_id: "toolu_absent",
    }),
  };
}

const CLASSES: HostileClass[] = [
  deepEditClass("deep-edit-999-rg-turn", "deep", false),
  deepEditClass("deep-edit-999-distinct-rg", "distinct", true),
  {
    name: "deep-cwd-300x900-operands",
    setup: (dir) => {
      Deno.writeTextFileSync(`${dir}/proj/src/widget.ts`, "export const widget = 1;\n");
      Deno.writeTextFileSync(`${dir}/deep-cwd.jsonl`, H.deepCwdSearchTurn(`${dir}/proj`, 300));
    },
    payload: (dir, run) => ({
      ...firstTouch(dir, `deep-cwd-${run}`, "src/widget.ts"),
      transcript_path: `${dir}/deep-cwd.jsonl`,
      prompt_id: H.SEARCH_TURN_PROMPT,
      tool_use_id: "toolu_absent",
    }),
  },
  {
    name: "exempt-globs-4039-path",
    setup: async (dir) => {
      const path = `${dir}/globs/${H.longPath(4039)}`;
      Deno.mkdirSync(parentOf(path), { recursive: true });
      Deno.writeTextFileSync(path, "x\n");
      Deno.writeTextFileSync(
        `${dir}/globs/.gateguard.jsonc`,
        JSON.stringify({ exemptGlobs: H.hostileExemptGlobs() }),
      );
      // Trusted, so the globs are matched: an untrusted file's globs are never compiled.
      await trustProjectFile(`${dir}/globs`, `${dir}/state`);
    },
    payload: (dir, run) => ({
      ...base(dir, `globs-${run}`),
      cwd: `${dir}/globs`,
      tool_name: "Edit",
      tool_input: {
        file_path: `${dir}/globs/${H.longPath(4039)}`,
        old_string: "x",
        new_string: "y",
      },
    }),
  },
  {
    name: "multiedit-2.9m-entries",
    payload: (dir, run) => ({
      ...firstTouch(dir, `multi-${run}`),
      tool_name: "MultiEdit",
      tool_input: { file_path: `${dir}/proj/src/app.ts`, edits: H.manyEdits(2_900_000) },
    }),
  },
  { name: "powershell-54kb", payload: shell("PowerShell", H.powershellNulls(9000)) },
  { name: "pwsh-in-bash-54kb", payload: shell("Bash", H.pwshFromBash(9000)) },
  { name: "bash-66mb-chain", payload: shell("Bash", H.longBashChain(66_000_000)) },
  {
    name: "state-16mib-nested",
    setup: (dir) => Deno.writeTextFileSync(stateFileOf(dir), H.deeplyNestedJson(16 << 20)),
    payload: (dir) => firstTouch(dir, FAULT_SESSION),
    reset: (dir) => Deno.writeTextFileSync(stateFileOf(dir), H.deeplyNestedJson(16 << 20)),
  },
  {
    name: "state-lock-directory",
    setup: (dir) => Deno.mkdirSync(`${stateFileOf(dir)}.lock`),
    payload: (dir, run) => ({
      ...firstTouch(dir, FAULT_SESSION),
      tool_input: { file_path: `${dir}/proj/src/lock${run}.ts`, old_string: "1", new_string: "2" },
    }),
    reset: (dir) => Deno.mkdirSync(`${stateFileOf(dir)}.lock`, { recursive: true }),
    teardown: clearLock,
  },
  {
    name: "state-lock-symlink",
    setup: (dir) => Deno.symlinkSync(`${dir}/nowhere`, `${stateFileOf(dir)}.lock`),
    payload: (dir, run) => ({
      ...firstTouch(dir, FAULT_SESSION),
      tool_input: { file_path: `${dir}/proj/src/link${run}.ts`, old_string: "1", new_string: "2" },
    }),
    reset: (dir) => Deno.symlinkSync(`${dir}/nowhere`, `${stateFileOf(dir)}.lock`),
    teardown: clearLock,
  },
  {
    name: "state-lock-kept-fresh",
    setup: (dir) => {
      const lock = `${stateFileOf(dir)}.lock`;
      toucher = new Deno.Command(Deno.execPath(), {
        args: [
          "eval",
          `const p = ${JSON.stringify(lock)}; for (;;) { ` +
          `try { Deno.writeTextFileSync(p, "1-held"); } catch { /* moved */ } ` +
          `await new Promise((r) => setTimeout(r, 15)); }`,
        ],
        stdout: "null",
        stderr: "null",
      }).spawn();
    },
    payload: (dir, run) => ({
      ...firstTouch(dir, FAULT_SESSION),
      tool_input: { file_path: `${dir}/proj/src/fresh${run}.ts`, old_string: "1", new_string: "2" },
    }),
    teardown: async (dir) => {
      toucher?.kill();
      await toucher?.status;
      toucher = null;
      await clearLock(dir);
    },
  },
];

/** The names of every slow-input class, in the order they run. */
const HOSTILE_CLASSES: readonly string[] = CLASSES.map((c) => c.name);

/**
 * Times every class `runs` times (after one untimed run that also records
 * the decision) beside a plain first-touch denial, in a scratch directory.
 * With `only`, just the classes of those names run; an unknown name throws.
 */
export async function measureHostile(
  spawn: SpawnHook,
  runs: number,
  only?: readonly string[],
): Promise<HostileRow[]> {
  const unknown = only?.filter((n) => !HOSTILE_CLASSES.includes(n)) ?? [];
  if (unknown.length > 0) {
    throw new Error(
      `no slow-input class ${unknown.join(", ")}; known: ${HOSTILE_CLASSES.join(", ")}`,
    );
  }
  const classes = only ? CLASSES.filter((c) => only.includes(c.name)) : CLASSES;
  const dir = await Deno.makeTempDir({ prefix: "gateguard-bench-hostile-" });
  try {
    Deno.mkdirSync(`${dir}/proj/src`, { recursive: true });
    Deno.writeTextFileSync(`${dir}/proj/src/app.ts`, "export const a = 1;\n");
    for (let i = 0; i <= runs; i++) {
      for (const name of ["lock", "link", "fresh"]) {
        Deno.writeTextFileSync(`${dir}/proj/src/${name}${i}.ts`, "1\n");
      }
    }
    const env = {
      GATEGUARD_STATE_DIR: `${dir}/state`,
      CLAUDE_PROJECT_DIR: `${dir}/proj`,
      HOME: dir,
    };
    const time = async (payload: unknown, envFor = env) =>
      await spawn(JSON.stringify(payload), envFor);
    await time(firstTouch(dir, FAULT_SESSION));
    const plain: number[] = [];
    for (let r = 0; r < Math.max(runs, 5); r++) {
      plain.push((await time(firstTouch(dir, `plain-${r}`))).ms);
    }
    const plainMs = median(plain);
    const rows: HostileRow[] = [{
      name: "plain-first-touch",
      ms: plainMs,
      ratio: 1,
      outcome: "deny",
    }];
    for (const c of classes) {
      await c.setup?.(dir);
      const projectEnv = c.name.startsWith("exempt")
        ? { ...env, CLAUDE_PROJECT_DIR: `${dir}/globs` }
        : env;
      const outcome = decisionOf((await time(c.payload(dir, 0), projectEnv)).stdout);
      c.reset?.(dir);
      const ms: number[] = [];
      for (let r = 1; r <= runs; r++) {
        ms.push((await time(c.payload(dir, r), projectEnv)).ms);
        c.reset?.(dir);
      }
      await c.teardown?.(dir);
      rows.push({ name: c.name, ms: median(ms), ratio: median(ms) / plainMs, outcome });
    }
    return rows;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
