/**
 * The cmd.exe side of the destructive detector: `rd /s` and `del /s` (also
 * `rmdir`, `erase`, switches run together as `/s/q`), and every other
 * command handed to the engine through the shared wrapper reading.
 *
 * @module
 */

import { programName } from "./options.ts";
import { unwrapCommand } from "./wrappers.ts";
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

/** cmd.exe's own deleting commands (PowerShell's names are read by the PowerShell reader). */
const CMD_REMOVERS = new Set(["rd", "rmdir", "del", "erase"]);

/**
 * A command's words as cmd.exe runs them: `@` (echo off) dropped, and a
 * remover's switches split from its name (`rd/s/q x` is `rd /s/q x`).
 */
function cmdWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const word = w.replace(/^@+/, "");
    const slash = word.indexOf("/");
    if (slash > 0 && CMD_REMOVERS.has(word.slice(0, slash).toLowerCase())) {
      out.push(word.slice(0, slash), word.slice(slash));
    } else if (word !== "") out.push(word);
  }
  return out;
}

/**
 * Where a remover may start inside one command: at its start, and after
 * `if …` conditions and `for … do`, which run the command they end with.
 */
function removerStarts(words: readonly string[]): number[] {
  // Parentheses split commands, so a `for` body may start at its `do`.
  const head = words[0].toLowerCase();
  if (head !== "if" && head !== "for" && head !== "do" && head !== "else") return [0];
  return words.flatMap((w, k) => CMD_REMOVERS.has(w.toLowerCase()) ? [k] : []);
}

/** Whether a cmd.exe command line is destructive. */
export function cmdVerdict(text: string, walk: Walk, engine: Engine): Verdict {
  for (const raw of cmdCommands(text)) {
    const words = cmdWords(raw);
    if (words.length === 0) continue;
    for (const k of removerStarts(words)) {
      const name = programName(words[k]);
      if (CMD_REMOVERS.has(name) && cmdRemoveDestructive(words.slice(k + 1))) {
        return engine.core("cmd-remove-tree");
      }
    }
    if (CMD_REMOVERS.has(programName(words[0]))) continue;
    const u = unwrapCommand(words, walk.depth);
    const hit = engine.unwrapped(u, [], walk, words.join(" "));
    if (hit) return hit;
  }
  return null;
}
