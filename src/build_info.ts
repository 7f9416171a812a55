/**
 * The build record of this copy of GateGuard. In a source checkout there is
 * none; `deno task compile` replaces this file in the tree it compiles (never
 * in the checkout) with the target and commit of the build, so the binary
 * carries them as constants and needs no permission to report them.
 *
 * @module
 */

import type { BuildInfo } from "./version.ts";

/** The build record; null when running from source. */
export const BUILD_INFO: BuildInfo | null = null;
