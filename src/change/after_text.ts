/**
 * The text a typed file change leaves behind, computed the way the tool
 * would apply it: a Write's content, or each replacement of an Edit or
 * MultiEdit applied in order to the current text. A replacement the tool
 * would refuse (its old text absent, or present twice without
 * `replaceAll`) leaves no answer, and neither does content the gate does
 * not read: the caller cannot tell what the file becomes.
 *
 * @module
 */

import type { FileChange } from "../tools/call.ts";
import { applyStep } from "./file_context.ts";

/**
 * The file's text after `change`, from `before` (null when the file does
 * not exist); null when that cannot be told.
 */
export function textAfterChange(before: string | null, change: FileChange): string | null {
  if (change.kind === "write") return change.content;
  if (change.kind !== "edits") return null;
  let text = before;
  for (const step of change.edits) {
    // An empty old text creates a file that does not exist yet, and nothing else.
    if (step.oldString === "") {
      if (text !== null) return null;
      text = step.newString;
      continue;
    }
    if (text === null) return null;
    const applied = applyStep(text, step);
    if (applied === null || (!step.replaceAll && applied.occurrences !== 1)) return null;
    text = applied.after;
  }
  return text;
}
