/**
 * Where a question for the user reaches a person. Claude Code puts a
 * hook's `ask` to the user only in its asking permission modes; in the
 * others (bypass, don't-ask, auto) the mode answers for the user, so a
 * change that must never pass on a retry is denied there instead. Both
 * gates read this one table.
 *
 * @module
 */

/** The permission modes in which Claude Code puts an `ask` answer to a person. */
export const ASKING_MODES: ReadonlySet<string> = new Set(["default", "acceptEdits", "plan"]);

/** True when an `ask` answered in this permission mode reaches a person. */
export function askReachesPerson(permissionMode: string | null | undefined): boolean {
  return ASKING_MODES.has(permissionMode ?? "");
}
