/**
 * The PowerShell reader's face: the lexer that splits a PowerShell command
 * into segments, parameter binding, and the table of cmdlets, aliases and
 * .NET calls that delete. Other folders import only this module.
 *
 * @module
 */

export {
  defaultsRecurse,
  dotNetDeletes,
  fetchesText,
  PS_HIDDEN,
  psAliases,
  resolveAlias,
  scriptsFromText,
} from "./defs.ts";
export { parsePowerShell } from "./lexer.ts";
export { bindParameter, psCommandName, splitColonArg } from "./params.ts";
export type { PsSegment } from "./words.ts";
