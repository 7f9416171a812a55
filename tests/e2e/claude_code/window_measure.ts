/**
 * Measures how far a record sits from the end of a transcript snapshot, in
 * the units of GateGuard's bounded backward walk (bytes and message
 * records), which record types fill the space after it, and what the turn
 * scan actually reads from the snapshot.
 *
 * @module
 */

import { denoFs, type FsPort } from "../../../src/platform/fs_port.ts";
import { mayBeMessageRecord, TAIL_WINDOW } from "../../../src/session_logs/tail.ts";
import { scanTurn } from "../../../src/session_logs/claude_log.ts";
import type { TurnScanResult } from "../../../src/session_logs/turn_scan.ts";
import { SCANNED_TOOL_NAMES } from "../../../src/tools/gated.ts";

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
  /** Of those lines, the ones the walk counts against its record cap. */
  messageRecordsToEnd: number;
  /**
   * Whether GateGuard's walk, if it got that far, would still hand over the
   * record: a line is only handed over once the newline before it was read,
   * so that newline must be inside the byte budget too.
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
  let messageRecordsToEnd = 0;
  for (let i = 0; i < lines.length; i++) {
    if (i < at) {
      before += sizes[i];
      continue;
    }
    if (mayBeMessageRecord(lines[i])) messageRecordsToEnd++;
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
    messageRecordsToEnd,
    inWindow: (at === 0 ? bytesToEnd <= TAIL_WINDOW.maxBytes : bytesToEnd < TAIL_WINDOW.maxBytes) &&
      messageRecordsToEnd <= TAIL_WINDOW.maxRecords,
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

/** What one turn scan of a snapshot cost. */
export interface ScanCost {
  scan: TurnScanResult | null;
  /** Bytes the walk read from the file. */
  bytesRead: number;
  /** Range reads it made. */
  reads: number;
  /** Wall time of the scan, in milliseconds. */
  ms: number;
}

/** Scans the snapshot at `path` the way the hook does, counting what the real file port serves. */
export function scanCost(
  path: string,
  promptId: string | null,
  toolUseId: string | null,
): ScanCost {
  let bytesRead = 0;
  let reads = 0;
  const counting: FsPort = {
    ...denoFs,
    readRange(p, start, length) {
      const bytes = denoFs.readRange(p, start, length);
      bytesRead += bytes?.length ?? 0;
      reads++;
      return bytes;
    },
  };
  const started = performance.now();
  const scan = scanTurn(
    { transcriptPath: path, promptId, toolUseId, tools: SCANNED_TOOL_NAMES },
    counting,
  );
  return { scan, bytesRead, reads, ms: performance.now() - started };
}

/** True for the transcript line of a human prompt (the start of a turn). */
export function isHumanPromptLine(line: string): boolean {
  try {
    const record = JSON.parse(line);
    return record?.type === "user" && record.parentUuid === null &&
      typeof record.message?.content === "string";
  } catch {
    return false;
  }
}
