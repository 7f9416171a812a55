/**
 * The typed tool call: what a gated call does, whichever agent sent it.
 *
 * Each agent names its tools and shapes their input its own way (Claude
 * Code's `Edit` and `MultiEdit`, a patch text, a `path`/`file_text` pair).
 * A reader turns one tool's input into this value, and the gates decide on
 * it alone, so a new agent needs readers, not new gate code.
 *
 * @module
 */

import type { ShellDialect } from "../shell/dialect.ts";

export type { ShellDialect };

/** A shell command to run. */
export interface ShellCall {
  kind: "shell";
  dialect: ShellDialect;
  /** The command text. */
  command: string;
  /**
   * The path a file tool deletes, when this call stands for that deletion
   * (`deletionCommand`): the denial then says what the tool deletes, not
   * what the stand-in command would.
   */
  deletion?: string;
  /**
   * Set for text typed into a shell session that is already running, to
   * the typing tool as the agent names it: the text is read only when it
   * leaves no quote, here-document or line open for the next input to
   * finish (`tools/session_input.ts`).
   */
  session?: string;
}

/** One search-and-replace in a file, with its fields already type-checked. */
export interface TextEdit {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/**
 * How a call changes one file, as far as the change profile can read it.
 *
 * `unreadable` is content of the wrong shape (the profile is unknown, the
 * full questions are due); `opaque` is content the gate never reads, such
 * as a notebook cell or a deletion: no profile, always the full questions.
 * `removes` marks an opaque change that leaves no file at the path (a
 * deletion, a move away).
 */
export type FileChange =
  | { kind: "edits"; edits: readonly TextEdit[] }
  | { kind: "write"; content: string }
  | { kind: "unreadable" }
  | { kind: "opaque"; removes?: true };

/** How the denial words the operation: changing a file or writing it whole. */
export type FileVerb = "edit" | "write";

/** One file a call changes, by the path the agent wrote. */
export interface FileTouch {
  path: string;
  verb: FileVerb;
  change: FileChange;
}

/** A call that changes files; a file may be touched more than once. */
export interface FileCall {
  kind: "file";
  touches: FileTouch[];
}

/**
 * A call whose input holds more entries than the hook reads: it is denied
 * without being looked at further, so the cost of a call stays bounded.
 */
export interface OversizeCall {
  kind: "oversize";
  entries: number;
  limit: number;
}

/**
 * A call whose input GateGuard cannot read: a required field is missing or
 * a field has the wrong type. It is denied on every try, because the tool
 * may read that input in a way the gate never saw.
 */
export interface MalformedCall {
  kind: "malformed";
  /** The tool as the agent named it. */
  tool: string;
  /** What is wrong, in the words of the denial (`\`file_path\` is missing`). */
  problem: string;
}

/** What a gated call does. */
export type ToolCall = ShellCall | FileCall | OversizeCall | MalformedCall;

/**
 * Combines the changes one call makes to one file (entries that resolve to
 * the same file), in order: replacements run one after another; any other
 * mix cannot be read as one change.
 */
export function mergeChanges(changes: readonly FileChange[]): FileChange {
  if (changes.length === 1) return changes[0];
  if (changes.some((c) => c.kind === "opaque")) return { kind: "opaque" };
  const edits: TextEdit[] = [];
  for (const c of changes) {
    if (c.kind !== "edits") return { kind: "unreadable" };
    edits.push(...c.edits);
  }
  return { kind: "edits", edits };
}

/**
 * The shell command a deletion by tool is decided as: a forced removal of
 * that one path, quoted as one word so a retry matches. The shell gate does
 * not count a plain `rm` of one file as destructive; a deletion an agent
 * asks for by tool is as final, so it is denied on every new attempt until
 * retried. The destructive denial never quotes the command, so the agent
 * never sees it.
 */
export function deletionCommand(path: string): string {
  return `rm -rf -- '${path.replaceAll("'", `'"'"'`)}'`;
}
