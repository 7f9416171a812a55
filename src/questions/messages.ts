/**
 * Every text GateGuard shows the agent, declared once as data: question ids
 * and their wording, the condensed hints, the notes of the allowances, the
 * shell gate messages and the recovery hints.
 *
 * The question texts, ids and the quoted notes are a contract with users
 * (and with anything that parses denials), so they change only on purpose.
 *
 * @module
 */

import type { NearMissCode } from "../evidence/credit.ts";
import type { TargetClass } from "../file_facts/class.ts";

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

const HEADER = "[Fact-Forcing Gate]";
const RETRY = "Present the facts, then retry the same operation.";

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

/**
 * The last line of a file-gate denial. Model-facing texts never name a
 * switch that turns a gate off (the README and `gateguard doctor` tell the
 * user about those): the agent is pointed at the user instead.
 */
export const FILE_RECOVERY =
  "If these facts cannot be gathered (setup or repair work, say), tell the user why and " +
  "ask how to proceed.";

/** The last line of the routine shell denial (see `FILE_RECOVERY` on why it names no switch). */
export const ROUTINE_RECOVERY = "One sentence for each fact is enough.";

/**
 * The last line of a destructive denial: the rule that matched, and the
 * user as the one to ask (see `FILE_RECOVERY` on why it names no switch).
 */
export function destructiveRecovery(pack: string, rule: string): string {
  return `Matched rule: ${pack}/${rule}. If this must run and the user has not asked for it, ` +
    "ask the user first.";
}

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

/** The destructive shell denial's fixed part: its questions (`destructiveDenialText` adds the rest). */
export const DESTRUCTIVE_TEXT: string = [
  HEADER,
  "",
  "Destructive command detected. Before running it, present these facts:",
  "",
  "1. List all files/data this command will modify or delete",
  "2. Write a one-line rollback procedure",
  "3. Quote the user's current instruction verbatim",
  "",
  "Present the facts, then retry the same command.",
].join("\n");

/** The routine shell denial (once per session). */
export const ROUTINE_TEXT: string = [
  HEADER,
  "",
  "Before the first shell command of this session, present these facts:",
  "",
  "1. The current user request in one sentence",
  "2. What this specific command verifies or produces",
  "",
  "Present the facts, then retry the same command.",
  ROUTINE_RECOVERY,
].join("\n");

/** The line of a destructive denial that names the rule that fired and what it destroys. */
export function destroysLine(pack: string, rule: string, destroys: string): string {
  return `What it destroys (${pack}/${rule}): ${destroys}.`;
}

/**
 * The destructive denial: the fixed text, the rule that matched with whom
 * to ask, then the line on what the command destroys.
 */
export function destructiveDenialText(pack: string, rule: string, destroys: string): string {
  return [DESTRUCTIVE_TEXT, destructiveRecovery(pack, rule), destroysLine(pack, rule, destroys)]
    .join("\n");
}

/**
 * The narrow hatch a destructive denial names when one fits: the
 * `allowDestructive` entry (already a plain glob such as `dist/**`) that
 * would let this rule's command through for these paths only. The user,
 * not the agent, adds it.
 */
export function allowDestructiveHint(pack: string, rule: string, entry: string): string {
  return `If the user wants ${pack}/${rule} to run on these paths without a denial each time, ` +
    `the user (not the agent) can add "${entry}" to allowDestructive in the GateGuard user ` +
    "file (config.jsonc in its state folder) or in a trusted .gateguard.jsonc.";
}

/**
 * The question put to the user about a destructive command when the user
 * chose `destructiveDecision: "ask"`: no facts to gather and no retry, the
 * user decides whether it runs.
 */
export function destructiveAskText(pack: string, rule: string, destroys: string): string {
  return [
    HEADER,
    "",
    'Destructive command: the user decides whether it runs (destructiveDecision is "ask").',
    destroysLine(pack, rule, destroys),
  ].join("\n");
}

/** What a self-protection answer says about one file of the control surface. */
export interface SelfProtectionInput {
  /** The path as the tool named it, sanitized. */
  file: string;
  /** What the file is and what it controls (its control-surface row's phrase). */
  controls: string;
  /** Each thing the change would switch off or weaken, sanitized; null when that cannot be told. */
  turnsOff: readonly string[] | null;
}

/** The line said when what a change does to a control file cannot be told. */
export const CANNOT_TELL_LINE =
  "what the change does cannot be told (the file cannot be read, a replacement does not " +
  "apply to it, the content is not read, or the change is too large to check), so it counts " +
  "as one that switches GateGuard off";

function selfProtectionLines(inputs: readonly SelfProtectionInput[]): string[] {
  return inputs.flatMap(({ file, controls, turnsOff }) => [
    `This change to ${file} would switch GateGuard off or weaken it:`,
    ...(turnsOff ?? [CANNOT_TELL_LINE]).map((line) => `- ${line}`),
    `(${file}: ${controls}.)`,
  ]);
}

/**
 * The question put to the user when the agent's change would switch
 * GateGuard off or weaken it (Claude Code shows it with its permission
 * prompt); where no one answers, the agent reads it as the denial.
 */
export function selfProtectionAskText(inputs: readonly SelfProtectionInput[]): string {
  return [
    HEADER,
    "",
    ...selfProtectionLines(inputs),
    "",
    "Only the user can allow this change; a retry is asked about again. If it is not " +
    "approved, ask the user to make the change themselves.",
  ].join("\n");
}

/**
 * The denial of such a change where no one can be asked (an agent without
 * an ask answer, or a permission mode that answers for the user): denied
 * every time, retries included.
 */
export function selfProtectionDenyText(inputs: readonly SelfProtectionInput[]): string {
  return [
    HEADER,
    "",
    ...selfProtectionLines(inputs),
    "",
    "GateGuard denies this change every time, retries included, because no one can be asked " +
    "to approve it here. Ask the user to make the change themselves if they want it.",
  ].join("\n");
}

/** What a shell command that reaches a control file may do to it. */
export const SHELL_WRITE_LINE = "a shell command may write, move, delete, link or replace it, " +
  "and what it would leave behind cannot be read before it runs";

/** What running GateGuard's own hook by hand can forge. */
export const OWN_HOOK_LINE = "running GateGuard's hook by hand can record a decision no one was " +
  "shown, so that a later command passes on its first try";

/** How GateGuard's own hook is named in a self-protection answer. */
export const OWN_HOOK_CONTROLS = "the program that decides every gated tool call";

/** The places a destructive command may not be aimed at without the user's say, in words. */
export const PROTECTED_PLACES: Readonly<Record<"home" | "root" | "project" | "git", string>> = {
  home: "the home directory",
  root: "a filesystem root",
  project: "the project root",
  git: "the project's .git folder",
};

/**
 * The answer to a destructive command aimed at a protected place: never
 * passed on a retry, asked of the user (`asked`) or denied every time.
 * `piece` is the command's word that names the place, sanitized.
 */
export function protectedTargetText(
  place: keyof typeof PROTECTED_PLACES,
  piece: string,
  asked: boolean,
  hit: { pack: string; rule: string; destroys: string },
): string {
  return [
    HEADER,
    "",
    `Destructive command aimed at ${PROTECTED_PLACES[place]} (${piece}). GateGuard never ` +
    "passes it on a retry.",
    "",
    asked
      ? "Only the user can allow it, and they are asked now."
      : "It is denied every time here, because no one can be asked to approve it. If it must " +
        "run, ask the user to run it themselves.",
    destroysLine(hit.pack, hit.rule, hit.destroys),
  ].join("\n");
}

/** Appends the project's domain text to a shell denial. */
export function withDomainText(text: string, domainText: string | null): string {
  return domainText ? `${text}\n${domainText}` : text;
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

/** How the user makes the state directory usable again, shared by the state-error denials. */
const STATE_FIX =
  "Ask the user to make it a writable directory (or to set GATEGUARD_STATE_DIR to one), then retry.";

/**
 * The denial of a gated call whose check could not be recorded because the
 * state directory is unusable: a gate that cannot remember what it asked
 * would ask forever or, worse, forget that it denied, so the call stays
 * denied until the directory works. `error` names the directory and why.
 */
export function stateErrorText(error: string): string {
  return `${HEADER} GateGuard cannot record its checks (${sanitizeForDisplay(error)}), so this ` +
    `call is denied, and so is every retry, until it can. ${STATE_FIX}`;
}

/**
 * A destructive command whose state could not be saved stays denied: a
 * denial that cannot be recorded can never be retried past, and a retry
 * whose pass cannot be used up would pass again. `denial` is the gate's own
 * text when it denied, null when it was about to let a retry through.
 */
export function stateErrorDestructiveText(error: string, denial: string | null): string {
  const line = `GateGuard could not save its session state (${sanitizeForDisplay(error)}), so ` +
    `this destructive command stays denied until it can. ${STATE_FIX}`;
  return denial === null ? `${HEADER} ${line}` : `${denial}\n${line}`;
}

/** The denial of a payload too large to inspect. */
export function oversizeText(limitBytes: number): string {
  return `${HEADER} This call could not be inspected: the hook input is larger than ` +
    `${limitBytes} bytes. Split the change into smaller calls.`;
}

/**
 * What ran past the call's work budget (platform/budget.ts), as a denial
 * names it, and how the agent can split it into calls that can be checked.
 */
export const TOO_COMPLEX_INPUTS = {
  call: {
    subject: "The call's input is",
    split: "split it into smaller calls",
    recovery: null,
  },
  command: {
    subject: "The command is",
    split: "split it into shorter commands, one call each",
    recovery: "If it cannot be split, ask the user to run it.",
  },
  edit: {
    subject: "The change is",
    split: "split it into smaller edits, one call each",
    recovery: "If it cannot be split, ask the user to make the change.",
  },
  path: {
    subject: "The file path, with the exempt globs, is",
    split: "use a shorter path",
    recovery: "If the path cannot be shorter, ask the user to make the change.",
  },
  searches: {
    subject: "The searches earlier in this turn are",
    split: "split them into narrower searches with fewer paths and filters each",
    recovery: FILE_RECOVERY,
  },
} as const;

/** Which kind of input ran out of work budget. */
export type TooComplexInput = keyof typeof TOO_COMPLEX_INPUTS;

/** The one sentence every budget denial carries, shell and file alike. */
export function tooComplexLine(input: TooComplexInput): string {
  const { subject, split } = TOO_COMPLEX_INPUTS[input];
  return `${subject} too large or too complex to check within GateGuard's work limit, ` +
    `so this call is denied; ${split}, then retry.`;
}

/** A stand-alone denial of a call whose input ran out of work budget. */
export function tooComplexText(input: TooComplexInput): string {
  const recovery = TOO_COMPLEX_INPUTS[input].recovery;
  return `${HEADER} ${tooComplexLine(input)}${recovery ? `\n${recovery}` : ""}`;
}

/**
 * The denial of a call the hook failed on: a check that could not run has
 * not found the call safe, so the call is denied like any unchecked call.
 */
export function internalErrorText(): string {
  return `${HEADER} GateGuard hit an internal error and could not check this call, so it is ` +
    "denied. Try a smaller or simpler call; if that fails too, ask the user to run " +
    "`gateguard doctor`.";
}

/** How the denials name the other agents. */
const AGENT_TITLES: Readonly<Record<string, string>> = {
  codex: "Codex CLI",
  gemini: "Gemini CLI",
  copilot: "Copilot CLI",
  cursor: "Cursor",
};

/**
 * The denial of a call another agent sent to GateGuard registered as Claude
 * Code's hook (`agents`: the ones whose payload it looks like). Its tools
 * would all pass unread, so every call is denied until the registration
 * names the agent.
 */
export function wrongAgentText(agents: readonly string[]): string {
  const titles = agents.map((a) => AGENT_TITLES[a] ?? a).join(" or ");
  const init = agents.map((a) => `\`gateguard init --agent ${a}\``).join(" or ");
  return `${HEADER} GateGuard is registered here as Claude Code's hook, but this call came from ` +
    `${titles}, whose calls it cannot read in that form, so it is denied. Ask the user to ` +
    `register GateGuard for this agent with ${init}.`;
}

/**
 * The denial of a call whose input GateGuard cannot read: `tool` as the
 * agent names it, `problem` what is missing or mistyped. The same input is
 * denied again on every retry.
 */
export function malformedInputText(tool: string, problem: string): string {
  return `${HEADER} GateGuard cannot read this ${sanitizeForDisplay(tool, 80)} call: ` +
    `${problem}. A call it cannot read is denied every time; send the input the tool ` +
    `documents and retry.`;
}

/** Cleans a path or detail for display: no control characters, bounded length. */
export function sanitizeForDisplay(text: string, max = 300): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const control = code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) ||
      (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
    out += control ? " " : ch;
    if (out.length >= max) return `${out.slice(0, max - 1)}…`;
  }
  return out;
}
