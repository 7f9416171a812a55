/**
 * The text a typed file change leaves behind, computed the way the tool
 * would apply it: a Write's content, or each replacement of an Edit or
 * MultiEdit applied in order to the current text. A replacement the tool
 * would refuse (its old text absent, or present twice without
 * `replaceAll`) leaves no answer, and neither does content the gate does
 * not read: the caller cannot tell what the file becomes.
 *
 * Every step is priced before any string is built: the occurrences of its
 * old text are counted (paid per character searched), and the length of
 * the text it would build follows from that count and the two lengths, so
 * a short `replaceAll` that would multiply a large file past what one call
 * may spend is refused before it allocates anything.
 *
 * @module
 */

import type { FileChange } from "../tools/call.ts";
import type { WorkBudget } from "../platform/budget.ts";
import { applyStep } from "./file_context.ts";

/** Work units per character of a text built by a replacement (copying and concatenating). */
export const UNITS_PER_BUILT_CHARACTER = 2;

/** Why the text after a change is not known. */
export type NoAfterText = "cannot-tell" | "over-budget";

/** How often `needle` occurs in `text`, without overlaps, counting at most `limit`. */
function occurrences(text: string, needle: string, limit: number): number {
  let count = 0;
  for (
    let at = text.indexOf(needle);
    at >= 0 && count < limit;
    at = text.indexOf(needle, at + needle.length)
  ) {
    count++;
  }
  return count;
}

/**
 * The file's text after `change`, from `before` (null when the file does
 * not exist); `"cannot-tell"` when that cannot be told, `"over-budget"`
 * when `budget` cannot pay for searching and building it. The searches
 * are charged one unit per character searched, each built text
 * `UNITS_PER_BUILT_CHARACTER` per character, all before the work is done.
 */
export function textAfterChange(
  before: string | null,
  change: FileChange,
  budget: WorkBudget,
): string | NoAfterText {
  if (change.kind === "write") return change.content;
  if (change.kind !== "edits") return "cannot-tell";
  let text = before;
  for (const step of change.edits) {
    // An empty old text creates a file that does not exist yet, and nothing else.
    if (step.oldString === "") {
      if (text !== null) return "cannot-tell";
      text = step.newString;
      continue;
    }
    if (text === null) return "cannot-tell";
    // Searched twice: once here to price the step, once by the step itself.
    if (!budget.spend(2 * text.length, "settings")) return "over-budget";
    const count = occurrences(text, step.oldString, step.replaceAll ? Infinity : 2);
    if (count === 0 || (!step.replaceAll && count !== 1)) return "cannot-tell";
    const length = text.length + count * (step.newString.length - step.oldString.length);
    if (!budget.spend(length * UNITS_PER_BUILT_CHARACTER, "settings")) return "over-budget";
    const applied = applyStep(text, step);
    if (applied === null) return "cannot-tell";
    text = applied.after;
  }
  return text ?? "cannot-tell";
}
