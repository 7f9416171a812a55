/**
 * Shell evidence: the searches inside one Bash or PowerShell command.
 *
 * The command is split by the project's one shell lexer; each segment led
 * by a search command becomes a `SearchEvidence`, and every other segment
 * is kept as text for the closest-miss note. Commands whose searched text
 * cannot be known (substitutions, heredocs, backtick escapes, over 8192
 * characters) give nothing at all. Directory changes are tracked through
 * the command. See docs/search-credit.md "Ambiguous shell is not
 * evidence", "Directory changes" and "Stdin is not a tree search".
 *
 * @module
 */

import type {
  ArgsContext,
  CallEvidence,
  Dialect,
  ParseContext,
  SearchEvidence,
  ShellSegment,
} from "./types.ts";
import { plainDirectory, segmentEvidence } from "./shell_args.ts";
import { lexShell } from "./shell_lex.ts";
import { gitGlobalOption } from "../shell/programs/mod.ts";
import { MAX_COMMAND_CHARS } from "../shell/bash/mod.ts";
import {
  BASH_SEARCH_COMMANDS,
  type Family,
  GIT_SEARCH_SUBCOMMANDS,
  POWERSHELL_SEARCH_COMMANDS,
} from "./tool_flags.ts";
import { holdsConditional, maySkip, outputReaches } from "./output_reach.ts";
import { containsCommandWord, DIR_CHANGE_WORDS, DirChangeReader } from "./dir_change.ts";
import { gatedTool } from "../tools/gated.ts";

function dialectOf(tool: string): Dialect {
  return gatedTool(tool)?.dialect === "powershell" ? "powershell" : "bash";
}

/**
 * True when the command may change the shell's working directory. A
 * command the lexer cannot read counts when a directory-change command
 * appears in it as a word, so doubt removes evidence rather than adding it.
 */
export function changesDirectory(command: string, tool: string): boolean {
  const dialect = dialectOf(tool);
  const lexed = command.length <= MAX_COMMAND_CHARS ? lexShell(command, dialect) : null;
  if (lexed === null || lexed.ambiguous) {
    const lower = command.toLowerCase();
    return DIR_CHANGE_WORDS.some((word) => containsCommandWord(lower, word));
  }
  const reader = new DirChangeReader(dialect);
  return lexed.segments.some((s) => reader.read(s).kind !== "none");
}

/** Separators that run the command before them in a pipeline or in the background. */
const DETACHING_SEPARATORS: ReadonlySet<string> = new Set(["|", "|&", "&"]);

/**
 * True when a directory change surely moves the segments after it: it runs
 * at top level, not in a pipeline, not in the background, and not only
 * after a failure. A subshell or group may end before the next segment,
 * so nesting counts as doubt.
 */
function takesEffect(change: ShellSegment, next: ShellSegment | undefined): boolean {
  return change.depth === 0 && !change.piped &&
    !DETACHING_SEPARATORS.has(next?.sepBefore ?? "");
}

/** The search family leading a segment, and where its arguments start. */
interface Leader {
  family: Family;
  argsFrom: number;
  /** `git -C <dir>`: the directory the search runs in, null when unknown. */
  base?: string | null;
}

/** Reads `git [global options] <subcommand>`; null when it is not a search. */
function gitLeader(segment: ShellSegment, ctx: ArgsContext): Leader | null {
  const words = segment.words;
  let base: string | null | undefined;
  let i = 1;
  while (i < words.length && words[i].text.startsWith("-")) {
    const t = words[i].text;
    const option = gitGlobalOption(t);
    if (option === null || option.search === "unknown") return null;
    if (option.search === "base") {
      base = plainDirectory(words[i + 1], base === undefined ? ctx.base : base, ctx);
    }
    i += option.value ? 2 : 1;
  }
  const sub = words[i]?.text ?? "";
  const family = Object.hasOwn(GIT_SEARCH_SUBCOMMANDS, sub) ? GIT_SEARCH_SUBCOMMANDS[sub] : null;
  if (family === null) return null;
  return base === undefined ? { family, argsFrom: i + 1 } : { family, argsFrom: i + 1, base };
}

function leaderOf(segment: ShellSegment, name: string, ctx: ArgsContext): Leader | null {
  if (name === "git") return gitLeader(segment, ctx);
  const table = ctx.dialect === "powershell" ? POWERSHELL_SEARCH_COMMANDS : BASH_SEARCH_COMMANDS;
  return Object.hasOwn(table, name) ? { family: table[name], argsFrom: 1 } : null;
}

/**
 * The evidence of one shell command: its search segments, the text of its
 * other segments, and whether it is ambiguous.
 */
export function shellCallEvidence(
  command: string,
  tool: string,
  ctx: ParseContext,
): Pick<CallEvidence, "ambiguous" | "searches" | "otherTexts"> {
  const none = { ambiguous: true, searches: [], otherTexts: [] };
  if (command.length > MAX_COMMAND_CHARS) return none;
  const dialect = dialectOf(tool);
  const lexed = lexShell(command, dialect);
  if (lexed.ambiguous) return none;
  const base = ctx.shellCwdUnknown ? null : ctx.base;
  const args: ArgsContext = {
    dialect,
    base,
    processCwd: ctx.processCwd,
    dirEvidence: !ctx.shellCwdUnknown && ctx.ownMoveOnly !== true,
  };
  const { searches, otherTexts, searchAt } = readSegments(lexed.segments, args, false);
  markUnseen(lexed.segments, searches, searchAt, dialect, command);
  if (ctx.ownMoveOnly === true) {
    // Had the client kept this command's directory change, the shell ended in
    // `base`: only searches no later change moved away from ran there.
    const kept = readSegments(lexed.segments, { ...args, base }, true);
    searches.forEach((s, i) => s.twin = kept.searches[i]);
  }
  return { ambiguous: false, searches, otherTexts };
}

/**
 * Marks the searches that may not have run or whose output never reached
 * the model (see `output_reach.ts`). `searches` holds one entry per search
 * segment, in order.
 */
function markUnseen(
  segments: readonly ShellSegment[],
  searches: SearchEvidence[],
  searchAt: readonly number[],
  dialect: Dialect,
  command: string,
): void {
  const reader = new DirChangeReader(dialect);
  const changes = segments.map((s) => reader.read(s).kind !== "none");
  const conditional = dialect === "bash" && holdsConditional(command);
  searchAt.forEach((i, k) => {
    const unseen = !outputReaches(segments, i, dialect) ||
      maySkip(segments, i, (j) => changes[j], conditional);
    if (unseen) searches[k].unseen = true;
  });
}

/**
 * Reads each segment in order, following directory changes from
 * `start.base`. With `endsAtBase`, `start.base` is where the command left
 * the shell instead: a search with a directory change after it resolves
 * nothing relative, and the others resolve against `start.base` unmoved.
 */
function readSegments(
  segments: readonly ShellSegment[],
  start: ArgsContext,
  endsAtBase: boolean,
): { searches: SearchEvidence[]; otherTexts: string[]; searchAt: number[] } {
  const searches: SearchEvidence[] = [];
  const searchAt: number[] = [];
  const otherTexts: string[] = [];
  const args = { ...start };
  const dirChanges = new DirChangeReader(start.dialect);
  const changes = segments.map((s) => dirChanges.read(s).kind !== "none");
  const lastChange = changes.lastIndexOf(true);
  let moved = false;
  const reader = new DirChangeReader(start.dialect);
  for (const [i, segment] of segments.entries()) {
    if (endsAtBase) args.base = i < lastChange ? null : start.base;
    // After `||` the segment may run because an earlier cd failed.
    else if (moved && segment.sepBefore === "||") args.base = null;
    if (segment.words.length === 0) continue;
    const change = reader.read(segment);
    if (change.kind !== "none") {
      moved = true;
      if (!endsAtBase) {
        const plain = change.kind === "plain" && takesEffect(segment, segments[i + 1]);
        args.base = plain ? plainDirectory(change.dir, args.base, args) : null;
      }
      otherTexts.push(segment.words.map((w) => w.text).join(" ").toLowerCase());
      continue;
    }
    const leader = leaderOf(segment, segment.name, args);
    if (leader === null) {
      otherTexts.push(segment.words.map((w) => w.text).join(" ").toLowerCase());
      continue;
    }
    const segmentArgs = leader.base === undefined ? args : { ...args, base: leader.base };
    searches.push(segmentEvidence(leader.family, segment, leader.argsFrom, segmentArgs));
    searchAt.push(i);
  }
  return { searches, otherTexts, searchAt };
}
