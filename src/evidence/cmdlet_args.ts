/**
 * Reads the parameters of the PowerShell search cmdlets (`Get-ChildItem`,
 * `Select-String`) the way PowerShell binds them: by name, alias or
 * unambiguous prefix, with `-Name:value`, comma lists that run across
 * words, and positional parameters in the cmdlet's order.
 *
 * @module
 */

import { powershellReader } from "./shell_lex.ts";
import type { ArgsContext, PatternSyntax, ShellWord } from "./types.ts";
import { POWERSHELL_CMDLETS, type PsParam, type PsRole } from "./tool_flags.ts";
import { limitDepth } from "./depth.ts";
import { Collector } from "./arg_collector.ts";

/** Binds a PowerShell parameter word the way PowerShell does; null when unknown or ambiguous. */
function psParam(params: readonly PsParam[], word: string): PsParam | null {
  const aliases: Record<string, string> = {};
  for (const p of params) for (const a of p.aliases ?? []) aliases[a] = p.name;
  const name = powershellReader()!.bindParameter(word, params.map((p) => p.name), aliases);
  return params.find((p) => p.name === name) ?? null;
}

/** The PowerShell roles whose parameter takes a value. */
const PS_VALUE_ROLES: ReadonlySet<PsRole> = new Set<PsRole>([
  "path",
  "literal-path",
  "include",
  "exclude",
  "filter",
  "pattern",
  "depth",
  "value",
  "stdin",
]);

/** The comma-list elements of a word (a word without a list is one element). */
function partsOf(w: ShellWord): readonly string[] {
  return w.parts ?? [w.text];
}

/**
 * Takes a PowerShell value starting with `first`, following a comma list
 * across words (`a, b`), from `words[i]` on. Returns its elements and the
 * index of the first word after it.
 */
function psValue(
  words: ShellWord[],
  i: number,
  first: ShellWord,
): { items: ShellWord[]; next: number } {
  const taken = [first];
  let next = i;
  while (
    next < words.length &&
    (partsOf(taken[taken.length - 1]).at(-1) === "" || partsOf(words[next])[0] === "")
  ) {
    taken.push(words[next++]);
  }
  const items = taken.flatMap((w) =>
    partsOf(w).map((text) => text.trim()).filter((text) => text !== "").map((text) => ({
      text,
      expands: w.expands,
      quoted: w.quoted,
      globs: w.globs,
    }))
  );
  return { items, next };
}

function isParameterWord(w: ShellWord): boolean {
  return w.parameter ?? (w.text.length > 1 && w.text.startsWith("-"));
}

/** The value written after the colon of `-Name:value`, with its comma list. */
function inlineValue(w: ShellWord, value: string): ShellWord {
  const parts = w.parts ? [value.split(",")[0], ...w.parts.slice(1)] : undefined;
  return { ...w, text: value, parts };
}

/** Reads a PowerShell search cmdlet's parameters and positionals. */
export function readCmdlet(
  family: "gci" | "sls",
  words: ShellWord[],
  offset: number,
  ctx: ArgsContext,
  syntax: PatternSyntax | null,
): Collector {
  const cmdlet = POWERSHELL_CMDLETS[family];
  const c = new Collector(false, cmdlet.recursive, ctx.base, syntax);
  let position = 0;
  let hasPath = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    let role: PsRole;
    let value: { items: ShellWord[]; next: number } | null = null;
    const isParameter = isParameterWord(w);
    if (isParameter) {
      const split = powershellReader()!.splitColonArg(w.text);
      const param = split ? psParam(cmdlet.params, split.name) : null;
      const inline = split?.value ? inlineValue(w, split.value) : null;
      const next = words[i + 1];
      const takesNext = inline === null && next !== undefined && !isParameterWord(next);
      if (!param) {
        // May be an exclusion in disguise: neither it nor a value it may carry is used.
        if (takesNext) i = psValue(words, i + 2, next).next - 1;
        continue;
      }
      role = param.role;
      if (role === "recurse") {
        if (split?.value == null || split.value.toLowerCase() === "$true") c.recursive = true;
        continue;
      }
      // `-Quiet:$false` and the like are the only spellings that leave the switch off.
      const on = split?.value?.toLowerCase() !== "$false";
      if (role === "silent") {
        if (on) c.silent = true;
        continue;
      }
      if (role === "invert") {
        if (on) c.inverted = true;
        continue;
      }
      if (role === "fixed") {
        if (on) c.chooseSyntax("fixed");
        continue;
      }
      if (!PS_VALUE_ROLES.has(role)) continue;
      if (inline !== null) value = psValue(words, i + 1, inline);
      else if (takesNext) value = psValue(words, i + 2, next);
      if (!value) continue;
      i = value.next - 1;
      if (role !== "exclude") c.stem(w.text);
    } else {
      role = cmdlet.positional[position++] ?? "value";
      value = psValue(words, i + 1, w);
      i = value.next - 1;
    }
    const positional = !isParameter;
    for (const item of value.items) {
      switch (role) {
        case "path":
        case "literal-path":
          hasPath = true;
          c.stem(item.text);
          c.operands.push({
            word: item,
            index: offset + i,
            mayName: positional,
            git: false,
            literal: role === "literal-path",
          });
          break;
        case "include":
        case "filter":
          c.include(item.text, true);
          break;
        case "exclude":
          c.exclude(item.text, true);
          break;
        case "pattern":
          c.stem(item.text);
          c.pattern(item);
          break;
        case "depth":
          c.recursive = true;
          limitDepth(c.depth, "subdirectory-levels", item.text);
          break;
        case "stdin":
          c.stdin = true;
          break;
        default:
          c.stem(item.text);
      }
    }
  }
  if (family === "sls" && !hasPath) c.stdin = true;
  return c;
}
