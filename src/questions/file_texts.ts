/**
 * The file gate's texts: every question it can ask, by id, the questions of
 * each target class, the condensed hints, the notes of its allowances
 * (prior-search credit, trivial changes, siblings) and the denial itself.
 *
 * @module
 */

import type { NearMissCode } from "../evidence/credit.ts";
import type { TargetClass } from "../file_facts/class.ts";
import { FILE_RECOVERY, HEADER, RETRY, type TooComplexInput, tooComplexLine } from "./messages.ts";

/** Suffix of the questions that ask for a search of the tree. */
export const SEARCH_SUFFIX = "(search the tree — Glob/Grep, or find/grep via Bash)";

/** One question: its stable id, its full wording and its condensed phrase. */
export interface Question {
  /** Stable id, recorded in metrics. */
  id: string;
  /** The full wording, without the list number. */
  text: string;
  /** A short phrase for condensed denials. */
  hint: string;
}

function q(id: string, text: string, hint: string, search = false): Question {
  return { id, text: search ? `${text} ${SEARCH_SUFFIX}` : text, hint };
}

/** Every question GateGuard can ask, by id. */
export const QUESTIONS = {
  importers: q(
    "importers",
    "List ALL files that import/require this file",
    "importers",
    true,
  ),
  "public-api": q(
    "public-api",
    "List the public functions/classes affected by this change",
    "affected API",
  ),
  "local-callers": q(
    "local-callers",
    "List the call sites in this file or its module that rely on the changed behaviour",
    "local call sites",
  ),
  callers: q(
    "callers",
    "Name the file(s) and line(s) that will call this new file",
    "callers",
  ),
  "no-duplicate": q(
    "no-duplicate",
    "Confirm no existing file serves the same purpose",
    "no existing duplicate",
    true,
  ),
  "data-schema": q(
    "data-schema",
    "If this file reads/writes data files, show field names, structure,\n" +
      "   and date format (use redacted or synthetic values, not raw production data)",
    "data schemas",
  ),
  "external-contract": q(
    "external-contract",
    "Name what outside the repository decides the format, units, timezone or protocol " +
      "semantics of that data",
    "external contract",
  ),
  "quote-instruction": q(
    "quote-instruction",
    "Quote the user's current instruction verbatim",
    "the user's instruction verbatim",
  ),
  "instruction-loader": q(
    "instruction-loader",
    "Name the harness/loader that reads this file (Claude Code, Codex, Cursor, OpenCode, …) " +
      "and when it loads it",
    "loader",
  ),
  "instruction-effect": q(
    "instruction-effect",
    "Describe what agent behaviour changes as a result",
    "behaviour change",
  ),
  "instruction-overlap": q(
    "instruction-overlap",
    "Confirm no existing instruction, skill, or agent file already covers this",
    "no overlapping instruction",
    true,
  ),
  "test-subject": q(
    "test-subject",
    "Name what behaviour is under test and which module/function it exercises",
    "behaviour under test",
  ),
  "test-existing": q(
    "test-existing",
    "Name the existing test file(s) covering this module, or confirm none exist",
    "existing tests",
    true,
  ),
  "doc-supersedes": q(
    "doc-supersedes",
    "Name any existing doc this supersedes or duplicates",
    "superseded docs",
    true,
  ),
  "doc-linked-from": q(
    "doc-linked-from",
    "State where it will be linked or referenced from",
    "where it is linked",
  ),
  "doc-why-new": q(
    "doc-why-new",
    "Explain why a new file rather than editing an existing one",
    "why a new file",
  ),
  "doc-references": q(
    "doc-references",
    "List other docs or code that reference the section being changed",
    "referencing docs",
    true,
  ),
  "doc-change": q(
    "doc-change",
    "State what the change corrects or adds",
    "what it corrects",
  ),
  "config-reader": q(
    "config-reader",
    "Name which process/tool reads this file and when",
    "reader",
  ),
  "config-effect": q(
    "config-effect",
    "Describe the effect of the change",
    "effect",
  ),
  "config-secrets": q(
    "config-secrets",
    "Confirm no secrets or credentials are being written in plain text",
    "no plain-text secrets",
  ),
} as const satisfies Record<string, Question>;

/** A question id. */
export type QuestionId = keyof typeof QUESTIONS;

/** Whether a file gate is an Edit-like change of an existing file or a Write. */
export type GateVerb = "edit" | "write";

/** The class questions of the non-code classes (the instruction quote is appended). */
export const CLASS_QUESTIONS: Record<
  Exclude<TargetClass, "code">,
  Record<GateVerb, readonly QuestionId[]>
> = {
  instruction: {
    edit: ["instruction-loader", "instruction-effect", "instruction-overlap"],
    write: ["instruction-loader", "instruction-effect", "instruction-overlap"],
  },
  test: {
    edit: ["test-subject", "test-existing"],
    write: ["test-subject", "test-existing"],
  },
  prose: {
    edit: ["doc-references", "doc-change"],
    write: ["doc-supersedes", "doc-linked-from", "doc-why-new"],
  },
  config: {
    edit: ["config-reader", "config-effect", "config-secrets"],
    write: ["config-reader", "config-effect", "config-secrets"],
  },
};

/** The condensed hint of a code Edit whose change could not be read. */
export const FIXED_CODE_HINT = "importers/callers, affected API, data schemas if any";

/** Extra lines of a sensitive or hard-linked denial. */
export const TARGET_NOTES = {
  sensitive:
    "Sensitive target: prior-search credit, sibling collapse, and the denial cap do not apply.",
  "hard-linked":
    "Hard-linked target: prior-search credit, sibling collapse, and the denial cap do not apply.",
} as const;

/** Why a search that mentioned the target did not count, by reason code. */
export const NEAR_MISS_WHY: Record<NearMissCode, string> = {
  "same-batch": "it was sent in the same batch as this call, so its result was not seen yet",
  excluded: "its filters exclude this file",
  "out-of-scope": "its search path does not contain this file",
  "stdin-only": "it searched piped input, not the tree",
  "not-a-search": "it was a Read or another command, not a search",
  "generic-stem": "the file name is too generic to match a search",
};

/** Everything a file-gate denial message is built from. */
export interface FileDenial {
  verb: GateVerb;
  /** The target path as shown (already sanitized). */
  file: string;
  questions: readonly QuestionId[];
  /** Condensed hint text; null means the hint is built from the question ids. */
  fixedHint: string | null;
  /** The session's denial ordinal of this denial. */
  ordinal: number;
  /** Full block or one-line condensed form. */
  condensed: boolean;
  /** The sensitive or hard-linked line, when it applies. */
  targetNote: keyof typeof TARGET_NOTES | null;
  /** The closest-miss line, when one applies. */
  closestMiss: string | null;
  /** What ran past the call's work budget, when something did (see `tooComplexLine`). */
  tooComplex?: TooComplexInput | null;
  /** Project text appended to every denial. */
  domainText: string | null;
  /**
   * Whether sibling calls of a parallel batch may have touched the file
   * already (see `batchPossible` in hook/file_gate.ts): only then does the
   * denial carry the batch warning.
   */
  batch: boolean;
}

function numbered(ids: readonly QuestionId[]): string {
  return ids.map((id, i) => `${i + 1}. ${QUESTIONS[id].text}`).join("\n");
}

/** The parallel-batch warning of a file denial whose call may have ridden in a batch. */
export function batchWarning(file: string): string {
  return `Batch warning: if this call rode in a parallel batch, sibling edits to ${file} ` +
    `may already have been applied; retry this one and re-read the file before relying on them.`;
}

/** The condensed hint phrase of a question list. */
export function hintOf(ids: readonly QuestionId[]): string {
  return ids.filter((id) => id !== "quote-instruction").map((id) => QUESTIONS[id].hint).join(
    ", ",
  );
}

/** Renders a file-gate denial. */
export function fileDenialText(d: FileDenial): string {
  const extras = [
    d.targetNote ? TARGET_NOTES[d.targetNote] : null,
    d.closestMiss,
    d.tooComplex ? tooComplexLine(d.tooComplex) : null,
    d.domainText,
  ].filter((s): s is string => s !== null && s !== "");
  const batch = d.batch ? [batchWarning(d.file)] : [];
  if (d.condensed) {
    const action = d.verb === "edit" ? "editing" : "creating";
    const hint = d.fixedHint ?? hintOf(d.questions);
    return [
      `${HEADER} Denial #${d.ordinal}: before ${action} ${d.file}, present ${hint}, and quote ` +
      `the user's current instruction verbatim; then retry. (Earlier denials listed the full ` +
      `questions.)`,
      ...batch,
      ...extras,
    ].join("\n");
  }
  const lead = d.verb === "edit" ? "Before editing" : "Before creating";
  return [
    HEADER,
    "",
    `${lead} ${d.file}, present these facts:`,
    "",
    numbered(d.questions),
    "",
    ...batch,
    ...extras,
    "",
    RETRY,
    FILE_RECOVERY,
  ].join("\n");
}

/** The note of a prior-search credit. */
export function creditNote(file: string, tool: string, detail: string): string {
  return `Prior-search credit: the ${tool} search (${detail}) earlier this turn already ` +
    `covered ${file}, so the first-touch questions are skipped.`;
}

/** The note of a comment or whitespace-only edit. */
export function trivialNote(file: string): string {
  return `Comment or whitespace-only change to ${file}`;
}

/** The note of a sibling collapse. */
export function siblingNote(first: string, ordinal: number): string {
  return `Sibling of ${first} (gated earlier at denial #${ordinal} this session)`;
}

/** The closest-miss line of a denial. */
export function closestMissLine(tool: string, detail: string, code: NearMissCode): string {
  return `Closest search this turn did not count (${tool} ${detail}): ${NEAR_MISS_WHY[code]}.`;
}
