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

/**
 * A JSON text of `value` with every object's keys sorted, so two values
 * that differ only in key order give the same text.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v: unknown) =>
      isRecord(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v,
  );
}

/** The JSON object one line of a log holds, or null for a line that is none. */
export function parseRecord(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}
