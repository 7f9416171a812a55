/**
 * Re-records the real Claude Code transcripts under
 * `tests/fixtures/claude-code-2.1.332/` (`deno task record-fixtures`).
 *
 * Each recording is one scripted run of the pinned client through the
 * end-to-end harness, with GateGuard registered the way a user registers
 * it. The run is checked for the shape the fixture exists to show (a
 * denial, a note, a missing tool, a working Grep), then sanitised
 * (`sanitize.ts`) and written. A recording that leaks a machine path or
 * name is refused, and nothing is written unless every recording passed.
 *
 * @module
 */

import { ensureClaudeCode } from "../../../scripts/install_claude_code.ts";
import { type ScriptBlock, toolUseId } from "./fake_api.ts";
import {
  attachmentTypes,
  cleanup,
  describeRun,
  encodeProjectDir,
  parseTranscript,
  resultRecord,
  runScenario,
  type Scenario,
  type ScenarioRun,
  type TranscriptRecord,
} from "./harness.ts";
import { leaksIn, type Replacement, sanitizeTranscript } from "./sanitize.ts";

/** Where the fixtures live, relative to the repository. */
export const FIXTURE_DIR = new URL("../../fixtures/claude-code-2.1.332/", import.meta.url);

const HELLO = "hello world\n";
const WIDGET = "// Returns one.\nexport function widget(): number {\n  return 1;\n}\n";
const FINAL: ScriptBlock[] = [{ type: "text", text: "FINAL-TEXT: done." }];

function call(say: string, name: string, input: Record<string, unknown>): ScriptBlock[] {
  return [{ type: "text", text: say }, { type: "tool_use", name, input }];
}

/** One fixture: the scenario to run and what its transcript must show. */
interface Recording {
  name: string;
  scenario: Scenario;
  /** Problems with the run, empty when it shows what the fixture is for. */
  check: (records: readonly TranscriptRecord[], run: ScenarioRun) => string[];
}

function resultOf(records: readonly TranscriptRecord[], turn: number): Record<string, unknown> {
  const record = resultRecord(records, toolUseId(turn, 1));
  const content = (record?.message as { content?: Record<string, unknown>[] } | undefined)
    ?.content;
  return content?.find((b) => b.type === "tool_result") ?? {};
}

function isError(result: Record<string, unknown>): boolean {
  return result.is_error === true || String(result.content ?? "").startsWith("<tool_use_error>");
}

function expectResults(
  records: readonly TranscriptRecord[],
  expected: readonly boolean[],
): string[] {
  return expected.flatMap((error, turn) =>
    isError(resultOf(records, turn)) === error ? [] : [
      `call ${turn}: expected ${error ? "an error" : "success"}, got ${
        JSON.stringify(resultOf(records, turn)).slice(0, 300)
      }`,
    ]
  );
}

/** The recordings, by fixture name. */
export const RECORDINGS: readonly Recording[] = [
  {
    name: "edit-denied",
    scenario: {
      files: { "hello.txt": HELLO },
      prompt: "edit the file",
      turns: (p) => [
        {
          blocks: call("Edit.", "Edit", {
            file_path: `${p}/hello.txt`,
            old_string: "hello",
            new_string: "goodbye",
          }),
        },
        { blocks: FINAL },
      ],
    },
    check: (records) => expectResults(records, [true]),
  },
  {
    name: "edit-with-note",
    scenario: {
      files: { "src/widget.ts": WIDGET },
      prompt: "fix the comment",
      turns: (p) => [
        {
          blocks: call("Edit.", "Edit", {
            file_path: `${p}/src/widget.ts`,
            old_string: "// Returns one.",
            new_string: "// Returns the number one.",
          }),
        },
        { blocks: FINAL },
      ],
    },
    check: (records) => [
      ...expectResults(records, [false]),
      ...(attachmentTypes(records).includes("hook_additional_context")
        ? []
        : ["no hook_additional_context attachment: GateGuard sent no note"]),
    ],
  },
  {
    name: "bash-then-missing-tools",
    scenario: {
      files: { "hello.txt": HELLO },
      prompt: "list files",
      turns: (p) => [
        { blocks: call("List files.", "Bash", { command: "ls", description: "List files" }) },
        { blocks: call("Grep.", "Grep", { pattern: "hello", path: p }) },
        { blocks: call("Glob.", "Glob", { pattern: "*.txt", path: p }) },
        { blocks: FINAL },
      ],
    },
    check: (records) => expectResults(records, [false, true, true]),
  },
  {
    name: "grep-glob-tools",
    scenario: {
      files: { "hello.txt": HELLO },
      prompt: "make an out folder",
      args: ["--tools", "Bash,Edit,Read,Grep,Glob"],
      turns: (p) => [
        { blocks: call("Make it.", "Bash", { command: "mkdir out", description: "Make out" }) },
        { blocks: call("Grep.", "Grep", { pattern: "hello", path: p }) },
        { blocks: call("Glob.", "Glob", { pattern: "*.txt", path: p }) },
        { blocks: FINAL },
      ],
    },
    check: (records) => expectResults(records, [true, false, false]),
  },
];

/** The machine paths of one run and of this process, with their placeholders. */
function replacementsFor(run: ScenarioRun): Replacement[] {
  const repo = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");
  const home = Deno.env.get("HOME") ?? "";
  const out: Replacement[] = [
    { path: run.tree.project, placeholder: "$ROOT" },
    { path: encodeProjectDir(run.tree.project), placeholder: "$ROOT_DIR_NAME" },
    { path: run.tree.home, placeholder: "$HOME" },
    { path: run.tree.tmp, placeholder: "$TMP" },
    { path: run.tree.root, placeholder: "$TREE" },
    { path: repo, placeholder: "$REPO" },
    { path: Deno.execPath(), placeholder: "$DENO" },
  ];
  if (home.length > 1) out.push({ path: home, placeholder: "$REAL_HOME" });
  return out;
}

/** Words a committed fixture must never contain. */
function forbiddenWords(run: ScenarioRun): string[] {
  const user = Deno.env.get("USER") ?? Deno.env.get("LOGNAME") ?? "";
  let host = "";
  try {
    host = Deno.hostname();
  } catch {
    host = "";
  }
  return [
    run.tree.root,
    Deno.env.get("HOME") ?? "",
    user.length > 0 ? `/${user}/` : "",
    host.length >= 3 ? host : "",
    "/tmp/",
    "/home/",
    "/Users/",
  ];
}

/** Runs one recording; returns the sanitised transcript or throws with the reason. */
async function record(binary: string, recording: Recording): Promise<string> {
  const run = await runScenario(binary, recording.scenario);
  const raw = await Deno.readTextFile(run.transcriptPath).catch(() => "");
  const records = parseTranscript(raw);
  const problems = [
    ...(run.code === 0 ? [] : [`client exit ${run.code}`]),
    ...run.api.failures(),
    ...(records.length === 0 ? ["no transcript"] : recording.check(records, run)),
  ];
  if (problems.length > 0) {
    throw new Error(`${recording.name}: ${problems.join("; ")}\n${describeRun(run)}`);
  }
  const text = sanitizeTranscript(raw, replacementsFor(run));
  const leaks = leaksIn(text, forbiddenWords(run));
  if (leaks.length > 0) throw new Error(`${recording.name}: still names ${leaks.join(", ")}`);
  await cleanup(run);
  return text;
}

if (import.meta.main) {
  const install = await ensureClaudeCode();
  if (!install.ok) {
    console.error(`record-fixtures: the pinned Claude Code is not available (${install.reason})`);
    Deno.exit(1);
  }
  const texts: [string, string][] = [];
  for (const recording of RECORDINGS) {
    texts.push([recording.name, await record(install.binary, recording)]);
  }
  await Deno.mkdir(FIXTURE_DIR, { recursive: true });
  for (const [name, text] of texts) {
    const url = new URL(`${name}.jsonl`, FIXTURE_DIR);
    await Deno.writeTextFile(url, text);
    console.log(`wrote ${url.pathname} (${text.length} bytes)`);
  }
}
