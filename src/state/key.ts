/**
 * Which state file a call belongs to, and how long that state lives.
 *
 * The key is the first usable identity of the conversation: the payload's
 * session id, then the session-id variables in the caller's order, then the
 * transcript path, and last a fingerprint of the project directory. Only the
 * fingerprint can be shared by unrelated sessions, so it (and any session id
 * dressed up as one, starting `proj-`) idles out after 30 minutes instead of
 * 8 hours.
 *
 * A key never reaches the file system raw. A key that is already a short
 * lowercase name is used as the file name, so people can find their state
 * file; everything else (transcript paths, upper case that a case-insensitive
 * file system would fold, separators, NUL, very long ids) is replaced by a
 * sha256 prefix of the kind and the key. Plain names may not start with a
 * hashed marker (`h-`, `proj-h-`), so a plain name and a hashed one can never
 * meet. A `proj-` session id keeps the `proj-` prefix even when hashed,
 * because pruning judges the window by file name alone.
 *
 * @module
 */

import { sha256Hex } from "../platform/sha256.ts";

/** Idle window of a state keyed by a real session id or transcript path. */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;

/** Idle window of a state keyed by the project fingerprint. */
export const PROJECT_IDLE_MS = 30 * 60 * 1000;

/** What the resolved key is. */
export type SessionKeyKind = "session" | "transcript" | "project";

/** The resolved state identity of one call. */
export interface SessionKey {
  /** The raw resolved key (a session id, a transcript path or `proj-<hex>`). */
  key: string;
  /** Where the key came from. */
  kind: SessionKeyKind;
  /** The state file name inside the state directory: `state-<safe>.json`. */
  fileName: string;
  /** How long the state may stay idle before it counts as expired. */
  idleMs: number;
}

/** The identities a call offers, most specific first. */
export interface SessionKeyInput {
  /** The payload's `session_id`. */
  sessionId: string | null;
  /** The session-id variables, in order of preference. */
  envSessionIds: (string | undefined)[];
  /** The payload's `transcript_path`. */
  transcriptPath: string | null;
  /** The project directory, fingerprinted when nothing else identifies the session. */
  projectRoot: string;
}

const PROJECT_PREFIX = "proj-";
const HASHED_PREFIX = "h-";
const STATE_PREFIX = "state-";
const STATE_SUFFIX = ".json";

/** A key that may be used as a file name as it is. */
const PLAIN_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Prefixes reserved for hashed names. */
const HASHED_MARKERS = [HASHED_PREFIX, PROJECT_PREFIX + HASHED_PREFIX];

function trimmedId(value: string | null | undefined): string | null {
  const id = value?.trim();
  return id ? id : null;
}

function isShortWindow(kind: SessionKeyKind, key: string): boolean {
  return kind === "project" || (kind === "session" && key.startsWith(PROJECT_PREFIX));
}

async function fileStem(kind: SessionKeyKind, key: string): Promise<string> {
  const plain = kind !== "transcript" && PLAIN_NAME.test(key) &&
    !HASHED_MARKERS.some((marker) => key.startsWith(marker));
  if (plain) return key;
  // JSON text keeps lone surrogates apart, which UTF-8 encoding would merge.
  const digest = await sha256Hex(`${kind}\u0000${JSON.stringify(key)}`);
  const hashed = HASHED_PREFIX + digest.slice(0, 32);
  return isShortWindow(kind, key) ? PROJECT_PREFIX + hashed : hashed;
}

async function keyOf(kind: SessionKeyKind, key: string): Promise<SessionKey> {
  return {
    key,
    kind,
    fileName: STATE_PREFIX + await fileStem(kind, key) + STATE_SUFFIX,
    idleMs: isShortWindow(kind, key) ? PROJECT_IDLE_MS : SESSION_IDLE_MS,
  };
}

/** Resolves the state key of a call; the project fingerprint is the last resort. */
export async function resolveSessionKey(input: SessionKeyInput): Promise<SessionKey> {
  for (const candidate of [input.sessionId, ...input.envSessionIds]) {
    const id = trimmedId(candidate);
    if (id) return await keyOf("session", id);
  }
  const transcript = input.transcriptPath;
  if (transcript !== null && trimmedId(transcript)) return await keyOf("transcript", transcript);
  const fingerprint = (await sha256Hex(input.projectRoot)).slice(0, 16);
  return await keyOf("project", PROJECT_PREFIX + fingerprint);
}

/**
 * The idle window a state file name implies, for pruning; null for names
 * that are not state files.
 */
export function idleMsForFileName(name: string): number | null {
  if (!name.startsWith(STATE_PREFIX) || !name.endsWith(STATE_SUFFIX)) return null;
  return name.startsWith(STATE_PREFIX + PROJECT_PREFIX) ? PROJECT_IDLE_MS : SESSION_IDLE_MS;
}
