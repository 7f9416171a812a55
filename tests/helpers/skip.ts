/**
 * Saying why a test is skipped where `deno test --quiet` shows it. With
 * `--quiet` Deno hides everything a test module prints, at load time and in
 * its tests alike (`console.log`, `console.error` and raw writes to stderr),
 * but it still lists every test by name, an ignored one included. So the
 * reason goes into the name of the ignored entry.
 *
 * @module
 */

/** Longest reason kept in a name: a whole npm error log would not fit on one line. */
const MAX_REASON = 240;

/** `reason` as one line of at most `MAX_REASON` characters. */
function oneLine(reason: string): string {
  const flat = reason.replace(/\s+/g, " ").trim();
  return flat.length > MAX_REASON ? `${flat.slice(0, MAX_REASON - 1)}…` : flat;
}

/** The name of a test that is skipped for `reason` (null: it runs, under its own name). */
export function skipName(name: string, reason: string | null): string {
  return reason === null ? name : `${name} SKIPPED: ${oneLine(reason)}`;
}

/**
 * Registers one ignored entry, named `<label> SKIPPED: <reason>`, that stands
 * for a whole group of tests not registered because they cannot run here
 * (a real client that could not be installed): one line per group in the
 * test report, even under `--quiet`. It never runs.
 */
export function reportSkipped(label: string, reason: string): void {
  Deno.test({ name: skipName(label, reason), ignore: true, fn: () => {} });
}
