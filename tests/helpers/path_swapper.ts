/**
 * Flips one path between two inodes as fast as it can, to race a reader
 * that checks a path before opening it: `deno run --allow-all
 * path_swapper.ts <path> <inode A> <inode B> <stop file>`. Each flip links
 * the source under a temporary name and renames it over `path`, so the
 * path always exists and changes atomically. It starts with B, so `path`
 * should start as a link to A. Stops when the stop file
 * appears, or after a bounded number of flips.
 *
 * @module
 */

const [path, a, b, stop] = Deno.args;
const MAX_FLIPS = 2_000_000;
const temp = `${path}.swap`;
for (let flip = 0; flip < MAX_FLIPS; flip++) {
  if (flip % 256 === 0) {
    try {
      Deno.statSync(stop);
      break;
    } catch {
      // Not asked to stop yet.
    }
  }
  try {
    Deno.linkSync(flip % 2 === 0 ? b : a, temp);
    Deno.renameSync(temp, path);
  } catch {
    // Nothing to undo: the next flip starts over.
  }
  // Renaming a name over another link of the same inode leaves both names.
  try {
    Deno.removeSync(temp);
  } catch {
    // Renamed away, as it should be.
  }
}
