/**
 * Picks the questions of a first-touch denial from the target's class, the
 * kind of call and, for code, the change profile.
 *
 * @module
 */

import type { TargetClass } from "../file_facts/class.ts";
import {
  CLASS_QUESTIONS,
  FIXED_CODE_HINT,
  type GateVerb,
  type QuestionId,
  QUESTIONS,
} from "./file_texts.ts";

/** The change-profile flags question selection reads. */
export interface ProfileFlags {
  known: boolean;
  touchesPublicSurface: boolean;
  touchesData: boolean;
}

/** The questions of one denial, and the condensed hint when it is fixed. */
export interface Selection {
  questions: QuestionId[];
  /** Non-null when the condensed hint is the fixed one rather than built from the ids. */
  fixedHint: string | null;
}

/**
 * Selects the questions. `profile` is null when the full questions are due
 * (sensitive, hard-linked, NotebookEdit, or a change that was not read).
 */
export function selectQuestions(
  cls: TargetClass,
  verb: GateVerb,
  profile: ProfileFlags | null,
  externalContract: boolean,
): Selection {
  if (cls !== "code") {
    return { questions: [...CLASS_QUESTIONS[cls][verb], "quote-instruction"], fixedHint: null };
  }
  const readable = profile !== null && profile.known;
  const data: QuestionId[] = !readable || profile.touchesData
    ? (externalContract ? ["data-schema", "external-contract"] : ["data-schema"])
    : [];
  let scope: QuestionId[];
  if (verb === "write") scope = ["callers", "no-duplicate"];
  else if (!readable || profile.touchesPublicSurface) scope = ["importers", "public-api"];
  else scope = ["local-callers"];
  const fixedHint = verb === "edit" && !readable
    ? externalContract
      ? `${FIXED_CODE_HINT}, ${QUESTIONS["external-contract"].hint}`
      : FIXED_CODE_HINT
    : null;
  return { questions: [...scope, ...data, "quote-instruction"], fixedHint };
}
