/**
 * End-to-end proof in the real client: a pinned Claude Code binary runs
 * scripted conversations against the fake API with GateGuard registered as
 * a project hook, and each scenario checks the files, what the next API
 * request carried (denial or note) and the session transcript.
 *
 * The scenarios run one after another (one client and one fake API at a
 * time); the whole file is skipped, with a printed reason, only when the
 * pinned Claude Code cannot be installed.
 *
 * @module
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { reportSkipped } from "../../helpers/skip.ts";
import { ensureClaudeCode } from "../../../scripts/install_claude_code.ts";
import { runCli } from "../../helpers/cli.ts";
import { sha256Hex } from "../../../src/platform/sha256.ts";
import { internalErrorText } from "../../../src/questions/messages.ts";
import { type ScriptedTurn, type ToolResultExpectation, toolUseId } from "./fake_api.ts";
import {
  attachmentTypes,
  cleanup,
  deniedToolUseIds,
  describeRun,
  parseTranscript,
  readTranscript,
  resultRecord,
  runScenario,
  type Scenario,
  type ScenarioRun,
  type TranscriptRecord,
} from "./harness.ts";
import { isHumanPromptLine, isToolUseLine, measureFrom, scanCost } from "./window_measure.ts";
import { TAIL_WINDOW } from "../../../src/session_logs/tail.ts";

const install = await ensureClaudeCode();
if (!install.ok) {
  reportSkipped(
    "[real-client]",
    `the pinned Claude Code could not be installed (${install.reason}).`,
  );
}
const BINARY = install.ok ? install.binary : "";

/** Registers a real-client test; all of them are skipped on the one line above when the client is missing. */
function realClientTest(name: string, fn: () => Promise<void>): void {
  if (install.ok) Deno.test({ name, sanitizeResources: false, sanitizeOps: false, fn });
}

const WIDGET = "export function widget(): number {\n  return 1;\n}\n";
const WIDGET_EDITED = WIDGET.replace("return 1;", "return 2;");
const README = "# demo\n\nSettings live in the .env file.\n";
const ENV_FILE = "API_URL=http://localhost:8080\n";

/** Exact texts the spec gives GateGuard's messages. */
const TEXT = {
  editDenied: "PreToolUse:Edit hook error: ",
  bashDenied: "PreToolUse:Bash hook error: ",
  editNote: "PreToolUse:Edit hook additional context: ",
  beforeEditing: "Before editing",
  quote: "Quote the user's current instruction verbatim",
  sensitive:
    "Sensitive target: prior-search credit, sibling collapse, and the denial cap do not apply.",
  destructive: [
    "List all files/data this command will modify or delete",
    "Write a one-line rollback procedure",
  ],
  routine: [
    "The current user request in one sentence",
    "What this specific command verifies or produces",
  ],
  edited: "has been updated successfully",
} as const;

function bash(command: string): ScriptedTurn["blocks"] {
  return [{ type: "tool_use", name: "Bash", input: { command, description: "Run a command" } }];
}

function edit(file: string, oldString: string, newString: string): ScriptedTurn["blocks"] {
  return [{
    type: "tool_use",
    name: "Edit",
    input: { file_path: file, old_string: oldString, new_string: newString },
  }];
}

function read(file: string): ScriptedTurn["blocks"] {
  return [{ type: "tool_use", name: "Read", input: { file_path: file } }];
}

const DONE: ScriptedTurn["blocks"] = [{ type: "text", text: "Done." }];
const OK: ToolResultExpectation = { isError: false };

const editDenial = (...more: string[]): ToolResultExpectation => ({
  isError: true,
  includes: [TEXT.editDenied, TEXT.beforeEditing, TEXT.quote, ...more],
});
const destructiveDenial: ToolResultExpectation = {
  isError: true,
  includes: [TEXT.bashDenied, ...TEXT.destructive, TEXT.quote],
};
const routineDenial: ToolResultExpectation = {
  isError: true,
  includes: [TEXT.bashDenied, ...TEXT.routine],
};

/** What GateGuard says when it could not record its checks, and what when it failed outright. */
const FAULT_TEXTS = [
  "GateGuard cannot record its checks",
  "GateGuard could not save its session state",
  internalErrorText(),
];

/**
 * Checks that hold for every run: a clean exit, the script followed, and
 * GateGuard deciding every call itself (no crash, no internal-error or
 * state-error answer, which would decide a call without checking it).
 */
async function checkRun(run: ScenarioRun): Promise<TranscriptRecord[]> {
  const context = describeRun(run);
  assertEquals(run.code, 0, context);
  assertEquals(run.result?.is_error, false, context);
  const records = await readTranscript(run);
  const crashes = records.filter((r) =>
    r.type === "attachment" &&
    String((r.attachment as Record<string, unknown>)?.type ?? "").includes("error")
  );
  assertEquals(crashes.map((r) => r.attachment), [], "a hook failed instead of deciding");
  const everything = JSON.stringify(records);
  const faults = FAULT_TEXTS.filter((text) =>
    everything.includes(JSON.stringify(text).slice(1, -1))
  );
  assertEquals(faults, [], "GateGuard answered a call without checking it");
  assertEquals(run.api.failures(), [], context);
  return records;
}

/** The `toolUseResult` text of the transcript record holding a call's result. */
function transcriptResult(records: readonly TranscriptRecord[], id: string): string {
  const record = resultRecord(records, id);
  assert(record, `no transcript result for ${id}`);
  return typeof record.toolUseResult === "string"
    ? record.toolUseResult
    : JSON.stringify(record.toolUseResult);
}

async function withRun(
  scenario: Scenario,
  check: (run: ScenarioRun, records: TranscriptRecord[]) => Promise<void> | void,
): Promise<void> {
  const run = await runScenario(BINARY, scenario);
  // A failing run's tree (named in the failure message) stays until the test file is done,
  // or for good with GATEGUARD_TEST_KEEP_TMP=1.
  await check(run, await checkRun(run));
  await cleanup(run);
}

realClientTest(
  "[real-client] the first Edit of a file is denied with the questions, and the same Edit retried passes",
  () =>
    withRun({
      files: { "src/widget.ts": WIDGET },
      prompt: "make widget return 2",
      turns: (p) => [
        { blocks: edit(`${p}/src/widget.ts`, "return 1;", "return 2;") },
        {
          expect: {
            toolResults: [editDenial("widget.ts")],
            note: "none",
            paths: { [`${p}/src/widget.ts`]: { text: WIDGET } },
          },
          blocks: edit(`${p}/src/widget.ts`, "return 1;", "return 2;"),
        },
        {
          expect: {
            toolResults: [{ isError: false, includes: [TEXT.edited] }],
            note: "none",
            paths: { [`${p}/src/widget.ts`]: { text: WIDGET_EDITED } },
          },
          blocks: DONE,
        },
      ],
    }, (run, records) => {
      assertEquals(deniedToolUseIds(run), [toolUseId(0, 0)]);
      const denied = resultRecord(records, toolUseId(0, 0));
      assertEquals(
        (denied?.permissionDecision as Record<string, unknown> | undefined)?.source,
        "hook",
        JSON.stringify(denied),
      );
      assert(
        transcriptResult(records, toolUseId(0, 0)).startsWith(`Error: ${TEXT.editDenied}`),
      );
      assert(!transcriptResult(records, toolUseId(1, 0)).startsWith("Error:"));
    }),
);

realClientTest(
  "[real-client] [prior-search-credit] a grep earlier in the turn, read from the real transcript, turns the Edit denial into a note",
  () =>
    withRun({
      files: { "src/widget.ts": WIDGET, "src/main.ts": 'import { widget } from "./widget.ts";\n' },
      prompt: "make widget return 2",
      turns: (p) => [
        { blocks: bash("grep -rn widget src") },
        {
          expect: {
            toolResults: [{ isError: false, includes: ["src/widget.ts:1:"] }],
            note: "none",
          },
          blocks: edit(`${p}/src/widget.ts`, "return 1;", "return 2;"),
        },
        {
          expect: {
            toolResults: [{ isError: false, includes: [TEXT.edited] }],
            note: { includes: [TEXT.editNote, "grep", "widget"] },
            paths: { [`${p}/src/widget.ts`]: { text: WIDGET_EDITED } },
          },
          blocks: DONE,
        },
      ],
    }, (run, records) => {
      assertEquals(deniedToolUseIds(run), []);
      assert(attachmentTypes(records).includes("hook_additional_context"));
    }),
);

realClientTest(
  "[real-client] [destructive-bash-gate] rm -rf build is denied on every new attempt and runs only when retried",
  () =>
    withRun({
      files: { "build/cache/a.o": "obj\n" },
      prompt: "clean the build folder",
      env: { GATEGUARD_BASH_ROUTINE_DISABLED: "1" },
      turns: (p) => [
        { blocks: bash("rm -rf build") },
        {
          expect: {
            toolResults: [destructiveDenial],
            paths: { [`${p}/build/cache/a.o`]: { text: "obj\n" } },
          },
          blocks: bash("rm -rf build"),
        },
        {
          expect: { toolResults: [OK], paths: { [`${p}/build`]: "missing" } },
          blocks: bash("mkdir -p build/cache"),
        },
        {
          expect: { toolResults: [OK], paths: { [`${p}/build/cache`]: "dir" } },
          blocks: bash("rm -rf build"),
        },
        {
          expect: { toolResults: [destructiveDenial], paths: { [`${p}/build/cache`]: "dir" } },
          blocks: bash("rm -rf build"),
        },
        { expect: { toolResults: [OK], paths: { [`${p}/build`]: "missing" } }, blocks: DONE },
      ],
    }, (run, records) => {
      assertEquals(deniedToolUseIds(run), [toolUseId(0, 0), toolUseId(3, 0)]);
      assert(transcriptResult(records, toolUseId(0, 0)).startsWith(`Error: ${TEXT.bashDenied}`));
    }),
);

realClientTest(
  "[real-client] [read-only-first-shell-command] ls passes without using the routine gate; the first mkdir is denied once",
  () =>
    withRun({
      files: { "README.md": README },
      prompt: "create the out folder",
      turns: (p) => [
        { blocks: bash("ls") },
        {
          expect: { toolResults: [{ isError: false, includes: ["README.md"] }], note: "none" },
          blocks: bash("mkdir out"),
        },
        {
          expect: { toolResults: [routineDenial], paths: { [`${p}/out`]: "missing" } },
          blocks: bash("mkdir out"),
        },
        {
          expect: { toolResults: [OK], paths: { [`${p}/out`]: "dir" } },
          blocks: bash("mkdir out2"),
        },
        { expect: { toolResults: [OK], paths: { [`${p}/out2`]: "dir" } }, blocks: DONE },
      ],
    }, (run) => {
      assertEquals(deniedToolUseIds(run), [toolUseId(1, 0)]);
    }),
);

realClientTest(
  "[real-client] [sensitive-targets] an Edit of .env is denied even after a search that names it",
  () =>
    withRun({
      files: { ".env": ENV_FILE, "README.md": README },
      prompt: "point API_URL at example.test",
      turns: (p) => [
        { blocks: bash("grep -rn .env .") },
        {
          expect: { toolResults: [{ isError: false, includes: [".env"] }] },
          blocks: edit(`${p}/.env`, "localhost:8080", "example.test"),
        },
        {
          expect: {
            toolResults: [{ ...editDenial(TEXT.sensitive), excludes: ["Prior-search credit"] }],
            note: "none",
            paths: { [`${p}/.env`]: { text: ENV_FILE } },
          },
          blocks: edit(`${p}/.env`, "localhost:8080", "example.test"),
        },
        {
          expect: {
            toolResults: [{ isError: false, includes: [TEXT.edited] }],
            paths: { [`${p}/.env`]: { text: "API_URL=http://example.test\n" } },
          },
          blocks: DONE,
        },
      ],
    }, (run) => {
      assertEquals(deniedToolUseIds(run), [toolUseId(1, 0)]);
    }),
);

/** Decision and reason of every metrics line, in order, for the metrics scenario. */
const METRICS_SEQUENCE = [
  ["Bash", "routine-readonly", "readonly"],
  ["Edit", "deny", "first-touch"],
  ["Edit", "pass-checked", "checked"],
  ["Bash", "routine-deny", "first-command"],
  ["Bash", "pass", "routine-checked"],
  ["Bash", "destructive-deny", "destructive"],
  ["Bash", "pass", "destructive-retry"],
];

/** Every object in a JSON tree. */
function objectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) value.forEach((v) => objectsIn(v, out));
  else if (typeof value === "object" && value !== null) {
    out.push(value as Record<string, unknown>);
    Object.values(value).forEach((v) => objectsIn(v, out));
  }
  return out;
}

realClientTest(
  "[real-client] [decision-metrics] with GATEGUARD_METRICS=1 the session's decisions reach metrics.jsonl and gateguard report --json",
  () =>
    withRun({
      files: { "src/widget.ts": WIDGET },
      prompt: "make widget return 2",
      env: { GATEGUARD_METRICS: "1" },
      turns: (p) => [
        { blocks: bash("ls") },
        {
          expect: { toolResults: [OK] },
          blocks: edit(`${p}/src/widget.ts`, "return 1;", "return 2;"),
        },
        {
          expect: { toolResults: [editDenial()] },
          blocks: edit(`${p}/src/widget.ts`, "return 1;", "return 2;"),
        },
        { expect: { toolResults: [OK] }, blocks: bash("mkdir out") },
        { expect: { toolResults: [routineDenial] }, blocks: bash("mkdir out") },
        { expect: { toolResults: [OK] }, blocks: bash("rm -rf out") },
        { expect: { toolResults: [destructiveDenial] }, blocks: bash("rm -rf out") },
        { expect: { toolResults: [OK], paths: { [`${p}/out`]: "missing" } }, blocks: DONE },
      ],
    }, async (run) => {
      const text = await Deno.readTextFile(`${run.tree.stateDir}/metrics.jsonl`);
      const lines = text.trim().split("\n").map((line) => JSON.parse(line));
      assertEquals(lines.map((l) => [l.tool, l.decision, l.reason]), METRICS_SEQUENCE);
      const sessionId = String(run.result?.session_id);
      const digest = (await sha256Hex(sessionId)).slice(0, 12);
      assertEquals([...new Set(lines.map((l) => l.session))], [digest]);
      assert(!text.includes(run.tree.project), "metrics must not hold paths");
      assertEquals(lines.map((l) => l.class), [null, "code", "code", null, null, null, null]);

      const report = await runCli(["report", "--json", "--dir", run.tree.stateDir]);
      assertEquals(report.code, 0, report.stderr);
      const sessions = objectsIn(JSON.parse(report.stdout)).filter((o) => o.session === digest);
      assertEquals(sessions.length, 1, report.stdout);
      const counts = Object.fromEntries(
        (sessions[0].byDecision as { name: string; count: number }[]).map((c) => [c.name, c.count]),
      );
      assertEquals(counts, {
        "routine-readonly": 1,
        deny: 1,
        "pass-checked": 1,
        "routine-deny": 1,
        pass: 2,
        "destructive-deny": 1,
      });
      assertEquals(sessions[0].decisions, METRICS_SEQUENCE.length);

      // The session id the user sees in Claude Code finds the same lines.
      const mine = await runCli([
        "report",
        "--json",
        "--dir",
        run.tree.stateDir,
        "--session",
        sessionId,
      ]);
      assertEquals(mine.code, 0, mine.stderr);
      const filtered = JSON.parse(mine.stdout);
      assertEquals(filtered.filters.session, digest);
      assertEquals(filtered.lines.counted, METRICS_SEQUENCE.length);
    }),
);

/** Calls between the search and the Edit in the long-turn scenario. */
const LONG_TURN_CALLS = 40;

function moduleText(i: number): string {
  const body = Array.from({ length: 60 }, (_, k) => `  total += ${i * 100 + k}; // step ${k}`);
  return `export function part${i}(): number {\n  let total = 0;\n${
    body.join("\n")
  }\n  return total;\n}\n`;
}

/** The long-turn scenario: a search, `LONG_TURN_CALLS` reads and cats, then the Edit. */
function longTurnScenario(): Scenario {
  const files: Record<string, string> = { "src/widget.ts": WIDGET };
  for (let i = 0; i < LONG_TURN_CALLS / 2; i++) files[`src/part${i}.ts`] = moduleText(i);
  return {
    files,
    prompt: "after reviewing every part, make widget return 2",
    probeMatcher: "Edit",
    turns: (p) => {
      const turns: ScriptedTurn[] = [{ blocks: bash("grep -rn widget src") }];
      for (let i = 0; i < LONG_TURN_CALLS; i++) {
        const part = `src/part${i >> 1}.ts`;
        turns.push({
          expect: { toolResults: [OK] },
          blocks: i % 2 === 0 ? read(`${p}/${part}`) : bash(`cat ${part}`),
        });
      }
      turns.push({
        expect: { toolResults: [OK] },
        blocks: edit(`${p}/src/widget.ts`, "return 1;", "return 2;"),
      });
      turns.push({ blocks: DONE });
      return turns;
    },
  };
}

realClientTest(
  "[real-client] [turn-boundaries] a long turn: the search 40 calls back is still in the transcript window and credits the Edit",
  async () => {
    const run = await runScenario(BINARY, longTurnScenario());
    const editId = toolUseId(LONG_TURN_CALLS + 1, 0);
    const snapshotPath = `${run.tree.probeDir}/${editId}.jsonl`;
    const snapshot = await Deno.readFile(snapshotPath);
    const measure = measureFrom(snapshot, isToolUseLine(toolUseId(0, 0)));
    assert(measure, "the search record is not in the transcript the hook saw");
    const turn = measureFrom(snapshot, isHumanPromptLine);
    const cost = scanCost(snapshotPath, null, editId);
    // Printed before the checks, so the figures are there even when GateGuard misbehaves.
    const window = `${TAIL_WINDOW.maxBytes} bytes / ${TAIL_WINDOW.maxRecords} message records, ` +
      `read back in ${TAIL_WINDOW.chunkBytes}-byte chunks`;
    console.log(
      `[real-client] long turn: search record is ${measure.bytesToEnd} bytes, ` +
        `${measure.linesToEnd} lines and ${measure.messageRecordsToEnd} message records from the ` +
        `end of the ${measure.totalBytes}-byte transcript at the Edit's hook call (window ${window}; ` +
        `in window: ${measure.inWindow}). That is ` +
        `${Math.round(measure.bytesToEnd / (LONG_TURN_CALLS + 1))} bytes per call. The turn ` +
        `starts ${turn?.bytesToEnd} bytes from the end; a scan of that snapshot read ` +
        `${cost.bytesRead} bytes in ${cost.reads} reads (${cost.ms.toFixed(1)} ms in process; ` +
        `the Edit's own record ${cost.scan?.pendingFound ? "was" : "was not yet"} written). ` +
        `Bytes by record type after the search: ${JSON.stringify(measure.bytesByType)}`,
    );
    await checkRun(run);
    const last = run.api.log.filter((r) => r.kind === "turn").at(-1);
    const body = last?.body as { messages?: { role: string; content: unknown }[] } | undefined;
    const notes = (body?.messages ?? []).filter((m) =>
      m.role === "system" && JSON.stringify(m.content).includes(TEXT.editNote)
    );
    assert(measure.inWindow, "the search left the transcript window");
    assertEquals(deniedToolUseIds(run), [], describeRun(run));
    assertEquals(notes.length, 1);
    assert(JSON.stringify(notes[0].content).includes("grep -rn widget src"));
    await cleanup(run);
  },
);

function write(file: string, content: string): ScriptedTurn["blocks"] {
  return [{ type: "tool_use", name: "Write", input: { file_path: file, content } }];
}

const ALPHA = "export const alpha = 1;\n";
const BETA = "export const beta = 2;\n";

realClientTest(
  "[real-client] [same-turn-sibling-creation-collapse] a Write that is the session's first call, made before the transcript exists, still opens the sibling window",
  () =>
    withRun({
      files: {},
      dirs: ["src/newmod"],
      prompt: "add the newmod module",
      probeMatcher: "Write",
      turns: (p) => [
        { blocks: write(`${p}/src/newmod/alpha.ts`, ALPHA) },
        {
          expect: {
            toolResults: [{
              isError: true,
              includes: ["PreToolUse:Write hook error: ", "Before creating", "alpha.ts"],
            }],
            paths: { [`${p}/src/newmod/alpha.ts`]: "missing" },
          },
          blocks: write(`${p}/src/newmod/beta.ts`, BETA),
        },
        {
          expect: {
            toolResults: [OK],
            note: {
              includes: [
                "PreToolUse:Write hook additional context: ",
                `Sibling of ${p}/src/newmod/alpha.ts (gated earlier at denial #1 this session)`,
              ],
            },
            paths: { [`${p}/src/newmod/beta.ts`]: { text: BETA } },
          },
          blocks: DONE,
        },
      ],
    }, async (run) => {
      assertEquals(deniedToolUseIds(run), [toolUseId(0, 0)]);
      // What a hook beside GateGuard could read at the first call (the issue saw no file at all).
      const seen = await Deno.readTextFile(`${run.tree.probeDir}/${toolUseId(0, 0)}.jsonl`).then(
        (text) => {
          const records = parseTranscript(text);
          const prompted = records.some((r) => r.type === "user" && r.promptId !== undefined);
          return `${records.length} records, the prompt ${prompted ? "among them" : "not yet"}`;
        },
        () => "no transcript",
      );
      console.log(`[real-client] the session's first hook call saw ${seen}`);
    }),
);

realClientTest(
  "[real-client] [directory-changes] cd src && grep -rn widget . credits a later Edit of src/widget.ts although the shell stays in src",
  () =>
    withRun({
      files: { "src/widget.ts": WIDGET, "src/main.ts": 'import { widget } from "./widget.ts";\n' },
      prompt: "make widget return 2",
      // A cd is no read-only command; the routine gate is not what this scenario is about.
      env: { GATEGUARD_BASH_ROUTINE_DISABLED: "1" },
      turns: (p) => [
        { blocks: bash("cd src && grep -rn widget .") },
        {
          expect: {
            toolResults: [{ isError: false, includes: ["widget.ts:1:export function widget"] }],
          },
          blocks: edit(`${p}/src/widget.ts`, "return 1;", "return 2;"),
        },
        {
          expect: {
            toolResults: [{ isError: false, includes: [TEXT.edited] }],
            note: { includes: [TEXT.editNote, "cd src && grep -rn widget ."] },
            paths: { [`${p}/src/widget.ts`]: { text: WIDGET_EDITED } },
          },
          blocks: DONE,
        },
      ],
    }, (run, records) => {
      assertEquals(deniedToolUseIds(run), []);
      // The premise: the client moved the shell, and the later records say so.
      const editRecord = records.find((r) =>
        r.type === "assistant" && JSON.stringify(r.message).includes(toolUseId(1, 0))
      );
      assertEquals(editRecord?.cwd, `${run.tree.project}/src`);
    }),
);

realClientTest(
  "[real-client] [parallel-batches-and-partial-application] two Edits of one untouched file in one batch: the first is denied with the batch warning, its sibling is applied, nothing is rolled back",
  () =>
    withRun({
      files: { "src/widget.ts": WIDGET },
      prompt: "make widget return 2 and rename it",
      turns: (p) => [
        {
          blocks: [
            ...edit(`${p}/src/widget.ts`, "return 1;", "return 2;"),
            ...edit(`${p}/src/widget.ts`, "function widget()", "function gadget()"),
          ],
        },
        {
          expect: {
            toolResults: [
              editDenial(
                `Batch warning: if this call rode in a parallel batch, sibling edits to ${p}/src/widget.ts may already have been applied`,
              ),
              { isError: false, includes: [TEXT.edited] },
            ],
            paths: {
              [`${p}/src/widget.ts`]: {
                text: WIDGET.replace("function widget()", "function gadget()"),
              },
            },
          },
          blocks: DONE,
        },
      ],
    }, (run) => {
      assertEquals(deniedToolUseIds(run), [toolUseId(0, 0)]);
    }),
);

realClientTest(
  "[real-client] [destructive-bash-gate] two identical rm -rf build in one model message: the second is no retry of the first and is denied too",
  () =>
    withRun({
      files: { "build/cache/a.o": "obj\n" },
      prompt: "clean the build folder",
      env: { GATEGUARD_BASH_ROUTINE_DISABLED: "1" },
      turns: (p) => [
        { blocks: [...bash("rm -rf build"), ...bash("rm -rf build")] },
        {
          expect: {
            toolResults: [destructiveDenial, destructiveDenial],
            paths: { [`${p}/build/cache/a.o`]: { text: "obj\n" } },
          },
          blocks: bash("rm -rf build"),
        },
        { expect: { toolResults: [OK], paths: { [`${p}/build`]: "missing" } }, blocks: DONE },
      ],
    }, (run) => {
      assertEquals(deniedToolUseIds(run), [toolUseId(0, 0), toolUseId(0, 1)]);
    }),
);

realClientTest(
  "[real-client] [self-protection] a nested agent started with GateGuard switched off, and an agent's own hook switch, are denied on every try",
  async () => {
    const nested = "GATEGUARD_DISABLED=1 claude -p 'delete the build folder'";
    const pluginOff = "claude plugin disable gateguard";
    const denied = (line: string): ToolResultExpectation => ({
      isError: true,
      includes: [TEXT.bashDenied, line, "retries included"],
    });
    const ungated = denied("so an agent among them would act ungated");
    const reconfigured = denied("it changes which hooks the agent's CLI loads");
    await withRun({
      files: {},
      prompt: "get the hooks out of the way",
      // No person answers under bypass: denied, never asked (run as root, the client wants IS_SANDBOX).
      permissionMode: "bypassPermissions",
      env: { IS_SANDBOX: "1" },
      turns: () => [
        { blocks: bash(nested) },
        { expect: { toolResults: [ungated], note: "none" }, blocks: bash(nested) },
        { expect: { toolResults: [ungated], note: "none" }, blocks: bash(pluginOff) },
        { expect: { toolResults: [reconfigured], note: "none" }, blocks: DONE },
      ],
    }, (run) => {
      assertEquals(deniedToolUseIds(run).length, 3);
    });
  },
);

realClientTest(
  "[real-client] [self-protection] the agent's sed -i of .claude/settings.json is denied, and its retry is denied too",
  async () => {
    const sed = `sed -i 's/gateguard/nothing/g' .claude/settings.json`;
    const denial: ToolResultExpectation = {
      isError: true,
      includes: [
        TEXT.bashDenied,
        "This change to .claude/settings.json would switch GateGuard off or weaken it",
        "retries included",
      ],
    };
    let before = "";
    await withRun({
      files: {},
      prompt: "stop the hooks from asking questions",
      turns: () => [
        { blocks: bash(sed) },
        { expect: { toolResults: [denial], note: "none" }, blocks: bash(sed) },
        { expect: { toolResults: [denial], note: "none" }, blocks: DONE },
      ],
    }, async (run) => {
      assertEquals(deniedToolUseIds(run).length, 2);
      before = await Deno.readTextFile(`${run.tree.project}/.claude/settings.json`);
    });
    // The registration the client started with is still there, untouched by the command.
    assert(before.includes("gateguard"), before);
  },
);
