/**
 * The cmd.exe side of the destructive detector: `rd /s` and `del /s` (also
 * `rmdir`, `erase`, switches run together as `/s/q`), and every other
 * command handed to the engine through the shared wrapper reading.
 *
 * @module
 */

import { programName } from "./options.ts";
import { unwrapCommand } from "./wrappers.ts";
import { REMOVERS } from "./packs/core.ts";
import type { Engine, Verdict, Walk } from "./detect_types.ts";

/** `rd /s` or `del /s` (`erase`, `rmdir`), switches possibly run together (`/s/q`): a recursive delete in cmd.exe. */
function cmdRemoveDestructive(args: readonly string[]): boolean {
  return args.some((a) => a.startsWith("/") && a.split("/").some((p) => p.toLowerCase() === "s"));
}

/** Splits a cmd.exe command line into commands of words (`^` escapes, `"…"` quotes). */
function cmdCommands(text: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let cur = "";
  let quoted = false;
  const endWord = (): void => {
    if (cur !== "") words.push(cur);
    cur = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "^") cur += text[++i] ?? "";
    else if (!quoted && (c === "&" || c === "|" || c === "\n" || c === "(" || c === ")")) {
      endWord();
      if (words.length > 0) commands.push(words);
      words = [];
    } else if (!quoted && (c === " " || c === "\t" || c === "\r")) endWord();
    else cur += c;
  }
  endWord();
  if (words.length > 0) commands.push(words);
  return commands;
}

/** Whether a cmd.exe command line is destructive. */
export function cmdVerdict(text: string, walk: Walk, engine: Engine): Verdict {
  for (const words of cmdCommands(text)) {
    const name = programName(words[0]);
    if (REMOVERS.has(name) && name !== "remove-item" && name !== "ri") {
      if (cmdRemoveDestructive(words.slice(1))) return engine.core("cmd-remove-tree");
      continue;
    }
    const u = unwrapCommand(words, walk.depth);
    const hit = engine.unwrapped(u, [], walk, words.join(" "));
    if (hit) return hit;
  }
  return null;
}
