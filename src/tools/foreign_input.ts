/**
 * The paths in the input of a foreign tool that may change files
 * (`gated.ts`): its input has no schema GateGuard knows, so the strings
 * under path-like keys are taken, at any depth within a bound.
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";
import { isRecord } from "../platform/json.ts";
import { MAX_INPUT_ENTRIES } from "./gated.ts";

/** Input keys whose string values (or lists of strings) are paths. */
const PATH_KEY =
  /^(?:paths?|files?|file_?paths?|file_?names?|sources?|src|destinations?|dest|targets?|target_?paths?|dirs?|director(?:y|ies)|folders?|uris?|locations?|(?:new|old|from|to|output|input)_?paths?|from|to|output)$/i;

/** The path of a `file://` URI, its escapes decoded where they decode. */
function fileUriPath(uri: string): string {
  const path = uri.slice("file://".length);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** How deep an input is walked for paths. */
const MAX_DEPTH = 6;

/** Work units charged per input entry looked at. */
const UNITS_PER_ENTRY = 16;

/**
 * The paths in a tool's input: the strings under path-like keys (`path`,
 * `source`, `destination`, `paths`, …) at any depth up to `MAX_DEPTH`, a
 * `file://` URI read as its path. Null when the input holds more entries
 * than `MAX_INPUT_ENTRIES` or the budget runs out (the caller fails
 * closed).
 */
export function foreignPaths(input: Record<string, unknown>, budget: WorkBudget): string[] | null {
  const out: string[] = [];
  let entries = 0;
  const keep = (value: unknown) => {
    if (typeof value !== "string" || value === "") return;
    out.push(value.startsWith("file://") ? fileUriPath(value) : value);
  };
  const walk = (value: unknown, depth: number, pathy: boolean): boolean => {
    if (++entries > MAX_INPUT_ENTRIES || !budget.spend(UNITS_PER_ENTRY, "input")) return false;
    if (pathy) keep(value);
    if (depth >= MAX_DEPTH) return true;
    if (Array.isArray(value)) return value.every((item) => walk(item, depth + 1, pathy));
    if (!isRecord(value)) return true;
    return Object.entries(value).every(([key, item]) => walk(item, depth + 1, PATH_KEY.test(key)));
  };
  return walk(input, 0, false) ? out : null;
}
