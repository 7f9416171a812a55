/**
 * The fail-closed reading of text the lexers cannot vouch for (too long,
 * unbalanced, nested too deep) or of scripts past the analysis budget: the
 * raw text is cut into crude tokens, quotes dropped, and every token that
 * names a program some active rule applies to is read as a command with
 * the tokens after it, up to a separator, as its arguments. Quoting,
 * nesting and wrappers cannot hide a destructive form from it; quoted data
 * may look like one, which costs a question, never a missed command.
 *
 * @module
 */

import { programName } from "../programs/mod.ts";
import { sqlDestructive } from "../sql/mod.ts";
import { REMOVERS, SQL_CLIENTS } from "../packs/mod.ts";
import { STDIN_PROGRAM_READERS, stdinProgramArgs } from "../programs/mod.ts";
import { part } from "./parts.ts";
import { pendingPack } from "./rule_match.ts";
import type { Engine, Verdict, Walk } from "./detect_types.ts";

/** Most command-name positions the token scan examines before assuming the worst. */
const MAX_SCAN_WINDOWS = 4096;

/** Most tokens after a command name that the token scan reads as its arguments. */
const MAX_WINDOW_TOKENS = 256;

/** Characters that end a command in the scan. */
const SCAN_SEPARATORS = new Set([";", "&", "|", "\n"]);
/** Characters the scan drops, so quoting cannot split a name (`r''m`, `\rm`). */
const SCAN_DROPPED = new Set(["'", '"', "`", "\\", "^"]);
/** Characters that only separate tokens in the scan. */
const SCAN_BLANKS = new Set([" ", "\t", "\r", "(", ")", "{", "}", "$", "<", ">", ","]);

/** Splits raw text into crude tokens in one pass; separators become `;` tokens. */
function scanSplit(text: string): string[] {
  const tokens: string[] = [];
  let cur = "";
  for (const c of text) {
    if (SCAN_DROPPED.has(c)) continue;
    const sep = SCAN_SEPARATORS.has(c);
    if (sep || SCAN_BLANKS.has(c)) {
      if (cur !== "") tokens.push(cur);
      cur = "";
      if (sep) tokens.push(";");
      continue;
    }
    cur += c;
  }
  if (cur !== "") tokens.push(cur);
  return tokens;
}

/** Names that open a window: a program an active rule applies to, or a PowerShell remover. */
export function scanWorthy(name: string, walk: Walk): boolean {
  return walk.rules.byName.has(name) || REMOVERS.has(name) ||
    walk.rules.byPrefix.some((p) => name.startsWith(p.prefix)) ||
    pendingPack(walk.rules, name) !== null;
}

/**
 * Reads every token that names a checked program as a command, with the
 * tokens after it up to a separator as its arguments, whatever quoting or
 * nesting surrounded it. Too many such positions count as destructive.
 * Given the raw `text`, the first interpreter named in it is also handed
 * that whole text as the program it reads on stdin: a here-document or a
 * file written on the same line holds the code, and the token windows,
 * which end at a line break, would not show it. Scans nested in a crude
 * reading skip that, so the work stays one pass per raw text.
 */
export function tokensVerdict(
  tokens: readonly string[],
  scan: Walk,
  engine: Engine,
  text: string | null = null,
): Verdict {
  const walk: Walk = { ...scan, crude: true };
  let windows = 0;
  let sqlVerdict: boolean | null = null;
  let program = text === null || scan.crude === true;
  for (let i = 0; i < tokens.length; i++) {
    const name = programName(tokens[i]);
    if (!scanWorthy(name, walk)) continue;
    if (++windows > MAX_SCAN_WINDOWS) return engine.core("unreadable");
    const args: string[] = [];
    for (let j = i + 1; j < tokens.length && args.length < MAX_WINDOW_TOKENS; j++) {
      if (tokens[j] === ";") break;
      args.push(tokens[j]);
    }
    const hit = engine.program(name, args, [], walk);
    if (hit) return hit;
    if (!program && STDIN_PROGRAM_READERS.test(name)) {
      program = true;
      const code = engine.program(name, stdinProgramArgs(name), [text!], walk);
      if (code) return code;
    }
    if (REMOVERS.has(name) && part("powershell").removeItemDestructive(args)) {
      return engine.core("remove-item-recurse");
    }
    if (part("cmd").cmdRemovesTree(name, args)) return engine.core("cmd-remove-tree");
    if (SQL_CLIENTS.has(name)) {
      sqlVerdict ??= sqlDestructive(tokens.join(" "));
      if (sqlVerdict) return engine.core("sql-drop-delete");
    }
  }
  return null;
}

/** The fail-closed reading of raw text: destructive when a destructive form appears anywhere in it. */
export function rawVerdict(text: string, walk: Walk, engine: Engine): Verdict {
  walk.budget.scanned += text.length;
  return tokensVerdict(scanSplit(text), walk, engine, text);
}
