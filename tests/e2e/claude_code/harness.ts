/**
 * Drives a real Claude Code binary through one scripted conversation with
 * GateGuard registered as a user would register it, and reads back what the
 * run left behind: the result JSON, the transcript and the files.
 *
 * Every run gets a fresh temporary tree (home, project, client temp dir,
 * GateGuard state dir) and its own fake API, so scenarios share nothing.
 *
 * @module
 */

import { tempDir } from "../../helpers/temp.ts";
import { denoDir, runCli } from "../../helpers/cli.ts";
import { type FakeApi, type ScriptedTurn, startFakeApi } from "./fake_api.ts";

/** The folders of one scenario run, all absolute and symlink-free. */
export interface E2eTree {
  /** The temporary root holding everything below. */
  root: string;
  /** `HOME` of the client (and so of every hook it starts). */
  home: string;
  /** The project the client runs in. */
  project: string;
  /** `CLAUDE_CODE_TMPDIR`. */
  tmp: string;
  /** `GATEGUARD_STATE_DIR`. */
  stateDir: string;
  /** Where the probe hook leaves its transcript snapshots. */
  probeDir: string;
}

/** One scenario: the project, the prompt and the model's scripted turns. */
export interface Scenario {
  /** Project files by relative path. */
  files: Readonly<Record<string, string>>;
  /** Extra (empty) project directories, relative. */
  dirs?: readonly string[];
  /** The human prompt. */
  prompt: string;
  /** Extra environment of the client, inherited by the hooks. */
  env?: Readonly<Record<string, string>>;
  /** The model's turns; a function of the project path, since file tools take absolute paths. */
  turns: (project: string) => ScriptedTurn[];
  /** When set, a probe hook snapshots the transcript on every call of the tools it matches. */
  probeMatcher?: string;
  /** Extra client arguments (for example `--tools` to offer tools the default set lacks). */
  args?: readonly string[];
  /** Runs after GateGuard is registered and before the client starts (to alter the setup). */
  prepare?: (tree: E2eTree) => Promise<void>;
  /** The client's `--permission-mode`; `acceptEdits` when not given. */
  permissionMode?: string;
}

/** What one client run produced. */
export interface ScenarioRun {
  tree: E2eTree;
  api: FakeApi;
  /** Exit code of the client. */
  code: number;
  /** The `--output-format json` result, or null when stdout did not parse. */
  result: Record<string, unknown> | null;
  stdout: string;
  stderr: string;
  /** Wall time of the client run. */
  ms: number;
  /** The session transcript's path (from the result's session id). */
  transcriptPath: string;
}

/**
 * How long the client may run before the test kills it: a guard against a
 * client that never ends, not a speed check. A long scenario starts a hook
 * process per call, and on a loaded machine each can take seconds, so the
 * guard is far above any honest run.
 */
export const CLIENT_TIMEOUT_MS = 600_000;

/** Hook timeout in settings, in seconds. */
const HOOK_TIMEOUT_S = 30;

/** Quotes one word for a POSIX shell. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}

/** The command of the probe hook that snapshots the transcript into `outDir`. */
function probeCommand(outDir: string): string {
  const probe = new URL("./probe_hook.ts", import.meta.url).pathname;
  return [
    Deno.execPath(),
    "run",
    "--quiet",
    "--no-prompt",
    "--no-config",
    `--allow-read`,
    `--allow-write=${outDir}`,
    probe,
    outDir,
  ].map(shellQuote).join(" ");
}

function commandHooks(matchers: readonly string[], command: string): unknown[] {
  return matchers.map((matcher) => ({
    matcher,
    hooks: [{ type: "command", command, timeout: HOOK_TIMEOUT_S }],
  }));
}

/**
 * Registers GateGuard for the project the way a user does: `gateguard init`
 * in it. `--shared`, because a from-source run would otherwise take the
 * local file, which the probe hook below is written to.
 */
export async function registerGateGuard(project: string, home: string): Promise<void> {
  const r = await runCli(["init", "--shared"], { cwd: project, env: { HOME: home } });
  if (r.code !== 0) throw new Error(`gateguard init failed (${r.code}): ${r.stderr}`);
}

/**
 * Adds the probe hook in the local settings file, which Claude Code merges
 * with the project settings, so GateGuard's own registration stays untouched.
 */
async function registerProbe(tree: E2eTree, matcher: string): Promise<void> {
  const settings = { hooks: { PreToolUse: commandHooks([matcher], probeCommand(tree.probeDir)) } };
  await Deno.writeTextFile(
    `${tree.project}/.claude/settings.local.json`,
    `${JSON.stringify(settings, null, 2)}\n`,
  );
}

/** Creates the temporary tree of one run, with the project's files. */
export async function createTree(scenario: Scenario): Promise<E2eTree> {
  const root = await Deno.realPath(await tempDir({ prefix: "gateguard-e2e-" }));
  const tree: E2eTree = {
    root,
    home: `${root}/home`,
    project: `${root}/proj`,
    tmp: `${root}/tmp`,
    stateDir: `${root}/state`,
    probeDir: `${root}/probe`,
  };
  for (const dir of [tree.home, tree.project, tree.tmp, tree.stateDir, tree.probeDir]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  for (const dir of scenario.dirs ?? []) {
    await Deno.mkdir(`${tree.project}/${dir}`, { recursive: true });
  }
  for (const [path, text] of Object.entries(scenario.files)) {
    const full = `${tree.project}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return tree;
}

/** The client's whole environment: nothing is inherited but `PATH` (and Deno's cache). */
export async function clientEnv(
  tree: E2eTree,
  apiUrl: string,
  extra: Readonly<Record<string, string>> = {},
): Promise<Record<string, string>> {
  const cache = await denoDir();
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: tree.home,
    CLAUDE_CODE_TMPDIR: tree.tmp,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: "test",
    DISABLE_TELEMETRY: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    GATEGUARD_STATE_DIR: tree.stateDir,
    DENO_NO_UPDATE_CHECK: "1",
    ...(cache ? { DENO_DIR: cache } : {}),
    ...extra,
  };
}

/** The folder name Claude Code gives a project: every non-alphanumeric character becomes `-`. */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

/** Runs the client once through the scenario and stops its fake API. */
export async function runScenario(binary: string, scenario: Scenario): Promise<ScenarioRun> {
  const tree = await createTree(scenario);
  await registerGateGuard(tree.project, tree.home);
  if (scenario.probeMatcher) await registerProbe(tree, scenario.probeMatcher);
  await scenario.prepare?.(tree);
  const api = await startFakeApi(scenario.turns(tree.project));
  try {
    const started = Date.now();
    const out = await new Deno.Command(binary, {
      args: [
        "-p",
        scenario.prompt,
        "--permission-mode",
        scenario.permissionMode ?? "acceptEdits",
        "--output-format",
        "json",
        ...(scenario.args ?? []),
      ],
      cwd: tree.project,
      clearEnv: true,
      env: await clientEnv(tree, api.url, scenario.env),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    }).output();
    const ms = Date.now() - started;
    const stdout = new TextDecoder().decode(out.stdout);
    let result: Record<string, unknown> | null = null;
    try {
      const parsed = JSON.parse(stdout);
      result = typeof parsed === "object" && parsed !== null ? parsed : null;
    } catch {
      result = null;
    }
    const session = typeof result?.session_id === "string" ? result.session_id : "unknown";
    return {
      tree,
      api,
      code: out.code,
      result,
      stdout,
      stderr: new TextDecoder().decode(out.stderr),
      ms,
      transcriptPath: `${tree.home}/.claude/projects/${
        encodeProjectDir(tree.project)
      }/${session}.jsonl`,
    };
  } finally {
    await api.close();
  }
}

/** Removes a run's temporary tree. */
export async function cleanup(run: ScenarioRun): Promise<void> {
  await Deno.remove(run.tree.root, { recursive: true }).catch(() => {});
}

/** One parsed transcript line. */
export type TranscriptRecord = Record<string, unknown>;

/** Parses a JSONL transcript; lines that do not parse become empty records. */
export function parseTranscript(text: string): TranscriptRecord[] {
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => {
    try {
      const value = JSON.parse(line);
      return typeof value === "object" && value !== null ? value : {};
    } catch {
      return {};
    }
  });
}

/** Reads and parses a run's transcript. */
export async function readTranscript(run: ScenarioRun): Promise<TranscriptRecord[]> {
  return parseTranscript(await Deno.readTextFile(run.transcriptPath));
}

function contentBlocks(record: TranscriptRecord): Record<string, unknown>[] {
  const message = record.message;
  if (typeof message !== "object" || message === null) return [];
  const content = (message as Record<string, unknown>).content;
  return Array.isArray(content)
    ? content.filter((b): b is Record<string, unknown> => typeof b === "object" && b !== null)
    : [];
}

/** The transcript record holding the tool result of `toolUseId`, if any. */
export function resultRecord(
  records: readonly TranscriptRecord[],
  toolUseId: string,
): TranscriptRecord | undefined {
  return records.find((r) =>
    r.type === "user" &&
    contentBlocks(r).some((b) => b.type === "tool_result" && b.tool_use_id === toolUseId)
  );
}

/** The `attachment.type` of every attachment record, in order. */
export function attachmentTypes(records: readonly TranscriptRecord[]): string[] {
  return records.flatMap((r) => {
    const attachment = r.attachment;
    return r.type === "attachment" && typeof attachment === "object" && attachment !== null &&
        typeof (attachment as Record<string, unknown>).type === "string"
      ? [(attachment as Record<string, string>).type]
      : [];
  });
}

/** The texts of every hook note the transcript recorded (`hook_additional_context` attachments). */
export function hookNotes(records: readonly TranscriptRecord[]): string[] {
  return records.flatMap((r) => {
    const attachment = r.attachment as Record<string, unknown> | undefined;
    if (r.type !== "attachment" || attachment?.type !== "hook_additional_context") return [];
    const content = attachment.content;
    return Array.isArray(content) ? content.map(String) : [String(content)];
  });
}

/** The tool_use ids the result JSON lists under `permission_denials`, in order. */
export function deniedToolUseIds(run: ScenarioRun): string[] {
  const denials = run.result?.permission_denials;
  if (!Array.isArray(denials)) return [];
  return denials.flatMap((d) =>
    typeof d === "object" && d !== null && typeof d.tool_use_id === "string" ? [d.tool_use_id] : []
  );
}

/** A readable summary of a run, for assertion messages. */
export function describeRun(run: ScenarioRun): string {
  return [
    `client exit ${run.code} in ${run.ms} ms; tree ${run.tree.root}`,
    `requests: ${run.api.log.map((r) => `${r.method} ${r.path} ${r.kind}`).join(", ")}`,
    `stderr: ${run.stderr.slice(0, 2000)}`,
    `stdout: ${run.stdout.slice(0, 2000)}`,
  ].join("\n");
}
