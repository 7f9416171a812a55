/**
 * The vocabulary a metrics line may contain: the gated tool names and the
 * shape of a code. Both the line builder and the report validate against
 * these, so a value that is not a short lowercase code can neither be
 * written nor shown.
 *
 * @module
 */

import { sha256Hex } from "../platform/sha256.ts";
import { GATED_TOOLS } from "../tools/gated.ts";

/** Tool names a metrics line may carry: the gated tools. */
export const TOOL_NAMES: ReadonlySet<string> = new Set(GATED_TOOLS.map((t) => t.name));

/** Longest code accepted; a path or a command rarely fits, and never passes the pattern. */
export const MAX_CODE_LENGTH = 32;

/** Prefix of the reasons that name the closest search that did not count. */
export const NEAR_MISS_PREFIX = "near-miss:";

/** Maximum question ids kept in one line; a real denial asks at most six. */
export const MAX_QUESTIONS = 16;

const CODE = /^[a-z][a-z0-9-]{0,31}$/;
const SESSION = /^[0-9a-f]{12}$/;

/** True when `value` is a short lowercase code such as `first-touch` or `code`. */
export function isCode(value: unknown): value is string {
  // The length test comes first so the pattern never scans a huge string.
  return typeof value === "string" && value.length <= MAX_CODE_LENGTH && CODE.test(value);
}

/** True for a reason code: a code, or `near-miss:` followed by a code. */
export function isReasonCode(value: unknown): value is string {
  if (typeof value !== "string") return false;
  return value.startsWith(NEAR_MISS_PREFIX)
    ? isCode(value.slice(NEAR_MISS_PREFIX.length))
    : isCode(value);
}

const RULE_ID = /^[a-z][a-z0-9-]{0,31}(?:\/[a-zA-Z][a-zA-Z0-9-]{0,47})?$/;

/** Longest rule id accepted: a pack code, a slash and a rule name. */
export const MAX_RULE_ID_LENGTH = 80;

/**
 * True for a rule id: a code (`routine`, `readonly-git`), or a pack code, a
 * slash and a rule name (`core/rm-recursive`, `project/destructiveCommands`).
 * No dot, no second slash, no space: a path or a command cannot pass.
 */
export function isRuleId(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_RULE_ID_LENGTH && RULE_ID.test(value);
}

/** True for one of the gated tool names. */
export function isToolName(value: unknown): value is string {
  return typeof value === "string" && TOOL_NAMES.has(value);
}

/**
 * The digest a metrics line records for a session key (the session id the
 * hook resolved): the first 12 hex characters of its sha256. The report
 * uses the same function to find a session by the id a user has.
 */
export async function sessionDigest(key: string): Promise<string> {
  return (await sha256Hex(key)).slice(0, 12);
}

/** True for a session digest: exactly 12 lowercase hex characters. */
export function isSessionDigest(value: unknown): value is string {
  return typeof value === "string" && value.length === 12 && SESSION.test(value);
}
