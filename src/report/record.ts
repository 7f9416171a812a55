/**
 * Reads one line of `metrics.jsonl` back into a typed record, or rejects it
 * as malformed. The checks mirror what the line builder can write, so a
 * line produced by anything else (a hand edit, two hooks' writes
 * interleaved, a hostile file) is counted and skipped rather than shown.
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
} from "../metrics/codes.ts";
import { METRICS_VERSION } from "../metrics/line.ts";

/** Longest line the report parses; a real line is well under 1 KiB. */
export const MAX_LINE_CHARS = 4096;

/** One well-formed decision line. */
export interface MetricsRecord {
  /** Decision time, ms since the epoch. */
  tsMs: number;
  session: string;
  tool: string;
  class: string | null;
  decision: string;
  reason: string | null;
  questions: readonly string[] | null;
  sensitive: boolean;
  /** The rule that decided (`core/rm-recursive`, `routine`); null in older lines. */
  rule: string | null;
  /** The agent whose hook recorded the line; null in older lines. */
  agent: string | null;
  /** The 12-hex digest of the project root; null in older lines. */
  project: string | null;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/**
 * The time of a `ts` value, or null. The writer formats a real clock
 * reading, so a date or time that does not exist (`2026-02-31`,
 * `T24:00:00Z`), which `Date.parse` would quietly roll over, is rejected:
 * the value must read back unchanged to the second.
 */
function timeOf(value: unknown): number | null {
  if (typeof value !== "string" || value.length > 30 || !ISO_UTC.test(value)) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().slice(0, 19) === value.slice(0, 19) ? ms : null;
}

function optionalCode(value: unknown, check: (v: unknown) => boolean): string | null | undefined {
  if (value === undefined || value === null) return null;
  return check(value) ? value as string : undefined;
}

function questionsOf(value: unknown): string[] | null | undefined {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length > MAX_QUESTIONS || !value.every(isCode)) {
    return undefined;
  }
  return value as string[];
}

/**
 * Parses one line. Returns null when it is not a version-1 metrics object
 * whose time, session, tool and decision are valid and whose other fields
 * are either absent, null or valid codes.
 */
export function parseRecord(line: string): MetricsRecord | null {
  if (line.length > MAX_LINE_CHARS) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  const tsMs = timeOf(o.ts);
  const cls = optionalCode(o.class, isCode);
  const reason = optionalCode(o.reason, isReasonCode);
  const questions = questionsOf(o.questions);
  const sensitive = o.sensitive ?? false;
  const rule = optionalCode(o.rule, isRuleId);
  const agent = optionalCode(o.agent, isCode);
  const project = optionalCode(o.project, isSessionDigest);
  if (
    o.v !== METRICS_VERSION || tsMs === null || !isSessionDigest(o.session) ||
    !isToolName(o.tool) || !isCode(o.decision) || cls === undefined || reason === undefined ||
    questions === undefined || typeof sensitive !== "boolean" || rule === undefined ||
    agent === undefined || project === undefined
  ) return null;
  return {
    tsMs,
    session: o.session,
    tool: o.tool,
    class: cls,
    decision: o.decision,
    reason,
    questions,
    sensitive,
    rule,
    agent,
    project,
  };
}
