/**
 * `gateguard explain`: shows the decision the hook would make for one
 * payload and which rule of the order of checks made it, without saving
 * state or writing metrics.
 *
 * The order of checks is strict, so the rule that decided also tells which
 * earlier rules did not apply; the explanation is read off the decision's
 * reason code rather than traced through the core.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { resolveSettings, settingsFrom } from "../config/settings.ts";
import { denoFs } from "../platform/fs_port.ts";
import { parseCall } from "../hook/call.ts";
import { decide, isGated } from "../hook/decide.ts";
import { FILE_TOOLS, type GateEvent } from "../hook/decision.ts";
import { renderOutcome } from "../hook/respond.ts";
import { callContext, projectRootOf } from "./call_context.ts";
import type { DestructiveHit } from "../shell/destructive.ts";

/** One rule of an order of checks, and the reason codes it decides with. */
interface Rule {
  id: string;
  title: string;
  reasons: readonly string[];
}

/** The file gates' order of checks. */
export const FILE_RULES: readonly Rule[] = [
  { id: "target", title: "target path present", reasons: ["no-path"] },
  { id: "exempt", title: "exempt path", reasons: ["exempt-glob", "claude-settings"] },
  {
    id: "subagent",
    title: "subagent call",
    reasons: ["subagent", "subagent-sensitive", "subagent-hard-linked"],
  },
  { id: "checked", title: "already checked this session", reasons: ["checked"] },
  { id: "strict", title: "sensitive or hard-linked target", reasons: ["sensitive", "hard-linked"] },
  { id: "project-file", title: "file gates off in the project file", reasons: ["file-gates-off"] },
  { id: "credit", title: "prior-search credit", reasons: ["prior-search"] },
  { id: "trivial", title: "comment or whitespace-only edit", reasons: ["comment-whitespace"] },
  { id: "sibling", title: "sibling collapse", reasons: ["same-turn-dir"] },
  { id: "cap", title: "denial cap", reasons: ["max-denials"] },
  {
    id: "deny",
    title: "first-touch denial",
    reasons: ["first-touch", "near-miss:", "work-budget"],
  },
];

/** The shell gates' order of checks. */
export const SHELL_RULES: readonly Rule[] = [
  { id: "readonly-git", title: "read-only git introspection", reasons: ["readonly-git"] },
  {
    id: "destructive",
    title: "destructive command",
    reasons: ["destructive", "destructive-retry", "unseen-denial"],
  },
  { id: "routine-disabled", title: "routine gate disabled", reasons: ["routine-disabled"] },
  { id: "routine-checked", title: "routine gate already passed", reasons: ["routine-checked"] },
  { id: "readonly", title: "read-only first command", reasons: ["readonly"] },
  { id: "routine", title: "routine gate", reasons: ["first-command"] },
];

/** Index of the rule that decided an event (state errors decide after the rule). */
export function decidingRule(rules: readonly Rule[], reason: string): number {
  return rules.findIndex((r) =>
    r.reasons.some((code) => code.endsWith(":") ? reason.startsWith(code) : code === reason)
  );
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

async function explain(text: string, env: EnvSnapshot): Promise<Explained | string> {
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
  const { ctx } = await callContext(call, env, settings);
  const decision = await decide(ctx);
  const rules = FILE_TOOLS.has(call.toolName) ? FILE_RULES : SHELL_RULES;
  const outcome = decision.outcome;
  return {
    tool: call.toolName,
    gated: true,
    decision: outcome.kind,
    message: outcome.kind === "pass" ? null : outcome.text,
    targets: decision.events.map((e) => {
      const at = decidingRule(rules, e.reason);
      return {
        ...e,
        rule: at >= 0 ? rules[at].id : null,
        steps: rules.slice(0, at + 1).map((r, i) => ({ rule: r.id, applied: i === at })),
      };
    }),
    stdout: renderOutcome(outcome),
    ...(FILE_TOOLS.has(call.toolName) ? {} : {
      destructive: (await (await import("../hook/shell_gate.ts")).destructiveRule(
        call.toolName === "PowerShell" ? "PowerShell" : "Bash",
        typeof call.toolInput?.command === "string" ? call.toolInput.command : "",
        settings,
      )).hit,
    }),
  };
}

function renderText(x: Explained): string {
  if (!x.gated) return `${x.tool || "(no tool)"}: not gated; the hook would print nothing.`;
  const rules = FILE_TOOLS.has(x.tool) ? FILE_RULES : SHELL_RULES;
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
  let text: string;
  try {
    text = file === null
      ? await new Response(Deno.stdin.readable).text()
      : Deno.readTextFileSync(file);
  } catch (err) {
    console.error(`gateguard explain: cannot read the payload: ${(err as Error).message}`);
    return 1;
  }
  const result = await explain(text, env);
  if (typeof result === "string") {
    console.log(json ? JSON.stringify({ gated: false, decision: "pass", note: result }) : result);
    return 0;
  }
  console.log(json ? JSON.stringify(result, null, 2) : renderText(result));
  return 0;
}
