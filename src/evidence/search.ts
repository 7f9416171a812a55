/**
 * Search evidence: what one call of the turn offers as proof that the tree
 * was searched. Each search offers stem texts, the filters it applied,
 * the scope a target must lie in, and the directories it named exactly.
 *
 * The search tools' inputs (`READ_TOOL` of the tool table) are read here; shell commands
 * are read by `shell_search.ts`. Evidence is parsed once per call and
 * cached, so the credit check and the closest-miss note share one parse.
 * See docs/search-credit.md "Search scope" and "Path patterns".
 *
 * @module
 */

import type { TurnCall } from "../session_logs/turn_scan.ts";
import { absolutePath, formatPath, isWindowsStyle, type PathParts } from "../file_facts/paths.ts";
import { sanitizeDetail } from "./detail.ts";
import { addGlob, addType, hasGlobChars, newFilters, splitTopLevel } from "./filters.ts";
import { shellCallEvidence } from "./shell_search.ts";
import type { CallEvidence, ParseContext, SearchEvidence } from "./types.ts";
import { gatedTool, READ_TOOL, TOOL } from "../tools/gated.ts";

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** Resolves a tool path (backslashes allowed, as the file tools accept them on Windows). */
export function resolveToolPath(path: string, ctx: ParseContext): PathParts {
  return absolutePath(path, ctx.base, ctx.processCwd);
}

/** A `.`-only literal prefix names the implicit cwd, not a directory. */
function namesDirectory(literal: readonly string[]): boolean {
  return literal.some((s) => s !== "" && s !== ".");
}

function globEvidence(input: Record<string, unknown>, ctx: ParseContext): SearchEvidence[] {
  const raw = str(input.pattern);
  if (raw === null) return [];
  const path = str(input.path);
  const root = resolveToolPath(path ?? ctx.base, ctx);
  const pattern = root.windows || isWindowsStyle(raw) ? raw.replaceAll("\\", "/") : raw;
  const segments = pattern.split("/");
  const firstGlob = segments.findIndex(hasGlobChars);
  const base = {
    stemTexts: [raw.toLowerCase()],
    filters: newFilters(false),
    stdinOnly: false,
    unseen: false,
  };
  if (firstGlob < 0) {
    const file = absolutePath(pattern, formatPath(root), ctx.processCwd);
    const dir = { ...file, segments: file.segments.slice(0, -1) };
    return [{ ...base, scope: { kind: "dir-files", dir, except: file }, namedDirs: [] }];
  }
  const literal = segments.slice(0, firstGlob);
  const anchor = absolutePath(literal.join("/") || ".", formatPath(root), ctx.processCwd);
  const named = path !== null || namesDirectory(literal);
  return [{
    ...base,
    scope: { kind: "glob", root: anchor, pattern: segments.slice(firstGlob).join("/") },
    namedDirs: named ? [{ place: anchor, mustExist: false }] : [],
  }];
}

function grepEvidence(input: Record<string, unknown>, ctx: ParseContext): SearchEvidence[] {
  const pattern = str(input.pattern);
  if (pattern === null) return [];
  const path = str(input.path);
  const root = resolveToolPath(path ?? ctx.base, ctx);
  const filters = newFilters(true);
  const stemTexts = [pattern.toLowerCase()];
  const glob = str(input.glob);
  for (const entry of glob ? splitTopLevel(glob, ",") : []) {
    if (entry.startsWith("!")) {
      addGlob(filters, entry.slice(1), true);
    } else {
      addGlob(filters, entry, false);
      stemTexts.push(entry.toLowerCase());
    }
  }
  const type = str(input.type);
  if (type !== null) addType(filters, "rg", type, false);
  return [{
    stemTexts,
    filters,
    scope: { kind: "below", root },
    namedDirs: path !== null ? [{ place: root, mustExist: false }] : [],
    stdinOnly: false,
    // Counts per file show no line of any file.
    unseen: input.output_mode === "count",
    // The Grep tool runs ripgrep.
    symbol: { patterns: [pattern], syntax: "ere" },
  }];
}

function lsEvidence(input: Record<string, unknown>, ctx: ParseContext): SearchEvidence[] {
  const path = str(input.path);
  if (path === null) return [];
  const root = resolveToolPath(path, ctx);
  const filters = newFilters(false);
  const ignore = Array.isArray(input.ignore) ? input.ignore : [];
  for (const entry of ignore) {
    if (typeof entry === "string") addGlob(filters, entry, true);
  }
  return [{
    stemTexts: [],
    filters,
    scope: { kind: "below", root },
    namedDirs: [{ place: root, mustExist: false }],
    stdinOnly: false,
    unseen: false,
  }];
}

/** Reads the evidence of one tool's input; tools outside the table offer none. */
const TOOL_READERS: Readonly<
  Record<string, (input: Record<string, unknown>, ctx: ParseContext) => SearchEvidence[]>
> = {
  [READ_TOOL.glob.name]: globEvidence,
  [READ_TOOL.grep.name]: grepEvidence,
  [READ_TOOL.ls.name]: lsEvidence,
};

/** The input fields shown as a call's detail, in order. */
const DETAIL_FIELDS: Readonly<Record<string, readonly string[]>> = {
  [READ_TOOL.glob.name]: ["pattern", "path"],
  [READ_TOOL.grep.name]: ["pattern", "path", "glob", "type"],
  [READ_TOOL.ls.name]: ["path"],
  [READ_TOOL.read.name]: ["file_path"],
  [TOOL.bash.name]: ["command"],
  [TOOL.powershell.name]: ["command"],
};

function detailOf(call: TurnCall): string {
  const fields = DETAIL_FIELDS[call.tool] ?? [];
  const parts = fields.map((f) => str(call.input[f])).filter((v): v is string => v !== null);
  return sanitizeDetail(parts.join(" "));
}

function parse(call: TurnCall, ctx: ParseContext): CallEvidence {
  const evidence: CallEvidence = {
    tool: call.tool,
    detail: detailOf(call),
    ambiguous: false,
    searches: [],
    otherTexts: [],
    readPath: null,
  };
  if (call.tool === READ_TOOL.read.name) {
    const path = str(call.input.file_path);
    if (path !== null) evidence.readPath = resolveToolPath(path, ctx);
    return evidence;
  }
  if (gatedTool(call.tool)?.gate === "shell") {
    const command = str(call.input.command);
    if (command === null) return evidence;
    return { ...evidence, ...shellCallEvidence(command, call.tool, ctx) };
  }
  const reader = TOOL_READERS[call.tool];
  if (reader) evidence.searches = reader(call.input, ctx);
  return evidence;
}

const cache = new WeakMap<TurnCall, Map<string, CallEvidence>>();

/** A text naming everything of `ctx` a parse depends on: equal texts parse alike. */
export function contextKey(ctx: ParseContext): string {
  return `${ctx.base}\u0000${ctx.processCwd}\u0000${ctx.shellCwdUnknown}\u0000${
    ctx.ownMoveOnly === true
  }`;
}

/**
 * The evidence of `call` under `ctx`, parsed on first use and cached per
 * call, so every check of one hook run shares one parse.
 */
export function callEvidence(call: TurnCall, ctx: ParseContext): CallEvidence {
  const key = contextKey(ctx);
  let byContext = cache.get(call);
  if (!byContext) {
    byContext = new Map();
    cache.set(call, byContext);
  }
  let evidence = byContext.get(key);
  if (!evidence) {
    evidence = parse(call, ctx);
    byContext.set(key, evidence);
  }
  return evidence;
}
