/**
 * The work budget of one hook call.
 *
 * A hook that outlives the client's timeout lets the call through, so every
 * analysis a call runs draws on one shared allowance counted in work units
 * (a character read or lexed, a token, one cell of a glob match), never in
 * time: the same input always costs the same, on any machine, and tests can
 * assert the count. An analysis charges its work before doing it, so an
 * input too large to finish is turned away before the work starts, and a
 * spent budget stays spent for the rest of the call: a later analysis sees
 * it and fails closed instead of quietly skipping its part.
 *
 * Spending is a value, never an exception: `spend` answers whether the work
 * may go ahead, and `exhausted()` names the first analysis that was refused.
 * The denial text callers show is `tooComplexText` in questions/messages.ts.
 *
 * @module
 */

/**
 * Work units one call may spend. A unit is about one byte scanned or one
 * word step of a glob match, a few tens of nanoseconds at most; analyses
 * whose units cost more charge several per character. A plain first touch
 * spends a few thousand; spending all of it took under half a second of
 * CPU on the 2-core development machine (`deno task bench` measures the
 * classes that reach it).
 */
export const CALL_WORK_UNITS = 16 * 1024 * 1024;

/** What a refused analysis reports: which analysis ran out, for stderr and tests. */
export interface Exhausted {
  readonly kind: "exhausted";
  /** A short name of the analysis that was refused, such as `"glob"`. */
  readonly what: string;
}

/** A value an analysis produced, or the news that the budget ran out first. */
export type Budgeted<T> = { readonly kind: "done"; readonly value: T } | Exhausted;

/** A point of a `WorkBudget` to go back to (`checkpoint`, `restore`). */
export interface BudgetCheckpoint {
  readonly spent: number;
  readonly refused: Exhausted | null;
}

/** The running count of one call's work. Create one per call with `new WorkBudget()`. */
export class WorkBudget {
  /** Units this budget allows in all. */
  readonly limit: number;
  #spent = 0;
  #refused: Exhausted | null = null;

  /** A fresh budget of `limit` units (default `CALL_WORK_UNITS`). */
  constructor(limit: number = CALL_WORK_UNITS) {
    this.limit = limit;
  }

  /**
   * Where the budget stands, for `restore`: a reader that must start over
   * (the destructive engine, once a part it lacked is loaded) gives back
   * what its abandoned reading spent.
   */
  checkpoint(): BudgetCheckpoint {
    return { spent: this.#spent, refused: this.#refused };
  }

  /** Puts the budget back where `checkpoint` found it. */
  restore(at: BudgetCheckpoint): void {
    this.#spent = at.spent;
    this.#refused = at.refused;
  }

  /** Units spent so far, refused requests not included. */
  get spent(): number {
    return this.#spent;
  }

  /** Units still available; 0 once any request was refused. */
  get remaining(): number {
    return this.#refused ? 0 : this.limit - this.#spent;
  }

  /**
   * Asks for `units` of work on behalf of `what`. Returns true and counts
   * them when they fit; otherwise returns false, counts nothing, and the
   * budget stays exhausted for every later request. Negative or non-finite
   * requests are refused: a cost that overflowed is not a small cost.
   */
  spend(units: number, what: string): boolean {
    if (this.#refused) return false;
    if (!(units >= 0) || !Number.isFinite(units) || this.#spent + units > this.limit) {
      this.#refused = { kind: "exhausted", what };
      return false;
    }
    this.#spent += units;
    return true;
  }

  /** The first refused request, or null while the budget holds. */
  exhausted(): Exhausted | null {
    return this.#refused;
  }
}

/** Wraps a finished value. */
export function done<T>(value: T): Budgeted<T> {
  return { kind: "done", value };
}
