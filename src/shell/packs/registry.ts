/**
 * Every destructive pack, and which of them are active: the default set,
 * changed by switches from the project file and the environment (`-name`
 * switches a pack off, `+name` or a bare name switches one on). The core
 * pack cannot be switched off, and an unknown name is reported instead of
 * silently ignored.
 *
 * @module
 */

import type { Pack } from "./pack.ts";
import { CORE_PACK } from "./core.ts";
import { FILESYSTEM_PACK } from "./filesystem.ts";
import { INTERPRETERS_PACK } from "./interpreters.ts";
import { CONTAINERS_PACK } from "./containers.ts";
import { KUBERNETES_PACK } from "./kubernetes.ts";
import { IAC_PACK } from "./iac.ts";
import { CLOUD_PACK } from "./cloud.ts";
import { HOSTING_PACK } from "./hosting.ts";
import { DATABASES_PACK } from "./databases.ts";
import { FRAMEWORKS_PACK } from "./frameworks.ts";
import { GIT_HISTORY_PACK } from "./git_history.ts";
import { PUBLISH_PACK } from "./publish.ts";

/** Every pack, in the order `gateguard doctor` and the docs list them. */
export const PACKS: readonly Pack[] = [
  CORE_PACK,
  FILESYSTEM_PACK,
  INTERPRETERS_PACK,
  CONTAINERS_PACK,
  KUBERNETES_PACK,
  IAC_PACK,
  CLOUD_PACK,
  HOSTING_PACK,
  DATABASES_PACK,
  FRAMEWORKS_PACK,
  GIT_HISTORY_PACK,
  PUBLISH_PACK,
];

/** The active packs and the switches that could not be applied. */
export interface PackSelection {
  readonly active: readonly Pack[];
  readonly warnings: readonly string[];
}

/**
 * Applies `switches` in order to the default set: `-name` switches a pack
 * off, `+name` or `name` switches it on; later switches win.
 */
export function selectPacks(switches: readonly string[]): PackSelection {
  const on = new Map(PACKS.map((p) => [p.id, p.defaultOn]));
  const warnings: string[] = [];
  for (const raw of switches) {
    const entry = raw.trim();
    if (entry === "") continue;
    const off = entry.startsWith("-");
    const id = entry.replace(/^[-+]/, "").toLowerCase();
    const pack = PACKS.find((p) => p.id === id);
    if (pack === undefined) warnings.push(`unknown destructive pack "${id}" ignored`);
    else if (off && pack.required) warnings.push(`the ${id} pack cannot be switched off`);
    else on.set(id, !off);
  }
  return { active: PACKS.filter((p) => on.get(p.id)), warnings };
}
