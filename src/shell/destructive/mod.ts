/**
 * The destructive-command engine's face: whether a command destroys data,
 * and which pack rule says so, in any dialect the engine reads (Bash,
 * PowerShell, cmd.exe, and scripts nested in them). Other folders import only
 * this module.
 *
 * @module
 */

export {
  compileExtraPatterns,
  destructiveHit,
  extraPatternHit,
  isDestructive,
  newDetectBudget,
} from "./destructive.ts";
export { findDestructive, loadAllParts, loadPart } from "./find.ts";
export { forgetParts, loadedParts, MissingPart, PART_NAMES, type PartName } from "./parts.ts";
export type { DestructiveHit } from "./destructive.ts";
export { indexRules } from "./rule_match.ts";
