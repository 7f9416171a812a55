/**
 * Runs a real agent client (Codex, Gemini CLI, Copilot CLI) through one
 * scripted conversation against its fake model, and reads back what the run
 * left: the model's requests, the files, the hook payloads a probe saved.
 *
 * What differs per agent (config files, trust switches, command line, wire
 * format) is an `AgentDriver` in that agent's test folder; the temporary
 * tree and the environment rules are the Claude Code harness's.
 *
 * @module
 */

import { tempDir } from "../../helpers/temp.ts";
import { reportSkipped } from "../../helpers/skip.ts";
import type { AgentClient, ClientInstall } from "../../../scripts/install_agents.ts";
import { denoDir, runCli } from "../../helpers/cli.ts";
import { shellQuote } from "../claude_code/harness.ts";
import { type FakeModel, type ModelReply, type ModelWire, startFakeModel } from "./fake_model.ts";

/** The folders of one run, all absolute and symlink-free. */
export interface AgentTree {
  root: string;
  /** `HOME` of the client and of every hook it starts. */
  home: string;
  /** The project the client runs in. */
  project: string;
  /** `GATEGUARD_STATE_DIR`. */
  stateDir: string;
  /** Where the probe hook saves payloads. */
  probeDir: string;
}

/** How one agent's client is configured and started. */
export interface AgentDriver {
  agent: AgentClient;
  wire: ModelWire;
  /** Writes the home-level config that points the client at the fake model. */
  prepare(tree: AgentTree, modelUrl: string): Promise<void>;
  /** Registers `command` as the pre-tool hook of the project by hand (used for the probe). */
  registerHook(tree: AgentTree, command: string): Promise<void>;
  /**
   * After `gateguard init`, makes the registered hook wait until the client
   * has logged the pending call, for a client that writes its session log
   * later than GateGuard waits on a loaded machine. Absent: nothing to wait for.
   */
  awaitLogBeforeHook?(tree: AgentTree): Promise<void>;
  /** The client's arguments for one prompt, and the environment it needs beside the base. */
  invocation(
    tree: AgentTree,
    prompt: string,
    modelUrl: string,
  ): { args: string[]; env: Record<string, string> };
}

/** One scenario: files, prompt, the model's replies, and how GateGuard or the probe is registered. */
export interface AgentScenario {
  /** Project files by relative path. */
  files: Readonly<Record<string, string>>;
  prompt: string;
  /** The model's replies; a function of the project path, for tools that take absolute paths. */
  replies: (project: string) => ModelReply[];
  /** Registers the hook under test in the tree (the probe, or `gateguard init`). */
  register: (tree: AgentTree, driver: AgentDriver) => Promise<void>;
  /** Extra environment of the client, inherited by its hooks. */
  env?: Readonly<Record<string, string>>;
}

/** What one run produced. */
export interface AgentRun {
  tree: AgentTree;
  model: FakeModel;
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * How long a client may run before the test kills it: a bound for a stuck
 * client, generous enough for a loaded machine (the fake model lives longer).
 */
const CLIENT_TIMEOUT_MS = 300_000;

/** Creates the temporary tree of one run, with the project's files. */
export async function createAgentTree(files: Readonly<Record<string, string>>): Promise<AgentTree> {
  const root = await Deno.realPath(await tempDir({ prefix: "gateguard-agent-" }));
  const tree: AgentTree = {
    root,
    home: `${root}/home`,
    project: `${root}/proj`,
    stateDir: `${root}/state`,
    probeDir: `${root}/probe`,
  };
  for (const dir of [tree.home, tree.project, tree.stateDir, tree.probeDir]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  for (const [path, text] of Object.entries(files)) {
    const full = `${tree.project}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return tree;
}

/** Writes `data` as pretty JSON at `path`, creating its folder. */
export async function writeJson(path: string, data: unknown): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, `${JSON.stringify(data, null, 2)}\n`);
}

/** The hook command of the probe: saves each payload in the tree and prints `answer`. */
export function probeCommand(tree: AgentTree, answer: unknown): string {
  const probe = new URL("./probe_hook.ts", import.meta.url).pathname;
  return [
    Deno.execPath(),
    "run",
    "--quiet",
    "--no-prompt",
    "--no-config",
    `--allow-read=${tree.probeDir}`,
    `--allow-write=${tree.probeDir}`,
    probe,
    tree.probeDir,
    JSON.stringify(answer),
  ].map(shellQuote).join(" ");
}

/** The payloads the probe saved, in arrival order. */
export async function probePayloads(tree: AgentTree): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let n = 0;; n++) {
    let text: string;
    try {
      text = await Deno.readTextFile(`${tree.probeDir}/${n}.json`);
    } catch {
      return out;
    }
    out.push(JSON.parse(text));
  }
}

/** Runs the client once through the scenario and stops its fake model. */
export async function runAgentScenario(
  driver: AgentDriver,
  install: ClientInstall & { ok: true },
  scenario: AgentScenario,
): Promise<AgentRun> {
  const tree = await createAgentTree(scenario.files);
  const model = await startFakeModel(driver.wire, scenario.replies(tree.project));
  try {
    await driver.prepare(tree, model.url);
    await scenario.register(tree, driver);
    const { args, env } = driver.invocation(tree, scenario.prompt, model.url);
    const cache = await denoDir();
    const out = await new Deno.Command(install.binary, {
      args,
      cwd: tree.project,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: tree.home,
        GATEGUARD_STATE_DIR: tree.stateDir,
        DENO_NO_UPDATE_CHECK: "1",
        ...(cache ? { DENO_DIR: cache } : {}),
        ...install.env,
        ...env,
        ...scenario.env,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    }).output();
    const dec = new TextDecoder();
    return {
      tree,
      model,
      code: out.code,
      stdout: dec.decode(out.stdout),
      stderr: dec.decode(out.stderr),
    };
  } finally {
    await model.close();
  }
}

/** A readable summary of a run, for assertion messages. */
export function describeAgentRun(run: AgentRun): string {
  return [
    `client exit ${run.code}; tree ${run.tree.root}`,
    `requests: ${run.model.log.map((r) => `${r.method} ${r.path} ${r.kind}`).join(", ")}`,
    `failures: ${run.model.failures().join("; ")}`,
    `stderr: ${run.stderr.slice(0, 3000)}`,
    `stdout: ${run.stdout.slice(0, 1500)}`,
  ].join("\n");
}

/** Removes a run's temporary tree. */
export async function cleanupAgentRun(run: AgentRun): Promise<void> {
  await Deno.remove(run.tree.root, { recursive: true }).catch(() => {});
}

/**
 * Installs the pinned client of `agent` and returns a `Deno.test` wrapper.
 * Only when that install failed are the tests skipped, all of them on one
 * line of the report that says why.
 */
export async function realClientSuite(
  agent: AgentClient,
): Promise<{ install: ClientInstall; test: (name: string, fn: () => Promise<void>) => void }> {
  const { ensureAgentClient } = await import("../../../scripts/install_agents.ts");
  const install = await ensureAgentClient(agent);
  if (!install.ok) {
    reportSkipped(
      `[real-client:${agent}]`,
      `the pinned client could not be installed (${install.reason}).`,
    );
  }
  return {
    install,
    test: (name, fn) => {
      // Skipped as a whole, on the one line above.
      if (install.ok) Deno.test({ name, sanitizeResources: false, sanitizeOps: false, fn });
    },
  };
}

/** Registers GateGuard for the agent the way a user does: `gateguard init --agent <name>` in the project. */
export async function registerByInit(tree: AgentTree, agent: AgentClient): Promise<void> {
  const r = await runCli(["init", "--agent", agent], {
    cwd: tree.project,
    env: { HOME: tree.home },
  });
  if (r.code !== 0) {
    throw new Error(`gateguard init --agent ${agent} failed (${r.code}): ${r.stderr}`);
  }
}

/** The `decision/reason` of every metrics line GateGuard wrote in the run, in order. */
export async function metricsDecisions(tree: AgentTree): Promise<string[]> {
  let text = "";
  try {
    text = await Deno.readTextFile(`${tree.stateDir}/metrics.jsonl`);
  } catch {
    return [];
  }
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => {
    const record = JSON.parse(line);
    return `${record.decision}/${record.reason}`;
  });
}
