/**
 * `gateguard explain`: shows the decision the hook would make for one
 * payload and which rule of the order of checks made it, without saving
 * state or writing metrics.
 *
 * The order of checks is strict, so the rule that decided also tells which
 * earlier rules did not apply. The gates name the deciding rule of each
 * target from the same rule tables this command walks.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { resolveSettings, settingsFrom } from "../config/settings.ts";
import { denoFs } from "../platform/fs_port.ts";
import { parseCall } from "../hook/call.ts";
import { decide, isGated } from "../hook/decide.ts";
import type { GateEvent, Rule } from "../hook/decision.ts";
import { FILE_RULES } from "../hook/file_rules.ts";
import { SHELL_RULES } from "../hook/shell_gate.ts";
import { gatedTool, readToolCall } from "../tools/gated.ts";
import { renderOutcome } from "../hook/respond.ts";
import { callContext, projectRootOf } from "./call_context.ts";
import type { DestructiveHit } from "../shell/destructive/mod.ts";
import { WorkBudget } from "../platform/budget.ts";
import { admitPayload, type AdmittedPayload, MAX_PAYLOAD_BYTES, refusalText } from "./payload.ts";

function rulesOf(toolName: string): readonly Rule[] {
  return gatedTool(toolName)?.gate === "file" ? FILE_RULES : SHELL_RULES;
}

const USAGE = `Usage: gateguard explain [--payload FILE] [--json]

Reads one PreToolUse payload (from FILE or stdin) and shows the decision the
hook would make and the rule that made it. Nothing is saved.`;

interface Explained {
  tool: string;
  gated: boolean;
  decision: "pass" | "note" | "deny";
  message: string | null;
  targets: (GateEvent & { rule: string | null; steps: { rule: string; applied: boolean }[] })[];
  stdout: string;
  /** For a shell call: the pack and rule that find it destructive, or null. */
  destructive?: DestructiveHit | null;
}

/** What the hook would say about a payload it turns away before parsing it. */
const REFUSED: Readonly<Record<"oversize" | "too-complex", string>> = {
  oversize: `the input is larger than ${MAX_PAYLOAD_BYTES} bytes`,
  "too-complex": "the input is too large or too complex to check",
};

/** Reads the payload file like stdin; a FIFO is refused before it is opened (it would wait). */
function admitFile(path: string, work: WorkBudget): AdmittedPayload | "fifo" {
  if (Deno.statSync(path).isFifo) return "fifo";
  using file = Deno.openSync(path, { read: true });
  return admitPayload(file, work);
}

async function explain(
  text: string,
  env: EnvSnapshot,
  payloadUnits: number,
): Promise<Explained | string> {
  const parsed = parseCall(text);
  if (!parsed.ok) return `the hook would pass: ${parsed.reason}`;
  const call = parsed.call;
  if (!isGated(call.toolName, settingsFrom(env))) {
    return {
      tool: call.toolName,
      gated: false,
      decision: "pass",
      message: null,
      targets: [],
      stdout: "",
    };
  }
  // Metrics stay off on disk; switching them on here only fills in the events.
  const settings = {
    ...await resolveSettings(env, projectRootOf(call, env), denoFs),
    metrics: true,
  };
  const { ctx } = await callContext(call, env, settings, payloadUnits);
  const decision = await decide(ctx);
  const rules = rulesOf(call.toolName);
  const typed = readToolCall(call.toolName, call.toolInput);
  const outcome = decision.outcome;
  return {
    tool: call.toolName,
    gated: true,
    decision: outcome.kind,
    message: outcome.kind === "pass" ? null : outcome.text,
    targets: decision.events.map((e, n) => {
      const at = rules.findIndex((r) => r.id === decision.rules?.[n]);
      return {
        ...e,
        rule: at >= 0 ? rules[at].id : null,
        steps: rules.slice(0, at + 1).map((r, i) => ({ rule: r.id, applied: i === at })),
      };
    }),
    stdout: renderOutcome(outcome),
    ...(typed?.kind === "shell"
      ? {
        destructive: (await (await import("../hook/shell_gate.ts")).destructiveRule(
          typed.dialect,
          typed.command,
          settings,
        )).hit,
      }
      : {}),
  };
}

function renderText(x: Explained): string {
  if (!x.gated) return `${x.tool || "(no tool)"}: not gated; the hook would print nothing.`;
  const rules = rulesOf(x.tool);
  const lines = [`${x.tool}: ${x.decision}`];
  x.targets.forEach((t, n) => {
    const head = x.targets.length > 1 ? `target ${n + 1}: ` : "";
    lines.push(
      `${head}decision ${t.decision}, reason ${t.reason}` +
        (t.class ? `, class ${t.class}` : "") + (t.sensitive ? ", sensitive" : ""),
    );
    for (const step of t.steps) {
      const title = rules.find((r) => r.id === step.rule)?.title ?? step.rule;
      lines.push(`  ${step.applied ? "->" : "  "} ${title}: ${step.applied ? "applies" : "no"}`);
    }
    if (t.questions) lines.push(`  questions: ${t.questions.join(", ")}`);
  });
  if (x.destructive) {
    const d = x.destructive;
    lines.push(`  destructive rule: ${d.pack}/${d.rule} (${d.destroys})`);
  }
  if (x.message) lines.push("", x.message);
  return lines.join("\n");
}

/** Runs `gateguard explain`. */
export async function main(args: string[], env: EnvSnapshot): Promise<number> {
  let file: string | null = null;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--help" || a === "-h") {
      console.log(USAGE);
      return 0;
    } else if (a === "--json") json = true;
    else if (a === "--payload" && i + 1 < args.length) file = args[++i];
    else {
      console.error(
        `gateguard explain: unknown or incomplete option '${a.slice(0, 80)}'\n${USAGE}`,
      );
      return 2;
    }
  }
  // The hook's own admission: the same bounds, the same work budget.
  const work = new WorkBudget();
  let input: AdmittedPayload | "fifo";
  try {
    input = file === null ? admitPayload(Deno.stdin, work) : admitFile(file, work);
  } catch (err) {
    console.error(`gateguard explain: cannot read the payload: ${(err as Error).message}`);
    return 1;
  }
  if (input === "fifo") {
    console.error("gateguard explain: the payload file is a FIFO; pipe it to stdin instead");
    return 1;
  }
  if (input.kind !== "text") {
    // The hook refuses such an input before parsing it; so does explain.
    const message = await refusalText(input.kind);
    console.log(
      json
        ? JSON.stringify({ gated: true, decision: "deny", message })
        : `the hook would deny: ${REFUSED[input.kind]}\n\n${message}`,
    );
    return 0;
  }
  const result = await explain(input.text, env, work.spent);
  if (typeof result === "string") {
    console.log(json ? JSON.stringify({ gated: false, decision: "pass", note: result }) : result);
    return 0;
  }
  console.log(json ? JSON.stringify(result, null, 2) : renderText(result));
  return 0;
}
