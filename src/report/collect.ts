/**
 * Reads the rotated and the live metrics file of a state directory, in that
 * order (oldest lines first), and summarises what they hold.
 *
 * @module
 */

import { METRICS_FILE, ROTATED_FILE } from "../metrics/append.ts";
import { Aggregator, type RecordFilter, type ScopeSummary } from "./aggregate.ts";
import { forEachLine } from "./lines.ts";
import { MAX_LINE_CHARS, parseRecord } from "./record.ts";
import { trimSeparators } from "../platform/path.ts";

/** Version of the report document; see docs/report-schema.md. */
export const REPORT_VERSION = 1;

/** What was found in one metrics file. */
export interface FileSummary {
  name: string;
  present: boolean;
  /** Non-empty lines read. */
  lines: number;
  /** Lines skipped as malformed. */
  malformed: number;
}

/** The whole report: the document `--json` prints and the text view renders. */
export interface ReportSummary {
  schema: "gateguard-report";
  version: number;
  dir: string;
  filters: { session: string | null; since: string | null };
  files: FileSummary[];
  lines: { read: number; malformed: number; excluded: number; counted: number };
  total: ScopeSummary;
  sessions: ScopeSummary[];
}

/** The summary, or the file that could not be read and why. */
export type Collected =
  | { ok: true; summary: ReportSummary }
  | { ok: false; path: string; reason: string };

/** Reads and summarises the metrics files of `dir`, keeping the records `filter` admits. */
export function collect(dir: string, filter: RecordFilter): Collected {
  const aggregator = new Aggregator(filter);
  const files: FileSummary[] = [];
  for (const name of [ROTATED_FILE, METRICS_FILE]) {
    const path = `${trimSeparators(dir) || dir}/${name}`;
    const file: FileSummary = { name, present: true, lines: 0, malformed: 0 };
    const outcome = forEachLine(path, MAX_LINE_CHARS, (line) => {
      file.lines++;
      const record = line === null ? null : parseRecord(line);
      if (record === null) file.malformed++;
      else aggregator.add(record);
    });
    if (outcome.kind === "error") return { ok: false, path, reason: outcome.reason };
    file.present = outcome.kind === "read";
    files.push(file);
  }
  const read = files.reduce((n, f) => n + f.lines, 0);
  const malformed = files.reduce((n, f) => n + f.malformed, 0);
  const total = aggregator.total();
  return {
    ok: true,
    summary: {
      schema: "gateguard-report",
      version: REPORT_VERSION,
      dir,
      filters: {
        session: filter.session,
        since: filter.sinceMs === null ? null : new Date(filter.sinceMs).toISOString(),
      },
      files,
      lines: { read, malformed, excluded: aggregator.excluded, counted: total.decisions },
      total,
      sessions: aggregator.sessions(),
    },
  };
}
