/**
 * Checks for values parsed from untrusted JSON. Every layer reads such
 * values (payloads, state files, settings, transcripts), so the check lives
 * at the bottom of the import graph.
 *
 * @module
 */

/** True for a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
