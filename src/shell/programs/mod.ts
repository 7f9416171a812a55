/**
 * The program option tables' face: how each program the checks know
 * (git, find, fd, rg, …) takes its options, and the option scanner that reads
 * an argument vector by such a table. Other folders import only this module.
 *
 * @module
 */

export { escapedCommands, optionCommands, PLAIN_COMMANDS } from "./command_options.ts";
export { DECODERS, FETCHERS } from "./decoders.ts";
export {
  crontabCommands,
  exShellCommand,
  makeCommands,
  makeTexts,
  sedCommands,
  sedScripts,
  vimCommands,
} from "./embedded.ts";
export { FD_FLAGS } from "./fd.ts";
export { FIND_ACTIONS, FIND_EXEC_PRIMARIES, FIND_LEADING_OPTIONS, FIND_PRIMARIES } from "./find.ts";
export {
  AUTOCORRECT_FLOOR,
  autocorrectScore,
  checkoutPathspec,
  GIT_CODE_OPTIONS,
  GIT_COMMAND_ENV,
  GIT_COMMAND_KEYS,
  GIT_COMMANDS,
  GIT_GREP_FLAGS,
  GIT_LS_FILES_FLAGS,
  GIT_PUSH_VALUE_OPTIONS,
  gitGlobalOption,
} from "./git.ts";
export {
  closingBracket,
  hasLong,
  hasRole,
  hasShort,
  isDynamic,
  longsMatching,
  mayBeAnyOption,
  namesWithRole,
  optionRole,
  programName,
  roleValues,
  scanArgs,
  takesValue,
} from "./options.ts";
export type { OptionRoles, OptionSpec, ScannedArgs } from "./options.ts";
export { GREP_FLAGS, UGREP_FLAGS } from "./grep.ts";
export { STDIN_PROGRAM_READERS, stdinProgramArgs } from "./interpreters.ts";
export { LS_FLAGS, TREE_FLAGS } from "./listers.ts";
export { RG_FLAGS } from "./rg.ts";
export { runningOptions, VALUE_ROLES } from "./roles.ts";
export type { FamilySpec, FlagRole } from "./roles.ts";
