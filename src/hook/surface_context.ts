/**
 * What a call's control surface (`control/surface.ts`) is resolved
 * against: the environment the settings were read from, the project root,
 * the process directory, the program this build runs as and the
 * filesystem. The file gate and the shell gate build it the same way.
 *
 * @module
 */

import type { DecideContext } from "./decision.ts";
import type { SurfaceContext } from "../control/surface.ts";
import { projectRoot } from "../file_facts/resolve.ts";
import type { FsPort } from "../platform/fs_port.ts";

/** The surface context already built for a call. */
const SURFACES = new WeakMap<DecideContext, SurfaceContext>();

/**
 * The control-surface context of one call, built once per call: every
 * reader of the surface (the file gate's targets and rules, the shell
 * reader) then shares one record of the lookups made.
 */
export function surfaceContextOf(ctx: DecideContext): SurfaceContext {
  const known = SURFACES.get(ctx);
  if (known !== undefined) return known;
  const { settings, call, ports } = ctx;
  const surface: SurfaceContext = {
    env: settings.env,
    projectRoot: projectRoot(call.cwd, settings.projectDirEnv, ports.processCwd),
    processCwd: ports.processCwd,
    program: ports.program ?? null,
    fs: rememberingLookups(ports.fs),
    ...(ports.os === undefined ? {} : { os: ports.os }),
  };
  SURFACES.set(ctx, surface);
  return surface;
}

/**
 * `fs` with its path lookups (`lstat`, `stat`, `realPath`, `readLink`)
 * remembered. The surface resolves the same folders (the home, the project
 * root, their parents) for every row and every piece of a command, and a
 * lookup of a missing name costs an exception each time. A decision writes
 * nothing, so within it a lookup's answer only changes by a race the fresh
 * lookup would lose as well; file contents are never remembered.
 */
function rememberingLookups(fs: FsPort): FsPort {
  const remember = <T>(lookup: (path: string) => T): (path: string) => T => {
    const seen = new Map<string, T>();
    return (path) => {
      if (!seen.has(path)) seen.set(path, lookup(path));
      return seen.get(path)!;
    };
  };
  const { readLink, listNames } = fs;
  return {
    lstat: remember((path) => fs.lstat(path)),
    stat: remember((path) => fs.stat(path)),
    realPath: remember((path) => fs.realPath(path)),
    ...(readLink === undefined ? {} : { readLink: remember((path) => readLink.call(fs, path)) }),
    readTextBounded: (path, maxBytes) => fs.readTextBounded(path, maxBytes),
    readTextBoundedAsync: (path, maxBytes) => fs.readTextBoundedAsync(path, maxBytes),
    readRange: (path, start, length) => fs.readRange(path, start, length),
    // Every optional method of the port is kept: a folder listed here is a folder not listed at all.
    ...(listNames === undefined ? {} : {
      listNames: (dir: string, max: number) => listNames.call(fs, dir, max),
    }),
  };
}
