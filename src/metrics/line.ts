/**
 * Builds one metrics line from a decision event. Every text value is
 * checked against the code vocabulary of `codes.ts` and replaced by `null`
 * when it does not fit, so whatever a caller passes by mistake (a path, a
 * command, file content, a session id) cannot reach the file.
 *
 * @module
 */

import {
  isCode,
  isReasonCode,
  isRuleId,
  isSessionDigest,
  isToolName,
  MAX_QUESTIONS,
} from "./codes.ts";

/** Schema version written in every line. */
export const METRICS_VERSION = 1;

/** The change-profile flags of a decision. */
export interface MetricsProfile {
  known: boolean;
  language: string | null;
  touchesPublicSurface: boolean;
  touchesData: boolean;
  trivial: boolean;
}

/** One gate decision, as the hook hands it over for recording. */
export interface MetricsEvent {
  tool: string;
  class: string | null;
  decision: string;
  reason: string;
  questions: readonly string[] | null;
  sensitive: boolean;
  profile: MetricsProfile | null;
  /**
   * The rule that decided, when the gate knows a finer one than its own
   * step (a destructive pack rule such as `core/rm-recursive`).
   */
  rule?: string | null;
}

/** Where a decision was made: the agent and the gate rule, added by the hook. */
export interface MetricsOrigin {
  /** The agent whose hook ran (`claude`, `codex`, ...). */
  agent: string | null;
  /** The gate rule that decided, used when the event names no finer rule. */
  rule: string | null;
  /** The 12-hex digest of the project root, never the path itself. */
  project: string | null;
}

const NO_ORIGIN: MetricsOrigin = { agent: null, rule: null, project: null };

function codeOrNull(value: unknown): string | null {
  return isCode(value) ? value : null;
}

function questionsOf(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const kept: string[] = [];
  // Bounded: only the first entries are looked at, whatever the array length.
  for (const id of value.slice(0, MAX_QUESTIONS)) if (isCode(id)) kept.push(id);
  return kept;
}

function profileOf(value: unknown): MetricsProfile | null {
  if (typeof value !== "object" || value === null) return null;
  const p = value as Record<string, unknown>;
  return {
    known: p.known === true,
    language: codeOrNull(p.language),
    touchesPublicSurface: p.touchesPublicSurface === true,
    touchesData: p.touchesData === true,
    trivial: p.trivial === true,
  };
}

function isoTime(nowMs: number): string | null {
  const date = new Date(nowMs);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * The JSON text of one metrics line (no trailing newline), with the keys in
 * schema order. Never throws: a value that fails validation is written as
 * `null` (a question id that fails is dropped, a non-boolean flag is false).
 */
export function buildLine(
  event: MetricsEvent,
  session12: string,
  nowMs: number,
  origin: MetricsOrigin = NO_ORIGIN,
): string {
  const e = (typeof event === "object" && event !== null ? event : {}) as Record<string, unknown>;
  const o =
    (typeof origin === "object" && origin !== null ? origin : NO_ORIGIN) as unknown as Record<
      string,
      unknown
    >;
  const rule = isRuleId(e.rule) ? e.rule : isRuleId(o.rule) ? o.rule : null;
  return JSON.stringify({
    v: METRICS_VERSION,
    ts: isoTime(nowMs),
    session: isSessionDigest(session12) ? session12 : null,
    tool: isToolName(e.tool) ? e.tool : null,
    class: codeOrNull(e.class),
    decision: codeOrNull(e.decision),
    reason: isReasonCode(e.reason) ? e.reason : null,
    questions: questionsOf(e.questions),
    sensitive: e.sensitive === true,
    profile: profileOf(e.profile),
    rule,
    agent: codeOrNull(o.agent),
    project: isSessionDigest(o.project) ? o.project : null,
  });
}
