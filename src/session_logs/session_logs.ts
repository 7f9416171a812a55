/**
 * The readers of the other agents' session logs (Codex, Gemini CLI,
 * Copilot CLI), chosen by the `log_kind` their adapter puts on a call. Each
 * maps its log into the `TurnScan` of `turn_scan.ts`, so the credit rules
 * apply unchanged, and answers the destructive-retry check of
 * `denial_seen.ts`. Claude Code's own reader (`claude_log.ts`) is loaded by
 * the gates directly, as the log a call has when it names no kind. An
 * unknown kind reads nothing: no credit, and a retry that cannot be judged.
 *
 * @module
 */

import type { TurnScanInput, TurnScanResult } from "./turn_scan.ts";
import { PENDING_RESCAN, type PendingRescan, type SeenReader } from "./tail.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { WorkBudget } from "../platform/budget.ts";

/** What the gates need of a log reader. */
export interface TurnReader {
  scanTurn(input: TurnScanInput, fs: FsPort, budget?: WorkBudget): TurnScanResult | null;
  /** How often and how long to wait for the pending call's own record. */
  PENDING_RESCAN: PendingRescan;
  /** Whether the denial a destructive retry follows could have been read. */
  denialSeen: SeenReader;
}

const NOTHING: TurnReader = {
  scanTurn: () => null,
  PENDING_RESCAN: { retries: 0, delayMs: 0 },
  denialSeen: () => "unknown",
};

/**
 * A reader module: every agent's log reader exports the same two
 * functions, and its own waits when its client writes further behind than
 * Claude Code.
 */
interface LogModule {
  scanTurn: TurnReader["scanTurn"];
  denialSeen: SeenReader;
  PENDING_RESCAN?: TurnReader["PENDING_RESCAN"];
}

async function reader(load: Promise<LogModule>): Promise<TurnReader> {
  const log = await load;
  return {
    scanTurn: log.scanTurn,
    denialSeen: log.denialSeen,
    PENDING_RESCAN: log.PENDING_RESCAN ?? PENDING_RESCAN,
  };
}

/** The readers, each loaded only when its kind is named. */
const READERS: Readonly<Record<string, () => Promise<TurnReader>>> = {
  codex: () =>
    reader(
      import(new URL("./codex_log.ts", import.meta.url).href) as Promise<
        typeof import("./codex_log.ts")
      >,
    ),
  gemini: () =>
    reader(
      import(new URL("./gemini_log.ts", import.meta.url).href) as Promise<
        typeof import("./gemini_log.ts")
      >,
    ),
  copilot: () =>
    reader(
      import(new URL("./copilot_log.ts", import.meta.url).href) as Promise<
        typeof import("./copilot_log.ts")
      >,
    ),
};

/** The reader of logs of `kind`; one that reads nothing for an unknown kind. */
export function turnReader(kind: string | null): Promise<TurnReader> {
  return kind !== null && Object.hasOwn(READERS, kind) ? READERS[kind]() : Promise.resolve(NOTHING);
}
