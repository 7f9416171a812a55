/**
 * The small filesystem port the decision core uses, and its real
 * implementation on Deno's file APIs.
 *
 * The core never calls `Deno.*` itself: unit tests hand it a fake port,
 * end-to-end tests and the binary this one. Every method reports errors as
 * values, never by throwing.
 *
 * No read may block. Opening a FIFO for reading waits for a writer, and a
 * check before the open cannot help: the path can be swapped between the
 * two (a `renameat2` exchange loop wins that race often enough). Deno has
 * no `O_NONBLOCK`, so a read opens the path for reading and writing, which
 * never waits on a FIFO (on Linux and the BSDs), and judges what it got
 * with `fstat` on the open handle. A path it may not open for writing is
 * unreadable to the synchronous methods; the one asynchronous method opens
 * such a path read-only and races the open against a bounded wait, which
 * is safe because the process ends through `Deno.exit` (see `main.ts`), so
 * an open still stuck in a worker thread cannot keep it alive.
 *
 * @module
 */

/** Error classes the core distinguishes; everything else is `EOTHER`. */
export type FsErrorCode = "ENOENT" | "ENOTDIR" | "EACCES" | "ELOOP" | "EOTHER";

/** What `lstat`/`stat` found. */
export type StatResult =
  | {
    ok: true;
    isFile: boolean;
    isDirectory: boolean;
    isSymlink: boolean;
    /** Hard-link count; null where the platform does not report it. */
    nlink: number | null;
    size: number;
    /** Modification time in ms since the epoch, null when unknown. */
    mtimeMs: number | null;
    /**
     * The file's identity (device and inode), the same for every name of a
     * hard-linked file; null or absent where the platform gives none.
     */
    fileId?: string | null;
  }
  | { ok: false; code: FsErrorCode };

/** What `realPath` found. */
export type RealPathResult = { ok: true; path: string } | { ok: false; code: FsErrorCode };

/** Filesystem access available to the decision core. */
export interface FsPort {
  /** Stats the path itself (a symlink is reported as a symlink). */
  lstat(path: string): StatResult;
  /** Stats the path, following symlinks. */
  stat(path: string): StatResult;
  /** Resolves every symlink in the path. */
  realPath(path: string): RealPathResult;
  /**
   * The target a symlink names, as written in the link; null when the path
   * is no symlink or cannot be read. Optional: a port without it leaves a
   * dangling link unresolved.
   */
  readLink?(path: string): string | null;
  /**
   * The names in a folder, at most `max` of them; null when it cannot be
   * listed. Optional: a port without it lists nothing.
   */
  listNames?(dir: string, max: number): string[] | null;
  /**
   * Reads a regular file whole as UTF-8 when it holds at most `maxBytes`;
   * null when it is missing, not a regular file, larger, or unreadable.
   */
  readTextBounded(path: string, maxBytes: number): string | null;
  /**
   * `readTextBounded` for callers that can wait a little: a file that may
   * not be opened for writing (a read-only project file) is still read,
   * read-only, and given up after a bounded wait if the open blocks.
   */
  readTextBoundedAsync(path: string, maxBytes: number): Promise<string | null>;
  /**
   * Reads up to `length` bytes of a regular file from byte offset `start`
   * (fewer where the file ends sooner); null when it is missing, not a
   * regular file, or unreadable.
   */
  readRange(path: string, start: number, length: number): Uint8Array | null;
}

/** Maps a thrown Deno error to the codes the core distinguishes. */
export function errorCode(err: unknown): FsErrorCode {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "ENOENT" || err instanceof Deno.errors.NotFound) return "ENOENT";
  if (code === "ENOTDIR" || err instanceof Deno.errors.NotADirectory) return "ENOTDIR";
  if (
    code === "EACCES" || code === "EPERM" || err instanceof Deno.errors.PermissionDenied ||
    err instanceof Deno.errors.NotCapable
  ) return "EACCES";
  if (code === "ELOOP" || err instanceof Deno.errors.FilesystemLoop) return "ELOOP";
  return "EOTHER";
}

function toStat(info: Deno.FileInfo): StatResult {
  return {
    ok: true,
    isFile: info.isFile,
    isDirectory: info.isDirectory,
    isSymlink: info.isSymlink,
    nlink: info.nlink ?? null,
    size: info.size,
    mtimeMs: info.mtime ? info.mtime.getTime() : null,
    fileId: info.ino === null ? null : `${info.dev}:${info.ino}`,
  };
}

const decoder = new TextDecoder();

/**
 * How long a read-only open may take before the read is given up. A
 * regular file opens in microseconds; only a FIFO or a device waits.
 */
export const OPEN_WAIT_MS = 250;

/** Windows has no FIFOs in the file namespace, and read-only files refuse a write open. */
const OPEN_FOR_READ: Deno.OpenOptions = Deno.build.os === "windows"
  ? { read: true }
  : { read: true, write: true };

/** Opens `path` without ever waiting on a FIFO; null when that is not possible. */
function openNonBlocking(path: string): Deno.FsFile | null {
  try {
    return Deno.openSync(path, OPEN_FOR_READ);
  } catch {
    return null;
  }
}

/** Reads an open regular file whole when it holds at most `maxBytes`, then closes it. */
function readWhole(file: Deno.FsFile, maxBytes: number): string | null {
  try {
    const info = file.statSync();
    if (!info.isFile || info.size > maxBytes) return null;
    const buf = new Uint8Array(info.size + 1);
    let total = 0;
    while (total < buf.length) {
      const n = file.readSync(buf.subarray(total));
      if (n === null) break;
      total += n;
    }
    // The file grew past the bound while we read it.
    if (total > maxBytes) return null;
    return decoder.decode(buf.subarray(0, total));
  } catch {
    return null;
  } finally {
    file.close();
  }
}

/** Opens `path` read-only, giving up after `OPEN_WAIT_MS`; a late handle is closed. */
async function openReadOnlyBounded(path: string): Promise<Deno.FsFile | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let late = false;
  const opening = Deno.open(path, { read: true }).then(
    (file) => {
      if (!late) return file;
      file.close();
      return null;
    },
    () => null,
  );
  const waited = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      late = true;
      resolve(null);
    }, OPEN_WAIT_MS);
  });
  try {
    return await Promise.race([opening, waited]);
  } finally {
    clearTimeout(timer);
  }
}

/** The real port, on Deno's file APIs. */
export const denoFs: FsPort = {
  lstat(path: string): StatResult {
    try {
      return toStat(Deno.lstatSync(path));
    } catch (err) {
      return { ok: false, code: errorCode(err) };
    }
  },
  stat(path: string): StatResult {
    try {
      return toStat(Deno.statSync(path));
    } catch (err) {
      return { ok: false, code: errorCode(err) };
    }
  },
  realPath(path: string): RealPathResult {
    try {
      return { ok: true, path: Deno.realPathSync(path) };
    } catch (err) {
      return { ok: false, code: errorCode(err) };
    }
  },
  readLink(path: string): string | null {
    try {
      return Deno.readLinkSync(path);
    } catch {
      return null;
    }
  },
  listNames(dir: string, max: number): string[] | null {
    try {
      const out: string[] = [];
      for (const entry of Deno.readDirSync(dir)) {
        if (out.length >= max) break;
        out.push(entry.name);
      }
      return out;
    } catch {
      return null;
    }
  },
  readTextBounded(path: string, maxBytes: number): string | null {
    const file = openNonBlocking(path);
    return file === null ? null : readWhole(file, maxBytes);
  },
  async readTextBoundedAsync(path: string, maxBytes: number): Promise<string | null> {
    const file = openNonBlocking(path) ?? await openReadOnlyBounded(path);
    return file === null ? null : readWhole(file, maxBytes);
  },
  readRange(path: string, start: number, length: number): Uint8Array | null {
    const file = openNonBlocking(path);
    if (file === null) return null;
    try {
      const info = file.statSync();
      if (!info.isFile) return null;
      const from = Math.min(Math.max(0, start), info.size);
      file.seekSync(from, Deno.SeekMode.Start);
      const buf = new Uint8Array(Math.max(0, Math.min(length, info.size - from)));
      let total = 0;
      while (total < buf.length) {
        const n = file.readSync(buf.subarray(total));
        if (n === null) break;
        total += n;
      }
      return buf.subarray(0, total);
    } catch {
      return null;
    } finally {
      file.close();
    }
  },
};
