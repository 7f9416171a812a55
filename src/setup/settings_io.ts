/**
 * Reading and writing the settings files `gateguard init` edits. A write
 * goes through the one atomic write of `platform/atomic_write.ts`, so a
 * crash never leaves half a settings file behind.
 *
 * @module
 */

import { type JsonValue, parseJsonc, toValue } from "../config/jsonc.ts";
import type { FsPort } from "../platform/fs_port.ts";
import { baseName, dirName } from "../platform/path.ts";
import { OwnerNotKept, writeAtomic as writeFileAtomic } from "../platform/atomic_write.ts";
import type { ProgramState } from "./health.ts";

/** Largest settings or plugin file read. */
export const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

/** What reading one settings or hooks file found. */
export type ReadOutcome =
  | { kind: "absent" }
  | { kind: "unreadable"; why: string }
  | { kind: "broken"; line: number; column: number; message: string }
  | { kind: "parsed"; value: JsonValue };

/** What reading one settings file as text found. */
export type TextOutcome =
  | { kind: "absent" }
  | { kind: "unreadable"; why: string }
  | { kind: "text"; text: string };

/**
 * Reads a settings file as text without ever blocking: a FIFO or device in
 * its place is unreadable, whatever is swapped in between the look and the
 * read (see `FsPort`).
 */
export async function readSettingsText(fs: FsPort, path: string): Promise<TextOutcome> {
  const st = fs.stat(path);
  if (!st.ok && st.code === "ENOENT") return { kind: "absent" };
  if (!st.ok) return { kind: "unreadable", why: st.code };
  if (!st.isFile) return { kind: "unreadable", why: "not a regular file" };
  const text = await fs.readTextBoundedAsync(path, MAX_SETTINGS_BYTES);
  if (text === null) {
    return { kind: "unreadable", why: "not a readable regular file of at most 4 MiB" };
  }
  return { kind: "text", text };
}

/** Parses settings text; JSON deeper than the JSONC editor reads is still read, as Claude Code does. */
export function parseSettings(text: string): ReadOutcome {
  const parsed = parseJsonc(text, { allowDuplicateKeys: true });
  if (parsed.ok) return { kind: "parsed", value: toValue(parsed.root) };
  try {
    return { kind: "parsed", value: JSON.parse(text) };
  } catch {
    return { kind: "broken", ...parsed.error };
  }
}

/** Reads and parses a settings or hooks file without ever blocking. */
export async function readSettingsFile(fs: FsPort, path: string): Promise<ReadOutcome> {
  const read = await readSettingsText(fs, path);
  return read.kind === "text" ? parseSettings(read.text) : read;
}

/** Where writing a settings file lands, and what the file there is like. */
export interface WriteTarget {
  /** The file that is replaced: the path itself, or what its symlink resolves to. */
  path: string;
  /** Set when `path` was reached through a symlink. */
  throughSymlink: boolean;
  /** The file exists and nobody may write it (no write bit at all). */
  readOnly: boolean;
  /** Mode and owner to keep, when the file exists and the platform reports them. */
  mode: number | null;
  owner: { uid: number; gid: number } | null;
}

/** Looks at where a write of `path` would land, following a symlink. */
export async function writeTarget(path: string): Promise<WriteTarget> {
  let target = path;
  let throughSymlink = false;
  try {
    if ((await Deno.lstat(path)).isSymlink) {
      target = await Deno.realPath(path);
      throughSymlink = true;
    }
    const info = await Deno.stat(target);
    return {
      path: target,
      throughSymlink,
      readOnly: info.mode !== null && (info.mode & 0o222) === 0,
      mode: info.mode,
      owner: info.uid !== null && info.gid !== null ? { uid: info.uid, gid: info.gid } : null,
    };
  } catch {
    // A new file: the defaults apply.
    return { path: target, throughSymlink, readOnly: false, mode: null, owner: null };
  }
}

/**
 * Replaces the file at `target` through a temporary sibling and a rename
 * (platform/atomic_write.ts), keeping its mode and owner; when the owner
 * cannot be kept the old file stays and the write fails.
 */
export async function writeAtomic(target: WriteTarget, text: string): Promise<void> {
  const dir = dirName(target.path);
  await Deno.mkdir(dir, { recursive: true });
  try {
    writeFileAtomic(target.path, text, {
      temp: `${dir}/.${baseName(target.path)}.${crypto.randomUUID()}.tmp`,
      mode: target.mode === null ? undefined : target.mode & 0o7777,
      owner: target.owner ?? undefined,
    });
  } catch (err) {
    if (err instanceof OwnerNotKept) throw new Error(`${err.message}; run init as that user`);
    throw err;
  }
}

/** What the file system says about a program path (following symlinks). */
export function programState(path: string): ProgramState {
  try {
    const info = Deno.statSync(path);
    if (info.isDirectory) return "directory";
    if (!info.isFile) return "not-executable";
    // Windows reports no mode; there the extension decides what runs.
    return info.mode !== null && (info.mode & 0o111) === 0 ? "not-executable" : "ok";
  } catch {
    return "missing";
  }
}
