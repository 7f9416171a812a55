/**
 * Measures how far a record sits from the end of a transcript snapshot, in
 * the units of GateGuard's bounded tail read (bytes and lines), and which
 * record types fill the space after it.
 *
 * @module
 */

import { TAIL_WINDOW } from "../../../src/transcript/tail.ts";

/** Where one record sits relative to the end of a snapshot. */
export interface WindowMeasure {
  /** Size of the whole snapshot. */
  totalBytes: number;
  /** Lines in the whole snapshot. */
  totalLines: number;
  /** Bytes from the start of the record's line to the end of the snapshot. */
  bytesToEnd: number;
  /** Lines from the record's line (included) to the end of the snapshot. */
  linesToEnd: number;
  /**
   * Whether GateGuard's tail read still holds the whole record: the read
   * drops the first, possibly cut, line of a clipped window, so the newline
   * before the record must be inside it too.
   */
  inWindow: boolean;
  /** Bytes of the lines from the record on, by record `type` (attachments by their own type). */
  bytesByType: Record<string, number>;
}

function recordKind(line: string): string {
  try {
    const record = JSON.parse(line);
    if (record?.type === "attachment" && typeof record.attachment?.type === "string") {
      return `attachment:${record.attachment.type}`;
    }
    return typeof record?.type === "string" ? record.type : "(untyped)";
  } catch {
    return "(unparsed)";
  }
}

/**
 * Measures from the first line that `isTarget` accepts. Null when no line
 * does. Lines are counted with their newline, as a tail read sees them.
 */
export function measureFrom(
  snapshot: Uint8Array,
  isTarget: (line: string) => boolean,
): WindowMeasure | null {
  const text = new TextDecoder().decode(snapshot);
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const encoder = new TextEncoder();
  const sizes = lines.map((line) => encoder.encode(line).length + 1);
  const at = lines.findIndex(isTarget);
  if (at < 0) return null;
  const bytesByType: Record<string, number> = {};
  let before = 0;
  for (let i = 0; i < lines.length; i++) {
    if (i < at) {
      before += sizes[i];
      continue;
    }
    const kind = recordKind(lines[i]);
    bytesByType[kind] = (bytesByType[kind] ?? 0) + sizes[i];
  }
  const bytesToEnd = snapshot.length - before;
  const linesToEnd = lines.length - at;
  return {
    totalBytes: snapshot.length,
    totalLines: lines.length,
    bytesToEnd,
    linesToEnd,
    inWindow: bytesToEnd < TAIL_WINDOW.maxBytes && linesToEnd <= TAIL_WINDOW.maxLines,
    bytesByType,
  };
}

/** True for the transcript line of the assistant record that sent tool call `id`. */
export function isToolUseLine(id: string): (line: string) => boolean {
  return (line) => {
    if (!line.includes(id)) return false;
    try {
      const record = JSON.parse(line);
      const content = record?.message?.content;
      return record?.type === "assistant" && Array.isArray(content) &&
        content.some((b: { type?: string; id?: string }) => b?.type === "tool_use" && b.id === id);
    } catch {
      return false;
    }
  };
}
