/**
 * `gateguard explain`: shows the decision the hook would make for one
 * call, in plain words first and then the rule trace (which rule of the
 * order of checks decided), without saving state or writing metrics.
 *
 * The call is a payload (stdin or `--payload`), read with the adapter of
 * `--agent` exactly as the hook reads it, or one built from `--command` or
 * `--file`. The order of checks is strict, so the rule that decided also
 * tells which earlier rules did not apply. The gates name the deciding rule
 * of each target from the same rule tables this command walks.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { resolveSettings, settingsFrom } from "../config/settings.ts";
import { denoFs } from "../platform/fs_port.ts";
import type { HookCall } from "../hook/call.ts";
import type { ToolCall } from "../tools/call.ts";
import { decide, isGated } from "../hook/decide.ts";
import type { DecideContext, GateEvent, Outcome, Rule } from "../hook/decision.ts";
import { printable } from "../platform/terminal_text.ts";
import { FILE_RULES } from "../hook/file_rules.ts";
import { SHELL_RULES } from "../hook/shell_gate.ts";
import { gatedTool, readToolCall, shellToolName, TOOL } from "../tools/gated.ts";
import { callContext, projectRootOf } from "./call_context.ts";
import type { DestructiveHit } from "../shell/destructive/mod.ts";
import { WorkBudget } from "../platform/budget.ts";
import { admitPayload, type AdmittedPayload, MAX_PAYLOAD_BYTES, refusalText } from "./payload.ts";
import { mergeOutcomes } from "../agents/adapter.ts";
import {
  AGENT_NAMES,
  type AgentName,
  DEFAULT_AGENT,
  isAgentName,
  loadAdapter,
} from "../agents/registry.ts";
import { isRecord } from "../platform/json.ts";
import { jsonBreak } from "../platform/json_break.ts";
import { joinPath } from "../platform/path.ts";
import { plainSummary } from "./explain_words.ts";

const USAGE = `Usage: gateguard explain [--payload FILE] [--agent NAME] [--json]
       gateguard explain --command 'COMMAND' [--shell bash|powershell] [--json]
       gateguard explain --file PATH [--json]

Shows the decision the hook would make for one call: why, in plain words,
then the rule that decided and the rules before it. Nothing is saved.

  --payload FILE    read the hook payload from FILE instead of stdin
  --agent NAME      read the payload as NAME's hook sends it, as
                    \`gateguard hook --agent NAME\` does: ${AGENT_NAMES.join(", ")}
                    (default ${DEFAULT_AGENT})
  --command CMD     explain a Claude Code Bash call that runs CMD, from the
                    current directory
  --shell DIALECT   with --command: bash (default) or powershell (a
                    PowerShell call instead)
  --file PATH       explain a Claude Code call that changes PATH, relative to
                    the current directory: an Edit when the file exists (of a
                    change GateGuard cannot read, so the full questions), a
                    Write creating it when it does not
  --json            print the result as JSON

A built call carries no session or transcript: it is decided as the first
call of a session without prior searches would be. A payload that is not
JSON is an error (exit 1) naming the line and column where it breaks.`;

/** One gate's verdict on one target, with the rules walked to reach it. */
type Target = GateEvent & {
  /** Which order of checks decided it. */
  gate: "file" | "shell";
  rule: string | null;
  steps: { rule: string; applied: boolean }[];
};

/** Everything `explain` found out about one call. */
export interface Explained {
  /** The agent whose payload it was. */
  agent: AgentName;
  /** The payload's tool name. */
  tool: string;
  gated: boolean;
  decision: "pass" | "note" | "deny" | "ask";
  message: string | null;
  targets: Target[];
  /** What the hook would print, in the agent's format. */
  stdout: string;
  /** For a shell call: the pack and rule that find it destructive, or null. */
  destructive?: DestructiveHit | null;
  /** For a file call: each target of GateGuard's control surface, with its row. */
  controlSurface?: SurfaceEntry[];
}

/** A target of a file call that belongs to GateGuard's control surface (control/surface.ts). */
export interface SurfaceEntry {
  path: string;
  /** The row's id, or null when the path cannot be resolved. */
  row: string | null;
  kind: string | null;
  relation: "is" | "holds" | "unresolved";
  controls: string;
}

/** The control-surface rows the file call's targets belong to. */
async function surfaceEntries(ctx: DecideContext, typed: ToolCall | null): Promise<SurfaceEntry[]> {
  if (typed?.kind !== "file") return [];
  const { rootsOf, surfaceContextOf, targetSurface, targetsOf } =
    await (import(new URL("../hook/file_targets.ts", import.meta.url).href) as Promise<
      typeof import("../hook/file_targets.ts")
    >);
  const surface = surfaceContextOf(ctx);
  return targetsOf(ctx, typed, rootsOf(ctx)).flatMap(({ target }): SurfaceEntry[] => {
    const hit = targetSurface(target, surface);
    if (hit === null) return [];
    return "unresolved" in hit
      ? [{
        path: target.absolute,
        row: null,
        kind: null,
        relation: "unresolved",
        controls: "a path GateGuard cannot resolve",
      }]
      : [{
        path: target.absolute,
        row: hit.row.id,
        kind: hit.row.kind,
        relation: hit.relation,
        controls: hit.row.controls,
      }];
  });
}

/** What the hook would say about a payload it turns away before parsing it. */
const REFUSED: Readonly<Record<"oversize" | "too-complex", string>> = {
  oversize: `the input is larger than ${MAX_PAYLOAD_BYTES} bytes`,
  "too-complex": "the input is too large or too complex to check",
};

/** The options of one run. */
export interface ExplainArgs {
  json: boolean;
  agent: AgentName;
  payloadFile: string | null;
  command: string | null;
  shell: "bash" | "powershell";
  file: string | null;
}

/** Options taking a value, and where each one goes. */
const VALUE_FLAGS: Readonly<
  Record<string, (a: ExplainArgs, v: string) => ExplainArgs | string>
> = {
  "--payload": (a, v) => ({ ...a, payloadFile: v }),
  "--command": (a, v) => ({ ...a, command: v }),
  "--file": (a, v) => ({ ...a, file: v }),
  "--agent": (a, v) =>
    isAgentName(v) ? { ...a, agent: v } : `--agent takes one of ${AGENT_NAMES.join(", ")}`,
  "--shell": (a, v) =>
    v === "bash" || v === "powershell" ? { ...a, shell: v } : "--shell takes bash or powershell",
};

/** Reads the command line; a string is the usage error, null asks for the help text. */
export function parseExplainArgs(args: readonly string[]): ExplainArgs | string | null {
  let out: ExplainArgs = {
    json: false,
    agent: DEFAULT_AGENT,
    payloadFile: null,
    command: null,
    shell: "bash",
    file: null,
  };
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const raw = args[i];
    if (raw === "--help" || raw === "-h") return null;
    if (raw === "--json") {
      out = { ...out, json: true };
      continue;
    }
    const eq = raw.indexOf("=");
    const flag = raw.startsWith("--") && eq > 0 ? raw.slice(0, eq) : raw;
    const set = Object.hasOwn(VALUE_FLAGS, flag) ? VALUE_FLAGS[flag] : undefined;
    const value = flag === raw ? args[++i] : raw.slice(eq + 1);
    if (!set || value === undefined) return `unknown or incomplete option '${raw.slice(0, 80)}'`;
    if (seen.has(flag)) return `${flag} is given twice`;
    seen.add(flag);
    const next = set(out, value);
    if (typeof next === "string") return next;
    out = next;
  }
  const sources = [out.payloadFile, out.command, out.file].filter((s) => s !== null).length;
  if (sources > 1) return "--payload, --command and --file each name the call: give one";
  if (seen.has("--shell") && out.command === null) return "--shell goes with --command";
  if (seen.has("--agent") && (out.command !== null || out.file !== null)) {
    return "--command and --file build a Claude Code call; --agent reads a payload";
  }
  return out;
}

/**
 * The Claude Code payload `--command` or `--file` stands for, run from
 * `cwd`; `exists` says whether a file is there (an Edit of it, else a Write).
 */
export function builtPayload(
  args: Pick<ExplainArgs, "command" | "shell" | "file">,
  cwd: string,
  exists: (path: string) => boolean,
): Record<string, unknown> | null {
  const base = { hook_event_name: "PreToolUse", cwd };
  if (args.command !== null) {
    return {
      ...base,
      tool_name: shellToolName(args.shell),
      tool_input: { command: args.command },
    };
  }
  if (args.file === null) return null;
  const path = /^([A-Za-z]:)?[\\/]/.test(args.file) ? args.file : joinPath(cwd, args.file);
  // An Edit without the replaced text, read as a change not known (`unknownEdit`).
  return exists(path)
    ? { ...base, tool_name: TOOL.edit.name, tool_input: { file_path: path } }
    : { ...base, tool_name: TOOL.write.name, tool_input: { file_path: path, content: "" } };
}

/**
 * The call `--file` stands for when the file exists: an edit of it whose
 * change is not known, so nothing about it passes as trivial. A Claude Code
 * payload cannot say that (an Edit without its texts is not readable), so
 * the typed call is given beside the payload.
 */
export function unknownEdit(
  args: Pick<ExplainArgs, "file">,
  payload: Record<string, unknown>,
): ToolCall | undefined {
  const input = payload.tool_input;
  if (args.file === null || payload.tool_name !== TOOL.edit.name || !isRecord(input)) {
    return undefined;
  }
  const path = input.file_path;
  if (typeof path !== "string") return undefined;
  return { kind: "file", touches: [{ path, verb: "edit", change: { kind: "unreadable" } }] };
}

/** Reads the payload file like stdin; a FIFO is refused before it is opened (it would wait). */
function admitFile(path: string, work: WorkBudget): AdmittedPayload | "fifo" {
  if (Deno.statSync(path).isFifo) return "fifo";
  using file = Deno.openSync(path, { read: true });
  return admitPayload(file, work);
}

/** A payload text read as one JSON object, or why it is not one (with where it breaks). */
export function parsePayload(
  raw: string,
): { ok: true; payload: Record<string, unknown> } | { ok: false; problem: string } {
  // The hook skips a leading byte order mark (Cursor sends one); so does explain.
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const broken = jsonBreak(text);
  if (broken !== null) {
    return {
      ok: false,
      problem: `the payload is not valid JSON: at line ${broken.line}, column ${broken.column} ` +
        `(offset ${broken.offset}) ${broken.expected} was expected`,
    };
  }
  const value: unknown = JSON.parse(text);
  return isRecord(value)
    ? { ok: true, payload: value }
    : { ok: false, problem: "the payload is JSON but not an object" };
}

function rulesOf(gate: Target["gate"]): readonly Rule[] {
  return gate === "file" ? FILE_RULES : SHELL_RULES;
}

/** The gate that decides `call`: the typed call's kind, else the tool table's. */
function gateOf(call: HookCall): Target["gate"] {
  if (call.typed && call.typed.kind !== "malformed") {
    return call.typed.kind === "shell" ? "shell" : "file";
  }
  return gatedTool(call.toolName)?.gate === "shell" ? "shell" : "file";
}

/** Decides one gate call as the hook would, without saving anything. */
async function explainCall(
  call: HookCall,
  env: EnvSnapshot,
  payloadUnits: number,
): Promise<
  {
    outcome: Outcome;
    targets: Target[];
    destructive?: DestructiveHit | null;
    surface: SurfaceEntry[];
  }
> {
  if (!isGated(call.toolName, settingsFrom(env))) {
    return { outcome: { kind: "pass" }, targets: [], surface: [] };
  }
  // Metrics stay off on disk; switching them on here only fills in the events.
  const settings = {
    ...await resolveSettings(env, projectRootOf(call, env), denoFs),
    metrics: true,
  };
  const { ctx } = await callContext(call, env, settings, payloadUnits);
  const decision = await decide(ctx);
  const gate = gateOf(call);
  const rules = rulesOf(gate);
  const targets = decision.events.map((e, n) => {
    const at = rules.findIndex((r) => r.id === decision.rules?.[n]);
    return {
      ...e,
      gate,
      rule: at >= 0 ? rules[at].id : null,
      steps: rules.slice(0, at + 1).map((r, i) => ({ rule: r.id, applied: i === at })),
    };
  });
  const typed = call.typed ?? readToolCall(call.toolName, call.toolInput);
  const surface = await surfaceEntries(ctx, typed);
  if (typed?.kind !== "shell") return { outcome: decision.outcome, targets, surface };
  const shellGate =
    await (import(new URL("../hook/shell_gate.ts", import.meta.url).href) as Promise<
      typeof import("../hook/shell_gate.ts")
    >);
  const destructive = typed.deletion !== undefined
    ? shellGate.deletionHit(typed.deletion)
    : (await shellGate.destructiveRule(typed.dialect, typed.command, settings)).hit;
  return { outcome: decision.outcome, targets, destructive, surface };
}

/** Explains one parsed payload as `agent`'s hook would decide it. */
export async function explainPayload(
  payload: Record<string, unknown>,
  agent: AgentName,
  env: EnvSnapshot,
  payloadUnits: number,
  typed?: ToolCall,
): Promise<Explained> {
  const adapter = await loadAdapter(agent);
  const tool = typeof payload.tool_name === "string" ? payload.tool_name : "";
  const translation = adapter.translate(payload, env);
  if (translation.kind === "refuse") {
    const outcome: Outcome = { kind: "deny", text: translation.text };
    return {
      agent,
      tool,
      gated: true,
      decision: "deny",
      message: translation.text,
      targets: [],
      stdout: adapter.render(outcome),
    };
  }
  const outcomes: Outcome[] = [];
  const targets: Target[] = [];
  const surface: SurfaceEntry[] = [];
  let destructive: DestructiveHit | null | undefined;
  let gated = false;
  for (const call of translation.calls) {
    gated ||= isGated(call.toolName, settingsFrom(env));
    const one = await explainCall(typed ? { ...call, typed } : call, env, payloadUnits);
    outcomes.push(one.outcome);
    targets.push(...one.targets);
    surface.push(...one.surface);
    if (destructive === undefined || (destructive === null && one.destructive)) {
      destructive = one.destructive;
    }
  }
  const outcome = mergeOutcomes(outcomes);
  return {
    agent,
    tool,
    gated,
    decision: outcome.kind,
    message: outcome.kind === "pass" ? null : outcome.text,
    targets,
    stdout: adapter.render(outcome),
    ...(destructive === undefined ? {} : { destructive }),
    ...(surface.length > 0 ? { controlSurface: surface } : {}),
  };
}

/** The rule trace: per target, the rules walked and the one that decided. */
function ruleTrace(x: Explained): string[] {
  if (!x.gated) return [`${x.tool || "(no tool)"}: not gated; the hook would print nothing.`];
  const lines = [`${x.tool}: ${x.decision}`];
  x.targets.forEach((t, n) => {
    const rules = rulesOf(t.gate);
    const head = x.targets.length > 1 ? `target ${n + 1} (${t.tool}): ` : "";
    lines.push(
      `${head}decision ${t.decision}, reason ${t.reason}` +
        (t.class ? `, class ${t.class}` : "") + (t.sensitive ? ", sensitive" : ""),
    );
    for (const step of t.steps) {
      const title = rules.find((r) => r.id === step.rule)?.title ?? step.rule;
      lines.push(`  ${step.applied ? "->" : "  "} ${title}: ${step.applied ? "applies" : "no"}`);
    }
    if (t.questions) lines.push(`  questions: ${t.questions.join(", ")}`);
    // The destructive rule belongs under the shell target it decided.
    const d = x.destructive;
    if (d && t.gate === "shell" && x.targets.findIndex((o) => o.gate === "shell") === n) {
      lines.push(`  destructive rule: ${d.pack}/${d.rule} (${d.destroys})`);
    }
  });
  for (const entry of x.controlSurface ?? []) {
    const what = entry.row === null
      ? "cannot be resolved"
      : `${entry.relation === "holds" ? "holds files of" : "is"} ${entry.row} (${entry.kind})`;
    lines.push(`control surface: ${printable(entry.path)} ${what}: ${entry.controls}`);
  }
  return lines;
}

/** The text output: the plain-language summary, then the rule trace, then what the agent is told. */
export function renderText(x: Explained): string {
  const lines = [...plainSummary(x), "", ...ruleTrace(x)];
  if (x.message) lines.push("", "What the agent is told:", "", x.message);
  return lines.join("\n");
}

/** The payload of this run: built from the options, or read from a file or stdin. */
function payloadText(
  args: ExplainArgs,
  work: WorkBudget,
): AdmittedPayload | { kind: "error"; message: string } {
  const built = builtPayload(args, Deno.cwd(), (path) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  });
  if (built !== null) return { kind: "text", text: JSON.stringify(built) };
  try {
    const input = args.payloadFile === null
      ? admitPayload(Deno.stdin, work)
      : admitFile(args.payloadFile, work);
    return input === "fifo"
      ? { kind: "error", message: "the payload file is a FIFO; pipe it to stdin instead" }
      : input;
  } catch (err) {
    return { kind: "error", message: `cannot read the payload: ${(err as Error).message}` };
  }
}

/** Runs `gateguard explain`. */
export async function main(args: string[], env: EnvSnapshot): Promise<number> {
  const parsed = parseExplainArgs(args);
  if (parsed === null) {
    console.log(USAGE);
    return 0;
  }
  if (typeof parsed === "string") {
    console.error(`gateguard explain: ${parsed}\n${USAGE}`);
    return 2;
  }
  // The hook's own admission: the same bounds, the same work budget.
  const work = new WorkBudget();
  const input = payloadText(parsed, work);
  if (input.kind === "error") {
    console.error(`gateguard explain: ${input.message}`);
    return 1;
  }
  if (input.kind !== "text") {
    // The hook refuses such an input before parsing it; so does explain.
    const message = await refusalText(input.kind);
    console.log(
      parsed.json
        ? JSON.stringify({ gated: true, decision: "deny", message })
        : `the hook would deny: ${REFUSED[input.kind]}\n\n${message}`,
    );
    return 0;
  }
  const read = parsePayload(input.text);
  if (!read.ok) {
    console.error(
      `gateguard explain: ${read.problem}; the hook would let such a call through unchecked`,
    );
    return 1;
  }
  const result = await explainPayload(
    read.payload,
    parsed.agent,
    env,
    work.spent,
    unknownEdit(parsed, read.payload),
  );
  console.log(parsed.json ? JSON.stringify(result, null, 2) : renderText(result));
  return 0;
}
