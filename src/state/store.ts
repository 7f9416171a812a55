/**
 * Reading and writing the per-session state files under the state
 * directory (`GATEGUARD_STATE_DIR`).
 *
 * Claude Code starts the hooks of a parallel batch at the same moment, so
 * several processes of one session save at once. Each save therefore takes
 * an exclusive lock file (`<file>.lock`, created with O_EXCL), re-reads the
 * file under it, applies only its own delta to what it finds and replaces
 * the file by renaming a fully written temporary file over it: readers never
 * see a half-written file and no writer drops another's keys or counts.
 *
 * The lock file holds a random token, so a process only ever removes its own
 * lock. A lock older than a few seconds was left by a killed process: it is
 * first renamed aside (only one breaker can win that rename) and put back if
 * it turns out to be fresh, so parallel breakers do not delete each other's
 * new locks. A lock path that is not a regular file (a directory, a symlink)
 * was never written by a save, so it is moved aside at once. When the lock
 * cannot be had in time the save still does the read-apply-rename without
 * it; the update it may lose costs at most an extra denial (a lost check,
 * count or gate), except that a lost `uncheck` can let one more retry
 * through.
 *
 * Honest holders create the lock, keep it for a few milliseconds and remove
 * it; they never touch it in between. So a lock whose token is seen again
 * with a newer mtime is being kept fresh by someone else, and is broken at
 * once; so is a lock created (birth time, where the file system keeps one)
 * longer ago than a dead process's lock may live. What remains is a queue
 * of lock holders that each make progress, and a save waits for it at most
 * `LOCK_TIMING.waitMs` (2 s, well inside the hook timeout) before saving
 * without the lock; only a process that can write the state directory can
 * make that queue, and such a process can already rewrite the state itself.
 *
 * The state directory is GateGuard's own: a directory, symlink or other
 * non-file found in a state file's place is moved aside, a fresh state is
 * written, and the save reports it in one line for stderr.
 *
 * The hook is one short process per call, so this module uses Deno's
 * synchronous file APIs and sleeps with `Atomics.wait`. Nothing here throws.
 *
 * @module
 */

import { denoFs } from "../platform/fs_port.ts";
import { writeAtomic } from "../platform/atomic_write.ts";
import { fsErrorWords, prepareStateDir } from "./state_dir.ts";
import { idleMsForFileName, PROJECT_IDLE_MS, type SessionKey } from "./key.ts";
import {
  applyDelta,
  emptyState,
  parseState,
  serializeState,
  type SessionState,
  STATE_LIMITS,
  type StateDelta,
} from "./schema.ts";

/**
 * What a save did. `created` is true when the session had no state file
 * before; `warnings` are lines for stderr: a non-file moved out of the
 * state file's place, a save made without the lock.
 */
export type SaveResult =
  | { ok: true; state: SessionState; created: boolean; warnings: string[] }
  | { ok: false; error: string };

/** How taking the lock ended: its token, or why the save goes on without it. */
type LockResult = { token: string } | { missed: "busy" | "error" };

/** Timing of the lock, in ms. */
const LOCK_TIMING = {
  /** How long a save waits for the lock before writing without it. */
  waitMs: 2000,
  /** A lock whose mtime is this far from now was abandoned. */
  staleMs: 5000,
  /** Bounds of the jittered pause between attempts. */
  minPauseMs: 2,
  maxPauseMs: 12,
} as const;

const LOCK_SUFFIX = ".lock";
const TEMP_MARKER = ".tmp-";
/** Names a non-file moved out of a state or lock file's place (a `TEMP_MARKER` leftover). */
const ASIDE_MARKER = `${TEMP_MARKER}aside-`;
const LOCK_TOKEN_MAX_BYTES = 256;

/** Temporary files and locks are never state: they get the short window. */
const LEFTOVER_PRUNE_MS = 2 * PROJECT_IDLE_MS;

/** Entries looked at by one prune, so a flooded directory cannot stall a call. */
const MAX_PRUNE_SCAN = 10_000;

const pauseCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * The clock a save waits for the lock by: when to give up, and how it
 * pauses between attempts. A port, so tests count the pauses a save takes
 * (none for a stale lock) instead of timing it.
 */
export interface LockClock {
  /** The current time in ms. */
  now(): number;
  /** Waits `ms` milliseconds. */
  pause(ms: number): void;
}

/** The real clock: wall time, and a sleep with `Atomics.wait`. */
const REAL_LOCK_CLOCK: LockClock = {
  now: () => Date.now(),
  pause: (ms) => {
    Atomics.wait(pauseCell, 0, 0, ms);
  },
};

function randomHex(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") || dir.endsWith("\\") ? dir + name : `${dir}/${name}`;
}

function failure(dir: string, reason: string): SaveResult {
  return { ok: false, error: `the state directory ${dir} cannot be used: ${reason}` };
}

function tryRemove(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Already gone, or not ours to remove: either way nothing to undo.
  }
}

/** The current state at `path` and whether a file was there at all. */
function readCurrent(
  path: string,
  key: SessionKey,
  now: number,
): { state: SessionState; existed: boolean } {
  const info = denoFs.lstat(path);
  if (!info.ok) return { state: emptyState(now), existed: info.code !== "ENOENT" };
  // Symlinks, FIFOs and directories are never opened: a FIFO would block the hook.
  if (!info.isFile || info.isSymlink) return { state: emptyState(now), existed: true };
  const text = denoFs.readTextBounded(path, STATE_LIMITS.maxStateBytes);
  const state = text === null ? emptyState(now) : parseState(text, now);
  const expired = now - state.lastActive > key.idleMs;
  return { state: expired ? emptyState(now) : state, existed: true };
}

/** Older than any live save's lock: by mtime, or by birth time, which touching cannot renew. */
function isStaleLock(path: string): boolean {
  const info = denoFs.lstat(path);
  if (!info.ok) return false;
  const old = (ms: number | null | undefined): boolean =>
    ms !== null && ms !== undefined && Math.abs(Date.now() - ms) > LOCK_TIMING.staleMs;
  if (old(info.mtimeMs)) return true;
  try {
    return old(Deno.lstatSync(path).birthtime?.getTime());
  } catch {
    return false;
  }
}

function breakStaleLock(lockPath: string, asidePath: string): void {
  try {
    Deno.renameSync(lockPath, asidePath);
  } catch {
    return;
  }
  // The rename may have caught a lock taken after our staleness check: hand
  // it back unless yet another process has locked meanwhile.
  if (!isStaleLock(asidePath)) {
    try {
      Deno.linkSync(asidePath, lockPath);
    } catch {
      // A newer lock is in place; the one we moved has lost its name.
    }
  }
  tryRemove(asidePath);
}

/** Moves whatever is at `path` aside, under a leftover name; false when it could not. */
function moveAside(path: string): boolean {
  try {
    Deno.renameSync(path, `${path}${ASIDE_MARKER}${Deno.pid}-${randomHex()}`);
    return true;
  } catch {
    return false;
  }
}

/** Takes the lock, or says why it could not be had in time. */
function acquireLock(path: string, clock: LockClock): LockResult {
  const lockPath = path + LOCK_SUFFIX;
  const token = `${Deno.pid}-${randomHex()}`;
  const deadline = clock.now() + LOCK_TIMING.waitMs;
  // The mtime each lock token was first seen with.
  const seen = new Map<string, number | null>();
  for (;;) {
    try {
      Deno.writeTextFileSync(lockPath, token, { createNew: true, mode: 0o600 });
      return { token };
    } catch (err) {
      // Any other error (an unwritable directory) will resurface on the write.
      if (!(err instanceof Deno.errors.AlreadyExists)) return { missed: "error" };
    }
    const info = denoFs.lstat(lockPath);
    // No save ever made a lock that is not a plain file: it is stale at once.
    if (info.ok && !(info.isFile && !info.isSymlink)) {
      if (!moveAside(lockPath)) return { missed: "error" };
      continue;
    }
    // The lock may change hands between any two looks at it, so an mtime is
    // paired with a token only when the same token was read on both sides
    // of the stat (tokens are never reused).
    const holder = info.ok ? denoFs.readTextBounded(lockPath, LOCK_TOKEN_MAX_BYTES) : null;
    const stamp = denoFs.lstat(lockPath);
    const confirmed = stamp.ok &&
      denoFs.readTextBounded(lockPath, LOCK_TOKEN_MAX_BYTES) === holder;
    // An empty lock is one being created right now: its token is still to come.
    if (holder !== null && holder !== "" && confirmed) {
      const first = seen.get(holder);
      if (first === undefined) {
        seen.set(holder, stamp.mtimeMs);
      } else if (first !== stamp.mtimeMs) {
        // No save touches its own lock: someone keeps this one fresh.
        if (!moveAside(lockPath)) return { missed: "error" };
        continue;
      }
    }
    if (clock.now() >= deadline) return { missed: "busy" };
    if (isStaleLock(lockPath)) {
      breakStaleLock(lockPath, `${path}${TEMP_MARKER}stale-${token}`);
    } else {
      const span = LOCK_TIMING.maxPauseMs - LOCK_TIMING.minPauseMs;
      clock.pause(LOCK_TIMING.minPauseMs + Math.random() * span);
    }
  }
}

function releaseLock(path: string, token: string): void {
  const lockPath = path + LOCK_SUFFIX;
  const info = denoFs.lstat(lockPath);
  if (!info.ok || !info.isFile) return;
  // After a stale break another process may own the name now.
  if (denoFs.readTextBounded(lockPath, LOCK_TOKEN_MAX_BYTES) === token) tryRemove(lockPath);
}

function writeState(path: string, text: string): void {
  writeAtomic(path, text, { temp: `${path}${TEMP_MARKER}${Deno.pid}-${randomHex()}`, mode: 0o600 });
}

/** The stderr line of a save made without the lock, by why the lock was missed. */
const LOCK_MISSED = {
  busy: "the session lock stayed busy for 2 s; state saved without it",
} as const;

/**
 * Moves a directory, symlink or other non-file out of the state file's
 * place, so the save can write a fresh state there. Returns the line for
 * stderr when it did, null when the place held a file or nothing.
 */
function clearNonFile(path: string): string | null {
  const info = denoFs.lstat(path);
  if (!info.ok || (info.isFile && !info.isSymlink)) return null;
  const kind = info.isSymlink ? "a symlink" : info.isDirectory ? "a directory" : "not a file";
  return moveAside(path)
    ? `the session state file ${path} was ${kind}; it was moved aside and a fresh state started`
    : null;
}

/** Path of the state file of `key` inside `dir`. */
export function statePath(dir: string, key: SessionKey): string {
  return joinPath(dir, key.fileName);
}

/**
 * The session's validated state. A missing, unreadable, corrupt or
 * non-regular file, or one idle longer than `key.idleMs`, reads as empty.
 */
export function loadState(dir: string, key: SessionKey, now: number): SessionState {
  if (dir === "") return emptyState(now);
  try {
    return readCurrent(statePath(dir, key), key, now).state;
  } catch {
    return emptyState(now);
  }
}

/**
 * Applies `delta` to the session's freshest state and persists it
 * atomically under the session lock, waiting for the lock by `clock`. On
 * failure the error names the directory and why it cannot be used, in
 * GateGuard's words (`state_dir.ts`).
 */
export function saveDelta(
  dir: string,
  key: SessionKey,
  delta: StateDelta,
  now: number,
  clock: LockClock = REAL_LOCK_CLOCK,
): SaveResult {
  const problem = prepareStateDir(dir);
  if (problem !== null) return failure(dir, problem);
  try {
    const path = statePath(dir, key);
    const lock = acquireLock(path, clock);
    try {
      const warnings: string[] = [];
      if ("missed" in lock && lock.missed !== "error") warnings.push(LOCK_MISSED[lock.missed]);
      const recovered = clearNonFile(path);
      if (recovered) warnings.push(recovered);
      const current = readCurrent(path, key, now);
      const state = applyDelta(current.state, delta, now);
      writeState(path, serializeState(state));
      return { ok: true, state, created: !current.existed, warnings };
    } finally {
      if ("token" in lock) releaseLock(path, lock.token);
    }
  } catch (err) {
    return failure(dir, fsErrorWords(err));
  }
}

/** How old a file of this name may get before pruning removes it; null: not ours. */
function pruneAfterMs(name: string): number | null {
  const temp = name.indexOf(TEMP_MARKER);
  const leftoverOf = temp >= 0
    ? name.slice(0, temp)
    : name.endsWith(LOCK_SUFFIX)
    ? name.slice(0, -LOCK_SUFFIX.length)
    : null;
  if (leftoverOf !== null) return idleMsForFileName(leftoverOf) === null ? null : LEFTOVER_PRUNE_MS;
  const idle = idleMsForFileName(name);
  return idle === null ? null : 2 * idle;
}

/** The file in the state directory whose mtime says when it was last pruned. */
export const PRUNE_STAMP = ".pruned";

/**
 * How often pruning scans the state directory at most: the shortest age at
 * which anything there becomes prunable, so a file is never kept much more
 * than twice its window.
 */
export const PRUNE_INTERVAL_MS = LEFTOVER_PRUNE_MS;

/**
 * Prunes the state directory (`pruneStale`) when it has not been pruned for
 * `PRUNE_INTERVAL_MS`, as the stamp file's mtime tells, and renews the
 * stamp. Scanning costs a `stat` per file; once an interval it is paid by
 * one call instead of by the first call of every session. A stamp that
 * cannot be read as a plain file, or is dated in the future, counts as
 * due. Errors are ignored: pruning only frees disk space. Returns whether it
 * pruned.
 */
export function pruneIfDue(dir: string, now: number): boolean {
  if (dir === "") return false;
  const stamp = joinPath(dir, PRUNE_STAMP);
  const info = denoFs.lstat(stamp);
  const at = info.ok && info.isFile ? info.mtimeMs : null;
  if (at !== null && at <= now && now - at < PRUNE_INTERVAL_MS) return false;
  pruneStale(dir, now);
  try {
    // Never written through: a link planted here must not let pruning
    // truncate or touch a file elsewhere. Anything but a plain file stays
    // as it is, and every new session prunes, as without a stamp.
    if (info.ok && info.isFile) Deno.utimeSync(stamp, now / 1000, now / 1000);
    else if (!info.ok && info.code === "ENOENT") {
      Deno.writeTextFileSync(stamp, "", { createNew: true });
      // Dated by the caller's clock, like a renewed stamp, not by the moment of the write.
      Deno.utimeSync(stamp, now / 1000, now / 1000);
    }
  } catch {
    // A stamp we cannot write only means the next session prunes again.
  }
  return true;
}

/**
 * Removes state files idle (by mtime) for twice the window their name
 * implies, and temporary and lock files left by interrupted saves. Other
 * files in the directory are never touched. Errors are ignored.
 */
export function pruneStale(dir: string, now: number): void {
  if (dir === "") return;
  try {
    let scanned = 0;
    for (const entry of Deno.readDirSync(dir)) {
      if (++scanned > MAX_PRUNE_SCAN) break;
      const limit = pruneAfterMs(entry.name);
      if (limit === null || entry.isDirectory) continue;
      const path = joinPath(dir, entry.name);
      const info = denoFs.lstat(path);
      if (info.ok && info.mtimeMs !== null && now - info.mtimeMs > limit) tryRemove(path);
    }
  } catch {
    // An unreadable directory has nothing we can prune.
  }
}
