/**
 * The files a file-tool call changes, as canonical targets, and the fast
 * answer for the most common file call of all: a retry of files already
 * checked this session.
 *
 * A checked target passes whichever rule reaches it first (exempt,
 * subagent, checked), so when every target of a call is checked and no
 * metrics line needs the deciding rule, the call passes without loading
 * the rest of the file gate.
 *
 * @module
 */

import { isRecord } from "./call.ts";
import type { DecideContext } from "./decision.ts";
import { DESTRUCTIVE_KEY_PREFIX, ROUTINE_KEY, SUBAGENT_KEY_PREFIX } from "./decision.ts";
import {
  projectRoot,
  type ResolvedTarget,
  resolveTarget,
  type Roots,
} from "../file_facts/resolve.ts";

/** One file a call changes, with the MultiEdit entries that name it. */
export interface GateTarget {
  target: ResolvedTarget;
  entries: unknown[];
}

function stringField(input: Record<string, unknown>, name: string): string | null {
  const v = input[name];
  return typeof v === "string" && v !== "" ? v : null;
}

/** Where the call's paths resolve and what they are judged relative to. */
export function rootsOf(ctx: DecideContext): Roots {
  const { settings, call, ports } = ctx;
  return {
    projectRoot: projectRoot(call.cwd, settings.projectDirEnv, ports.processCwd),
    toolCwd: call.cwd,
    processCwd: ports.processCwd,
    projectDirEnv: settings.projectDirEnv,
    hostWindows: ports.hostWindows,
    homeDir: settings.homeDir,
  };
}

/** The targets of the call, grouped by canonical key in first-seen order. */
export function targetsOf(ctx: DecideContext, roots: Roots): GateTarget[] {
  const { call } = ctx;
  const input = call.toolInput ?? {};
  const raws: { raw: string; entry: unknown | null }[] = [];
  if (call.toolName === "NotebookEdit") {
    const p = stringField(input, "notebook_path");
    if (p) raws.push({ raw: p, entry: null });
  } else if (call.toolName === "MultiEdit") {
    const callPath = stringField(input, "file_path");
    const edits = Array.isArray(input.edits) ? input.edits : [];
    for (const entry of edits) {
      if (!isRecord(entry)) continue;
      const p = stringField(entry, "file_path") ?? callPath;
      if (p) raws.push({ raw: p, entry });
    }
    // The tool writes the call's own file whatever paths the entries name,
    // so that file is gated even when every entry carries another path.
    if (callPath) raws.push({ raw: callPath, entry: null });
  } else {
    const p = stringField(input, "file_path");
    if (p) raws.push({ raw: p, entry: null });
  }
  const byKey = new Map<string, GateTarget>();
  // A MultiEdit may repeat one path in millions of entries: resolve each once.
  const resolved = new Map<string, ResolvedTarget>();
  for (const { raw, entry } of raws) {
    let target = resolved.get(raw);
    if (!target) {
      target = resolveTarget(raw, roots, ctx.ports.fs);
      resolved.set(raw, target);
    }
    let group = byKey.get(target.key);
    if (!group) {
      group = { target, entries: [] };
      byKey.set(target.key, group);
    }
    if (entry !== null) group.entries.push(entry);
  }
  return [...byKey.values()];
}

/**
 * The shell and subagent gates share the checked set; a raw file path
 * spelled like one of their keys must not pass as a legacy path key.
 */
const GATE_KEY_PREFIXES: readonly string[] = [
  ROUTINE_KEY,
  DESTRUCTIVE_KEY_PREFIX,
  SUBAGENT_KEY_PREFIX,
];

/**
 * True when the target is checked this session: under its canonical key,
 * or under its raw path as earlier versions recorded it.
 */
export function isChecked(checked: ReadonlySet<string>, target: ResolvedTarget): boolean {
  if (checked.has(target.key)) return true;
  return !GATE_KEY_PREFIXES.some((p) => target.raw.startsWith(p)) && checked.has(target.raw);
}

/** True when the call names at least one file and every one is checked this session. */
export function allTargetsChecked(ctx: DecideContext): boolean {
  const targets = targetsOf(ctx, rootsOf(ctx));
  return targets.length > 0 && targets.every(({ target }) => isChecked(ctx.state.checked, target));
}
