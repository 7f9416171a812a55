/**
 * The Bash reader's face: the tokenizer and parser that turn a command line
 * into segments of words, and the readers of what a line gives its words at
 * run time (expansions, `printf` output). Other folders import only this
 * module.
 *
 * @module
 */

export {
  Expander,
  ExpansionTooLarge,
  lineValues,
  MAPFILE_OPTIONS,
  READ_OPTIONS,
} from "./expansions.ts";
export { argv, commandName, parseBash } from "./parser.ts";
export { producedTexts } from "./printf.ts";
export { MAX_COMMAND_CHARS, MAX_LEX_CHARS, MAX_NESTING } from "./words.ts";
export type { BashParse, Segment, Word } from "./words.ts";
