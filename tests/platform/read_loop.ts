/**
 * Reads one path many times through the real file port and prints how many
 * reads found text: `deno run --allow-all read_loop.ts <path> <count>`.
 * Run as a child process, so a read that blocks can be seen (and killed)
 * from outside.
 *
 * @module
 */

import { denoFs } from "../../src/platform/fs_port.ts";

const [path, count] = Deno.args;
let found = 0;
for (let k = 0; k < Number(count); k++) {
  if (denoFs.readTextBounded(path, 1024) !== null) found++;
  if (denoFs.readRange(path, 0, 16) !== null) found++;
  if ((await denoFs.readTextBoundedAsync(path, 1024)) !== null) found++;
}
console.log(found);
Deno.exit(0);
