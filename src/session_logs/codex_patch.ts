/**
 * Reads a Codex `apply_patch` text into the files it touches and, per file,
 * the changes a change profile can read.
 *
 * The reader is deliberately more willing than Codex's own parser: any line
 * that, trimmed, starts with a file header counts as one, wherever it sits,
 * and the trim removes every character either Rust's or JavaScript's notion
 * of white space covers. A header Codex would honour is never missed; a line
 * Codex would take as content may add a file here, which costs an extra
 * denial at worst. A `*** Move to:` line names a second file, the
 * destination.
 *
 * @module
 */

/** What a patch does to one file. */
export type PatchOp = "add" | "update" | "delete" | "move-to";

/** One old/new pair of an update hunk: context and removed lines against context and added lines. */
export interface PatchHunk {
  oldText: string;
  newText: string;
}

/** One file a patch touches. */
export interface PatchFile {
  /** The path as written in the patch (relative to the call's cwd, or absolute). */
  path: string;
  op: PatchOp;
  /** An added file's text. */
  content: string | null;
  /** An updated (or moved) file's hunks, in order. */
  hunks: PatchHunk[];
  /** An updated file a `*** Move to:` line moves away: its path is left without a file. */
  movedAway?: boolean;
}

/** The files of a patch, or why it was not read. */
export type PatchRead =
  | { ok: true; files: PatchFile[] }
  | { ok: false; reason: "too-many-files" };

/** Most files one patch may touch before the whole call is refused unread. */
export const MAX_PATCH_FILES = 200;

const HEADERS: readonly { prefix: string; op: PatchOp }[] = [
  { prefix: "*** Add File: ", op: "add" },
  { prefix: "*** Update File: ", op: "update" },
  { prefix: "*** Delete File: ", op: "delete" },
  { prefix: "*** Move to: ", op: "move-to" },
];

/** White space as Rust's `trim` sees it, plus what JavaScript adds (U+FEFF). */
const EDGE_SPACE = /^[\s\u0085]+|[\s\u0085]+$/g;

function trimWide(line: string): string {
  return line.replace(EDGE_SPACE, "");
}

function header(line: string): { op: PatchOp; path: string } | null {
  const trimmed = trimWide(line);
  if (!trimmed.startsWith("***")) return null;
  for (const { prefix, op } of HEADERS) {
    if (trimmed.startsWith(prefix)) {
      const path = trimWide(trimmed.slice(prefix.length));
      return path === "" ? null : { op, path };
    }
  }
  return null;
}

/** Collects update hunks: `@@` lines separate them; ' ', '-' and '+' lines fill them. */
class HunkBuilder {
  private oldLines: string[] = [];
  private newLines: string[] = [];
  readonly hunks: PatchHunk[] = [];

  line(text: string): void {
    const mark = text[0];
    if (text.startsWith("@@")) return this.flush();
    if (mark === " " || mark === "-") this.oldLines.push(text.slice(1));
    if (mark === " " || mark === "+") this.newLines.push(text.slice(1));
    // Codex reads an empty line inside a hunk as an empty context line.
    if (text === "") {
      this.oldLines.push("");
      this.newLines.push("");
    }
  }

  flush(): void {
    if (this.oldLines.length > 0 || this.newLines.length > 0) {
      this.hunks.push({
        oldText: this.oldLines.join("\n"),
        newText: this.newLines.join("\n"),
      });
    }
    this.oldLines = [];
    this.newLines = [];
  }
}

/** Reads the files a patch touches, in order of first appearance. */
export function readPatch(patch: string): PatchRead {
  const files: PatchFile[] = [];
  /** Move destinations and the update whose hunks they receive. */
  const moves: { destination: PatchFile; source: PatchFile }[] = [];
  let current: PatchFile | null = null;
  let added: string[] | null = null;
  let hunks: HunkBuilder | null = null;
  const close = (): void => {
    if (current && added) current.content = added.length > 0 ? `${added.join("\n")}\n` : "";
    if (current && hunks) {
      hunks.flush();
      current.hunks = hunks.hunks;
    }
    added = null;
    hunks = null;
  };
  // Codex trims the whole text first; a trailing newline is no empty context line.
  for (const raw of trimWide(patch).split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const found = header(line);
    if (found) {
      if (files.length >= MAX_PATCH_FILES) return { ok: false, reason: "too-many-files" };
      const file: PatchFile = { path: found.path, op: found.op, content: null, hunks: [] };
      files.push(file);
      if (found.op === "move-to" && current?.op === "update") {
        // The hunks that follow belong to the update; the destination gets them too.
        moves.push({ destination: file, source: current });
        current.movedAway = true;
        continue;
      }
      close();
      current = file;
      if (found.op === "add") added = [];
      if (found.op === "update" || found.op === "move-to") hunks = new HunkBuilder();
      continue;
    }
    if (trimWide(line).startsWith("***")) {
      // Begin/End Patch, End of File and unknown markers end a hunk.
      hunks?.flush();
      continue;
    }
    if (added !== null && line.startsWith("+")) added.push(line.slice(1));
    else hunks?.line(line);
  }
  close();
  for (const { destination, source } of moves) destination.hunks = source.hunks;
  return { ok: true, files };
}
