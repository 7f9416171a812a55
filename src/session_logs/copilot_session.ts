/**
 * Where Copilot CLI keeps a session's event log, and how a call is known in
 * it. The hook payload names neither the log nor the call: the log is
 * `session-state/<sessionId>/events.jsonl` in Copilot's home
 * (`COPILOT_HOME`, else `~/.copilot`), and a call is known by its tool name
 * and arguments, which the log records as the payload carries them.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { homeDir } from "../config/settings.ts";
import { canonicalJson } from "../platform/json.ts";
import { joinPath } from "../platform/path.ts";

/** A session id that is one plain path segment; anything else names no log. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The event log of session `sessionId`, or null when it cannot be named safely. */
export function copilotLogPath(sessionId: string | null, env: EnvSnapshot): string | null {
  if (sessionId === null || !SESSION_ID.test(sessionId)) return null;
  const home = env.COPILOT_HOME || (homeDir(env) ? `${homeDir(env)}/.copilot` : null);
  if (!home) return null;
  return joinPath(home, `session-state/${sessionId}/events.jsonl`);
}

/**
 * The key of a call: its tool name and arguments as JSON with sorted keys,
 * so the payload's arguments and the log's copy of them give one key.
 */
export function copilotCallKey(name: string, args: unknown): string {
  return canonicalJson([name, args]);
}
