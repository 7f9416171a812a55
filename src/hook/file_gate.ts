/**
 * The first-touch gate of file tools: runs each target of the call through
 * the order of checks in `file_rules.ts`, applies the state changes of the
 * rule that decided, and stops at the first denial or question for the user.
 *
 * @module
 */

import type { DecideContext, Decision, GateEvent } from "./decision.ts";
import { emptyDelta, type StateDelta } from "../state/schema.ts";
import { fileDenialText } from "../questions/file_texts.ts";
import { malformedInputText, sanitizeForDisplay, withDomainText } from "../questions/messages.ts";
import { selectQuestions } from "../questions/select.ts";
import type { GateTarget } from "./file_targets.ts";
import type { Roots } from "../file_facts/resolve.ts";
import type { TurnScan } from "../session_logs/turn_scan.ts";
import {
  type CallMemo,
  type DenyDetails,
  type FileReason,
  TARGET_RULES,
  TargetFacts,
  type Verdict,
} from "./file_rules.ts";

/**
 * Decides the whole file-tool call, whose files `decide` has already
 * resolved (`roots`, `targets`) so that no path is resolved twice.
 */
export async function decideFileGate(
  ctx: DecideContext,
  roots: Roots,
  targets: readonly GateTarget[],
): Promise<Decision> {
  const { settings } = ctx;
  const delta = emptyDelta();
  const events: GateEvent[] = [];
  const rules: string[] = [];
  if (targets.length === 0) {
    // A file call that names no file cannot be checked: the tool may still write one.
    if (settings.metrics) {
      events.push(event(ctx, { decision: "deny", reason: "malformed-input" }));
      rules.push("input");
    }
    const text = malformedInputText(ctx.call.toolName, "it names no file");
    return { outcome: { kind: "deny", text }, delta, events, warnings: [], rules };
  }
  const memo: CallMemo = { scan: undefined, warnings: [] };
  const notes: string[] = [];
  for (const gt of targets) {
    const facts = new TargetFacts(ctx, roots, gt, memo);
    const { rule, verdict } = await firstVerdict(facts);
    for (const change of verdict.changes) apply(delta, change, facts);
    if (verdict.kind === "ask") {
      // The user decides; nothing after this target is looked at, as after a denial.
      if (settings.metrics) {
        events.push(event(ctx, { ...verdict, facts }));
        rules.push(rule);
      }
      const { text, denyText } = verdict;
      return { outcome: { kind: "ask", text, denyText }, delta, events, warnings: [], rules };
    }
    if (verdict.kind === "deny") {
      const own = verdict.deny.text;
      const { text, questions } = own === undefined
        ? await deny(ctx, gt, facts, delta, verdict.deny, targets.length)
        : { text: withDomainText(own, settings.domainText), questions: null };
      if (settings.metrics) {
        events.push(event(ctx, {
          decision: verdict.decision ?? "deny",
          reason: verdict.reason,
          facts,
          questions,
          profile: verdict.deny.profile,
        }));
        rules.push(rule);
      }
      return { outcome: { kind: "deny", text }, delta, events, warnings: memo.warnings, rules };
    }
    if (verdict.kind === "note" && verdict.text) notes.push(verdict.text);
    if (settings.metrics) {
      events.push(event(ctx, { ...verdict, facts, profile: verdict.profile ?? null }));
      rules.push(rule);
    }
  }
  const outcome = notes.length > 0
    ? { kind: "note" as const, text: notes.join("\n") }
    : { kind: "pass" as const };
  return { outcome, delta, events, warnings: memo.warnings, rules };
}

/** Runs the order of checks until a rule decides; the last rule always does. */
async function firstVerdict(
  facts: TargetFacts,
): Promise<{ rule: string; verdict: Verdict<FileReason> }> {
  for (const rule of TARGET_RULES) {
    const verdict = await rule.check(facts);
    if (verdict) return { rule: rule.id, verdict };
  }
  throw new Error("the order of checks ends without a decision");
}

function apply(delta: StateDelta, change: Verdict["changes"][number], facts: TargetFacts): void {
  switch (change.kind) {
    case "check":
      delta.check.push(change.key);
      break;
    case "uncheck":
      delta.uncheck.push(change.key);
      break;
    case "count":
      delta.inc[change.counter] = (delta.inc[change.counter] ?? 0) + 1;
      break;
    case "credit-class":
      bump(delta.creditedClass, facts.cls);
  }
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

interface EventFields {
  decision: string;
  reason: FileReason;
  facts?: TargetFacts;
  questions?: readonly string[] | null;
  profile?: GateEvent["profile"];
}

/** One metrics event; class and sensitivity come from the facts, when there is a target. */
function event(ctx: DecideContext, e: EventFields): GateEvent {
  return {
    tool: ctx.call.toolName,
    class: e.facts?.cls ?? null,
    decision: e.decision,
    reason: e.reason,
    sensitive: e.facts?.sensitive ?? false,
    questions: e.questions ?? null,
    profile: e.profile ?? null,
  };
}

/**
 * Whether a sibling call of the same batch may already have touched the
 * denied file: the call touches several targets, or the agent's log does
 * not show the pending call alone in its message (no log, the call not in
 * it yet, or a log that cannot tell). A sibling the client writes to the
 * log only after this hook ran goes unseen; its own result still tells the
 * agent it ran.
 */
export function batchPossible(targets: number, scan: TurnScan | null): boolean {
  return targets > 1 || scan === null || scan.batchMates !== 0;
}

/** Counts the denial, opens its sibling window, and renders its text. */
async function deny(
  ctx: DecideContext,
  gt: GateTarget,
  facts: TargetFacts,
  delta: StateDelta,
  d: DenyDetails,
  targets: number,
): Promise<{ text: string; questions: readonly string[] }> {
  const { settings, state, ports } = ctx;
  const cls = facts.cls;
  const ordinal = state.counters.fact_force_denials + 1;
  delta.inc.fact_force_denials = (delta.inc.fact_force_denials ?? 0) + 1;
  bump(delta.deniedClass, cls);
  // Strict targets and content the gate does not read always get the full
  // questions, word for word.
  const fullQuestions = d.strict !== null || gt.change.kind === "opaque";
  const selection = selectQuestions(
    cls,
    gt.verb,
    fullQuestions ? null : d.profile,
    settings.externalContract,
  );
  const file = sanitizeForDisplay(gt.target.raw);
  if (d.siblingKey) {
    delta.dirGates[d.siblingKey.key] = {
      turn: d.siblingKey.turn,
      at: ports.now,
      first: file,
      ordinal,
    };
  }
  const text = fileDenialText({
    verb: gt.verb,
    file,
    questions: selection.questions,
    fixedHint: selection.fixedHint,
    ordinal,
    condensed: ordinal > settings.fullDenials,
    targetNote: d.strict,
    closestMiss: d.closestMiss,
    tooComplex: d.tooComplex ?? null,
    domainText: settings.domainText,
    batch: batchPossible(targets, await facts.scan()),
  });
  return { text, questions: selection.questions };
}
