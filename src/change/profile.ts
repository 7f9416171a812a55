/**
 * The change profile of an Edit, MultiEdit or Write: whether the change
 * touches the public surface, whether it handles data, and whether it is a
 * comment or whitespace-only edit. The first-touch gate uses it to fit its
 * questions to the change and to pass trivial edits.
 *
 * Edits are placed in the current file the way the Edit tool applies them
 * (MultiEdit entries one after another on the evolving text), so rules that
 * need the surrounding file can see it. Anything that cannot be read with
 * confidence gets the fail-closed answer: an unknown profile, public surface
 * and data touched, never trivial.
 *
 * @module
 */

import type { FileChange } from "../tools/call.ts";
import { lexCode, loadLexerOf } from "./code_lexer.ts";
import type { LexResult } from "./lex_emitter.ts";
import { type Language, languageOf } from "./language.ts";
import {
  type AppliedStep,
  applyStep,
  type EditStep,
  type EditWindow,
  importsC,
  LineIndex,
  toolReadings,
} from "./file_context.ts";
import {
  alwaysTouchesSurface,
  declaresPublicName,
  needsFileContext,
  touchesExportedMember,
} from "./surface.ts";
import { mentionsData } from "./data_words.ts";
import { isCommentOnlyChange, replacementIsLiteral, windowIsCommentOnly } from "./trivial.ts";

/** What the gate learns from a change (written to metrics as is, in this key order). */
export interface ChangeProfile {
  /** The change was read; false means the full questions are due. */
  known: boolean;
  /** Short lowercase language code, or null for an unsupported extension. */
  language: string | null;
  touchesPublicSurface: boolean;
  touchesData: boolean;
  /** A comment or whitespace-only Edit/MultiEdit that may pass without the first-touch check. */
  trivial: boolean;
}

/** Most MultiEdit entries for one file that are read. */
export const MAX_ENTRIES = 64;
/** Largest `old_string`, `new_string` or `content` read, in UTF-8 bytes. */
export const MAX_SIDE_BYTES = 64 * 1024;
/** Largest total of all sides read, in UTF-8 bytes. */
export const MAX_TOTAL_BYTES = 256 * 1024;
/**
 * Characters of file text lexed for one profile (the file once per entry,
 * plus the edit windows). Past it the remaining entries count as not
 * placed, which keeps a MultiEdit of a large file bounded.
 */
export const FILE_LEX_BUDGET = 2 * 1024 * 1024;

/**
 * At most how many characters `profileChange` reads and lexes for this
 * input: the sides of the change (up to `MAX_TOTAL_BYTES`) and the file
 * text once per step (up to `FILE_LEX_BUDGET`). A change past the entry
 * bound is not read at all. The hook charges this to the call's work budget.
 */
export function profileWork(change: FileChange, fileText: string | null): number {
  let chars = 0;
  let steps = 1;
  if (change.kind === "write") chars = change.content.length;
  else if (change.kind === "edits") {
    if (change.edits.length > MAX_ENTRIES) return 0;
    for (const e of change.edits) chars += e.oldString.length + e.newString.length;
    steps = change.edits.length;
  }
  const fileChars = Math.min(FILE_LEX_BUDGET, (fileText?.length ?? 0) * (steps + 1));
  return Math.min(chars, MAX_TOTAL_BYTES) + fileChars;
}

/** The profile of a change that could not be read. */
export function unknownProfile(language: Language | null): ChangeProfile {
  return {
    known: false,
    language,
    touchesPublicSurface: true,
    touchesData: true,
    trivial: false,
  };
}

/** UTF-8 length of `s` (lone surrogates count as the 3 bytes of U+FFFD). */
function utf8Length(s: string): number {
  let bytes = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(k + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      k++;
    } else bytes += 3;
  }
  return bytes;
}

type ReadChange = { kind: "write"; content: string } | { kind: "edits"; steps: EditStep[] };

/**
 * The change's texts within the read bounds, or null when the change was
 * not readable or a bound is passed. The tool reader has checked the
 * fields' types; only their sizes are checked here.
 */
function readChange(change: FileChange): ReadChange | null {
  let total = 0;
  const fits = (value: string): boolean => {
    if (value.length > MAX_SIDE_BYTES) return false;
    const bytes = utf8Length(value);
    total += bytes;
    return bytes <= MAX_SIDE_BYTES;
  };
  let read: ReadChange | null = null;
  if (change.kind === "write") {
    read = fits(change.content) ? { kind: "write", content: change.content } : null;
  } else if (
    change.kind === "edits" && change.edits.length > 0 && change.edits.length <= MAX_ENTRIES &&
    change.edits.every((e) => fits(e.oldString) && fits(e.newString))
  ) {
    read = { kind: "edits", steps: [...change.edits] };
  }
  return read !== null && total <= MAX_TOTAL_BYTES ? read : null;
}

/** One edit window with its text before and after the edit, each lexed with line states. */
interface LexedWindow {
  w: EditWindow;
  before: LexResult;
  after: LexResult;
}

/** A step placed in the file: the text it applies to, and how each tool reading applies. */
interface Placement {
  text: string;
  /** One entry per `toolReadings` reading, the likeliest first. */
  readings: { step: EditStep; applied: AppliedStep }[];
}

/**
 * Places a step in `text`. The Edit tool matches line feeds against a file
 * written with CRLF line ends, so such a file is also tried with LF ends.
 */
function place(text: string, step: EditStep): Placement | null {
  const candidates = text.includes("\r\n") ? [text, text.replaceAll("\r\n", "\n")] : [text];
  for (const candidate of candidates) {
    const readings: Placement["readings"] = [];
    for (const reading of toolReadings(candidate, step)) {
      const applied = applyStep(candidate, reading);
      if (applied === null) break;
      readings.push({ step: reading, applied });
    }
    if (readings.length > 0) return { text: candidate, readings };
  }
  return null;
}

/** The walk over an Edit's or MultiEdit's steps, collecting the profile flags. */
class EditWalk {
  surface: boolean;
  data = false;
  trivial: boolean;
  /** Some step could not be placed in the file. */
  unplaced = false;
  private text: string | null;
  private budget = FILE_LEX_BUDGET;
  /** The last file text lexed with line states, reused while the text is unchanged. */
  private fileLex: { text: string; lex: LexResult } | null = null;

  constructor(
    private readonly language: Language,
    filePath: string,
    fileText: string | null,
  ) {
    this.surface = alwaysTouchesSurface(language, filePath);
    this.text = fileText;
    this.trivial = fileText !== null;
    if (fileText !== null && language === "go") {
      const lex = this.lexFile(fileText);
      this.trivial = lex !== null && !importsC(lex);
    }
  }

  /**
   * The file text lexed with line states (directives play no part there),
   * within the budget; null once the budget is spent.
   */
  private lexFile(text: string): LexResult | null {
    if (this.fileLex?.text === text) return this.fileLex.lex;
    if (text.length > this.budget) return null;
    this.budget -= text.length;
    const lex = lexCode(this.language, text, { directives: false, lineStates: true });
    this.fileLex = { text, lex };
    return lex;
  }

  /** Reads one step: on its own, then placed in the file when possible. */
  step(step: EditStep): void {
    const { language } = this;
    const oldLex = lexCode(language, step.oldString);
    const newLex = lexCode(language, step.newString);
    if (!isCommentOnlyChange(oldLex, newLex) || !replacementIsLiteral(step.newString)) {
      this.trivial = false;
    }
    if (!this.placed(step)) {
      this.unplaced = true;
      this.trivial = false;
      this.surface ||= declaresPublicName(language, oldLex.lines) ||
        declaresPublicName(language, newLex.lines);
      this.data ||= mentionsData(language, oldLex.lines) || mentionsData(language, newLex.lines);
    }
  }

  /** The budget is spent: this step and every later one count as not placed. */
  private outOfBudget(): false {
    this.text = null;
    return false;
  }

  /** Reads the step in the file; false when it cannot be placed there. */
  private placed(step: EditStep): boolean {
    const { language } = this;
    const placement = this.text === null ? null : place(this.text, step);
    if (placement === null) return false;
    const { text } = placement;
    const file = this.lexFile(text);
    if (file === null) return this.outOfBudget();
    const index = new LineIndex(text);
    const lexWindows = (applied: AppliedStep): LexedWindow[] | null => {
      const size = applied.windows.reduce((n, w) => n + w.end - w.start + w.newEnd - w.newStart, 0);
      if (size > this.budget) return null;
      this.budget -= size;
      return applied.windows.map((w) => ({
        w,
        before: lexCode(language, text.slice(w.start, w.end), { lineStates: true }),
        after: lexCode(language, applied.after.slice(w.newStart, w.newEnd), { lineStates: true }),
      }));
    };
    const main = placement.readings[0].applied;
    const windows = lexWindows(main);
    if (windows === null) return this.outOfBudget();
    const windowLines = windows.flatMap(({ before, after }) => [...before.lines, ...after.lines]);
    this.surface ||= declaresPublicName(language, windowLines);
    this.data ||= mentionsData(language, windowLines);
    if (!this.surface && needsFileContext(language)) {
      this.surface = touchesExportedMember(
        language,
        file,
        windows.map(({ w, after }) => ({
          firstLine: index.lineOf(w.start),
          lastLine: index.lineOf(w.end),
          after,
        })),
      );
    }
    if (this.trivial) {
      this.trivial = placement.readings.every(({ step: reading, applied }, k) => {
        if (!reading.replaceAll && applied.occurrences !== 1) return false;
        const pairs = k === 0 ? windows : lexWindows(applied);
        return pairs !== null &&
          pairs.every(({ w, before, after }) => windowIsCommentOnly(file, index, w, before, after));
      });
    }
    this.text = main.after;
    return true;
  }
}

function profileEdits(
  language: Language,
  filePath: string,
  steps: readonly EditStep[],
  fileText: string | null,
): ChangeProfile {
  const walk = new EditWalk(language, filePath, fileText);
  for (const step of steps) walk.step(step);
  return {
    known: true,
    language,
    touchesPublicSurface: walk.surface || (walk.unplaced && needsFileContext(language)),
    touchesData: walk.data,
    trivial: walk.trivial,
  };
}

/** Loads what profiling a change to `filePath` needs: its language's lexer. */
export function prepareProfile(filePath: string): Promise<void> {
  return loadLexerOf(filePath);
}

/**
 * Profiles a change to `filePath`. `fileText` is the current file (null when
 * missing, unreadable, over the read bound or not a regular file); a Write
 * is judged on its content alone. Never throws: any failure gives the
 * unknown profile.
 */
export function profileChange(
  filePath: string,
  input: FileChange,
  fileText: string | null,
): ChangeProfile {
  let language: Language | null = null;
  try {
    language = languageOf(filePath);
    if (language === null) return unknownProfile(null);
    const change = readChange(input);
    if (change === null) return unknownProfile(language);
    if (change.kind === "write") {
      return {
        known: true,
        language,
        touchesPublicSurface: true,
        touchesData: mentionsData(language, lexCode(language, change.content).lines),
        trivial: false,
      };
    }
    return profileEdits(language, filePath, change.steps, fileText);
  } catch {
    return unknownProfile(language);
  }
}
