/**
 * Prints whether one target counts as sensitive on the real filesystem:
 * `deno run --allow-all sensitive_probe.ts <project root> <path>`. Run as a
 * child by a test that needs a user who is refused a directory, which a
 * root test process is not.
 *
 * @module
 */

import { denoFs } from "../../src/platform/fs_port.ts";
import { resolveTarget, type Roots } from "../../src/file_facts/resolve.ts";
import { isSensitive } from "../../src/file_facts/sensitive.ts";

const [root, raw] = Deno.args;
const roots: Roots = {
  projectRoot: root,
  toolCwd: root,
  processCwd: root,
  projectDirEnv: root,
  hostWindows: false,
};
console.log(isSensitive(resolveTarget(raw, roots, denoFs), roots, denoFs));
