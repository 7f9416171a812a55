/**
 * The hook's edge: reads the payload from stdin, loads the session state,
 * runs the decision core, persists what it decided, appends metrics and
 * prints the answer. Everything that touches the world for a hook call
 * happens here; the decision itself is pure.
 *
 * The exit code is always 0: a hook that exits non-zero either blocks with
 * stderr as the reason or is ignored, and neither is a decision GateGuard
 * made on purpose.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { resolveSettings, settingsFrom } from "../config/settings.ts";
import { plantedVariables, withoutPlanted } from "../config/agent_env_files.ts";
import type { HookCall } from "../hook/call.ts";
import { isRecord } from "../platform/json.ts";
import { decide, isGated } from "../hook/decide.ts";
import { type DecideContext, type Decision, DESTRUCTIVE_KEY_PREFIX } from "../hook/decision.ts";
import type { Outcome } from "../hook/decision.ts";
import { type AgentAdapter, mergeOutcomes } from "../agents/adapter.ts";
import {
  AGENT_NAMES,
  type AgentName,
  DEFAULT_AGENT,
  isAgentName,
  loadAdapter,
} from "../agents/registry.ts";
import { emptyDelta, type StateDelta } from "../state/schema.ts";
import { pruneIfDue, saveDelta } from "../state/store.ts";
import { callContext, projectRootOf } from "./call_context.ts";
import { denoFs } from "../platform/fs_port.ts";
import { WorkBudget } from "../platform/budget.ts";
import { admitPayload, type AdmittedPayload, refusalText } from "./payload.ts";

/** An unchanged state is rewritten only this often, to keep its idle clock current. */
const TOUCH_INTERVAL_MS = 60_000;

/** The message texts, loaded only on the rare paths here that need them. */
function messages(): Promise<typeof import("../questions/messages.ts")> {
  return (import(new URL("../questions/messages.ts", import.meta.url).href) as Promise<
    typeof import("../questions/messages.ts")
  >);
}

function isEmptyDelta(d: StateDelta): boolean {
  return d.check.length === 0 && d.uncheck.length === 0 && Object.keys(d.inc).length === 0 &&
    Object.keys(d.deniedClass).length === 0 && Object.keys(d.creditedClass).length === 0 &&
    Object.keys(d.dirGates).length === 0;
}

function writeOut(text: string): void {
  if (text !== "") Deno.stdout.writeSync(new TextEncoder().encode(text + "\n"));
}

function warn(line: string): void {
  console.error(`gateguard: ${line}`);
}

/** What `gateguard hook --help` prints (built on demand: the hook itself never needs it). */
export function hookUsage(): string {
  return `Usage: gateguard hook [--agent ${AGENT_NAMES.join("|")}]

Runs the pre-tool-use hook: reads one payload on stdin, as the agent's hook
sends it, and prints GateGuard's answer in that agent's format (nothing when
the call passes). --agent names the agent (default ${DEFAULT_AGENT}).
\`gateguard init\` registers this command; the agent runs it for every tool
call. To see what it would decide for a call, run \`gateguard explain\`.`;
}

/** The agent named by `--agent <name>` (or `--agent=<name>`), the default without one. */
export function agentOf(args: readonly string[]): AgentName | { error: string } {
  let name: string | undefined = DEFAULT_AGENT;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--agent") name = args[++i];
    else if (arg.startsWith("--agent=")) name = arg.slice("--agent=".length);
    else return { error: `unknown hook option '${arg.slice(0, 80)}'` };
  }
  return name !== undefined && isAgentName(name)
    ? name
    : { error: `--agent takes one of ${AGENT_NAMES.join(", ")}` };
}

/**
 * Runs one hook call; always returns 0, except for a command line naming no
 * known agent (exit 2: a registration mistake must show, not pass quietly)
 * and a Claude Code ConfigChange payload whose change GateGuard blocks
 * (exit 2 is how that event blocks; `config_change.ts`).
 * `--help` alone prints the usage instead.
 * Whatever fails on the way denies the call, with a line on stderr, rather
 * than leaving it to a non-zero exit, which the harness would treat as a
 * silent pass.
 */
export async function main(args: string[], env: EnvSnapshot): Promise<number> {
  if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
    console.log(hookUsage());
    return 0;
  }
  const agent = agentOf(args);
  if (typeof agent !== "string") {
    warn(agent.error);
    return 2;
  }
  const adapter = await loadAdapter(agent);
  try {
    return await hookCall(env, adapter, agent);
  } catch (err) {
    warn(`internal error, the call is denied: ${(err as Error)?.name ?? "Error"}`);
    try {
      writeOut(adapter.render({ kind: "deny", text: (await messages()).internalErrorText() }));
    } catch {
      // Nothing is left to answer with; the stderr line above stays.
    }
  }
  return 0;
}

/**
 * The decision of `ctx` by `run` (the real core unless a test passes
 * another); an internal error in it becomes a denial that records nothing.
 * A check that could not run has not found the call safe, so it never
 * passes: the destructive gate already failed closed on its own errors,
 * and this extends that to every gate.
 */
export async function decideOrDeny(
  ctx: DecideContext,
  run: (ctx: DecideContext) => Promise<Decision> = decide,
): Promise<Decision> {
  try {
    return await run(ctx);
  } catch (err) {
    return {
      outcome: { kind: "deny", text: (await messages()).internalErrorText() },
      delta: emptyDelta(),
      events: [],
      warnings: [`internal error, the call is denied: ${(err as Error)?.name ?? "Error"}`],
    };
  }
}

/**
 * `env` without the GateGuard variables a `.env` file the agent loads at
 * start defines (`config/agent_env_files.ts`): the agent may have written
 * that file, so such a setting is ignored, with a line on stderr.
 */
function trustedEnv(env: EnvSnapshot, agent: AgentName, cwd: string | null): EnvSnapshot {
  const planted = plantedVariables(agent, cwd ?? env.CLAUDE_PROJECT_DIR ?? ".", env, denoFs);
  // No variable is named: what the agent may read of stderr never names a switch.
  for (const file of new Set(planted.map((p) => p.file))) {
    warn(
      `GateGuard ignores its settings in ${file}: the agent loads that file into the ` +
        "environment its hooks inherit, and may have written it; set them where the agent is " +
        "started instead",
    );
  }
  return withoutPlanted(env, planted);
}

/** The Claude Code event whose payload is a settings change, not a tool call. */
const CONFIG_CHANGE_EVENT = "ConfigChange";

/** One hook call; returns the exit code (0, or a ConfigChange hook's block). */
async function hookCall(
  env: EnvSnapshot,
  adapter: AgentAdapter,
  agent: AgentName,
): Promise<number> {
  const payloadWork = new WorkBudget();
  let admitted: AdmittedPayload;
  try {
    admitted = admitPayload(Deno.stdin, payloadWork);
  } catch (err) {
    warn(`could not read the hook input (${(err as Error).name}); the call is not gated`);
    return 0;
  }
  if (admitted.kind !== "text") {
    writeOut(adapter.render({ kind: "deny", text: await refusalText(admitted.kind) }));
    return 0;
  }
  // Cursor starts its payloads with a byte order mark, which JSON.parse refuses.
  const text = admitted.text.charCodeAt(0) === 0xfeff ? admitted.text.slice(1) : admitted.text;
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    warn("ignoring hook input: stdin is not JSON");
    return 0;
  }
  if (!isRecord(payload)) {
    warn("ignoring hook input: stdin is not a JSON object");
    return 0;
  }
  if (agent === DEFAULT_AGENT && payload.hook_event_name === CONFIG_CHANGE_EVENT) {
    const { configChangeHook } =
      await (import(new URL("./config_change.ts", import.meta.url).href) as Promise<
        typeof import("./config_change.ts")
      >);
    return await configChangeHook(payload, env);
  }
  const translation = adapter.translate(payload, env);
  if (translation.kind === "refuse") {
    writeOut(adapter.render({ kind: "deny", text: translation.text }));
    return 0;
  }
  // Every call is decided, even after a denial, so one denial names all
  // that the agent must answer and records every first touch at once.
  const outcomes: Outcome[] = [];
  for (const one of translation.calls) {
    outcomes.push(await decideCall(one, env, payloadWork.spent, agent));
  }
  writeOut(adapter.render(mergeOutcomes(outcomes)));
  return 0;
}

/**
 * Decides one gate call and persists what it decided; returns what the
 * agent is told. `payloadChars` is what reading the payload already cost.
 */
async function decideCall(
  call: HookCall,
  agentEnv: EnvSnapshot,
  payloadChars: number,
  agent: AgentName,
): Promise<Outcome> {
  const env = trustedEnv(agentEnv, agent, call.cwd);
  // The off switches live in the environment only, so an ungated call is
  // known before the project file is looked for.
  if (!isGated(call.toolName, settingsFrom(env))) return { kind: "pass" };
  const projectRoot = projectRootOf(call, env);
  const settings = await resolveSettings(env, projectRoot, denoFs);
  for (const line of settings.warnings) warn(line);

  const { ctx, key } = await callContext(call, env, settings, payloadChars);
  const { now } = ctx.ports;
  const decision = await decideOrDeny(ctx);
  for (const line of decision.warnings) warn(line);

  let outcome = decision.outcome;
  if (!isEmptyDelta(decision.delta) || now - ctx.state.lastActive > TOUCH_INTERVAL_MS) {
    const saved = saveDelta(settings.stateDir, key, decision.delta, now);
    const destructive = [...decision.delta.check, ...decision.delta.uncheck]
      .some((k) => k.startsWith(DESTRUCTIVE_KEY_PREFIX));
    if (!saved.ok && (destructive || outcome.kind === "deny")) {
      // A gate that cannot record what it asked can never let a retry
      // through, so a call it would deny (or a destructive retry it would
      // pass) stays denied until the state directory works again.
      warn(saved.error);
      const { stateErrorDestructiveText, stateErrorText } = await messages();
      const denial = outcome.kind === "deny" ? outcome.text : null;
      outcome = {
        kind: "deny",
        text: destructive
          ? stateErrorDestructiveText(saved.error, denial)
          : stateErrorText(saved.error),
      };
      const last = decision.events.at(-1);
      if (last) {
        decision.events[decision.events.length - 1] = {
          ...last,
          decision: destructive ? "destructive-deny" : last.decision,
          reason: "state-error",
        };
      }
    } else if (!saved.ok) {
      // A pass with its reason in hand (credit, a trivial change) stays a
      // pass: failing to record it only means the next call is asked again.
      warn(saved.error);
    } else {
      for (const line of saved.warnings) warn(line);
      if (saved.created) pruneIfDue(settings.stateDir, now);
    }
  }

  if (settings.metrics && decision.events.length > 0) {
    try {
      const [{ buildLine }, { appendMetrics }, { sessionDigest }] = await Promise.all([
        import(new URL("../metrics/line.ts", import.meta.url).href) as Promise<
          typeof import("../metrics/line.ts")
        >,
        import(new URL("../metrics/append.ts", import.meta.url).href) as Promise<
          typeof import("../metrics/append.ts")
        >,
        import(new URL("../metrics/codes.ts", import.meta.url).href) as Promise<
          typeof import("../metrics/codes.ts")
        >,
      ]);
      const session12 = await sessionDigest(key.key);
      const project = await sessionDigest(projectRoot);
      appendMetrics(
        settings.stateDir,
        decision.events.map((e, i) =>
          buildLine(e, session12, now, { agent, rule: decision.rules?.[i] ?? null, project })
        ),
      );
    } catch {
      // Metrics never change a decision.
    }
  }

  return outcome;
}
