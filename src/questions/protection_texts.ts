/**
 * The self-protection answers: what a change to one of GateGuard's control
 * files would switch off or weaken, as the question put to the user or, where
 * no one can be asked, the denial given every time.
 *
 * @module
 */

import { HEADER } from "./messages.ts";

/** What a self-protection answer says about one file of the control surface. */
export interface SelfProtectionInput {
  /** The path as the tool named it, sanitized. */
  file: string;
  /** What the file is and what it controls (its control-surface row's phrase). */
  controls: string;
  /** Each thing the change would switch off or weaken, sanitized; null when that cannot be told. */
  turnsOff: readonly string[] | null;
}

/** How a path whose real location cannot be found is named in a self-protection answer. */
export const UNRESOLVED_CONTROLS = "a path GateGuard cannot resolve";

/** Why such a path is treated as a control file. */
export const UNRESOLVED_LINE =
  "the path cannot be resolved (a dangling link or a loop), so it may " +
  "stand for one of GateGuard's control files";

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
