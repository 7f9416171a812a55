/**
 * The texts every gate shares: the header that opens every message, the
 * denials of calls that cannot be checked (input too large, too complex,
 * malformed, an internal error, an unusable state directory, another
 * agent's payload) and the helpers that make text safe to show. The texts of
 * one gate live beside it (`file_texts.ts`, `shell_texts.ts`,
 * `protection_texts.ts`), so a call loads only the wording it can show.
 *
 * The question texts, ids and the quoted notes are a contract with users
 * (and with anything that parses denials), so they change only on purpose.
 *
 * @module
 */

/** The first words of every GateGuard message, which tells the agent who answered. */
export const HEADER = "[Fact-Forcing Gate]";

/** The closing request of a file-gate denial. */
export const RETRY = "Present the facts, then retry the same operation.";

/**
 * The last line of a file-gate denial. Model-facing texts never name a
 * switch that turns a gate off (the README and `gateguard doctor` tell the
 * user about those): the agent is pointed at the user instead.
 */
export const FILE_RECOVERY =
  "If these facts cannot be gathered (setup or repair work, say), tell the user why and " +
  "ask how to proceed.";

/** Appends the project's domain text to a shell denial. */
export function withDomainText(text: string, domainText: string | null): string {
  return domainText ? `${text}\n${domainText}` : text;
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
