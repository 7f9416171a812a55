/**
 * The plain-text prefilter of prior-search credit: before any search is
 * parsed, each call of the turn is checked for the target's name as plain
 * text. A call that cannot name the target can neither credit it nor be
 * its closest miss, so it is skipped; when no call passes, the caller need
 * not load the search-evidence modules at all. For that reason this module
 * depends only on `stem.ts` and the tool table the hook has already loaded. See docs/search-credit.md "Search
 * prefilter".
 *
 * @module
 */

import type { TurnCall, TurnScan } from "../session_logs/turn_scan.ts";
import { containsWord, mayMention, MIN_MENTION_LENGTH, stemOf } from "./stem.ts";
import { READ_TOOL, TOOL } from "../tools/gated.ts";

/** Input fields whose text may name a target, by tool. */
const NAMING_FIELDS: Readonly<Record<string, readonly string[]>> = {
  [READ_TOOL.glob.name]: ["pattern"],
  [READ_TOOL.grep.name]: ["pattern", "glob"],
  [READ_TOOL.ls.name]: [],
  [TOOL.bash.name]: ["command"],
  [TOOL.powershell.name]: ["command"],
  [READ_TOOL.read.name]: ["file_path"],
};

/** What the prefilter needs to know about a target. */
export interface PrefilterTarget {
  basename: string;
  /** True for a test-class target (one test affix is stripped). */
  isTest: boolean;
  /** A new-file Write, which a search may also reach by naming its directory. */
  isNewWrite: boolean;
}

/** True when the call counts for credit or for the miss note at all. */
export function callMatters(call: TurnCall): boolean {
  return call.sameBatch || (call.completed && call.messageId !== null);
}

/** The raw text of the fields of `call` that may name a target. */
export function namingText(call: TurnCall): string {
  const input = call.input;
  return (NAMING_FIELDS[call.tool] ?? [])
    .map((f) => input[f])
    .filter((v): v is string => typeof v === "string")
    .join("\n");
}

/**
 * True when `call`'s text contains `name` once quoting is removed. A
 * new-file Write skips the check: a search may name its directory instead.
 */
export function mayName(call: TurnCall, name: string, isNewWrite: boolean): boolean {
  return isNewWrite || mayMention(namingText(call), name);
}

/** Commands that search file contents, as words of a shell command (lowercased). */
const CONTENT_SEARCH_WORDS = [
  "rg",
  "grep",
  "egrep",
  "fgrep",
  "ugrep",
  "ug",
  "select-string",
  "sls",
];

/**
 * True when `call` could count for credit and might be a search of file
 * contents: a Grep call, or a shell command holding a content-search
 * command as a word. Symbol credit reads the target's names only when
 * some call of the turn passes.
 */
export function maySearchContents(call: TurnCall): boolean {
  if (call.sameBatch || !call.completed || call.messageId === null) return false;
  if (call.tool === READ_TOOL.grep.name) return true;
  if (call.tool !== TOOL.bash.name && call.tool !== TOOL.powershell.name) return false;
  const command = call.input.command;
  if (typeof command !== "string") return false;
  const lower = command.toLowerCase();
  return CONTENT_SEARCH_WORDS.some((word) => containsWord(lower, word));
}

/**
 * True when some call of the turn might credit `target` or be named as its
 * closest miss. False guarantees no credit and no miss.
 */
export function turnMayMention(target: PrefilterTarget, scan: TurnScan): boolean {
  const { name } = stemOf(target.basename, target.isTest);
  if (!target.isNewWrite && name.length < MIN_MENTION_LENGTH) {
    return scan.calls.some((c) => c.tool === READ_TOOL.read.name && callMatters(c));
  }
  return scan.calls.some((c) => callMatters(c) && mayName(c, name, target.isNewWrite));
}
