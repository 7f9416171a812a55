/**
 * The small filesystem port the decision core uses, and its real
 * implementation on Deno's synchronous file APIs.
 *
 * The core never calls `Deno.*` itself: unit tests hand it a fake port,
 * end-to-end tests and the binary this one. Every method reports errors as
 * values, never by throwing.
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
   * Reads a regular file whole as UTF-8 when it holds at most `maxBytes`;
   * null when it is missing, not a regular file, larger, or unreadable.
   */
  readTextBounded(path: string, maxBytes: number): string | null;
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
  };
}

const decoder = new TextDecoder();

/** The real port, on Deno's synchronous APIs. */
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
  readTextBounded(path: string, maxBytes: number): string | null {
    let file: Deno.FsFile | undefined;
    try {
      // Opening a FIFO or a device would block the hook: look before opening.
      if (!Deno.statSync(path).isFile) return null;
      file = Deno.openSync(path, { read: true });
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
      file?.close();
    }
  },
  readRange(path: string, start: number, length: number): Uint8Array | null {
    let file: Deno.FsFile | undefined;
    try {
      if (!Deno.statSync(path).isFile) return null;
      file = Deno.openSync(path, { read: true });
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
      file?.close();
    }
  },
};
