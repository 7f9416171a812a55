/**
 * What a PowerShell command line sets up for the commands it runs, read
 * for the destructive detector: aliases made on the line (`New-Alias`,
 * `Set-Alias`, `nal`, `sal`, the `alias:` drive), default parameter
 * values that add `-Recurse` to `Remove-Item`, script blocks built from
 * text (`[scriptblock]::Create('…')`, `NewScriptBlock`, `InvokeScript`),
 * and .NET deletes whose recursion flag is anything but false.
 *
 * @module
 */

import { bindParameter, splitColonArg } from "./params.ts";
import type { PsSegment } from "./words.ts";

/** Names of the cmdlets that make an alias. */
const ALIAS_MAKERS = new Set(["new-alias", "set-alias", "nal", "sal"]);

/** Names of the cmdlets that write an item, such as `alias:zz`. */
const ITEM_WRITERS = new Set(["new-item", "set-item", "ni", "si"]);

/** Most alias hops followed from one command word. */
const MAX_ALIAS_HOPS = 8;

/**
 * Aliases the line makes, by lower-cased name: the command each stands
 * for, as written.
 */
export function psAliases(
  segments: readonly PsSegment[],
  name: (seg: PsSegment) => string,
): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const seg of segments) {
    const cmd = name(seg);
    const args = seg.words.slice(1).map((w) => w.text);
    if (ALIAS_MAKERS.has(cmd)) {
      const bound = bindArgs(args, ["Name", "Value", "Description", "Option", "Scope"]);
      const alias = bound.get("Name");
      const target = bound.get("Value");
      if (alias !== undefined && target !== undefined) aliases.set(alias.toLowerCase(), target);
    } else if (ITEM_WRITERS.has(cmd)) {
      const bound = bindArgs(args, ["Path", "Value", "Name", "ItemType"]);
      const path = /^alias:\\?(.+)$/i.exec(bound.get("Path") ?? "");
      const target = bound.get("Value");
      if (path !== null && target !== undefined) aliases.set(path[1].toLowerCase(), target);
    }
  }
  return aliases;
}

/**
 * Binds `args` to `params`: named ones by any unambiguous prefix, the rest
 * by position in the order given. Switches are not modelled: every named
 * parameter takes a value.
 */
function bindArgs(args: readonly string[], params: readonly string[]): Map<string, string> {
  const bound = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const split = splitColonArg(args[i]);
    if (split === null) {
      positional.push(args[i]);
      continue;
    }
    const name = bindParameter(args[i], params);
    const value = split.value ?? args[++i];
    if (name !== null && value !== undefined) bound.set(name, value);
  }
  for (const p of params) {
    if (!bound.has(p) && positional.length > 0) bound.set(p, positional.shift()!);
  }
  return bound;
}

/** The command `name` stands for after following the line's aliases. */
export function resolveAlias(name: string, aliases: ReadonlyMap<string, string>): string {
  let current = name;
  for (let n = 0; n < MAX_ALIAS_HOPS; n++) {
    const next = aliases.get(current.toLowerCase());
    if (next === undefined) break;
    current = next;
  }
  return current;
}

/** A wildcard pattern of PowerShell (`*`, `?`) as a case-insensitive regular expression. */
function wildcard(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(
    /\?/g,
    ".",
  );
  return new RegExp(`^${body}$`, "i");
}

/**
 * Whether the line sets `$PSDefaultParameterValues` so that `Remove-Item`
 * gets `-Recurse` (a key `Remove-Item:Recurse`, `*:Recurse`, `*-Item:Rec*`).
 */
export function defaultsRecurse(command: string): boolean {
  if (!/\$PSDefaultParameterValues/i.test(command)) return false;
  for (const m of command.matchAll(/([A-Za-z0-9_*?.-]+):([A-Za-z*?]+)/g)) {
    if (wildcard(m[1]).test("Remove-Item") && wildcard(m[2]).test("Recurse")) return true;
  }
  return false;
}

/** Most calls of one kind read in a command; more is read as the worst case. */
const MAX_CALLS = 64;

/** Most characters of one call's arguments read. */
const MAX_CALL_CHARS = 4096;

/**
 * Where the argument list of a call that opens at `open` (its `(`) ends:
 * the matching `)`, or where reading stops.
 */
function closingParen(text: string, open: number): number {
  let depth = 0;
  let quote: string | null = null;
  const stop = Math.min(text.length, open + MAX_CALL_CHARS);
  for (let i = open; i < stop; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === "`") i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return stop;
}

/**
 * The argument texts of every call matching `call` (a pattern ending at
 * the `(`); null when there are more than can be read.
 */
function callArguments(text: string, call: RegExp): string[] | null {
  const out: string[] = [];
  for (const m of text.matchAll(call)) {
    if (out.length >= MAX_CALLS) return null;
    const open = m.index! + m[0].length - 1;
    out.push(text.slice(open + 1, closingParen(text, open)));
  }
  return out;
}

/** The string literals of an expression, in order: `'…'` (`''` inside) and `"…"` (`` `" `` inside). */
function stringLiterals(expression: string): string[] {
  const out: string[] = [];
  for (const m of expression.matchAll(/'((?:[^']|'')*)'|"((?:[^"`]|`.)*)"/g)) {
    out.push(m[1] !== undefined ? m[1].replaceAll("''", "'") : m[2].replace(/`(.)/g, "$1"));
  }
  return out;
}

/**
 * PowerShell text made only of variables (`$x`, `"$env:CMD"`, `(${x})`):
 * the script it stands for is set outside the line.
 */
export const PS_HIDDEN: RegExp =
  /^\s*(?:[("]*\$(?:[A-Za-z_][A-Za-z0-9_]*:)?(?:[A-Za-z_][A-Za-z0-9_]*|\{[^}]*\})[)"]*\s*)+$/;

/** Web requests: cmdlets, their aliases, `Net.WebClient` downloads. */
const WEB_FETCH =
  /\b(?:invoke-restmethod|invoke-webrequest|irm|iwr|start-bitstransfer)\b|\.\s*(?:DownloadString|DownloadData|GetStringAsync)\s*\(|\bNet\.WebClient\b|\b(?:curl|wget)(?:\.exe)?\s/i;

/** Whether PowerShell `text` fetches text from the network. */
export function fetchesText(text: string): boolean {
  return WEB_FETCH.test(text);
}

/** Calls that turn text into a script block or run it as one. */
const SCRIPT_FROM_TEXT =
  /\[\s*(?:System\.Management\.Automation\.)?ScriptBlock\s*\]\s*::\s*Create\s*\(|\.\s*(?:NewScriptBlock|InvokeScript)\s*\(/gi;

/**
 * Scripts the line builds from text: the literals given to
 * `[scriptblock]::Create(…)` and its kin, joined (`'Remove-' + 'Item …'`),
 * with a whole-word variable replaced by the value the line gave it (or
 * left as written when it gave none).
 */
export function scriptsFromText(
  command: string,
  variable: (name: string) => string | undefined,
): string[] | null {
  return callArguments(command, SCRIPT_FROM_TEXT)?.map((arg) => {
    const lone = /^\s*\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\s*$/.exec(arg);
    // A variable the line never sets stays itself: a hidden script.
    if (lone !== null) return variable(lone[1].toLowerCase()) ?? arg.trim();
    // Text a web request returns (`Create((irm …))`) is run as Invoke-Expression runs it.
    if (fetchesText(arg.replace(/'(?:[^']|'')*'|"(?:[^"`]|`.)*"/g, "''"))) return `iex ${arg}`;
    return stringLiterals(arg).join("");
  }).filter((script) => script !== "") ?? null;
}

/** Arguments that are false as written; anything else may be true. */
const SURELY_FALSE =
  /^\(*(\$false|0|\$null|''|""|\[bool\]0|\[bool\]\$false|!\$true|-not\$true)\)*$/;

/** Splits a call's argument text at its top-level commas. */
function topLevelArguments(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/**
 * .NET deletes of a tree: `[IO.Directory]::Delete(p, r)` and
 * `DirectoryInfo.Delete(r)` with `r` anything but false as written (`1`,
 * `$true`, `[bool]1`, `!$false`, a variable), and, after a recursive
 * listing, `.Delete()` or `[IO.File]::Delete(…)` on what it listed. A
 * single file's `[IO.File]::Delete(p)` is no tree, like `rm p`. COM's
 * `FileSystemObject.DeleteFolder(p)` and Visual Basic's
 * `[FileSystem]::DeleteDirectory(p, …)` delete a tree whatever follows.
 * More calls than can be read count as a delete.
 */
export function dotNetDeletes(command: string, listedRecursively: boolean): boolean {
  const text = command.toLowerCase().replace(/[\s`]+/g, "");
  const directory = callArguments(text, /directory\]::delete\(/g);
  const instance = callArguments(text, /[^\]:]\.delete\(/g);
  if (directory === null || instance === null) return true;
  for (const args of directory) {
    const [, recursive] = topLevelArguments(args);
    if (recursive !== undefined && !SURELY_FALSE.test(recursive)) return true;
  }
  for (const args of instance) {
    if (args !== "" && !SURELY_FALSE.test(args)) return true;
  }
  // COM's FileSystemObject and Visual Basic's FileSystem delete a folder with all it holds.
  if (text.includes(".deletefolder(") || text.includes("]::deletedirectory(")) return true;
  return listedRecursively && (text.includes(".delete()") || text.includes("file]::delete("));
}
