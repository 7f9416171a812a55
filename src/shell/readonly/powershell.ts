/**
 * The read-only check's PowerShell rules: which cmdlets and aliases only
 * read, screened and split by the PowerShell parser. A module of its own so
 * that a Bash call never loads that parser; `loadReadOnly` brings it in.
 *
 * @module
 */

import { parsePowerShell } from "../powershell/mod.ts";
import { ALLOWED_SEPARATORS, anyArgs, type ArgsCheck, type Dialect } from "./screen.ts";
import { gitArgs, rejectOptions, RG_RULES } from "./rules.ts";

/**
 * PowerShell commands (lowercased; PowerShell resolves names
 * case-insensitively) and the check of their arguments. The cmdlets and
 * their built-in aliases only read; `rg` and `git` follow the Bash rules.
 */
const POWERSHELL_PROGRAMS: ReadonlyMap<string, ArgsCheck> = new Map([
  ...["get-childitem", "gci", "ls", "dir"].map((name) => [name, anyArgs] as const),
  ...["get-content", "gc", "cat", "type"].map((name) => [name, anyArgs] as const),
  ...["select-string", "sls"].map((name) => [name, anyArgs] as const),
  ...["get-location", "gl", "pwd"].map((name) => [name, anyArgs] as const),
  ["rg", rejectOptions(RG_RULES)],
  ["git", gitArgs],
]);

/** The PowerShell dialect of the read-only check. */
export const POWERSHELL: Dialect = {
  anywhere: "",
  inDouble: "$`",
  unquoted: "$`<>(){}@[]",
  stopParsing: true,
  programs(command, words) {
    const parse = parsePowerShell(command);
    if (!parse.ok || parse.variables || parse.subexpression || parse.group) return null;
    if (parse.scriptBlock || parse.hashtable || parse.hereString || parse.backtickEscape) {
      return null;
    }
    if (parse.stopParsing) return null;
    // The lexer consumes `&` and `.` invocations and `$x =` targets; the
    // screen rejects them already, and a differing word count says so again.
    const seen = parse.segments.reduce((n, seg) => n + seg.words.length, 0);
    if (seen !== words) return null;
    const programs: string[] = [];
    const readOnly = parse.segments.every((seg) => {
      if (seg.depth !== 0 || seg.container !== null || !ALLOWED_SEPARATORS.has(seg.sepBefore)) {
        return false;
      }
      if (seg.redirects.length > 0 || seg.stdinRedirected || seg.invocation !== null) return false;
      if (seg.assignedTo !== null || seg.stopParsing) return false;
      const [first, ...args] = seg.words;
      // A quoted first word is an expression in PowerShell, not a command.
      if (first === undefined || first.quoted || first.expands || first.raw !== first.text) {
        return false;
      }
      const program = first.raw.toLowerCase();
      const check = POWERSHELL_PROGRAMS.get(program);
      programs.push(program);
      // A native program receives each element of a comma list as its own argument.
      return check !== undefined && check(args.flatMap((w) => w.parts));
    });
    return readOnly ? programs : null;
  },
};
