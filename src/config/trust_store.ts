/**
 * The user's trust store: which project files (by real path) the user has
 * trusted, each with the SHA-256 of the content trusted. It lives in the
 * state directory, outside every project, as `trust.json`; only
 * `gateguard trust` writes it, and the hook only reads it.
 *
 * The store is part of GateGuard's control surface, and anything under the
 * user's account can write it, so reading it trusts nothing it cannot
 * check: a missing store, a symlink (never followed), anything but a
 * regular file, a file past its size bound, or one that is not exactly the
 * expected shape trusts no file at all. A read never waits on a FIFO (the
 * file port's rule).
 *
 * A file is trusted by its text as GateGuard reads it: `gateguard trust`
 * takes only plain UTF-8 without a byte-order mark, where that text and the
 * file's bytes are one and the same, so the digest is the SHA-256 of the
 * exact bytes trusted; any change to what the file says changes it.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import { isRecord } from "../platform/json.ts";
import { baseName, dirName, joinPath } from "../platform/path.ts";
import { sha256Hex } from "../platform/sha256.ts";

/** File name of the trust store in the state directory. */
export const TRUST_STORE_NAME = "trust.json";

/** A larger store is not read: a few hundred trusted files fit many times over. */
export const TRUST_STORE_MAX_BYTES = 256 * 1024;

/** At most this many files are kept in the store. */
export const MAX_TRUSTED_FILES = 1000;

/** Longest path kept for one trusted file. */
const MAX_PATH_LENGTH = 4096;

const DIGEST = /^[0-9a-f]{64}$/;

/** One trusted file: its real path, the digest of the trusted text, and when. */
export interface TrustEntry {
  path: string;
  sha256: string;
  /** ISO 8601 time the user trusted it (shown by `gateguard trust --list`). */
  trustedAt: string;
}

/** What reading the store found: its entries, or why it trusts nothing. */
export type TrustStoreRead =
  | { ok: true; entries: TrustEntry[]; exists: boolean }
  | { ok: false; problem: string };

/** How a project file stands against the store. */
export type TrustState = "trusted" | "untrusted" | "changed";

/** Path of the trust store in a state directory. */
export function trustStorePath(stateDir: string): string {
  return joinPath(stateDir, TRUST_STORE_NAME);
}

/** The digest a text is trusted under: SHA-256 of its UTF-8 bytes, as hex. */
export function trustDigest(text: string): Promise<string> {
  return sha256Hex(text);
}

function isEntry(value: unknown): value is TrustEntry {
  return isRecord(value) && Object.keys(value).length === 3 &&
    typeof value.path === "string" && value.path.length > 0 &&
    value.path.length <= MAX_PATH_LENGTH &&
    typeof value.sha256 === "string" && DIGEST.test(value.sha256) &&
    typeof value.trustedAt === "string" && value.trustedAt.length <= 64;
}

/**
 * The entries of a store's text, or null when any part of it is not the
 * expected shape (one malformed entry spoils the whole store). Pure.
 */
export function parseTrustStore(text: string): TrustEntry[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value) || value.version !== 1 || !Array.isArray(value.trusted)) return null;
  if (Object.keys(value).length !== 2 || value.trusted.length > MAX_TRUSTED_FILES) return null;
  const entries: TrustEntry[] = [];
  for (const item of value.trusted) {
    if (!isEntry(item)) return null;
    entries.push({ path: item.path, sha256: item.sha256, trustedAt: item.trustedAt });
  }
  return entries;
}

/** The text of a store holding `entries`, as `gateguard trust` writes it. */
export function serializeTrustStore(entries: readonly TrustEntry[]): string {
  return `${JSON.stringify({ version: 1, trusted: entries }, null, 2)}\n`;
}

/** Reads the store in `stateDir` through `fs`; never follows a symlink, never throws. */
export function readTrustStore(fs: FsPort, stateDir: string): TrustStoreRead {
  const path = trustStorePath(stateDir);
  const info = fs.lstat(path);
  if (!info.ok) {
    return info.code === "ENOENT" || info.code === "ENOTDIR"
      ? { ok: true, entries: [], exists: false }
      : { ok: false, problem: "cannot be read" };
  }
  if (info.isSymlink) {
    return { ok: false, problem: "is a symlink, which GateGuard does not follow" };
  }
  if (!info.isFile) return { ok: false, problem: "is not a regular file" };
  if (info.size > TRUST_STORE_MAX_BYTES) {
    return { ok: false, problem: `is larger than ${TRUST_STORE_MAX_BYTES / 1024} KiB` };
  }
  const text = fs.readTextBounded(path, TRUST_STORE_MAX_BYTES);
  if (text === null) return { ok: false, problem: "cannot be read" };
  const entries = parseTrustStore(text);
  return entries === null
    ? { ok: false, problem: "is malformed" }
    : { ok: true, entries, exists: true };
}

/**
 * How the file at `realPath` with `digest` stands against `entries`:
 * trusted when an entry holds both, changed when an entry names the path
 * with another digest, else untrusted. Pure.
 */
export function trustOf(
  entries: readonly TrustEntry[],
  realPath: string,
  digest: string,
): TrustState {
  let named = false;
  for (const entry of entries) {
    if (entry.path !== realPath) continue;
    if (entry.sha256 === digest) return "trusted";
    named = true;
  }
  return named ? "changed" : "untrusted";
}

/** How a project file stands, and why the store trusted nothing when it could not be read. */
export interface FileTrust {
  state: TrustState;
  /** The store's problem (a symlink, malformed, …), or null. */
  storeProblem: string | null;
}

/**
 * The real path a project file is trusted under: its directory resolved,
 * and its own name, which must not be a link. Null for a file that is a
 * symlink (a link to a file trusted in another project would otherwise
 * carry that project's trust here) or a path that cannot be resolved.
 */
export function trustedLocation(fs: FsPort, path: string): string | null {
  const real = fs.realPath(path);
  const dir = fs.realPath(dirName(path));
  if (!real.ok || !dir.ok) return null;
  const slashes = (p: string): string => p.replaceAll("\\", "/");
  return slashes(real.path) === slashes(joinPath(dir.path, baseName(path))) ? real.path : null;
}

/**
 * How the project file at `path`, read as `text`, stands against the store
 * in `stateDir`. A path that cannot be resolved or is a symlink, or a store
 * that cannot be read, leaves it untrusted.
 */
export async function projectFileTrust(
  fs: FsPort,
  stateDir: string,
  path: string,
  text: string,
): Promise<FileTrust> {
  const real = trustedLocation(fs, path);
  if (real === null) return { state: "untrusted", storeProblem: null };
  const store = readTrustStore(fs, stateDir);
  if (!store.ok) return { state: "untrusted", storeProblem: store.problem };
  return { state: trustOf(store.entries, real, await trustDigest(text)), storeProblem: null };
}
