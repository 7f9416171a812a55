/**
 * `[real-client:plugin]`: the pinned Claude Code loads this repository as a
 * plugin (`--plugin-dir`), with no settings registration, and runs scripted
 * conversations against the fake API.
 *
 * With a release to install from (a local fake release whose "binary" is a
 * script starting GateGuard from this checkout, since `deno compile` cannot
 * run here), the SessionStart hook installs it into the plugin's data folder
 * with the project's installer, and every gated call goes through the
 * launcher to that verified binary. Without one, SessionStart says so in one
 * line and the launcher runs GateGuard from source. Either way the first
 * Edit of a file and a destructive command are denied and pass on their
 * retry, and GateGuard's state lands in the plugin's data folder.
 *
 * Only the cached client is used; without it the file is skipped with the reason.
 *
 * @module
 */

import { assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { PRUNE_STAMP } from "../../../src/state/store.ts";
import { REPO_ROOT, runCli } from "../../helpers/cli.ts";
import { claudeCodeCacheDir, findClaudeBinary } from "../../../scripts/install_claude_code.ts";
import { sha256Sums, TARGETS } from "../../../scripts/compile.ts";
import { sourceArgv } from "../../../src/platform/permissions.ts";
import { VERSION } from "../../../src/version.ts";
import { type ScriptedTurn, startFakeApi, toolUseId } from "./fake_api.ts";
import {
  CLIENT_TIMEOUT_MS,
  clientEnv,
  createTree,
  encodeProjectDir,
  parseTranscript,
  shellQuote,
  type TranscriptRecord,
} from "./harness.ts";

const BINARY = await findClaudeBinary(claudeCodeCacheDir());
if (BINARY === null) {
  console.log(
    `[real-client:plugin] SKIPPED: the pinned Claude Code is not in ${claudeCodeCacheDir()} (run scripts/install_claude_code.ts).`,
  );
}

const TAG = `v${VERSION}`;
const WIDGET = "export function widget(): number {\n  return 1;\n}\n";
const WIDGET_EDITED = WIDGET.replace("return 1;", "return 2;");

/**
 * The "release binary": notes each run in `log`, then starts GateGuard from
 * this checkout with the binary's permissions.
 */
function wrapper(log: string): string {
  const gateguard = sourceArgv(Deno.execPath(), REPO_ROOT).map(shellQuote).join(" ");
  return `#!/bin/sh\necho "$*" >>${shellQuote(log)}\nexec ${gateguard} "$@"\n`;
}

interface Release {
  baseUrl: string;
  requests: string[];
  close(): Promise<void>;
}

/** Serves release TAG: SHA256SUMS and `binary` under every asset name. */
async function fakeRelease(binary: string): Promise<Release> {
  const bytes = new TextEncoder().encode(binary);
  const files = new Map<string, string>(TARGETS.map((t) => [t.asset, binary]));
  files.set("SHA256SUMS", await sha256Sums(TARGETS.map((t) => [t.asset, bytes])));
  const requests: string[] = [];
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(CLIENT_TIMEOUT_MS)]);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal, onListen: () => {} },
    (req) => {
      const path = new URL(req.url).pathname;
      requests.push(path);
      const m = path.match(/^\/releases\/download\/([^/]+)\/([^/]+)$/);
      const body = m && m[1] === TAG ? files.get(m[2]) : undefined;
      return body === undefined ? new Response("not found", { status: 404 }) : new Response(body);
    },
  );
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/releases`,
    requests,
    close: async () => {
      stop.abort();
      await server.finished;
    },
  };
}

function bash(command: string): ScriptedTurn["blocks"] {
  return [{ type: "tool_use", name: "Bash", input: { command, description: "Run a command" } }];
}

function edit(file: string): ScriptedTurn["blocks"] {
  return [{
    type: "tool_use",
    name: "Edit",
    input: { file_path: file, old_string: "return 1;", new_string: "return 2;" },
  }];
}

const EDIT_DENIED = "PreToolUse:Edit hook error: ";
const BASH_DENIED = "PreToolUse:Bash hook error: ";

/** First-touch Edit and its retry, then rm -rf and its retry. */
function turns(p: string): ScriptedTurn[] {
  return [
    { blocks: edit(`${p}/src/widget.ts`) },
    {
      expect: {
        toolResults: [{ isError: true, includes: [EDIT_DENIED, "Before editing"] }],
        paths: { [`${p}/src/widget.ts`]: { text: WIDGET } },
      },
      blocks: edit(`${p}/src/widget.ts`),
    },
    {
      expect: {
        toolResults: [{ isError: false, includes: ["has been updated successfully"] }],
        paths: { [`${p}/src/widget.ts`]: { text: WIDGET_EDITED } },
      },
      blocks: bash("rm -rf build"),
    },
    {
      expect: {
        toolResults: [{
          isError: true,
          includes: [BASH_DENIED, "List all files/data this command will modify or delete"],
        }],
        paths: { [`${p}/build/cache/a.o`]: { text: "obj\n" } },
      },
      blocks: bash("rm -rf build"),
    },
    {
      expect: { toolResults: [{ isError: false }], paths: { [`${p}/build`]: "missing" } },
      blocks: [{ type: "text", text: "Done." }],
    },
  ];
}

interface PluginRun {
  code: number;
  result: Record<string, unknown> | null;
  stdout: string;
  stderr: string;
  /** The temporary tree of the run (removed by the test when it passes). */
  root: string;
  home: string;
  records: TranscriptRecord[];
  apiFailures: string[];
}

/** Runs the client once with the repository as a plugin and `installBase` as the release mirror. */
async function runWithPlugin(installBase: string): Promise<PluginRun> {
  const tree = await createTree({
    files: { "src/widget.ts": WIDGET, "build/cache/a.o": "obj\n" },
    prompt: "",
    turns: () => [],
  });
  const api = await startFakeApi(turns(tree.project));
  try {
    const env = await clientEnv(tree, api.url, {
      GATEGUARD_INSTALL_BASE_URL: installBase,
      GATEGUARD_BASH_ROUTINE_DISABLED: "1",
    });
    // State must follow the plugin's data folder, as for a user.
    delete env.GATEGUARD_STATE_DIR;
    const out = await new Deno.Command(BINARY!, {
      args: [
        "-p",
        "make widget return 2, then clean the build folder",
        "--plugin-dir",
        REPO_ROOT,
        "--permission-mode",
        "acceptEdits",
        "--output-format",
        "json",
      ],
      cwd: tree.project,
      clearEnv: true,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    }).output();
    const dec = new TextDecoder();
    const stdout = dec.decode(out.stdout);
    let result: Record<string, unknown> | null = null;
    try {
      result = JSON.parse(stdout);
    } catch {
      result = null;
    }
    const session = typeof result?.session_id === "string" ? result.session_id : "unknown";
    let records: TranscriptRecord[] = [];
    try {
      records = parseTranscript(
        await Deno.readTextFile(
          `${tree.home}/.claude/projects/${encodeProjectDir(tree.project)}/${session}.jsonl`,
        ),
      );
    } catch {
      records = [];
    }
    return {
      code: out.code,
      result,
      stdout,
      stderr: dec.decode(out.stderr),
      root: tree.root,
      home: tree.home,
      records,
      apiFailures: api.failures(),
    };
  } finally {
    await api.close();
  }
}

/** The plugin data folders Claude Code made under the run's home. */
async function dataDirs(home: string): Promise<string[]> {
  const base = `${home}/.claude/plugins/data`;
  const dirs: string[] = [];
  try {
    for await (const e of Deno.readDir(base)) if (e.isDirectory) dirs.push(`${base}/${e.name}`);
  } catch {
    return [];
  }
  return dirs;
}

async function names(dir: string): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) found.push(e.name);
  } catch {
    return [];
  }
  return found.sort();
}

function describe(run: PluginRun): string {
  return [
    `client exit ${run.code}; tree ${run.root}`,
    `api: ${run.apiFailures.join(" | ")}`,
    `stderr: ${run.stderr.slice(0, 2000)}`,
    `stdout: ${run.stdout.slice(0, 2000)}`,
  ].join("\n");
}

/** The tool_use ids the result lists under `permission_denials`. */
function denied(run: PluginRun): string[] {
  const list = run.result?.permission_denials;
  return Array.isArray(list) ? list.map((d) => String(d?.tool_use_id)) : [];
}

/** Attachments whose type names a hook error: a hook that failed instead of deciding. */
function hookErrors(records: readonly TranscriptRecord[]): unknown[] {
  return records.filter((r) =>
    r.type === "attachment" &&
    String((r.attachment as Record<string, unknown>)?.type ?? "").includes("error")
  ).map((r) => r.attachment);
}

/** Every string in a JSON tree, to find what the client kept of a SessionStart message. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (typeof value === "object" && value !== null) {
    Object.values(value).forEach((v) => strings(v, out));
  }
  return out;
}

function realClientTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: BINARY === null, sanitizeResources: false, sanitizeOps: false, fn });
}

/** Checks shared by both runs: the gate decided every call, and its state is in the data folder. */
async function checkGated(run: PluginRun): Promise<string> {
  const context = describe(run);
  assertEquals(run.code, 0, context);
  assertEquals(run.result?.is_error, false, context);
  assertEquals(run.apiFailures, [], context);
  assertEquals(hookErrors(run.records), [], context);
  assertEquals(denied(run), [toolUseId(0, 0), toolUseId(2, 0)], context);
  const dirs = await dataDirs(run.home);
  // Claude Code names the data folder of a --plugin-dir plugin `<name>-inline`.
  assertEquals(dirs, [`${run.home}/.claude/plugins/data/gateguard-inline`], context);
  // The binary's folder and the stamp of the last pruning are the only files beside the states.
  const state = (await names(dirs[0])).filter((n) => n !== "bin" && n !== PRUNE_STAMP);
  assertEquals(state, [`state-${run.result?.session_id}.json`], context);
  return dirs[0];
}

/** The texts of the run's `hook_system_message` attachments (what SessionStart told the user). */
function systemMessages(records: readonly TranscriptRecord[]): string[] {
  return records.flatMap((r) => {
    const a = r.attachment as Record<string, unknown> | undefined;
    return r.type === "attachment" && a?.type === "hook_system_message" ? [String(a.content)] : [];
  });
}

realClientTest(
  "[real-client:plugin] SessionStart installs the verified binary into the plugin's data folder; every gated call runs it; first-touch and destructive denials pass on retry; state lands there",
  async () => {
    const log = await Deno.makeTempFile({ prefix: "gg-plugin-binary-runs-" });
    const binary = wrapper(log);
    const release = await fakeRelease(binary);
    try {
      const run = await runWithPlugin(release.baseUrl);
      const data = await checkGated(run);
      assertEquals(await names(`${data}/bin`), [
        "gateguard",
        "gateguard.sha256",
        "gateguard.verified",
      ]);
      assertEquals(await Deno.readTextFile(`${data}/bin/gateguard`), binary);
      assertEquals(release.requests.filter((p) => p.endsWith("/SHA256SUMS")).length, 1);
      assertEquals(release.requests.filter((p) => /\/gateguard-[^/]+$/.test(p)).length, 1);
      assertEquals(systemMessages(run.records), [
        `GateGuard: installed its ${TAG} binary in ${data}/bin (SHA-256 verified).`,
      ]);
      // The installer's `--version` check, then one run per gated call (two Edits, two Bash).
      assertEquals((await Deno.readTextFile(log)).split("\n"), ["--version", "", "", "", "", ""]);
      await Deno.remove(run.root, { recursive: true });
    } finally {
      await release.close();
      await Deno.remove(log);
    }
  },
);

realClientTest(
  "[real-client:plugin] with no release reachable, SessionStart says one line and the launcher runs GateGuard from source; the gate still denies and passes on retry",
  async () => {
    // A port nothing listens on: taken, then released.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    const base = `http://127.0.0.1:${port}/releases`;
    const run = await runWithPlugin(base);
    const data = await checkGated(run);
    assertEquals(await names(data), [PRUNE_STAMP, `state-${run.result?.session_id}.json`]);
    assertEquals(systemMessages(run.records), [
      `GateGuard: could not install its ${TAG} binary (could not download ${base}/download/${TAG}/SHA256SUMS ` +
      `(is ${TAG} published?)); until then GateGuard runs from source with Deno. ` +
      `Retry with: sh '${REPO_ROOT}/hooks/install_binary.sh' '${data}'`,
    ]);
    await Deno.remove(run.root, { recursive: true });
  },
);

/** Runs `claude <args>` offline in `home`; returns exit code and output. */
async function claude(home: string, args: string[]): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command(BINARY!, {
    args,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: home,
      CLAUDE_CODE_TMPDIR: home,
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, out: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

realClientTest(
  "[real-client:plugin] marketplace add and install from the repository as a user does; doctor reports the plugin and its data folder; uninstall removes that folder",
  async () => {
    const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "gg-plugin-market-" }));
    try {
      const added = await claude(home, ["plugin", "marketplace", "add", REPO_ROOT]);
      assertEquals(added.code, 0, added.out);
      assertStringIncludes(added.out, "Successfully added marketplace: gateguard");
      const installed = await claude(home, ["plugin", "install", "gateguard@gateguard"]);
      assertEquals(installed.code, 0, installed.out);
      assertStringIncludes(installed.out, "Successfully installed plugin: gateguard@gateguard");

      const index = JSON.parse(
        await Deno.readTextFile(`${home}/.claude/plugins/installed_plugins.json`),
      );
      const [entry] = index.plugins["gateguard@gateguard"];
      assertEquals(entry.version, VERSION);
      const settingsPath = `${home}/.claude/settings.json`;
      const settings = JSON.parse(await Deno.readTextFile(settingsPath));
      assertEquals(settings.enabledPlugins, { "gateguard@gateguard": true });

      const project = `${home}/proj`;
      await Deno.mkdir(project);
      const data = `${home}/.claude/plugins/data/gateguard-gateguard`;
      const doctor = await runCli(["doctor"], { cwd: project, env: { HOME: home } });
      assertStringIncludes(
        doctor.stdout,
        `  info  plugin gateguard@gateguard ${VERSION} is installed at ${entry.installPath}, ` +
          `enabled by ${settingsPath}; its data folder is ${data}\n` +
          `  info  no plugin binary at ${data}/bin/gateguard yet: the plugin runs GateGuard from ` +
          "source with Deno until a Claude Code session start installs it\n",
      );
      assertStringIncludes(
        doctor.stdout,
        `plugin gateguard@gateguard ${entry.installPath}/hooks/hooks.json: GateGuard on ` +
          '"Edit|Write|MultiEdit|NotebookEdit", "Bash|PowerShell"',
      );

      // The data folder (binary and state) goes with the plugin.
      await Deno.mkdir(`${data}/bin`, { recursive: true });
      await Deno.writeTextFile(`${data}/bin/gateguard`, "binary");
      const removed = await claude(home, ["plugin", "uninstall", "gateguard@gateguard"]);
      assertEquals(removed.code, 0, removed.out);
      assertEquals(await names(`${home}/.claude/plugins/data`), []);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
);
