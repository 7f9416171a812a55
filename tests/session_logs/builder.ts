/**
 * Test helpers: transcript records in the shape Claude Code 2.1.x writes
 * them (see the recorded ones in tests/fixtures/claude-code-2.1.332/),
 * and an in-memory `FsPort` that counts the bytes it hands out.
 *
 * @module
 */

import type { FsPort, RealPathResult, StatResult } from "../../src/platform/fs_port.ts";

/** The session every built record belongs to. */
export const SESSION = "24e814bf-71d7-4000-ab5b-9eba6e2e0817";

/** The project directory the built records run in. */
export const ROOT = "/work/proj";

let counter = 0;

/** A fresh uuid-shaped id (deterministic within a test run). */
export function uid(): string {
  counter++;
  return `00000000-0000-4000-8000-${counter.toString(16).padStart(12, "0")}`;
}

const common = (): Record<string, unknown> => ({
  userType: "external",
  entrypoint: "sdk-cli",
  cwd: ROOT,
  sessionId: SESSION,
  version: "2.1.332",
  gitBranch: "HEAD",
});

/** A human prompt: a user record with `parentUuid: null` and a `promptId`. */
export function prompt(
  text: string,
  promptId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    parentUuid: null,
    isSidechain: false,
    promptId,
    type: "user",
    message: { role: "user", content: text },
    uuid: uid(),
    timestamp: "2026-11-30T17:32:07.064Z",
    permissionMode: "acceptEdits",
    promptSource: "sdk",
    ...common(),
    ...extra,
  };
}

/** One tool call block of an assistant message. */
export interface ToolUseBlock {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/**
 * An assistant response: one record per content block, all sharing
 * `message.id` and `requestId`, a text block first.
 */
export function assistant(
  messageId: string,
  uses: ToolUseBlock[],
  extra: Record<string, unknown> = {},
): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [
    { type: "text", text: "Looking." },
    ...uses.map((u) => ({ type: "tool_use", id: u.id, name: u.name, input: u.input })),
  ];
  return blocks.map((block, i) => ({
    parentUuid: uid(),
    isSidechain: false,
    message: {
      id: messageId,
      type: "message",
      role: "assistant",
      model: "claude-opus-5-5",
      content: [block],
      stop_reason: "tool_use",
      usage: { input_tokens: 100, output_tokens: 20 },
    },
    apiBlockIndex: i,
    requestId: `req_${messageId}`,
    type: "assistant",
    uuid: uid(),
    timestamp: "2026-11-30T17:32:07.240Z",
    ...common(),
    ...extra,
  }));
}

/** A tool result record; `error` marks it `is_error: true`. */
export function result(
  toolUseId: string,
  promptId: string | null,
  opts: { error?: boolean | "true"; content?: unknown; extra?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const block: Record<string, unknown> = {
    tool_use_id: toolUseId,
    type: "tool_result",
    content: opts.content ?? "src/tokenizer.js",
  };
  if (opts.error !== undefined) block.is_error = opts.error;
  const record: Record<string, unknown> = {
    parentUuid: uid(),
    isSidechain: false,
    type: "user",
    message: { role: "user", content: [block] },
    uuid: uid(),
    timestamp: "2026-11-30T17:32:07.382Z",
    toolUseResult: opts.error ? "Error: failed" : { filenames: ["src/tokenizer.js"] },
    sourceToolAssistantUUID: uid(),
    ...common(),
    ...opts.extra,
  };
  if (promptId !== null) record.promptId = promptId;
  return record;
}

/** A large non-message record of `size` characters, as Claude Code writes between turns. */
export function filler(type: string, size: number): Record<string, unknown> {
  const record: Record<string, unknown> = {
    type,
    sessionId: SESSION,
    uuid: uid(),
    attachment: { type: "prompt_snapshot", content: "" },
  };
  const base = JSON.stringify(record).length;
  (record.attachment as Record<string, unknown>).content = "x".repeat(Math.max(0, size - base));
  return record;
}

/** A compaction: the `compact_boundary` marker and the summary user record after it. */
export function compaction(promptId: string | null): Record<string, unknown>[] {
  const summary: Record<string, unknown> = {
    parentUuid: uid(),
    isSidechain: false,
    type: "user",
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
    message: { role: "user", content: "This session is being continued from a previous one." },
    uuid: uid(),
    ...common(),
  };
  if (promptId !== null) summary.promptId = promptId;
  return [
    {
      parentUuid: null,
      isSidechain: false,
      type: "system",
      subtype: "compact_boundary",
      content: "Conversation compacted",
      compactMetadata: { trigger: "auto", preTokens: 160000 },
      uuid: uid(),
      ...common(),
    },
    summary,
  ];
}

/** Serializes records (or nested arrays of them) to JSONL text. */
export function jsonl(...records: (Record<string, unknown> | Record<string, unknown>[])[]): string {
  return records.flat().map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/** An in-memory `FsPort`: files, directories, and a count of the bytes read. */
export class MemoryFs implements FsPort {
  /** Bytes handed out by `readRange` and `readTextBounded`. */
  bytesRead = 0;
  readonly files = new Map<string, Uint8Array>();
  readonly dirs = new Set<string>();

  constructor(files: Record<string, string> = {}, dirs: string[] = []) {
    for (const [path, text] of Object.entries(files)) this.write(path, text);
    for (const d of dirs) this.dirs.add(d);
  }

  /** Adds or replaces a file. */
  write(path: string, text: string | Uint8Array): void {
    this.files.set(path, typeof text === "string" ? new TextEncoder().encode(text) : text);
  }

  lstat(path: string): StatResult {
    return this.stat(path);
  }

  stat(path: string): StatResult {
    const file = this.files.get(path);
    if (file) return this.info(true, file.length);
    if (this.dirs.has(path)) return this.info(false, 0);
    return { ok: false, code: "ENOENT" };
  }

  realPath(path: string): RealPathResult {
    return this.files.has(path) || this.dirs.has(path)
      ? { ok: true, path }
      : { ok: false, code: "ENOENT" };
  }

  readTextBounded(path: string, maxBytes: number): string | null {
    const file = this.files.get(path);
    if (!file || file.length > maxBytes) return null;
    this.bytesRead += file.length;
    return new TextDecoder().decode(file);
  }

  readTextBoundedAsync(path: string, maxBytes: number): Promise<string | null> {
    return Promise.resolve(this.readTextBounded(path, maxBytes));
  }

  readRange(path: string, start: number, length: number): Uint8Array | null {
    const file = this.files.get(path);
    if (!file) return null;
    const bytes = file.subarray(start, start + length);
    this.bytesRead += bytes.length;
    return bytes;
  }

  private info(isFile: boolean, size: number): StatResult {
    return {
      ok: true,
      isFile,
      isDirectory: !isFile,
      isSymlink: false,
      nlink: 1,
      size,
      mtimeMs: 0,
    };
  }
}
