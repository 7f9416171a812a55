/**
 * The human view of a report: aligned tables, every percentage next to the
 * counts it came from, a ten-cell bar per rate, sessions busiest first.
 * Colour is an option of the caller (a terminal without `NO_COLOR`).
 *
 * @module
 */

import { ownEntry } from "../platform/own_key.ts";
import type { Count, Rate, ScopeSummary } from "./aggregate.ts";
import type { ReportSummary } from "./collect.ts";
import { printable } from "../platform/terminal_text.ts";

/** Sessions shown in full by the text view; `--json` and `--session` reach the rest. */
export const MAX_TEXT_SESSIONS = 20;

/** Question ids listed per scope. */
export const MAX_TEXT_QUESTIONS = 5;

const BAR_CELLS = 10;

type Paint = (text: string) => string;

interface Palette {
  title: Paint;
  heading: Paint;
  session: Paint;
  dim: Paint;
  bad: Paint;
  good: Paint;
  warn: Paint;
}

const sgr = (code: string): Paint => (text) => `\x1b[${code}m${text}\x1b[0m`;
const plain: Paint = (text) => text;

const COLOURS: Palette = {
  title: sgr("1"),
  heading: sgr("1"),
  session: sgr("36"),
  dim: sgr("2"),
  bad: sgr("31"),
  good: sgr("32"),
  warn: sgr("33"),
};

const PLAIN: Palette = {
  title: plain,
  heading: plain,
  session: plain,
  dim: plain,
  bad: plain,
  good: plain,
  warn: plain,
};

/**
 * The first-touch rates: label and the colour of their bar. The labels say
 * what happened to the edit, so the table reads without the JSON schema.
 */
const FIRST_TOUCH_ROWS: readonly [
  keyof Omit<ScopeSummary["firstTouches"], "total">,
  string,
  keyof Palette,
][] = [
  ["deny", "denied, facts asked for", "bad"],
  ["credit", "passed, a search covered it", "good"],
  ["sibling", "passed, sibling of a checked file", "good"],
  ["cap", "passed, denial cap reached", "warn"],
  ["trivial", "passed, comment-only edit", "good"],
];

/**
 * What `JSON.stringify` leaves raw that a terminal may act on: DEL, C1
 * controls, separators and bidirectional overrides.
 */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A path (the `--dir` the user typed, or a file in it) as the text view
 * prints it: characters a terminal would act on are written as `\u`
 * escapes, so a directory name cannot move the cursor, recolour or hide
 * text.
 */
export function displayText(path: string): string {
  return printable(path);
}

/**
 * The `--json` document, with every character of `RAW_IN_JSON` written as
 * a `\\u` escape: the same value, shown inert by a terminal.
 */
export function displayJson(summary: ReportSummary): string {
  return JSON.stringify(summary, null, 2).replace(
    RAW_IN_JSON,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** What a first touch is, in the words of the report's heading. */
const FIRST_TOUCHES = "First touches (edits of a file not yet checked this session)";

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function percent(count: number, of: number): string {
  return of === 0 ? "-" : `${((count / of) * 100).toFixed(1)}%`;
}

function when(iso: string | null): string {
  return iso === null ? "-" : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function span(first: string | null, last: string | null): string {
  if (first === null || last === null) return "";
  if (first.slice(0, 10) === last.slice(0, 10)) {
    return `${when(first).slice(0, 16)} to ${last.slice(11, 16)} UTC`;
  }
  return `${when(first)} to ${when(last)}`;
}

function extend(out: string[], lines: readonly string[]): void {
  for (const line of lines) out.push(line);
}

/** A table cell: plain text, or text shown styled at the same visible width. */
type Cell = string | { text: string; shown: string };

/** Lays rows out in columns separated by two spaces; `right` marks right-aligned columns. */
function table(
  rows: readonly (readonly Cell[])[],
  right: readonly boolean[],
  indent = "    ",
): string[] {
  const textOf = (cell: Cell): string => typeof cell === "string" ? cell : cell.text;
  // No Math.max(...spread) and no push(...spread) anywhere here: a hostile file can hold more
  // distinct codes than a function call takes arguments.
  const widths = right.map((_, c) => rows.reduce((w, r) => Math.max(w, textOf(r[c]).length), 0));
  return rows.map((r) =>
    indent + r.map((cell, c) => {
      const text = textOf(cell);
      const pad = " ".repeat(widths[c] - text.length);
      const shown = typeof cell === "string" ? cell : cell.shown;
      return right[c] ? pad + shown : shown + pad;
    }).join("  ").trimEnd()
  );
}

function bar(r: Rate, paint: Paint, p: Palette): Cell {
  const filled = r.rate === null ? 0 : Math.round(r.rate * BAR_CELLS);
  const on = "█".repeat(filled);
  const off = "░".repeat(BAR_CELLS - filled);
  return { text: on + off, shown: paint(on) + p.dim(off) };
}

function rateRow(label: string, r: Rate, paint: Paint, p: Palette): Cell[] {
  return [label, bar(r, paint, p), percent(r.count, r.of), `${r.count}/${r.of}`];
}

/**
 * Each decision code in words, so the table reads without the schema; a
 * code not listed (a newer hook's) is shown as it is.
 */
const DECISION_WORDS: Readonly<Record<string, string>> = {
  "deny": "denied, facts asked for",
  "credit": "passed, a search covered it",
  "sibling": "passed, sibling of a checked file",
  "cap": "passed, denial cap reached",
  "trivial": "passed, comment-only edit",
  "pass-checked": "passed, file already checked",
  "pass-exempt": "passed, file not gated",
  "pass-subagent": "passed, subagent call",
  "routine-deny": "denied, first shell command",
  "routine-readonly": "passed, read-only command",
  "destructive-deny": "denied, destructive command",
  "allowed-by-rule": "passed, allowed by allowDestructive",
  "pass": "passed",
};

/** Rules listed per scope, and sessions on the default screen. */
export const MAX_TEXT_RULES = 5;
export const MAX_SCREEN_SESSIONS = 5;

function countTable(
  counts: readonly Count[],
  of: number,
  nameOf: (name: string | null) => string,
): string[] {
  return table(
    counts.filter((c) => c.count > 0).map((c) => [
      nameOf(c.name),
      String(c.count),
      percent(c.count, of),
    ]),
    [false, true, true],
  );
}

const decisionName = (name: string | null): string =>
  name === null ? "(none)" : ownEntry(DECISION_WORDS, name) ?? name;
// A shell command has no target class: it is named as what it is.
const className = (name: string | null): string => name ?? "shell command";
const reasonName = (name: string | null): string => name ?? "(not recorded)";
const ruleName = (name: string | null): string => name ?? "(not recorded)";

/**
 * The sections of one scope; a section with nothing to count is left out.
 * `brief` (the one-screen view) keeps the top reasons and rules and leaves
 * the target classes and questions to the per-session detail.
 */
function scopeLines(s: ScopeSummary, p: Palette, brief = false): string[] {
  const out: string[] = [];
  const section = (title: string): void => {
    out.push(`  ${p.heading(title)}`);
  };

  section(`Decisions (${s.decisions})`);
  extend(out, countTable(s.byDecision, s.decisions, decisionName));

  const ft = s.firstTouches;
  if (ft.total > 0) {
    section(`${FIRST_TOUCHES}: ${ft.total}, decided as`);
    const rows = FIRST_TOUCH_ROWS.filter(([key]) => ft[key].count > 0).map((
      [key, label, colour],
    ) => rateRow(label, ft[key], p[colour], p));
    extend(out, table(rows, [false, false, true, true]));
  }

  const nm = s.nearMiss;
  if (nm.count > 0) {
    section("First-touch denials after a near-miss search");
    extend(out, table([rateRow("near-miss", nm, p.warn, p)], [false, false, true, true]));
  }

  if (s.denials.total > 0) {
    if (!brief) {
      section(`Denials by target (${s.denials.total})`);
      extend(out, countTable(s.denials.byClass, s.denials.total, className));
    }
    section(`Denials by reason (${s.denials.total})`);
    const reasons = brief ? s.denials.byReason.slice(0, MAX_TEXT_RULES) : s.denials.byReason;
    extend(out, countTable(reasons, s.denials.total, reasonName));
    section(`Denials by rule (${s.denials.total})`);
    extend(
      out,
      countTable(s.denials.byRule.slice(0, MAX_TEXT_RULES), s.denials.total, ruleName),
    );
  }

  if (s.routineReadonly > 0) section(`Read-only passes: ${s.routineReadonly}`);

  if (s.questions.length > 0 && !brief) {
    section("Most-asked questions");
    extend(
      out,
      table(
        s.questions.slice(0, MAX_TEXT_QUESTIONS).map((c) => [c.name ?? "(none)", String(c.count)]),
        [false, true],
      ),
    );
  }
  return out;
}

/** The most frequent non-null name of a list, or `-`. */
function mainName(counts: readonly Count[]): string {
  const named = counts.filter((c) => c.name !== null);
  if (named.length === 0) return "-";
  return named.length === 1 ? named[0].name as string : `${named[0].name}+${named.length - 1}`;
}

function overview(sessions: readonly ScopeSummary[], shown: number, p: Palette): string[] {
  const rows: Cell[][] = [["session", "agent", "project", "decisions", "denials", "last decision"]];
  for (const s of sessions.slice(0, shown)) {
    const id = s.session ?? "";
    rows.push([
      { text: id, shown: p.session(id) },
      mainName(s.agents),
      mainName(s.projects),
      String(s.decisions),
      String(s.denials.total),
      when(s.last),
    ]);
  }
  const [head, ...body] = table(rows, [false, false, false, true, true, false], "  ");
  return [p.heading("Busiest sessions"), p.dim(head), ...body];
}

function heading(s: ScopeSummary, label: string, p: Palette): string {
  const time = span(s.first, s.last);
  const agent = mainName(s.agents);
  const project = mainName(s.projects);
  const where = agent === "-" && project === "-" ? "" : ` (agent ${agent}, project ${project})`;
  return `${p.heading(label)}${s.session === null ? "" : where}: ${
    plural(s.decisions, "decision")
  }${time === "" ? "" : `, ${time}`}`;
}

/** How much of the report the text view shows. */
export interface TextLayout {
  /** Each session's own block after the overview (`--sessions`). */
  sessions: boolean;
}

/**
 * Renders the report for people. `colour` adds ANSI styles. By default it
 * fits one screen: the totals, then the busiest sessions in one table;
 * `layout.sessions` adds each session's block.
 */
export function renderText(
  r: ReportSummary,
  colour: boolean,
  layout: TextLayout = { sessions: false },
): string {
  const p = colour ? COLOURS : PLAIN;
  const present = r.files.filter((f) => f.present).map((f) => f.name);
  const out: string[] = [
    p.title(`GateGuard decision metrics: ${displayText(r.dir)}`),
    `Read ${present.join(" and ")}: ${plural(r.lines.counted, "decision")} in ${
      plural(r.sessions.length, "session")
    }${r.lines.malformed === 0 ? "" : `, ${plural(r.lines.malformed, "malformed line")} skipped`}.`,
  ];
  const filters: string[] = [];
  if (r.filters.session !== null) filters.push(`session ${r.filters.session}`);
  if (r.filters.since !== null) filters.push(`since ${when(r.filters.since)}`);
  if (filters.length > 0) {
    out.push(`Filter: ${filters.join(", ")} (${plural(r.lines.excluded, "decision")} left out).`);
  }
  out.push("");
  if (r.sessions.length === 1) {
    const only = r.sessions[0];
    out.push(heading(only, `Session ${p.session(only.session ?? "")}`, p));
    extend(out, scopeLines(only, p));
    return out.join("\n") + "\n";
  }
  out.push(heading(r.total, `All ${r.sessions.length} sessions`, p));
  extend(out, scopeLines(r.total, p, !layout.sessions));
  out.push("");
  const shown = layout.sessions ? MAX_TEXT_SESSIONS : MAX_SCREEN_SESSIONS;
  extend(out, overview(r.sessions, shown, p));
  if (layout.sessions) {
    for (const s of r.sessions.slice(0, MAX_TEXT_SESSIONS)) {
      out.push("", heading(s, `Session ${p.session(s.session ?? "")}`, p));
      extend(out, scopeLines(s, p));
    }
  }
  const hidden = r.sessions.length - shown;
  if (hidden > 0) {
    out.push(`  … ${plural(hidden, "more session")}; --session ID or --json shows any of them.`);
  }
  if (!layout.sessions) out.push("", "Each session in detail: gateguard report --sessions");
  return out.join("\n") + "\n";
}

/**
 * The one-line answer when there is nothing to tabulate (no files, empty
 * files, only malformed lines, or a filter that leaves nothing); null when
 * there is something to show.
 */
export function emptyMessage(r: ReportSummary): string | null {
  if (r.lines.counted > 0) return null;
  if (!r.files.some((f) => f.present)) {
    return `No GateGuard metrics in ${
      displayText(r.dir)
    } yet; set GATEGUARD_METRICS=1 to record decisions.\n`;
  }
  if (r.lines.read === 0) {
    return `The GateGuard metrics files in ${displayText(r.dir)} are empty.\n`;
  }
  if (r.lines.excluded === 0) {
    return `No readable decisions in ${displayText(r.dir)}: ${
      plural(r.lines.malformed, "malformed line")
    } skipped.\n`;
  }
  return `No decisions in ${displayText(r.dir)} match the filter (${
    plural(r.lines.excluded, "decision")
  } left out, ${plural(r.lines.malformed, "malformed line")} skipped).\n`;
}
