/**
 * `gateguard doctor`'s end-to-end check of a registration: it runs each
 * registered command the way Claude Code would (through `sh -c`, from the
 * project directory, the payload on stdin, killed at the handler's timeout)
 * with a probe whose right answer is a GateGuard denial: a destructive
 * `rm -rf` of a path that does not exist. The probe gets a private, fresh
 * state directory, so it never reads or writes the user's state, and none
 * of the user's off switches, so it tests the registration, not the
 * configuration (doctor reports that separately).
 *
 * A command that cannot start, exits non-zero, prints no JSON, answers
 * anything but a deny, or runs past its timeout fails, naming the entry.
 * The judging is pure (`probeProblem`); `runProbe` is the process edge.
 *
 * @module
 */

import type { Registration } from "./claude_settings.ts";
import { MIN_TIMEOUT_SECONDS, type ProgramLookup, programProblems } from "./health.ts";
import { joinPath } from "../platform/path.ts";
import { agentToolNames, type OtherAgent, TOOL } from "../tools/gated.ts";
import { quoted } from "../platform/terminal_text.ts";

/** The shell command of the probe: destructive, so GateGuard denies it on the first try. */
export const PROBE_SHELL_COMMAND = "rm -rf /tmp/gateguard-doctor-probe";

/** Seconds a probe may run when the handler sets no timeout (Claude Code's would be 600). */
export const DEFAULT_PROBE_TIMEOUT_SECONDS = 10;

/** How one agent sends the probe and how its hook's answer says "deny". */
export interface ProbeShape {
  /** The payload the agent would send for the probe's shell call. */
  payload(projectRoot: string, sessionId: string): unknown;
  /** The decision an answer carries, as the agent reads it (undefined: none). */
  decision(answer: Record<string, unknown>): unknown;
}

/** The decision inside Claude Code's (and Codex's) `hookSpecificOutput` wrapper. */
function wrappedDecision(answer: Record<string, unknown>): unknown {
  const specific = answer.hookSpecificOutput;
  return typeof specific === "object" && specific !== null
    ? (specific as Record<string, unknown>).permissionDecision
    : undefined;
}

/** An agent's first shell tool, by its own name, from the table of tools. */
function shellToolOf(agent: OtherAgent): string {
  return agentToolNames(agent, "shell")[0];
}

const BASH_INPUT = { command: PROBE_SHELL_COMMAND, description: "gateguard doctor probe" };

/** Each agent's probe, keyed by the `--agent` name its registration carries. */
export const PROBE_SHAPES: Readonly<Record<string, ProbeShape>> = {
  claude: {
    payload: (cwd, id) => ({
      session_id: id,
      hook_event_name: "PreToolUse",
      cwd,
      permission_mode: "default",
      tool_name: TOOL.bash.name,
      tool_input: BASH_INPUT,
      tool_use_id: `${id}-call`,
    }),
    decision: wrappedDecision,
  },
  codex: {
    payload: (cwd, id) => ({
      session_id: id,
      turn_id: `${id}-turn`,
      transcript_path: null,
      cwd,
      hook_event_name: "PreToolUse",
      tool_name: shellToolOf("codex"),
      tool_input: { command: PROBE_SHELL_COMMAND },
      tool_use_id: `${id}-call`,
    }),
    decision: wrappedDecision,
  },
  gemini: {
    payload: (cwd, id) => ({
      session_id: id,
      cwd,
      hook_event_name: "BeforeTool",
      tool_name: shellToolOf("gemini"),
      tool_input: BASH_INPUT,
    }),
    // Gemini CLI reads "block" as a deny too.
    decision: (answer) => answer.decision === "block" ? "deny" : answer.decision,
  },
  copilot: {
    payload: (cwd, id) => ({
      sessionId: id,
      timestamp: 0,
      cwd,
      toolName: shellToolOf("copilot"),
      toolArgs: BASH_INPUT,
    }),
    decision: (answer) => answer.permissionDecision,
  },
  cursor: {
    payload: (cwd, id) => ({
      conversation_id: id,
      cwd,
      hook_event_name: "preToolUse",
      tool_name: shellToolOf("cursor"),
      tool_input: { command: PROBE_SHELL_COMMAND },
    }),
    decision: (answer) => answer.permission,
  },
};

/** The PreToolUse payload of the probe, as Claude Code would send it for a Bash call. */
export function probePayload(projectRoot: string, sessionId: string): string {
  return JSON.stringify(PROBE_SHAPES.claude.payload(projectRoot, sessionId));
}

/** What running a registered command with the probe produced. */
export type ProbeResult =
  | { kind: "exited"; code: number; stdout: string; stderr: string }
  | { kind: "timed-out"; seconds: number }
  | { kind: "not-started"; why: string };

/** The first line of `text`, trimmed and shortened, for a report line. */
function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

/**
 * Why a probe's result is not GateGuard's answer, or null when it is: exit
 * 0 and one JSON object whose decision, read as `shape`'s agent reads it,
 * is a deny.
 */
export function probeProblem(
  result: ProbeResult,
  shape: ProbeShape = PROBE_SHAPES.claude,
): string | null {
  switch (result.kind) {
    case "not-started":
      return `it could not be started (${result.why})`;
    case "timed-out":
      return `it gave no answer within its ${result.seconds}-second timeout`;
    case "exited":
      break;
  }
  const said = result.stderr.trim() === "" ? "" : `: ${firstLine(result.stderr)}`;
  if (result.code !== 0) return `it exited with status ${result.code}${said}`;
  const out = result.stdout.trim();
  if (out === "") return `it printed no answer${said}`;
  let answer: unknown;
  try {
    answer = JSON.parse(out);
  } catch {
    return `it printed something that is not JSON (${JSON.stringify(firstLine(out))})`;
  }
  const decision = typeof answer === "object" && answer !== null && !Array.isArray(answer)
    ? shape.decision(answer as Record<string, unknown>)
    : undefined;
  if (decision === "deny") return null;
  return `it did not deny the probe \`${PROBE_SHELL_COMMAND}\` ` +
    `(answered ${decision === undefined ? "no decision" : JSON.stringify(decision)})`;
}

/** How to run one probe. */
export interface ProbeRun {
  /** The registered command, as the agent's shell reads it. */
  command: string;
  /** The project directory the probe runs in. */
  cwd: string;
  /** The whole environment of the probe (nothing else is inherited). */
  env: Record<string, string>;
  /** The payload written to its stdin. */
  stdin: string;
  timeoutSeconds: number;
}

/**
 * Runs one probe through `sh -c`, as Claude Code runs a command hook on
 * Linux and macOS, and kills it at its timeout. Needs the `run` permission
 * for `sh`, which only `doctor` keeps (src/main.ts).
 */
export async function runProbe(run: ProbeRun): Promise<ProbeResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("sh", {
      args: ["-c", run.command],
      cwd: run.cwd,
      clearEnv: true,
      env: run.env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (err) {
    return { kind: "not-started", why: (err as Error)?.name ?? "Error" };
  }
  // Killing the shell at the timeout does not reach a program it started, and that
  // program may keep the output open: so the answer is raced against the clock.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), run.timeoutSeconds * 1000);
  });
  try {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(run.stdin)).catch(() => {});
    await writer.close().catch(() => {});
    const out = await Promise.race([child.output(), late]);
    if (out === "late") {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      return { kind: "timed-out", seconds: run.timeoutSeconds };
    }
    const dec = new TextDecoder();
    return {
      kind: "exited",
      code: out.code,
      stdout: dec.decode(out.stdout),
      stderr: dec.decode(out.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The data folder Claude Code gives a plugin: `~/.claude/plugins/data/<id>`,
 * the id with every character outside letters, digits, `_` and `-` made `-`.
 */
export function pluginDataDir(home: string, id: string): string {
  return joinPath(home, `.claude/plugins/data/${id.replace(/[^A-Za-z0-9_-]/g, "-")}`);
}

/** What doctor's probes need from the installation and the machine. */
export interface ProbeContext {
  projectRoot: string;
  /** The user's home, handed to the probe as `HOME`, as Claude Code would. */
  home: string | null;
  /** `PATH` of the hook's shell. */
  path: string | undefined;
  lookup: ProgramLookup;
  /** A fresh, private state directory for one probe; removed by the caller's `cleanup`. */
  stateDir(): Promise<string>;
  run(run: ProbeRun): Promise<ProbeResult>;
}

/** One doctor line (the shape `claude_doctor.ts` uses). */
export interface ProbeFinding {
  level: "ok" | "FAIL";
  text: string;
}

/** One registered command to probe, with everything the report says about it. */
export interface ProbeTarget {
  /** The agent whose payload and answer it speaks (`PROBE_SHAPES`). */
  agent: string;
  /** What runs it (`Claude Code`, `Codex CLI`, ...), for the report. */
  client: string;
  command: string;
  /** Where it is registered, for the report. */
  origins: string[];
  timeoutSeconds: number;
  /** Whether the client blocks the call when the command fails. */
  failsClosed: boolean;
  /** The fix the report names when it fails. */
  fix: string;
  /** For a Claude Code plugin: its id and install folder. */
  pluginInstall?: { id: string; root: string };
}

/** The Claude Code registrations as probe targets, one per distinct command and plugin. */
export function claudeTargets(registrations: readonly Registration[]): ProbeTarget[] {
  const byCommand = new Map<string, Registration[]>();
  for (const r of registrations) {
    const key = `${r.pluginInstall?.root ?? ""}\0${r.command}`;
    byCommand.set(key, [...(byCommand.get(key) ?? []), r]);
  }
  return [...byCommand.values()].map((group) => {
    const first = group[0];
    const timeout = first.handler.timeout;
    return {
      agent: "claude",
      client: "Claude Code",
      command: first.command,
      origins: [...new Set(group.map((r) => r.origin))],
      // A timeout too short to answer in is the handler check's finding, not the probe's.
      timeoutSeconds: typeof timeout === "number" && timeout >= MIN_TIMEOUT_SECONDS
        ? Math.min(timeout, DEFAULT_PROBE_TIMEOUT_SECONDS)
        : DEFAULT_PROBE_TIMEOUT_SECONDS,
      failsClosed: group.every((r) => r.handler.onFailure === "block"),
      fix: first.pluginInstall
        ? "fix: update or reinstall the plugin (`claude plugin --help`)"
        : "fix: run `gateguard init` again from the installed binary " +
          `(command: ${quoted(first.command)})`,
      ...(first.pluginInstall ? { pluginInstall: first.pluginInstall } : {}),
    };
  });
}

/**
 * Runs each target once with its agent's probe and reports each: `ok` when
 * it denied as GateGuard would, a FAIL naming the entries otherwise.
 * Commands the program check already faults (a missing or non-executable
 * program) are not run again.
 */
export async function probeTargets(
  targets: readonly ProbeTarget[],
  ctx: ProbeContext,
): Promise<ProbeFinding[]> {
  const findings: ProbeFinding[] = [];
  for (const target of targets) {
    if (programProblems(target.command, ctx.lookup.state, ctx.lookup.onPath).length > 0) continue;
    const shape = PROBE_SHAPES[target.agent] ?? PROBE_SHAPES.claude;
    const env: Record<string, string> = {
      PATH: ctx.path ?? "/usr/bin:/bin",
      CLAUDE_PROJECT_DIR: ctx.projectRoot,
      GATEGUARD_STATE_DIR: await ctx.stateDir(),
      ...(ctx.home ? { HOME: ctx.home } : {}),
    };
    if (target.pluginInstall) {
      env.CLAUDE_PLUGIN_ROOT = target.pluginInstall.root;
      if (ctx.home) env.CLAUDE_PLUGIN_DATA = pluginDataDir(ctx.home, target.pluginInstall.id);
    }
    const id = `gateguard-doctor-probe-${crypto.randomUUID()}`;
    const result = await ctx.run({
      command: target.command,
      cwd: ctx.projectRoot,
      env,
      stdin: JSON.stringify(shape.payload(ctx.projectRoot, id)),
      timeoutSeconds: target.timeoutSeconds,
    });
    const problem = probeProblem(result, shape);
    const where = target.origins.join("; ");
    findings.push(
      problem === null
        ? { level: "ok", text: `the registered command of ${where} answers as GateGuard` }
        : {
          level: "FAIL",
          text: `the registered command of ${where} does not answer as GateGuard: ${problem}; ` +
            `so ${target.client} ${
              target.failsClosed ? "blocks every gated call" : "lets every gated call through"
            }; ${target.fix}`,
        },
    );
  }
  return findings;
}

/** `probeTargets` over the Claude Code registrations. */
export function probeFindings(
  registrations: readonly Registration[],
  ctx: ProbeContext,
): Promise<ProbeFinding[]> {
  return probeTargets(claudeTargets(registrations), ctx);
}
