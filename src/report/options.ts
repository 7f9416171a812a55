/**
 * Command-line options of `gateguard report`, its usage text, and the
 * `--since` syntax (an ISO date or time, or a duration back from now).
 *
 * @module
 */

import { isSessionDigest } from "../metrics/codes.ts";

/**
 * `--session` as given: the 12-hex digest the report prints, or a session
 * id (Claude Code's `session_id`) that the report digests the way the hook
 * does before it writes a metrics line.
 */
export type SessionChoice = { digest: string } | { id: string };

/** What the command line asked for. */
export interface ReportOptions {
  /** `--dir`; null means the state directory from the environment. */
  dir: string | null;
  json: boolean;
  /** `--sessions`: each session in detail after the overview. */
  sessions: boolean;
  /** `--session`, when given. */
  session: SessionChoice | null;
  /** `--since`, resolved to ms since the epoch. */
  sinceMs: number | null;
  help: boolean;
}

/** The parsed options, or the one-line reason they were rejected. */
export type ParsedArgs = { ok: true; options: ReportOptions } | { ok: false; error: string };

/** Usage text, printed by `--help` and after every argument error. */
export const USAGE =
  `Usage: gateguard report [--dir DIR] [--json] [--sessions] [--session ID] [--since WHEN]

Summarises the decisions GateGuard recorded with GATEGUARD_METRICS=1
(metrics.jsonl.1, then metrics.jsonl, in the state directory).

Options:
  --dir DIR       state directory (default: GATEGUARD_STATE_DIR, else ~/.gateguard)
  --json          print a JSON document instead of tables (see docs/report-schema.md)
  --sessions      show each session in detail after the totals
  --session ID    only this session: its id (Claude Code's session_id), or the
                  12 hex characters the report shows for it
  --since WHEN    only decisions from WHEN on: an ISO date or time (UTC unless it
                  carries an offset), or a duration back from now: 30s, 30m, 12h, 7d, 2w
  -h, --help      show this help
`;

const MINUTE = 60_000;
const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: MINUTE,
  h: 60 * MINUTE,
  d: 1440 * MINUTE,
  w: 10080 * MINUTE,
};
const DURATION = /^(\d+)([smhdw])$/;

/**
 * The earliest `--since` accepted: metrics times are written from the
 * clock, so nothing in a metrics file is older than the epoch.
 */
export const EARLIEST_SINCE_MS = 0;

/** Longest session id `--session` takes; real ids are 36 characters. */
export const MAX_SESSION_ID_CHARS = 256;
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function isoToMs(m: RegExpExecArray): number | null {
  const [year, month, day, hour, minute, second, frac] = m.slice(1, 8).map((p) =>
    p === undefined ? 0 : Number(p)
  );
  const ms = Math.round(frac * 10 ** (3 - (m[7]?.length ?? 3)));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const d = new Date(utc);
  // Date.UTC rolls 2026-02-31 over into March; a round trip rejects it.
  if (
    d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day ||
    d.getUTCHours() !== hour || d.getUTCMinutes() !== minute || d.getUTCSeconds() !== second
  ) return null;
  const zone = m[8];
  if (zone === undefined || zone === "Z") return utc;
  const zoneHours = Number(zone.slice(1, 3));
  const zoneMinutes = Number(zone.slice(4, 6));
  if (zoneHours > 23 || zoneMinutes > 59) return null;
  const offset = (zoneHours * 60 + zoneMinutes) * MINUTE;
  return zone[0] === "+" ? utc - offset : utc + offset;
}

/**
 * Resolves a `--since` value to ms since the epoch: a duration (`30s`, `30m`,
 * `12h`, `7d`, `2w`) counts back from `nowMs`; an ISO date or date-time
 * without an offset is read as UTC. Null when the value is neither.
 */
export function parseSince(text: string, nowMs: number): number | null {
  if (text.length > 40) return null;
  const duration = DURATION.exec(text);
  if (duration) return nowMs - Number(duration[1]) * UNIT_MS[duration[2]];
  const iso = ISO.exec(text);
  return iso ? isoToMs(iso) : null;
}

/**
 * Reads a `--session` value: 12 hex characters are a digest as the report
 * shows it (any case); anything else that is not blank is a session id,
 * trimmed as the hook trims it. Null when blank or overlong.
 */
export function sessionChoice(value: string): SessionChoice | null {
  const digest = value.toLowerCase();
  if (isSessionDigest(digest)) return { digest };
  const id = value.trim();
  return id === "" || id.length > MAX_SESSION_ID_CHARS ? null : { id };
}

type ValueFlag = "dir" | "session" | "since";

const VALUE_FLAGS: Record<string, ValueFlag> = {
  "--dir": "dir",
  "--session": "session",
  "--since": "since",
};

const BOOLEAN_FLAGS: Record<string, "json" | "sessions" | "help"> = {
  "--json": "json",
  "--sessions": "sessions",
  "--help": "help",
  "-h": "help",
};

const BAD_VALUE: Record<ValueFlag, string> = {
  dir: "--dir needs a directory",
  session:
    "--session needs a session id (Claude Code's session_id) or the 12 hex characters the report shows for it",
  since:
    "--since needs an ISO date or time (2026-09-01, 2026-09-01T10:00Z) or a duration (30s, 30m, 12h, 7d, 2w)",
};

/** Parses the arguments that follow `report`. `nowMs` anchors `--since` durations. */
export function parseReportArgs(args: readonly string[], nowMs: number): ParsedArgs {
  const options: ReportOptions = {
    dir: null,
    json: false,
    sessions: false,
    session: null,
    sinceMs: null,
    help: false,
  };
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const flag = Object.hasOwn(VALUE_FLAGS, name) ? VALUE_FLAGS[name] : undefined;
    const toggle = Object.hasOwn(BOOLEAN_FLAGS, name) ? BOOLEAN_FLAGS[name] : undefined;
    if (flag === undefined && toggle === undefined) {
      return {
        ok: false,
        error: arg.startsWith("-")
          ? `unknown option ${name.slice(0, 40)}`
          : `unexpected argument ${arg.slice(0, 40)}`,
      };
    }
    const key = flag ?? toggle ?? name;
    if (seen.has(key)) return { ok: false, error: `${name} given more than once` };
    seen.add(key);
    if (toggle !== undefined) {
      if (eq !== -1) return { ok: false, error: `${name} takes no value` };
      options[toggle] = true;
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (i + 1 < args.length && !args[i + 1].startsWith("--")) value = args[++i];
    if (flag === "dir") {
      if (!value) return { ok: false, error: BAD_VALUE.dir };
      options.dir = value;
    } else if (flag === "session") {
      const session = value === undefined ? null : sessionChoice(value);
      if (session === null) return { ok: false, error: BAD_VALUE.session };
      options.session = session;
    } else {
      const since = value === undefined ? null : parseSince(value, nowMs);
      if (since === null) return { ok: false, error: BAD_VALUE.since };
      if (since < EARLIEST_SINCE_MS) {
        return {
          ok: false,
          error: `--since ${value} is out of range: it reaches back before 1970-01-01, ` +
            "earlier than any metrics line",
        };
      }
      options.sinceMs = since;
    }
  }
  return { ok: true, options };
}
