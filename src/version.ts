/**
 * The GateGuard version, kept equal to `version` in deno.json by a test.
 *
 * @module
 */

/** The released version of this build. */
export const VERSION = "0.1.0";
