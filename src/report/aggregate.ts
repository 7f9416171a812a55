/**
 * Folds metrics records into per-session and overall summaries: the
 * figures `gateguard report` prints and its `--json` output carries.
 *
 * "First touch" decisions are the outcomes of the first-touch gate on a
 * file target: `deny`, `credit`, `sibling`, `cap` and `trivial`. Each line
 * is one decision, so a file that passes as a trivial edit and is changed
 * again later counts once per decision.
 *
 * @module
 */

import { NEAR_MISS_PREFIX } from "../metrics/codes.ts";
import type { MetricsRecord } from "./record.ts";

/** One counted value; `name` is null where the line held null. */
export interface Count {
  name: string | null;
  count: number;
}

/** `count` out of `of`; `rate` is their ratio rounded to 4 places, null when `of` is 0. */
export interface Rate {
  count: number;
  of: number;
  rate: number | null;
}

/** Outcomes of the first-touch gate, with each as a share of all of them. */
export interface FirstTouchSummary {
  total: number;
  deny: Rate;
  credit: Rate;
  sibling: Rate;
  cap: Rate;
  trivial: Rate;
}

/** The figures of one session, or of all sessions together. */
export interface ScopeSummary {
  /** The 12-hex session digest; null for the overall summary. */
  session: string | null;
  decisions: number;
  /** ISO time of the earliest and latest decision. */
  first: string | null;
  last: string | null;
  byDecision: Count[];
  denials: { total: number; byClass: Count[]; byReason: Count[]; byRule: Count[] };
  firstTouches: FirstTouchSummary;
  /** Ordinary first-touch denials that followed a search that nearly counted. */
  nearMiss: Rate;
  /** Read-only passes: the routine gate's and read-only git introspection. */
  routineReadonly: number;
  questions: Count[];
  /** Decisions by the agent whose hook recorded them (null: lines from before agents were recorded). */
  agents: Count[];
  /** Decisions by project digest (null: lines from before projects were recorded). */
  projects: Count[];
}

/**
 * The decisions that are denials, first-touch and shell alike; a change
 * that would weaken GateGuard counts whether the user was asked or it was
 * denied outright.
 */
export const DENIAL_DECISIONS: ReadonlySet<string> = new Set([
  "deny",
  "routine-deny",
  "destructive-deny",
  "self-protect-ask",
  "self-protect-deny",
  "destructive-ask",
]);

/** The first-touch outcomes, in the order they are reported. */
export const FIRST_TOUCH_DECISIONS = ["deny", "credit", "sibling", "cap", "trivial"] as const;

/** A pass that only read: the routine gate's read-only first command, or git introspection. */
function isReadOnlyPass(r: MetricsRecord): boolean {
  return r.decision === "routine-readonly" ||
    (r.decision === "pass" && r.reason === "readonly-git");
}

/** Reasons of a `deny` that a near-miss line could have come with. */
function isOrdinaryDenialReason(reason: string | null): boolean {
  return reason === "first-touch" || (reason?.startsWith(NEAR_MISS_PREFIX) ?? false);
}

function bump<K>(map: Map<K, number>, key: K, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function sorted(map: Map<string | null, number>): Count[] {
  return [...map].map(([name, count]) => ({ name, count })).sort((a, b) =>
    b.count - a.count ||
    (a.name === b.name ? 0 : a.name === null ? 1 : b.name === null ? -1 : a.name < b.name ? -1 : 1)
  );
}

function rate(count: number, of: number): Rate {
  return { count, of, rate: of === 0 ? null : Math.round((count / of) * 10000) / 10000 };
}

/** Running totals of one scope. */
class Tally {
  decisions = 0;
  first = Infinity;
  last = -Infinity;
  readonly byDecision = new Map<string | null, number>();
  readonly denialClass = new Map<string | null, number>();
  readonly denialReason = new Map<string | null, number>();
  readonly questions = new Map<string | null, number>();
  readonly denialRule = new Map<string | null, number>();
  readonly agents = new Map<string | null, number>();
  readonly projects = new Map<string | null, number>();
  readOnly = 0;
  ordinaryDenials = 0;
  nearMissDenials = 0;

  constructor(readonly session: string | null) {}

  add(r: MetricsRecord): void {
    this.decisions++;
    this.first = Math.min(this.first, r.tsMs);
    this.last = Math.max(this.last, r.tsMs);
    bump(this.byDecision, r.decision);
    if (DENIAL_DECISIONS.has(r.decision)) {
      bump(this.denialClass, r.class);
      bump(this.denialReason, r.reason);
      bump(this.denialRule, r.rule);
    }
    if (isReadOnlyPass(r)) this.readOnly++;
    bump(this.agents, r.agent);
    bump(this.projects, r.project);
    if (r.decision === "deny" && isOrdinaryDenialReason(r.reason)) {
      this.ordinaryDenials++;
      if (r.reason?.startsWith(NEAR_MISS_PREFIX)) this.nearMissDenials++;
    }
    for (const id of r.questions ?? []) bump(this.questions, id);
  }

  summary(): ScopeSummary {
    const n = (decision: string): number => this.byDecision.get(decision) ?? 0;
    const touches = FIRST_TOUCH_DECISIONS.reduce((sum, d) => sum + n(d), 0);
    let denials = 0;
    for (const d of DENIAL_DECISIONS) denials += n(d);
    const time = (ms: number): string | null =>
      Number.isFinite(ms) ? new Date(ms).toISOString() : null;
    return {
      session: this.session,
      decisions: this.decisions,
      first: time(this.first),
      last: time(this.last),
      byDecision: sorted(this.byDecision),
      denials: {
        total: denials,
        byClass: sorted(this.denialClass),
        byReason: sorted(this.denialReason),
        byRule: sorted(this.denialRule),
      },
      firstTouches: {
        total: touches,
        deny: rate(n("deny"), touches),
        credit: rate(n("credit"), touches),
        sibling: rate(n("sibling"), touches),
        cap: rate(n("cap"), touches),
        trivial: rate(n("trivial"), touches),
      },
      nearMiss: rate(this.nearMissDenials, this.ordinaryDenials),
      routineReadonly: this.readOnly,
      questions: sorted(this.questions),
      agents: sorted(this.agents),
      projects: sorted(this.projects),
    };
  }
}

/** Which records a report covers. */
export interface RecordFilter {
  /** Only this session digest, when set. */
  session: string | null;
  /** Only decisions at or after this time (ms since the epoch), when set. */
  sinceMs: number | null;
}

/** Collects records one at a time and summarises them at the end. */
export class Aggregator {
  /** Well-formed records left out by the filter. */
  excluded = 0;
  readonly #filter: RecordFilter;
  readonly #total = new Tally(null);
  readonly #sessions = new Map<string, Tally>();

  /** An empty aggregation that keeps only records passing `filter`. */
  constructor(filter: RecordFilter) {
    this.#filter = filter;
  }

  /** Counts one record, unless the filter leaves it out. */
  add(record: MetricsRecord): void {
    const { session, sinceMs } = this.#filter;
    if (
      (session !== null && record.session !== session) ||
      (sinceMs !== null && record.tsMs < sinceMs)
    ) {
      this.excluded++;
      return;
    }
    this.#total.add(record);
    let tally = this.#sessions.get(record.session);
    if (tally === undefined) {
      tally = new Tally(record.session);
      this.#sessions.set(record.session, tally);
    }
    tally.add(record);
  }

  /** The overall summary. */
  total(): ScopeSummary {
    return this.#total.summary();
  }

  /** One summary per session, most decisions first, then most recent, then by digest. */
  sessions(): ScopeSummary[] {
    return [...this.#sessions]
      .sort(([ka, a], [kb, b]) =>
        b.decisions - a.decisions || b.last - a.last || (ka < kb ? -1 : ka > kb ? 1 : 0)
      )
      .map(([, t]) => t.summary());
  }
}
