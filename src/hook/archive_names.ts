/**
 * The paths a patch, a zip archive or an uncompressed tar archive would
 * write, read from the file before the command runs, so that applying a
 * patch or extracting an archive is judged by what it holds instead of
 * standing for any name (`folder_writes.ts`). Only what is cheap and
 * certain is read: a patch's file headers, a zip's central directory, a
 * plain tar's headers, and (ahead of the reading, since unpacking waits)
 * a gzip-compressed tar's. Another compressed tar, an archive holding
 * links, a file too large or with too many entries, or one that does not
 * read as its kind gives null, and the write keeps standing for any name.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import type { WorkBudget } from "../platform/budget.ts";

/** What a listing can be read from. */
export type ArchiveKind = "patch" | "zip" | "tar";

/** Most bytes of a patch read; a larger one stands for any name. */
const MAX_PATCH_BYTES = 2 * 1024 * 1024;
/** Most entries listed from one archive; more stand for any name. */
const MAX_ENTRIES = 4096;
/** Most bytes of a zip's central directory read. */
const MAX_DIRECTORY_BYTES = 1024 * 1024;
/** Work units charged per entry listed (a header read and its name kept). */
const UNITS_PER_ENTRY = 256;

/**
 * The file paths of a patch, as its headers give them (`diff --git a/x
 * b/y`, `--- x`, `+++ y`, renames and copies), `/dev/null` left out.
 */
export function patchPaths(text: string): string[] | null {
  const paths = new Set<string>();
  const add = (raw: string) => {
    const path = raw.replace(/\t.*$/, "").replace(/^"(.*)"$/, "$1").trim();
    if (path !== "" && path !== "/dev/null") paths.add(path);
  };
  for (const line of text.split("\n")) {
    const git = /^diff --git (\S+) (\S+)/.exec(line);
    if (git) {
      add(git[1]);
      add(git[2]);
      continue;
    }
    const header = /^(?:---|\+\+\+|\*\*\*) (.+)$/.exec(line);
    if (header) {
      add(header[1]);
      continue;
    }
    const moved = /^(?:rename|copy) (?:from|to) (.+)$/.exec(line);
    if (moved) add(moved[1]);
    if (paths.size > MAX_ENTRIES) return null;
  }
  return [...paths];
}

/**
 * Every path a patch path may land on: the path with 0, 1, 2 … leading
 * folders stripped, since `-p` (or patch's default, the file name alone)
 * decides which.
 */
export function strippedPaths(path: string): string[] {
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  return parts.map((_, i) => parts.slice(i).join("/"));
}

function u16(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}

function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 0x1000000;
}

/** The entry names of a zip archive, from its central directory. */
function zipNames(fs: FsPort, path: string, budget: WorkBudget): string[] | null {
  const size = fs.stat(path);
  if (!size.ok || !size.isFile) return null;
  const total = size.size;
  // The end record is the last 22 bytes, unless a comment (up to 64 KiB) follows it.
  const tailLength = Math.min(total, 22 + 0xffff);
  const tail = fs.readRange(path, total - tailLength, tailLength);
  if (tail === null || !budget.spend(tail.length, "archive")) return null;
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = u16(tail, end + 10);
  const dirSize = u32(tail, end + 12);
  const dirStart = u32(tail, end + 16);
  if (count > MAX_ENTRIES || dirSize > MAX_DIRECTORY_BYTES || dirStart + dirSize > total) {
    return null;
  }
  if (!budget.spend(dirSize + count * UNITS_PER_ENTRY, "archive")) return null;
  const dir = fs.readRange(path, dirStart, dirSize);
  if (dir === null || dir.length < dirSize) return null;
  const names: string[] = [];
  const decoder = new TextDecoder();
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > dir.length || u32(dir, at) !== 0x02014b50) return null;
    // A link stored in the archive could carry a later entry anywhere: not read as names.
    if (((u32(dir, at + 38) >>> 16) & 0xf000) === 0xa000) return null;
    const nameLength = u16(dir, at + 28);
    const skip = u16(dir, at + 30) + u16(dir, at + 32);
    if (at + 46 + nameLength > dir.length) return null;
    names.push(decoder.decode(dir.subarray(at + 46, at + 46 + nameLength)));
    at += 46 + nameLength + skip;
  }
  return names;
}

/** A NUL-ended text field of a tar header. */
function field(b: Uint8Array, at: number, length: number): string {
  const slice = b.subarray(at, at + length);
  const nul = slice.indexOf(0);
  return new TextDecoder().decode(nul < 0 ? slice : slice.subarray(0, nul));
}

/** The first bytes of the compressed formats tar may be given (gzip, bzip2, xz, zstd). */
const COMPRESSED: readonly number[][] = [[0x1f, 0x8b], [0x42, 0x5a, 0x68], [0xfd, 0x37, 0x7a], [
  0x28,
  0xb5,
  0x2f,
  0xfd,
]];

/** Reads `length` bytes from `start` (fewer at the end); null when it cannot. */
type RangeReader = (start: number, length: number) => Uint8Array | null;

/** The member names of an uncompressed tar archive, from its headers. */
function tarNames(read: RangeReader, budget: WorkBudget): string[] | null {
  const names: string[] = [];
  let at = 0;
  let longName: string | null = null;
  for (let n = 0; n <= MAX_ENTRIES * 2; n++) {
    if (!budget.spend(UNITS_PER_ENTRY, "archive")) return null;
    const header = read(at, 512);
    if (header === null) return null;
    if (n === 0 && COMPRESSED.some((magic) => magic.every((byte, i) => header[i] === byte))) {
      return null;
    }
    if (header.length < 512 || header.every((byte) => byte === 0)) return names;
    if (field(header, 257, 5) !== "ustar" && n === 0 && !/^[0-7 ]+$/.test(field(header, 124, 11))) {
      return null;
    }
    const size = parseInt(field(header, 124, 12).trim() || "0", 8);
    if (!Number.isFinite(size) || size < 0) return null;
    const type = String.fromCharCode(header[156]);
    const data = at + 512;
    at = data + Math.ceil(size / 512) * 512;
    if (type === "L" || type === "x") {
      // A GNU long name, or a pax header whose `path` names the next member.
      if (size > 64 * 1024 || !budget.spend(size, "archive")) return null;
      const body = read(data, size);
      if (body === null) return null;
      const text = new TextDecoder().decode(body);
      longName = type === "L"
        ? text.replace(/\0+$/, "")
        : (/(?:^|\n)\d+ path=([^\n]*)\n/.exec(text)?.[1] ?? longName);
      continue;
    }
    if (type === "g") continue;
    // A link stored in the archive could carry a later entry anywhere: not read as names.
    if (type === "1" || type === "2") return null;
    const prefix = field(header, 345, 155);
    const name = longName ??
      (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = null;
    names.push(name);
    if (names.length > MAX_ENTRIES) return null;
  }
  return null;
}

/** Most bytes of a gzip-compressed tar read, and most it may unpack to. */
const MAX_GZIP_BYTES = 8 * 1024 * 1024;
const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;

/** Names that say a file is a gzip-compressed tar. */
const GZIP_TAR = /\.(?:tgz|taz|tar\.gz)$/i;

/**
 * The member names of gzip-compressed tar archives, unpacked with the
 * runtime's own decompressor, keyed by path: what `archivePaths` cannot
 * read without waiting. Only the paths whose names say they are such
 * archives are read; unpacking is charged a unit per byte and stops at
 * `MAX_UNPACKED_BYTES` (the archive then counts as unreadable).
 */
export async function gzipTarListings(
  fs: FsPort,
  paths: readonly string[],
  budget: WorkBudget,
): Promise<Map<string, string[] | null>> {
  const out = new Map<string, string[] | null>();
  for (const path of paths) {
    if (!GZIP_TAR.test(path) || out.has(path)) continue;
    out.set(path, await gzipTarNames(fs, path, budget));
  }
  return out;
}

/**
 * Spends `units` on unpacking only while they stay within half of what the
 * call has left: an archive too large to unpack is one that cannot be read
 * (it stands for any name), never a spent budget that would deny the call
 * as too complex wherever it extracts to.
 */
function affordable(budget: WorkBudget, units: number): boolean {
  return units <= budget.remaining / 2 && budget.spend(units, "archive");
}

async function gzipTarNames(
  fs: FsPort,
  path: string,
  budget: WorkBudget,
): Promise<string[] | null> {
  const stat = fs.stat(path);
  if (!stat.ok || !stat.isFile || stat.size > MAX_GZIP_BYTES) return null;
  if (!affordable(budget, stat.size)) return null;
  const packed = fs.readRange(path, 0, stat.size);
  if (packed === null || packed[0] !== 0x1f || packed[1] !== 0x8b) return null;
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    const reader = new Blob([new Uint8Array(packed)]).stream().pipeThrough(
      new DecompressionStream("gzip"),
    )
      .getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > MAX_UNPACKED_BYTES || !affordable(budget, value.length)) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
  } catch {
    // Not gzip after all, or damaged: what it holds cannot be told.
    return null;
  }
  const unpacked = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    unpacked.set(chunk, at);
    at += chunk.length;
  }
  return tarNames((start, length) => unpacked.subarray(start, start + length), budget);
}

/**
 * The paths `path` would write when applied or extracted as `kind`,
 * relative to where it is applied; null when they cannot be read cheaply
 * and for certain (the caller then counts any name).
 */
export function archivePaths(
  fs: FsPort,
  path: string,
  kind: ArchiveKind,
  budget: WorkBudget,
): string[] | null {
  switch (kind) {
    case "patch": {
      if (!budget.spend(MAX_PATCH_BYTES / 64, "archive")) return null;
      const text = fs.readTextBounded(path, MAX_PATCH_BYTES);
      if (text === null || !budget.spend(text.length, "archive")) return null;
      const paths = patchPaths(text);
      return paths === null ? null : paths.flatMap(strippedPaths);
    }
    case "zip":
      return zipNames(fs, path, budget);
    case "tar":
      return tarNames((start, length) => fs.readRange(path, start, length), budget);
  }
}
