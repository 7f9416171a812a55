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

import type { DecideContext } from "./decision.ts";
import { surfaceContextOf } from "./surface_context.ts";
import { DESTRUCTIVE_KEY_PREFIX, ROUTINE_KEY, SUBAGENT_KEY_PREFIX } from "./decision.ts";
import {
  projectRoot,
  type ResolvedTarget,
  resolveTarget,
  type Roots,
} from "../file_facts/resolve.ts";
import {
  controlSurfaceOf,
  type SurfaceContext,
  type SurfaceMatch,
  type SurfaceUnresolved,
} from "../control/surface.ts";
import { type FileCall, type FileChange, type FileVerb, mergeChanges } from "../tools/call.ts";

/** One file a call changes, with all the call's changes to it. */
export interface GateTarget {
  target: ResolvedTarget;
  /** The verb of the first touch of this file. */
  verb: FileVerb;
  change: FileChange;
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
export function targetsOf(ctx: DecideContext, file: FileCall, roots: Roots): GateTarget[] {
  const groups = new Map<
    string,
    { target: ResolvedTarget; verb: FileVerb; changes: FileChange[] }
  >();
  // A MultiEdit may repeat one path in many entries: resolve each once.
  const resolved = new Map<string, ResolvedTarget>();
  for (const touch of file.touches) {
    let target = resolved.get(touch.path);
    if (!target) {
      target = resolveTarget(touch.path, roots, ctx.ports.fs);
      resolved.set(touch.path, target);
    }
    const group = groups.get(target.key);
    if (group) group.changes.push(touch.change);
    else groups.set(target.key, { target, verb: touch.verb, changes: [touch.change] });
  }
  return [...groups.values()].map(({ target, verb, changes }) => ({
    target,
    verb,
    change: mergeChanges(changes),
  }));
}

export { surfaceContextOf };

/**
 * The control-surface row a target belongs to (see `controlSurfaceOf`); a
 * target in the other host's syntax is judged on its spelling alone.
 */
export function targetSurface(
  target: ResolvedTarget,
  surface: SurfaceContext,
): SurfaceMatch | SurfaceUnresolved | null {
  return controlSurfaceOf(
    target.absolute,
    target.foreign ? { ...surface, fs: undefined } : surface,
    target.unfolded,
  );
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

/**
 * True when the call names at least one file and every one of its
 * `targets` is checked this session. A file of GateGuard's control surface
 * never counts: a change there may switch GateGuard off, which the rules
 * look at every time.
 */
export function allTargetsChecked(ctx: DecideContext, targets: readonly GateTarget[]): boolean {
  if (targets.length === 0) return false;
  if (!targets.every(({ target }) => isChecked(ctx.state.checked, target))) return false;
  const surface = surfaceContextOf(ctx);
  return targets.every(({ target }) => targetSurface(target, surface) === null);
}
