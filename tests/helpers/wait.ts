/**
 * Waiting on a condition instead of on the clock: a test that needs another
 * process to have done something polls for that, with a bound generous
 * enough for a machine under heavy load, and fails naming what never
 * happened.
 *
 * @module
 */

/** How long a condition may take before the test gives up on it (a loaded machine included). */
export const WAIT_BOUND_MS = 60_000;

/** Polls `done` until it holds; throws naming `what` after `boundMs`. */
export async function waitFor(
  what: string,
  done: () => boolean | Promise<boolean>,
  boundMs: number = WAIT_BOUND_MS,
): Promise<void> {
  const until = Date.now() + boundMs;
  for (;;) {
    if (await done()) return;
    if (Date.now() > until) throw new Error(`waited ${boundMs} ms, but ${what} never happened`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
