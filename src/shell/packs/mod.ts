/**
 * The destructive packs' face: the rule types, the always-loaded packs, every
 * pack's row (manifest.ts, each loading its rules on demand), and the
 * switches that select the active ones. Packs only declare data; the engine that
 * applies them is `shell/destructive/`. Other folders import only this module.
 *
 * @module
 */

export { CORE_PACK, REMOVERS, SQL_CLIENTS } from "./core.ts";
export type { Condition, DestructiveHit, Pack, PackRule, PathStep, RuleInput } from "./pack.ts";
export { PACK_MANIFEST, type PackEntry, type PackSelection, selectPacks } from "./manifest.ts";
