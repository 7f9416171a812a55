/**
 * The session-log readers of the agents that keep one GateGuard can read,
 * by the `log_kind` their adapter puts on a call. Each maps its log into
 * the `TurnScan` of `transcript/turn_scan.ts`, so the credit rules apply
 * unchanged. An unknown kind reads nothing: no credit.
 *
 * @module
 */

import type { TurnScanInput, TurnScanResult } from "../transcript/turn_scan.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { WorkBudget } from "../platform/budget.ts";

/** What the file gate needs of a log reader. */
export interface TurnReader {
  scanTurn(input: TurnScanInput, fs: FsPort, budget?: WorkBudget): TurnScanResult | null;
  /** How often and how long to wait for the pending call's own record. */
  PENDING_RESCAN: { readonly retries: number; readonly delayMs: number };
}

const NOTHING: TurnReader = { scanTurn: () => null, PENDING_RESCAN: { retries: 0, delayMs: 0 } };

/** The readers, each loaded only when its kind is named. */
const READERS: Readonly<Record<string, () => Promise<TurnReader>>> = {
  codex: async () => {
    const [{ scanTurn }, { PENDING_RESCAN }] = await Promise.all([
      import("./codex_log.ts"),
      import("../transcript/turn_scan.ts"),
    ]);
    return { scanTurn, PENDING_RESCAN };
  },
  gemini: async () => {
    const [{ scanTurn }, { PENDING_RESCAN }] = await Promise.all([
      import("./gemini_log.ts"),
      import("../transcript/turn_scan.ts"),
    ]);
    return { scanTurn, PENDING_RESCAN };
  },
};

/** The reader of logs of `kind`; one that reads nothing for an unknown kind. */
export function turnReader(kind: string | null): Promise<TurnReader> {
  return kind !== null && Object.hasOwn(READERS, kind) ? READERS[kind]() : Promise.resolve(NOTHING);
}
