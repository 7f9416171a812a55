/**
 * The file gate's order of checks, in process: each rule of the table is
 * reached by a call through `decide()` on the in-memory filesystem, with
 * the state changes it asks for, and an earlier rule wins over a later one
 * that would also apply.
 */

import { assertEquals } from "../helpers/assert.ts";
import { decide } from "../../src/hook/decide.ts";
import type { Decision } from "../../src/hook/decision.ts";
import { CALL_RULES, TARGET_RULES } from "../../src/hook/file_rules.ts";
import { emptyState, type SessionState } from "../../src/state/schema.ts";
import type { EnvSnapshot } from "../../src/config/env.ts";
import type { Settings } from "../../src/config/settings.ts";
import type { StatResult } from "../../src/platform/fs_port.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { assistant, jsonl, prompt, result } from "../session_logs/builder.ts";
import { contextFor, MemoryFs, ROOT } from "./context.ts";

const CODE = `${ROOT}/src/widget.ts`;
const NEW_CODE = `${ROOT}/src/gadget.ts`;
const ENV_FILE = `${ROOT}/.env`;
const LINKED = `${ROOT}/src/linked.ts`;
const STORE = `${ROOT}/src/store.ts`;
/** A file whose names cost more to read than the profile's reading of it. */
const BIG = `${ROOT}/src/big.ts`;
const BIG_TEXT = "export function loadBigThings() {\n  return 1;\n}\n" +
  "// filler\n".repeat(10_000);
const TRANSCRIPT = "/home/u/.claude/projects/p/s1.jsonl";
const PROMPT = "0b1c2d3e-0000-4000-8000-00000000d001";

/** The in-memory filesystem, with one file that has a second name. */
class LinkFs extends MemoryFs {
  override stat(path: string): StatResult {
    const st = super.stat(path);
    return path === LINKED && st.ok ? { ...st, nlink: 2 } : st;
  }
  override lstat(path: string): StatResult {
    return this.stat(path);
  }
}

function world(transcript: string | null = null): LinkFs {
  const fs = new LinkFs({
    [CODE]: "export function widget() {\n  // old note\n  return 1;\n}\n",
    [ENV_FILE]: "A=1\n",
    [LINKED]: "export const x = 1;\n",
    [STORE]: "export function loadWidgets() {\n  return 1;\n}\n",
    [BIG]: BIG_TEXT,
    [`${ROOT}/.claude/settings.json`]: "{}\n",
  }, [ROOT, `${ROOT}/src`, `${ROOT}/.claude`]);
  if (transcript !== null) fs.write(TRANSCRIPT, transcript);
  return fs;
}

const edit = (file: string, o = "return 1;", n = "return 2;") => ({
  file_path: file,
  old_string: o,
  new_string: n,
});

interface Case {
  name: string;
  tool?: string;
  input: unknown;
  env?: EnvSnapshot;
  settings?: Partial<Settings>;
  /** Work units the call may spend; past them the analysis that asks is refused. */
  budget?: number;
  state?: (s: SessionState) => void;
  payload?: Record<string, unknown>;
  transcript?: string;
  /** The deciding rule, the metrics decision and reason, and the outcome. */
  expect: [rule: string, decision: string, reason: string, outcome: Decision["outcome"]["kind"]];
  /** Keys marked checked and counters bumped. */
  check?: string[];
  inc?: Record<string, number>;
}

const PENDING = "t-pending";

/** A turn with one Bash search before the pending Edit. */
function turnWith(command: string, output: string): string {
  return jsonl(
    prompt("change widget", PROMPT),
    assistant("m1", [{ id: "t1", name: "Bash", input: { command } }]),
    result("t1", PROMPT, { content: output }),
    assistant("m2", [{ id: PENDING, name: "Edit", input: {} }]),
  );
}

const SEARCHED = turnWith("grep -rn widget src", "src/widget.ts:1:export function widget");
const MISSED = turnWith("grep -rn widget lib", "");
const SYMBOL = turnWith("rg -n loadWidgets src", "src/store.ts:1:export function loadWidgets");
const BIG_SYMBOL = turnWith(
  "rg -n loadBigThings src",
  "src/big.ts:1:export function loadBigThings",
);

const SETTINGS = `${ROOT}/.claude/settings.json`;
const HOOKS_OFF = '{"disableAllHooks": true}';

const CASES: Case[] = [
  {
    name: "a call without a path",
    input: {},
    expect: ["input", "deny", "malformed-input", "deny"],
  },
  {
    name: "a settings change that switches GateGuard off, even under an operator glob",
    tool: "Write",
    input: { file_path: SETTINGS, content: HOOKS_OFF },
    env: { GATEGUARD_EXEMPT_GLOBS: "**" },
    payload: { permission_mode: "default" },
    expect: ["self-protection", "self-protect-deny", "self-protection", "deny"],
  },
  {
    name: "a change to GateGuard's state, put to the user",
    tool: "Write",
    input: { file_path: "/home/u/.gateguard/s1.json", content: "{}" },
    payload: { permission_mode: "plan" },
    expect: ["self-protection", "self-protect-ask", "self-protection", "ask"],
  },
  {
    name: "a change to GateGuard's state, where no one can be asked",
    tool: "Write",
    input: { file_path: "/home/u/.gateguard/s1.json", content: "{}" },
    payload: { permission_mode: "bypassPermissions" },
    expect: ["self-protection", "self-protect-deny", "self-protection", "deny"],
  },
  {
    name: "a deletion of another agent's hook file, whose effect is not read",
    tool: "NotebookEdit",
    input: { notebook_path: `${ROOT}/.cursor/hooks.json`, new_source: "x" },
    payload: { permission_mode: "acceptEdits" },
    expect: ["self-protection", "self-protect-ask", "cannot-tell", "ask"],
  },
  {
    name: "an operator glob exempts even a sensitive file",
    input: edit(ENV_FILE, "A=1", "A=2"),
    env: { GATEGUARD_EXEMPT_GLOBS: ".env" },
    expect: ["exempt", "pass-exempt", "exempt-glob", "pass"],
  },
  {
    name: "Claude's own settings file",
    input: edit(`${ROOT}/.claude/settings.json`, "{}", '{"a":1}'),
    expect: ["exempt", "pass-exempt", "claude-settings", "pass"],
  },
  {
    name: "a subagent on an ordinary file",
    input: edit(CODE),
    payload: { agent_id: "sub" },
    expect: ["subagent", "pass-subagent", "subagent", "pass"],
  },
  {
    name: "a subagent on a sensitive file is denied under its own key",
    input: edit(ENV_FILE, "A=1", "A=2"),
    payload: { agent_id: "sub" },
    expect: ["subagent", "deny", "subagent-sensitive", "deny"],
    check: [`__subagent__:${ENV_FILE}`],
    inc: { fact_force_denials: 1 },
  },
  {
    name: "a subagent on a hard-linked file",
    input: edit(LINKED, "x = 1", "x = 2"),
    payload: { agent_id: "sub" },
    expect: ["subagent", "deny", "subagent-hard-linked", "deny"],
    check: [`__subagent__:${LINKED}`],
    inc: { fact_force_denials: 1 },
  },
  {
    name: "a subagent on a sensitive file the parent checked",
    input: edit(ENV_FILE, "A=1", "A=2"),
    payload: { agent_id: "sub" },
    state: (s) => s.checked.add(ENV_FILE),
    expect: ["subagent", "pass-checked", "checked", "pass"],
  },
  {
    name: "a checked sensitive file passes before the strict rule",
    input: edit(ENV_FILE, "A=1", "A=2"),
    state: (s) => s.checked.add(ENV_FILE),
    expect: ["checked", "pass-checked", "checked", "pass"],
  },
  {
    name: "a sensitive file is denied even past the denial cap",
    input: edit(ENV_FILE, "A=1", "A=2"),
    env: { GATEGUARD_FACT_FORCE_MAX_DENIALS: "0" },
    expect: ["strict", "deny", "sensitive", "deny"],
    check: [ENV_FILE],
    inc: { fact_force_denials: 1 },
  },
  {
    name: "a hard-linked file",
    input: edit(LINKED, "x = 1", "x = 2"),
    expect: ["strict", "deny", "hard-linked", "deny"],
    check: [LINKED],
    inc: { fact_force_denials: 1 },
  },
  {
    name: "the project file turns the file gates off for ordinary targets",
    input: edit(CODE),
    settings: { fileGates: false },
    expect: ["project-file", "pass", "file-gates-off", "pass"],
  },
  {
    name: "the project file's exempt globs",
    input: edit(CODE),
    settings: { fileExemptGlobs: ["src/**"] },
    expect: ["project-file", "pass-exempt", "exempt-glob", "pass"],
  },
  {
    name: "the project file never turns the gate off for a sensitive file",
    input: edit(ENV_FILE, "A=1", "A=2"),
    settings: { fileGates: false },
    expect: ["strict", "deny", "sensitive", "deny"],
    check: [ENV_FILE],
    inc: { fact_force_denials: 1 },
  },
  {
    name: "exempt globs that cannot be matched within the budget leave the path in doubt",
    input: edit(CODE),
    env: { GATEGUARD_EXEMPT_GLOBS: "**/a*b*c*d*e*f*g/**" },
    budget: 0,
    expect: ["budget-path", "deny", "work-budget", "deny"],
    check: [CODE],
    inc: { fact_force_denials: 1 },
  },
  {
    name: "a turn that cannot be read within the budget gives no credit",
    input: edit(CODE),
    transcript: SEARCHED,
    budget: 10,
    expect: ["budget-searches", "deny", "work-budget", "deny"],
    check: [CODE],
    inc: { fact_force_denials: 1 },
  },
  {
    name: "a change that cannot be profiled within the budget is no comment-only edit",
    input: edit(CODE, "// old note", "// new note"),
    budget: 10,
    expect: ["budget-change", "deny", "work-budget", "deny"],
    check: [CODE],
    inc: { fact_force_denials: 1 },
  },
  {
    name: "a search earlier in the turn credits the edit",
    input: edit(CODE),
    transcript: SEARCHED,
    expect: ["credit", "credit", "prior-search", "note"],
    check: [CODE],
    inc: { fact_force_credited: 1 },
  },
  {
    name: "a comment-only edit passes without being marked checked",
    input: edit(CODE, "// old note", "// new note"),
    expect: ["trivial", "trivial", "comment-whitespace", "note"],
    inc: { trivial_allows: 1 },
  },
  {
    name: "a second new file in an open sibling window",
    tool: "Write",
    input: { file_path: NEW_CODE, content: "export const g = 1;\n" },
    state: (s) => {
      s.dirGates[`code\u0000${ROOT}/src`] = { turn: null, at: 900, first: "src/a.ts", ordinal: 1 };
    },
    expect: ["sibling", "sibling", "same-turn-dir", "note"],
    check: [NEW_CODE],
    inc: { sibling_allows: 1 },
  },
  {
    name: "the denial cap passes an ordinary first touch",
    input: edit(CODE),
    env: { GATEGUARD_FACT_FORCE_MAX_DENIALS: "0" },
    expect: ["cap", "cap", "max-denials", "pass"],
    check: [CODE],
    inc: { cap_allows: 1 },
  },
  {
    name: "a search for a name the file exports credits the edit once nothing else passes it",
    input: edit(STORE),
    transcript: SYMBOL,
    expect: ["symbol-credit", "credit", "prior-search", "note"],
    check: [STORE],
    inc: { fact_force_credited: 1 },
  },
  {
    name: "a file whose names cannot be read within the budget gives no symbol credit",
    input: edit(BIG),
    transcript: BIG_SYMBOL,
    // The profile reads the file twice over; reading its names costs seven times its length.
    budget: 3 * BIG_TEXT.length,
    expect: ["budget-symbols", "deny", "work-budget", "deny"],
    check: [BIG],
    inc: { fact_force_denials: 1 },
  },
  {
    name: "an ordinary first touch",
    input: edit(CODE),
    expect: ["deny", "deny", "first-touch", "deny"],
    check: [CODE],
    inc: { fact_force_denials: 1 },
  },
  {
    name: "a first touch after a search that missed names the miss",
    input: edit(CODE),
    transcript: MISSED,
    expect: ["deny", "deny", "near-miss:out-of-scope", "deny"],
    check: [CODE],
    inc: { fact_force_denials: 1 },
  },
];

async function run(c: Case): Promise<Decision> {
  const state = emptyState(0);
  c.state?.(state);
  const payload = c.transcript === undefined
    ? c.payload
    : { transcript_path: TRANSCRIPT, prompt_id: PROMPT, tool_use_id: PENDING, ...c.payload };
  const ctx = contextFor(c.tool ?? "Edit", c.input, {
    env: { GATEGUARD_METRICS: "1", ...c.env },
    state,
    fs: world(c.transcript ?? null),
    payload,
  });
  ctx.settings = { ...ctx.settings, ...c.settings };
  if (c.budget !== undefined) ctx.budget = new WorkBudget(c.budget);
  return await decide(ctx);
}

Deno.test("[order-of-checks] each rule of the file gate decides where the table places it, with its state changes", async () => {
  for (const c of CASES) {
    const d = await run(c);
    const e = d.events[0];
    assertEquals(
      [d.rules?.[0], e?.decision, e?.reason, d.outcome.kind],
      c.expect,
      c.name,
    );
    assertEquals(d.delta.check, c.check ?? [], c.name);
    assertEquals(d.delta.inc, c.inc ?? {}, c.name);
  }
});

Deno.test("[order-of-checks] the cases above reach every rule of the table", () => {
  const reached = new Set(CASES.map((c) => c.expect[0]));
  const rules = [...CALL_RULES, ...TARGET_RULES].map((r) => r.id).filter((id) => id !== "input");
  assertEquals(rules.filter((id) => !reached.has(id)), []);
});

Deno.test("[order-of-checks] without metrics a retry of a checked file passes before the file gate loads its rules", async () => {
  const state = emptyState(0);
  state.checked.add(CODE);
  const fs = world();
  const d = await decide(contextFor("Edit", edit(CODE), { state, fs }));
  assertEquals([d.outcome.kind, d.events, d.rules], ["pass", [], undefined]);
});
