/**
 * The shape of one session's state, the change a decision asks to make to
 * it, and the only way text from the state file becomes a `SessionState`.
 *
 * The state file lives in a directory other processes (and the agent) can
 * write, so `parseState` trusts nothing in it: every field is checked for its
 * type, counters are clamped, maps get a null prototype and refuse the keys
 * that could reach `Object.prototype`, and every list is bounded, so a
 * hostile or truncated file degrades to "nothing recorded" for the bad part
 * and never to an exception. `applyDelta` keeps the same bounds on the way
 * in, so a state the hook writes always loads back unchanged.
 *
 * Size budget: the checked keys may hold at most `MAX_CHECKED_CHARS` UTF-16
 * units in total, and one unit serializes to at most 6 bytes (a `\u00XX`
 * escape), so together with the capped sibling gates a file the hook writes
 * stays below `MAX_STATE_BYTES`, the read bound of the store.
 *
 * On disk (snake_case, like the spec's field names):
 * `{"v":1,"checked":[…],"last_active":ms,"fact_force_denials":n,…,
 * "denials_by_class":{},"credited_by_class":{},"dir_gates":{"<class>\u0000<dir>":
 * {"turn":string|null,"at":ms,"first":string,"ordinal":n}}}`. Older files
 * holding only `checked` (raw path keys) and `last_active` load as they are.
 *
 * @module
 */

import { isRecord } from "../platform/json.ts";
import { jsonShapeWithin } from "../platform/json_shape.ts";

/** The plain counters of the spec's in-session table, plus the denial count. */
export const COUNTER_NAMES = [
  "fact_force_denials",
  "fact_force_credited",
  "sibling_allows",
  "cap_allows",
  "trivial_allows",
  "routine_readonly_passes",
] as const;

/** Name of a plain counter. */
export type CounterName = typeof COUNTER_NAMES[number];

/** A sibling-collapse window opened by a denied new-file Write. */
export interface DirGate {
  /** Turn id of the denial, or null when no transcript path was available. */
  turn: string | null;
  /** When the denial happened, ms since the epoch. */
  at: number;
  /** The sanitized path of the denied file, shown in the sibling note. */
  first: string;
  /** The denial ordinal (`#n`) of that denial. */
  ordinal: number;
}

/** One session's state, validated. Maps have a null prototype. */
export interface SessionState {
  /** Gate keys already passed: canonical paths, shell keys, subagent keys. */
  checked: Set<string>;
  /** Last time any call of the session touched the state, ms since the epoch. */
  lastActive: number;
  /** The plain counters. */
  counters: Record<CounterName, number>;
  /** Denials per target class. */
  denialsByClass: Record<string, number>;
  /** Prior-search credits per target class. */
  creditedByClass: Record<string, number>;
  /** Sibling windows keyed `<class>\u0000<canonical real dir>`. */
  dirGates: Record<string, DirGate>;
}

/** What one call wants changed; applied to the freshest state under the lock. */
export interface StateDelta {
  /** Keys to add to `checked`. */
  check: string[];
  /**
   * Keys to remove from `checked` (one-shot keys, such as the retry of a
   * destructive command). Removal wins over `check` for the same key.
   */
  uncheck: string[];
  /** Counter increments. */
  inc: Partial<Record<CounterName, number>>;
  /** Per-class denial increments. */
  deniedClass: Record<string, number>;
  /** Per-class credit increments. */
  creditedClass: Record<string, number>;
  /** Sibling windows to open (newest `at` wins on merge). */
  dirGates: Record<string, DirGate>;
}

/** The bounds every state obeys, on read and on write. */
export const STATE_LIMITS = {
  /** Most checked keys kept; the newest win. */
  maxChecked: 10_000,
  /** Longest checked key, and longest directory in a sibling-gate key. */
  maxKeyChars: 4096,
  /** Total UTF-16 units of all checked keys together. */
  maxCheckedChars: 2 * 1024 * 1024,
  /** Every counter saturates here. */
  maxCount: 1_000_000_000,
  /** Most entries of a per-class map. */
  maxClasses: 64,
  /** Most sibling gates kept; the newest `at` win. */
  maxDirGates: 50,
  /** Longest turn id of a sibling gate. */
  maxTurnChars: 512,
  /** How far in the future a timestamp may lie (clock skew between processes). */
  clockSlackMs: 60_000,
  /** Largest state file the store reads. */
  maxStateBytes: 16 * 1024 * 1024,
} as const;

/** Version written to the `v` field. */
const STATE_VERSION = 1;

/** Class codes are short lowercase identifiers (`code`, `test`, `prose`, …). */
const CLASS_CODE = /^[a-z][a-z0-9_-]{0,63}$/;

/** Keys that would reach or shadow `Object.prototype` in an ordinary object. */
const RESERVED_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Separates the class from the directory in a sibling-gate key. */
const GATE_KEY_SEPARATOR = "\u0000";

/** A state with nothing recorded. */
export function emptyState(now: number): SessionState {
  return {
    checked: new Set(),
    lastActive: now,
    counters: {
      fact_force_denials: 0,
      fact_force_credited: 0,
      sibling_allows: 0,
      cap_allows: 0,
      trivial_allows: 0,
      routine_readonly_passes: 0,
    },
    denialsByClass: Object.create(null),
    creditedByClass: Object.create(null),
    dirGates: Object.create(null),
  };
}

/** A delta that changes nothing. */
export function emptyDelta(): StateDelta {
  return {
    check: [],
    uncheck: [],
    inc: {},
    deniedClass: Object.create(null),
    creditedClass: Object.create(null),
    dirGates: Object.create(null),
  };
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** A counter as stored: a whole non-negative number, saturated; anything else is 0. */
function cleanCount(value: unknown): number {
  return isCount(value) ? Math.min(value, STATE_LIMITS.maxCount) : 0;
}

function isTimestamp(value: unknown, now: number): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 &&
    (value as number) <= now + STATE_LIMITS.clockSlackMs;
}

function isCheckKey(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= STATE_LIMITS.maxKeyChars;
}

function isClassCode(key: string): boolean {
  return CLASS_CODE.test(key) && !RESERVED_KEYS.has(key);
}

function isGateKey(key: string): boolean {
  const cut = key.indexOf(GATE_KEY_SEPARATOR);
  if (cut <= 0) return false;
  const dirLength = key.length - cut - 1;
  return isClassCode(key.slice(0, cut)) && dirLength > 0 && dirLength <= STATE_LIMITS.maxKeyChars;
}

/**
 * Keeps the newest distinct keys (the end of `keys`) within the count and
 * size budgets, in their original order.
 */
function boundChecked(keys: readonly unknown[]): Set<string> {
  const kept: string[] = [];
  const seen = new Set<string>();
  let chars = 0;
  for (let i = keys.length - 1; i >= 0 && kept.length < STATE_LIMITS.maxChecked; i--) {
    const key = keys[i];
    if (!isCheckKey(key) || seen.has(key)) continue;
    if (chars + key.length > STATE_LIMITS.maxCheckedChars) break;
    chars += key.length;
    seen.add(key);
    kept.push(key);
  }
  return new Set(kept.reverse());
}

/** Adds per-class increments to `base`; invalid classes and counts are skipped. */
function addClassCounts(base: Record<string, number>, inc: unknown): Record<string, number> {
  const out: Record<string, number> = Object.create(null);
  let size = 0;
  for (const source of [base, inc]) {
    if (!isRecord(source)) continue;
    for (const key of Object.keys(source)) {
      const value = source[key];
      if (!isClassCode(key) || !isCount(value) || value === 0) continue;
      if (!(key in out)) {
        if (size >= STATE_LIMITS.maxClasses) continue;
        size++;
        out[key] = 0;
      }
      out[key] = Math.min(out[key] + value, STATE_LIMITS.maxCount);
    }
  }
  return out;
}

function cleanGate(value: unknown, now: number): DirGate | null {
  if (!isRecord(value)) return null;
  const { turn, at, first, ordinal } = value;
  const turnOk = turn === null ||
    (typeof turn === "string" && turn.length > 0 && turn.length <= STATE_LIMITS.maxTurnChars);
  if (!turnOk || !isTimestamp(at, now) || !isCheckKey(first)) return null;
  if (!isCount(ordinal) || ordinal < 1 || ordinal > STATE_LIMITS.maxCount) return null;
  return { turn, at, first, ordinal };
}

/**
 * Merges gate maps (the newest `at` wins per key) and keeps the newest
 * `maxDirGates` entries. A top-k insertion keeps this linear in the input.
 */
function newestGates(sources: readonly unknown[], now: number): Record<string, DirGate> {
  const best: Record<string, DirGate> = Object.create(null);
  for (const source of sources) {
    if (!isRecord(source)) continue;
    for (const key of Object.keys(source)) {
      if (!isGateKey(key)) continue;
      const gate = cleanGate(source[key], now);
      if (gate && (!(key in best) || gate.at > best[key].at)) best[key] = gate;
    }
  }
  const top: [string, DirGate][] = [];
  for (const key of Object.keys(best)) {
    const gate = best[key];
    if (top.length === STATE_LIMITS.maxDirGates && gate.at <= top[top.length - 1][1].at) continue;
    let i = top.length;
    while (i > 0 && top[i - 1][1].at < gate.at) i--;
    top.splice(i, 0, [key, gate]);
    if (top.length > STATE_LIMITS.maxDirGates) top.pop();
  }
  const out: Record<string, DirGate> = Object.create(null);
  for (const [key, gate] of top) out[key] = gate;
  return out;
}

/**
 * Deepest nesting a state file may have. The format itself needs three
 * levels (a sibling gate inside `dir_gates` inside the root); JSON.parse
 * takes seconds on a file nested millions deep, so deeper text is refused
 * before it is parsed.
 */
const MAX_STATE_DEPTH = 8;

/**
 * Reads the text of a state file into a validated state. Never throws:
 * text that is not a JSON object, or whose `last_active` is missing,
 * malformed or in the future, yields an empty state stamped `now`.
 */
export function parseState(text: string, now: number): SessionState {
  if (!jsonShapeWithin(text, { maxDepth: MAX_STATE_DEPTH, maxContainers: Infinity })) {
    return emptyState(now);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return emptyState(now);
  }
  if (!isRecord(value) || !isTimestamp(value.last_active, now)) return emptyState(now);
  const state = emptyState(value.last_active);
  state.checked = boundChecked(Array.isArray(value.checked) ? value.checked : []);
  for (const name of COUNTER_NAMES) state.counters[name] = cleanCount(value[name]);
  state.denialsByClass = addClassCounts(Object.create(null), value.denials_by_class);
  state.creditedByClass = addClassCounts(Object.create(null), value.credited_by_class);
  state.dirGates = newestGates([value.dir_gates], now);
  return state;
}

/** The on-disk JSON text of a state. */
export function serializeState(state: SessionState): string {
  return JSON.stringify({
    v: STATE_VERSION,
    checked: [...state.checked],
    last_active: state.lastActive,
    ...state.counters,
    denials_by_class: state.denialsByClass,
    credited_by_class: state.creditedByClass,
    dir_gates: state.dirGates,
  });
}

/**
 * The state after one call's delta, stamped active at `now`. Pure: `state`
 * is not modified. Checked keys are added (a re-checked key counts as
 * newest), then `uncheck` keys removed; counters and class counts add and
 * saturate; gates merge by newest `at`. Invalid parts of the delta are
 * skipped, so the result always satisfies `STATE_LIMITS`.
 */
export function applyDelta(state: SessionState, delta: StateDelta, now: number): SessionState {
  const checked = new Set(state.checked);
  for (const key of delta.check) {
    checked.delete(key);
    checked.add(key);
  }
  for (const key of delta.uncheck) checked.delete(key);
  const counters = { ...state.counters };
  for (const name of COUNTER_NAMES) {
    const inc = delta.inc[name];
    if (isCount(inc)) counters[name] = Math.min(counters[name] + inc, STATE_LIMITS.maxCount);
  }
  return {
    checked: boundChecked([...checked]),
    lastActive: now,
    counters,
    denialsByClass: addClassCounts(state.denialsByClass, delta.deniedClass),
    creditedByClass: addClassCounts(state.creditedByClass, delta.creditedClass),
    dirGates: newestGates([state.dirGates, delta.dirGates], now),
  };
}
