/**
 * What reads an archive's or a patch's paths for the self-protection
 * reader: decided per command, so the reading module (`archive_names.ts`)
 * loads only for a command that names a program extracting or applying
 * one, and a gzip-compressed tar is unpacked ahead, since unpacking waits
 * and the reader does not.
 *
 * @module
 */

import type { ArchiveKind } from "./archive_names.ts";
import type { WorkBudget } from "../platform/budget.ts";
import { homeDir } from "../config/settings.ts";
import { joinPath } from "../platform/path.ts";
import type { SurfaceContext } from "../control/surface.ts";

/** The paths an archive or patch at a path (as the line spells it) would write; null: unknown. */
export interface ArchiveReader {
  paths(path: string, kind: ArchiveKind): string[] | null;
}

/** Where a command runs, to place the paths it spells. */
export interface PlaceContext {
  surface: SurfaceContext;
  /** The directory the command runs in, or null when unknown. */
  cwd: string | null;
}

/** A path the line spells, absolute with `~` as the home; null when a part is unknown. */
function knownPath(path: string, ctx: PlaceContext): string | null {
  const home = homeDir(ctx.surface.env);
  const known = home === null ? path : path.replace(/^~(?=[\\/]|$)/, home);
  if (/[$`~]/.test(known) || !/^(?:\/|[A-Za-z]:[\\/])/.test(known)) return null;
  return known;
}

/** Words of a command that extracts an archive or applies a patch (PowerShell's `Expand-Archive` too). */
const ARCHIVE_WORDS = /\b(?:(?:bsd)?tar|unzip|patch|apply|am|expand-archive)\b/i;

/** Words that name a gzip-compressed tar archive. */
const GZIP_TAR_WORD = /[^\s'"`;|&<>()]+\.(?:tgz|taz|tar\.gz)(?=$|[\s'"`;|&<>()])/gi;

/**
 * What reads an archive's or patch's paths for `command`
 * (`ShellProtectContext.archives`), or undefined when the command names no
 * program that extracts or applies one; the reading module is loaded only
 * then. The member names of each gzip-compressed tar it names are read
 * ahead here, since unpacking waits and the reader does not.
 */
export async function prefetchArchives(
  command: string,
  ctx: PlaceContext,
  budget: WorkBudget,
): Promise<ArchiveReader | undefined> {
  const fs = ctx.surface.fs;
  if (!fs || !ARCHIVE_WORDS.test(command)) return undefined;
  const { archivePaths, gzipTarListings } =
    await (import(new URL("./archive_names.ts", import.meta.url).href) as Promise<
      typeof import("./archive_names.ts")
    >);
  const compressed: string[] = [];
  for (const [word] of command.matchAll(GZIP_TAR_WORD)) {
    // Joined as the folder-write reader joins it, so both name the archive alike.
    const placed = /^(?:[\\/~]|[A-Za-z]:)/.test(word) || ctx.cwd === null
      ? word
      : joinPath(ctx.cwd, word);
    const known = knownPath(placed, ctx);
    if (known !== null) compressed.push(known);
  }
  const ahead = compressed.length === 0
    ? new Map<string, string[] | null>()
    : await gzipTarListings(fs, compressed, budget);
  return {
    paths(path, kind) {
      const known = knownPath(path, ctx);
      if (known === null) return null;
      const listed = kind === "tar" ? ahead.get(known) : undefined;
      return listed !== undefined ? listed : archivePaths(fs, known, kind, budget);
    },
  };
}
