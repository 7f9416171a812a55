/**
 * Entry of `gateguard report`: runs the report and prints its output. The
 * dispatcher in `src/main.ts` imports this module only for that subcommand,
 * so the hook's own startup never loads it.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { runReport } from "../report/command.ts";

const encoder = new TextEncoder();

async function print(stream: typeof Deno.stdout | typeof Deno.stderr, text: string): Promise<void> {
  const bytes = encoder.encode(text);
  try {
    for (let done = 0; done < bytes.length;) done += await stream.write(bytes.subarray(done));
  } catch {
    // A closed pipe (`gateguard report | head`) is not an error of the report.
  }
}

function stdoutIsTerminal(): boolean {
  try {
    return Deno.stdout.isTerminal();
  } catch {
    return false;
  }
}

/**
 * Runs `gateguard report` with `args`, the words after `report`, and
 * returns the exit code: 0 on success (also when there is nothing to
 * report), 1 when a metrics file cannot be read, 2 on a bad command line.
 */
export async function main(args: string[], env: EnvSnapshot): Promise<number> {
  const run = await runReport(args, env, { nowMs: Date.now(), terminal: stdoutIsTerminal() });
  await print(Deno.stdout, run.stdout);
  await print(Deno.stderr, run.stderr);
  return run.code;
}
