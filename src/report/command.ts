/**
 * `gateguard report` as a function from arguments and environment to exit
 * code and output texts. Only the metrics files are read; printing is left
 * to the CLI entry, so tests see exactly what a terminal would.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { stateDirFrom } from "../config/settings.ts";
import { sessionDigest } from "../metrics/codes.ts";
import { collect } from "./collect.ts";
import { parseReportArgs, type SessionChoice, USAGE } from "./options.ts";
import { displayJson, displayText, emptyMessage, renderText } from "./text.ts";

/** What the command prints and how it exits. */
export interface ReportRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The outside facts the command depends on. */
export interface ReportContext {
  /** Current time, ms since the epoch; `--since` durations count back from it. */
  nowMs: number;
  /** Whether stdout is a terminal (colour is never used otherwise). */
  terminal: boolean;
}

const PREFIX = "gateguard report: ";

/** Exit codes: success, an unreadable metrics file, a bad command line. */
export const EXIT = { ok: 0, unreadable: 1, usage: 2 } as const;

/** True when `path` names a directory (through links, as the report reads it). */
function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The digest `--session` stands for. */
async function digestOf(session: SessionChoice): Promise<string> {
  return "digest" in session ? session.digest : await sessionDigest(session.id);
}

/** Runs the report for `args` (the words after `report`). Never throws. */
export async function runReport(
  args: readonly string[],
  env: EnvSnapshot,
  ctx: ReportContext,
): Promise<ReportRun> {
  try {
    const parsed = parseReportArgs(args, ctx.nowMs);
    if (!parsed.ok) {
      return { code: EXIT.usage, stdout: "", stderr: `${PREFIX}${parsed.error}\n${USAGE}` };
    }
    const o = parsed.options;
    if (o.help) return { code: EXIT.ok, stdout: USAGE, stderr: "" };
    const dir = o.dir ?? stateDirFrom(env);
    // A directory the user named that is not there is a typo, not "no metrics yet".
    if (o.dir !== null && !isDirectory(o.dir)) {
      return {
        code: EXIT.unreadable,
        stdout: "",
        stderr: `${PREFIX}--dir ${displayText(o.dir)}: no such directory\n`,
      };
    }
    const session = o.session === null ? null : await digestOf(o.session);
    const collected = collect(dir, { session, sinceMs: o.sinceMs });
    if (!collected.ok) {
      return {
        code: EXIT.unreadable,
        stdout: "",
        stderr: `${PREFIX}cannot read ${displayText(collected.path)}: ${collected.reason}\n`,
      };
    }
    const summary = collected.summary;
    if (o.json) {
      return { code: EXIT.ok, stdout: displayJson(summary) + "\n", stderr: "" };
    }
    const colour = ctx.terminal && !env.NO_COLOR;
    return {
      code: EXIT.ok,
      stdout: emptyMessage(summary) ?? renderText(summary, colour, { sessions: o.sessions }),
      stderr: "",
    };
  } catch (err) {
    return {
      code: EXIT.unreadable,
      stdout: "",
      stderr: `${PREFIX}internal error: ${err instanceof Error ? err.name : "unknown"}\n`,
    };
  }
}
