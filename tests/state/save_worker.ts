/**
 * One writer of the concurrency test in `store_test.ts`, run as its own
 * process: it announces that it is ready, waits for the common start
 * signal, then saves a delta that checks one key of its own and counts one
 * code denial, and prints the outcome as JSON.
 *
 * Arguments: `<state dir> <barrier dir> <index>`.
 *
 * @module
 */

import { resolveSessionKey } from "../../src/state/key.ts";
import { emptyDelta } from "../../src/state/schema.ts";
import { saveDelta } from "../../src/state/store.ts";

/** Session id every worker shares. */
export const WORKER_SESSION_ID = "concurrent-session";

/** The checked key worker `index` adds. */
export function workerKey(index: number): string {
  return `/project/src/file-${index}.ts`;
}

const START_TIMEOUT_MS = 60_000;

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  const [dir, barrier, index] = Deno.args;
  const key = await resolveSessionKey({
    sessionId: WORKER_SESSION_ID,
    envSessionIds: [],
    transcriptPath: null,
    projectRoot: "/project",
  });
  Deno.writeTextFileSync(`${barrier}/ready-${index}`, "");
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const giveUp = Date.now() + START_TIMEOUT_MS;
  while (!exists(`${barrier}/go`) && Date.now() < giveUp) Atomics.wait(cell, 0, 0, 1);
  const delta = emptyDelta();
  delta.check.push(workerKey(Number(index)));
  delta.inc.fact_force_denials = 1;
  delta.deniedClass.code = 1;
  const result = saveDelta(dir, key, delta, Date.now());
  console.log(
    JSON.stringify(
      result.ok ? { ok: true, created: result.created, warnings: result.warnings } : result,
    ),
  );
  Deno.exit(result.ok ? 0 : 1);
}
