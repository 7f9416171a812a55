/**
 * Which keys of the project file tighten GateGuard and which loosen it, and
 * the part of a parsed file that applies before the user has trusted it.
 *
 * The agent can write `.gateguard.jsonc` as easily as the user, and a
 * cloned repository can carry one, so the file is read in two parts: what
 * only makes the gates stricter (more destructive phrases, more packs, a
 * project note) applies at once; what lets calls through that would be
 * denied applies only while the file's exact content is in the user's
 * trust store (`trust_store.ts`, written by `gateguard trust`). A key whose
 * value can go either way is judged by its value: `"routineShell": true`
 * changes nothing and applies, `false` switches the gate off and waits.
 *
 * This module is loaded only when a project file exists.
 *
 * @module
 */

import type { ProjectConfig } from "./project_config.ts";
import { DEFAULT_FULL_DENIALS } from "./env.ts";

/** How a key can move the gate: only tighter, only looser, or either way by its value. */
export type KeyEffect = "tighten" | "loosen" | "mixed";

/** One key's entry in the trust table. */
interface TrustRule<K extends keyof ProjectConfig> {
  effect: KeyEffect;
  /**
   * The part of `value` that applies without trust, or undefined when none
   * of it does. A value equal to what it returns tightens only.
   */
  untrusted(value: NonNullable<ProjectConfig[K]>): ProjectConfig[K] | undefined;
}

const keep = <T>(value: T): T => value;
const drop = (): undefined => undefined;
/** A list whose every entry lets more through applies without trust only when empty. */
const emptyOnly = <T>(value: readonly T[]): readonly T[] | undefined =>
  value.length === 0 ? value : undefined;

/** A pack switch that turns a pack off (`-name`); `+name` and a bare name turn one on. */
export function switchesPackOff(entry: string): boolean {
  return entry.trim().startsWith("-");
}

/** Every key of the project file, how it can move the gate, and what of it applies untrusted. */
export const TRUST_RULES: { readonly [K in keyof ProjectConfig]-?: TrustRule<K> } = {
  exemptGlobs: { effect: "loosen", untrusted: emptyOnly },
  fileGates: { effect: "mixed", untrusted: (on) => on ? on : undefined },
  destructiveShell: { effect: "tighten", untrusted: keep },
  routineShell: { effect: "mixed", untrusted: (on) => on ? on : undefined },
  fullDenials: {
    effect: "mixed",
    untrusted: (n) => n >= DEFAULT_FULL_DENIALS ? n : undefined,
  },
  maxDenials: { effect: "loosen", untrusted: drop },
  destructiveCommands: { effect: "tighten", untrusted: keep },
  destructivePacks: {
    effect: "mixed",
    untrusted: (switches) => switches.filter((entry) => !switchesPackOff(entry)),
  },
  domainText: { effect: "tighten", untrusted: keep },
  allowDestructive: { effect: "loosen", untrusted: emptyOnly },
  destructiveDecision: {
    effect: "mixed",
    untrusted: (decision) => decision === "deny" ? decision : undefined,
  },
};

/** The file split by trust: what applies untrusted, and the keys whose loosening part waits. */
export interface TrustSplit {
  /** The values that apply while the file is not trusted. */
  untrusted: ProjectConfig;
  /** Keys (in file-key order) whose value, or part of it, loosens the gate. */
  looseningKeys: (keyof ProjectConfig)[];
}

/**
 * Splits a parsed file: the values that only tighten, and the names of the
 * keys that loosen (wholly, or in some entries, as a `-name` pack switch
 * among `+name` ones). Pure.
 */
export function splitByTrust(config: ProjectConfig): TrustSplit {
  const untrusted: Record<string, unknown> = {};
  const looseningKeys: (keyof ProjectConfig)[] = [];
  for (const key of Object.keys(TRUST_RULES) as (keyof ProjectConfig)[]) {
    const value = config[key];
    if (value === undefined) continue;
    const rule = TRUST_RULES[key] as TrustRule<typeof key>;
    const kept = rule.untrusted(value as never);
    if (kept !== undefined) untrusted[key] = kept;
    if (!sameValue(kept, value)) looseningKeys.push(key);
  }
  return { untrusted: untrusted as ProjectConfig, looseningKeys };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  return a === b;
}
