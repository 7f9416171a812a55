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

/** The control-surface context of one call. */
export function surfaceContextOf(ctx: DecideContext): SurfaceContext {
  const { settings, call, ports } = ctx;
  return {
    env: settings.env,
    projectRoot: projectRoot(call.cwd, settings.projectDirEnv, ports.processCwd),
    processCwd: ports.processCwd,
    program: ports.program ?? null,
    fs: ports.fs,
    ...(ports.os === undefined ? {} : { os: ports.os }),
  };
}
