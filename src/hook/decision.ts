/**
 * The value a decision returns, and the context it decides in.
 *
 * A decision is data: what to tell the harness, what to change in the
 * session state, which metrics events it produced and which warnings belong
 * on stderr. Rendering, persistence and metrics all read it afterwards.
 *
 * @module
 */

import type { HookCall } from "./call.ts";
import type { Settings } from "../config/settings.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { SessionState, StateDelta } from "../state/schema.ts";
import type { MetricsEvent as GateEvent } from "../metrics/line.ts";
import type { WorkBudget } from "../platform/budget.ts";
import type { ProgramPaths } from "../control/surface.ts";

/**
 * What the harness is told. `ask` hands the decision to the user (Claude
 * Code's permission prompt, with `text` as the reason); an agent that has
 * no such answer denies with `denyText` instead, every time.
 */
export type Outcome =
  | { kind: "pass" }
  | { kind: "note"; text: string }
  | { kind: "deny"; text: string }
  | { kind: "ask"; text: string; denyText: string };

/**
 * One decision as the metrics file records it (codes only, never content),
 * and its change-profile flags: the metrics module owns the shapes.
 */
export type {
  MetricsEvent as GateEvent,
  MetricsProfile as ProfileRecord,
} from "../metrics/line.ts";

/** One rule of a gate's order of checks, as `gateguard explain` shows it. */
export interface Rule<R extends string = string> {
  id: string;
  /** A condition that reads right followed by "applies" or "no". */
  title: string;
  /** The reason codes it decides with (a code ending in `:` is a prefix). */
  reasons: readonly R[];
}

/** The result of deciding one call. */
export interface Decision {
  outcome: Outcome;
  delta: StateDelta;
  /** Filled only when metrics are on. */
  events: GateEvent[];
  /** Lines for stderr. */
  warnings: string[];
  /**
   * The id of the rule that decided each event, in the same order (filled
   * with the events), so `gateguard explain` need not infer it.
   */
  rules?: string[];
}

/** The world as the core may see it. */
export interface Ports {
  fs: FsPort;
  /** Current time, ms since the epoch. */
  now: number;
  /** The hook process's working directory. */
  processCwd: string;
  /** True when the host is Windows. */
  hostWindows: boolean;
  /** The host system as `Deno.build.os` names it, when known (control/surface.ts). */
  os?: string;
  /**
   * The command this build registers as a hook (setup/command.ts), so a
   * settings change that drops it is recognised whatever the binary is
   * called; without it only the shapes GateGuard registers are recognised.
   */
  ownCommand?: string;
  /** The program this build runs as, for the control surface (control/surface.ts). */
  program?: ProgramPaths;
}

/** Everything one decision reads. */
export interface DecideContext {
  call: HookCall;
  settings: Settings;
  state: SessionState;
  ports: Ports;
  /** The one work budget every analysis of this call draws on (platform/budget.ts). */
  budget: WorkBudget;
}

/** The key the routine shell gate is checked under. */
export const ROUTINE_KEY = "__bash_session__";

/** Prefix of one-shot keys of denied destructive commands (followed by a hash). */
export const DESTRUCTIVE_KEY_PREFIX = "__destructive__:";

/** Prefix of the separate keys a subagent's denial of a sensitive path marks. */
export const SUBAGENT_KEY_PREFIX = "__subagent__:";
