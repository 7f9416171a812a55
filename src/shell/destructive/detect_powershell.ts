/**
 * The PowerShell side of the destructive detector: `Remove-Item` and its
 * aliases with `-Recurse` bound by any unambiguous prefix, fed by a
 * recursive listing or run from a script block over one, splatted
 * parameters, removers named by an expression or by an alias made on the
 * line, `-Recurse` added by `$PSDefaultParameterValues`, `-Depth` as
 * recursion, a listing fed through other cmdlets or given as the path,
 * `-WhatIf` only when surely on, .NET deletes, script blocks
 * built from text (`shell/powershell/defs.ts`), and every other command handed
 * to the engine through the shared wrapper reading.
 *
 * @module
 */

import { programName } from "../programs/mod.ts";
import { parsePowerShell } from "../powershell/mod.ts";
import { bindParameter, splitColonArg } from "../powershell/mod.ts";
import type { PsSegment } from "../powershell/mod.ts";
import { unwrapCommand } from "./wrappers.ts";
import { REMOVERS } from "../packs/mod.ts";
import { deeper, type Engine, type Verdict, type Walk } from "./detect_types.ts";
import {
  defaultsRecurse,
  dotNetDeletes,
  psAliases,
  resolveAlias,
  scriptsFromText,
} from "../powershell/mod.ts";

// The rest of the engine takes these through the part (parts.ts), so a
// command that never reaches PowerShell loads none of its reader.
export { bindParameter, fetchesText, PS_HIDDEN, splitColonArg } from "../powershell/mod.ts";

/** Parameters of `Remove-Item`, with the common parameters, for prefix binding. */
const REMOVE_ITEM_PARAMETERS = [
  "Path",
  "LiteralPath",
  "Filter",
  "Include",
  "Exclude",
  "Recurse",
  "Force",
  "Credential",
  "WhatIf",
  "Confirm",
  "Stream",
  "Verbose",
  "Debug",
  "ErrorAction",
  "WarningAction",
  "InformationAction",
  "ProgressAction",
  "ErrorVariable",
  "WarningVariable",
  "InformationVariable",
  "OutVariable",
  "OutBuffer",
  "PipelineVariable",
];

/** Aliases of those parameters. */
const REMOVE_ITEM_ALIASES: Readonly<Record<string, string>> = {
  PSPath: "LiteralPath",
  LP: "LiteralPath",
  wi: "WhatIf",
  cf: "Confirm",
  vb: "Verbose",
  db: "Debug",
  ea: "ErrorAction",
  wa: "WarningAction",
};

/** Parameters of `Get-ChildItem` that matter when it feeds `Remove-Item`. */
const GET_CHILD_ITEM_PARAMETERS = [
  "Recurse",
  "Depth",
  "Directory",
  "Path",
  "LiteralPath",
  "Filter",
];

/** Aliases of `Get-ChildItem`'s parameters (`-s` is `-Recurse`). */
const GET_CHILD_ITEM_ALIASES: Readonly<Record<string, string>> = { s: "Recurse" };

/** Most pipeline stages walked back from a remover to find the listing that feeds it. */
const MAX_PIPELINE_STAGES = 32;

/** Names of `Invoke-Expression`, which runs its argument, or else its pipeline input. */
const EVALUATORS = new Set(["invoke-expression", "iex"]);

/**
 * Windows' elevation tools (`sudo` of Windows 11, `gsudo`), which run the
 * rest of the line; gsudo reads a cmdlet there as PowerShell.
 */
const ELEVATORS = new Set(["sudo", "gsudo"]);

/** Most words of an elevator's line tried as the start of its command. */
const MAX_ELEVATED_STARTS = 8;

/** Commands that write their arguments to the pipeline. */
const ECHOES = new Set(["write-output", "echo", "write"]);

/** Names of `Get-ChildItem`. */
const CHILD_ITEM_LISTERS = new Set(["get-childitem", "gci", "ls", "dir"]);

/** Values that turn a PowerShell switch off when attached with a colon. */
const SWITCH_OFF = new Set(["$false", "0", "false"]);

/** Whether a PowerShell switch given as `-Name` or `-Name:value` may be on. */
function switchOn(value: string | null): boolean {
  return value === null || value === "" || !SWITCH_OFF.has(value.toLowerCase());
}

/**
 * Whether a switch is surely on: written bare, or with a value that is
 * true as written. `-WhatIf:$null`, `-WhatIf:''`, `-WhatIf:(0)` and
 * `-WhatIf:$env:X` are off or unknown, so they are no dry run.
 */
function switchSurelyOn(value: string | null): boolean {
  return value === null || /^(\$true|true|[1-9][0-9]*)$/i.test(value);
}

/** Whether `-Depth` (by any prefix that can only be it) is among `args` with a value other than 0. */
function deepListing(args: readonly string[]): boolean {
  return args.some((a, i) => {
    const split = splitColonArg(a);
    if (split === null || split.name.length < 3 || !"depth".startsWith(split.name.toLowerCase())) {
      return false;
    }
    return (split.value ?? args[i + 1] ?? "") !== "0";
  });
}

/**
 * `Remove-Item` (or an alias) with `-Recurse` bound by any unambiguous
 * prefix or `-Recurse:$true`, and without `-WhatIf`. A Bash-style cluster
 * such as `-rf`, which binds to no parameter, counts as recursive: it shows
 * what the command was meant to do.
 */
export function removeItemDestructive(args: readonly string[]): boolean {
  // `-Depth` is `Get-ChildItem`'s; on `Remove-Item` it shows the recursion meant.
  let recursive = deepListing(args);
  for (const a of args) {
    const split = splitColonArg(a);
    if (split === null || a.startsWith("--")) continue;
    const bound = bindParameter(a, REMOVE_ITEM_PARAMETERS, REMOVE_ITEM_ALIASES);
    if (bound === "WhatIf" && switchSurelyOn(split.value)) return false;
    if (bound === "Recurse") recursive ||= switchOn(split.value);
    if (bound === null && /^[rfRdvi]+$/.test(split.name) && /r/i.test(split.name)) recursive = true;
  }
  return recursive;
}

/** Whether a `Get-ChildItem` feeding the pipeline lists recursively (`-Recurse`, `-Depth N`). */
function recursiveListing(args: readonly string[]): boolean {
  return deepListing(args) || args.some((a) => {
    const split = splitColonArg(a);
    return split !== null &&
      bindParameter(a, GET_CHILD_ITEM_PARAMETERS, GET_CHILD_ITEM_ALIASES) === "Recurse" &&
      switchOn(split.value);
  });
}

/** A PowerShell variable reference that makes up a whole word (`$x`, `${x}`). */
const PS_LONE_VARIABLE = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;

/**
 * Values given to variables by `$x = …` segments, by lower-cased name (the
 * names are case-insensitive). The value is the segment's words as text:
 * for a string literal that is the string itself.
 */
function psVariables(segments: readonly PsSegment[]): Map<string, string> {
  const vars = new Map<string, string>();
  for (const seg of segments) {
    const m = seg.assignedTo === null ? null : PS_LONE_VARIABLE.exec(seg.assignedTo);
    if (m) vars.set(m[1].toLowerCase(), seg.words.map((w) => w.text).join(" "));
  }
  return vars;
}

/** Environment variables set by `$env:NAME = …` segments, with the values given. */
function psEnvironment(segments: readonly PsSegment[]): Map<string, string[]> {
  const env = new Map<string, string[]>();
  for (const seg of segments) {
    const m = seg.assignedTo === null
      ? null
      : /^\$env:([A-Za-z_][A-Za-z0-9_]*)$/i.exec(seg.assignedTo);
    if (m) {
      env.set(m[1].toUpperCase(), [
        ...env.get(m[1].toUpperCase()) ?? [],
        seg.words.map((w) => w.text).join(" "),
      ]);
    }
  }
  return env;
}

/**
 * The argument vector of a PowerShell segment: comma lists split the way a
 * native program receives them, and whole-word variables assigned in the
 * same command replaced by their value (PowerShell does not split it).
 */
function psArgv(seg: PsSegment, vars: ReadonlyMap<string, string>): string[] {
  return seg.words.flatMap((w, i) => {
    const m = PS_LONE_VARIABLE.exec(w.text);
    const value = m ? vars.get(m[1].toLowerCase()) : undefined;
    if (value !== undefined) return [value];
    return w.parameter || i === 0 ? [w.text] : w.parts;
  });
}

/** Index of the segment feeding `index` through a pipe at the same depth, or -1. */
function pipelineSource(segments: readonly PsSegment[], index: number): number {
  const seg = segments[index];
  if (seg.sepBefore !== "|") return -1;
  for (let j = index - 1; j >= 0; j--) {
    if (segments[j].depth === seg.depth) return j;
    if (segments[j].depth < seg.depth) return -1;
  }
  return -1;
}

/** The command a PowerShell command word names: `programName`, also without `.ps1`/`.cmd`/`.bat`. */
function psName(text: string): string {
  const base = programName(text);
  return base.endsWith(".ps1") || base.endsWith(".cmd") || base.endsWith(".bat")
    ? base.slice(0, -4)
    : base;
}

/**
 * The command word of a segment as it names a command: `.'Remove-Item'`
 * dot-sources the command the string names.
 */
function commandWord(seg: PsSegment, text: string = seg.words[0].text): string {
  return /^\.['"]/.test(seg.words[0].raw) ? text.replace(/^\./, "") : text;
}

/** `Remove-Item` fed by a recursive `Get-ChildItem`: every listed item is removed. */
function removesRecursiveListing(
  args: readonly string[],
  raws: readonly string[],
  sources: readonly (readonly string[])[],
): boolean {
  if (dryRun(args)) return false;
  // Cmdlets between them (`| Sort-Object … | Where-Object …`) pass the items on.
  if (sources.some((s) => CHILD_ITEM_LISTERS.has(psName(s[0])) && recursiveListing(s.slice(1)))) {
    return true;
  }
  // A listing given as the path (`Remove-Item -Path (Get-ChildItem -Recurse x)`).
  return raws.some((a) => {
    const inner = /^\$?\(\s*([^()]*)\)$/.exec(a)?.[1];
    if (inner === undefined) return false;
    const words = inner.split(/\s+/).filter((w) => w !== "");
    return words.length > 0 && CHILD_ITEM_LISTERS.has(psName(words[0])) &&
      recursiveListing(words.slice(1));
  });
}

/** The commands feeding segment `index` through its pipeline, nearest first, bounded. */
function pipelineSources(
  segments: readonly PsSegment[],
  index: number,
  vars: Map<string, string>,
): string[][] {
  const out: string[][] = [];
  for (let j = pipelineSource(segments, index); j >= 0 && out.length < MAX_PIPELINE_STAGES;) {
    out.push(psArgv(segments[j], vars));
    j = pipelineSource(segments, j);
  }
  return out;
}

/** `Remove-Item … -WhatIf`: nothing is removed. */
function dryRun(args: readonly string[]): boolean {
  return args.some((a) => {
    const split = splitColonArg(a);
    return split !== null && switchSurelyOn(split.value) &&
      bindParameter(a, REMOVE_ITEM_PARAMETERS, REMOVE_ITEM_ALIASES) === "WhatIf";
  });
}

/**
 * Whether a PowerShell command is destructive. The fail-closed scan of the
 * whole text runs at most once per command, however many segments call
 * for it: a command word that is an expression in every segment would
 * otherwise rescan the whole text per segment, quadratic in its length.
 */
export function powerShellVerdict(
  command: string,
  walk: Walk,
  stdin: readonly string[],
  engine: Engine,
): Verdict {
  const parsed = parsePowerShell(command);
  const segments = parsed.segments;
  const vars = psVariables(segments);
  const aliases = psAliases(segments, (seg) => psName(commandWord(seg)));
  const recurseByDefault = defaultsRecurse(command);
  // `$env:GIT_PAGER = '…'` reaches the programs the line runs.
  const env = psEnvironment(segments);
  if (env.size > 0) walk = { ...walk, env: new Map([...walk.env ?? [], ...env]) };
  let listedRecursively = false;
  let rawDone = false;
  const rawOnce = (): Verdict => {
    if (rawDone) return null;
    rawDone = true;
    return engine.raw(command, walk);
  };
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (seg.words.length === 0) continue;
    // A lone variable (`$null;`, `$x`) only writes its value: it runs nothing,
    // and skipping it keeps a line of thousands of them cheap to read.
    if (seg.words.length === 1 && PS_LONE_VARIABLE.test(seg.words[0].raw)) continue;
    const words = psArgv(seg, vars);
    // An alias made on the line runs the command it stands for.
    words[0] = resolveAlias(commandWord(seg, words[0]), aliases);
    const name = psName(words[0]);
    const args = words.slice(1);
    const index = pipelineSource(segments, i);
    const source = index >= 0 ? psArgv(segments[index], vars) : null;
    if (CHILD_ITEM_LISTERS.has(name) && recursiveListing(args)) listedRecursively = true;
    // A command named by an expression (`&('ri')`, `.(gcm Remove-Item)`, `& $c`
    // left unresolved) may be any remover: read its arguments as one.
    if (seg.words[0].expands && /^[.&(]|^\$/.test(words[0])) {
      if (removeItemDestructive(args)) return engine.core("remove-item-recurse");
      const hit = rawOnce();
      if (hit) return hit;
    }
    if (REMOVERS.has(name)) {
      const removes =
        // A splatted hashtable (`Remove-Item x @p`) may carry -Recurse.
        (args.some((a) => /^@[A-Za-z_]/.test(a)) && !dryRun(args)) ||
        removeItemDestructive(args) ||
        removesRecursiveListing(
          args,
          seg.words.slice(1).map((w) => w.raw),
          pipelineSources(segments, i, vars),
        ) ||
        // `gci -r | % { Remove-Item $_ }`: a script block removes what a recursive listing found.
        (seg.container === "scriptblock" && listedRecursively && !dryRun(args)) ||
        // `$PSDefaultParameterValues['Remove-Item:Recurse']` adds it to every call.
        (recurseByDefault && !dryRun(args));
      if (removes) return engine.core("remove-item-recurse");
      continue;
    }
    const fed = source === null ? [...stdin] : [source.join(" "), ...stdin];
    if (ELEVATORS.has(name)) {
      // Its options differ per tool: each word that could start the command is tried.
      const raws = seg.words.map((w) => w.raw);
      for (let k = 1; k < Math.min(raws.length, 1 + MAX_ELEVATED_STARTS); k++) {
        if (raws[k].startsWith("-")) continue;
        const hit = engine.script("powershell", raws.slice(k).join(" "), deeper(walk), fed);
        if (hit) return hit;
      }
    }
    if (EVALUATORS.has(name)) {
      // The value of a subexpression is the script: read its source (`iex (irm …)`).
      seg.words.forEach((w, k) => {
        if (k > 0 && w.text.includes("(…)")) words[k] = w.raw;
      });
      // `… | Invoke-Expression` runs what the pipeline writes: what an echo writes, else
      // the command itself (a string literal is the script; another command's text is read).
      if (args.length === 0 && source !== null) {
        words.push((ECHOES.has(psName(source[0])) ? source.slice(1) : source).join(" "));
      }
    }
    const raw = seg.words.map((w) => w.raw).join(" ");
    const hit = engine.unwrapped(unwrapCommand(words, walk.depth), fed, walk, raw);
    if (hit) return hit;
  }
  if (dotNetDeletes(command, listedRecursively)) return engine.core("dotnet-delete");
  // A script block built from text runs that text, however it is invoked.
  const scripts = scriptsFromText(command, (name) => vars.get(name));
  if (scripts === null) return engine.core("unreadable");
  for (const script of scripts) {
    const hit = engine.script("powershell", script, deeper(walk), []);
    if (hit) return hit;
  }
  return parsed.ok ? null : rawOnce();
}
