/**
 * A scripted stand-in for the Anthropic Messages API, served on 127.0.0.1 so
 * a real Claude Code binary can run a whole conversation offline.
 *
 * Each conversation request gets the next scripted model turn, streamed as
 * server-sent events the way the real API streams them. Every request that
 * reaches the server is logged with its parsed body, so a test can check
 * afterwards what the client sent (tool results, hook notes) against the
 * script's expectations. The server refuses work past a request budget and
 * shuts itself down after a lifetime, so a confused client cannot keep a
 * test alive.
 *
 * @module
 */

/** A text block the fake model sends. */
export interface TextBlock {
  type: "text";
  text: string;
}

/** A tool call the fake model sends. */
export interface ToolUseBlock {
  type: "tool_use";
  name: string;
  input: Record<string, unknown>;
}

/** One content block of a scripted model turn. */
export type ScriptBlock = TextBlock | ToolUseBlock;

/** What one tool result in a request must look like. */
export interface ToolResultExpectation {
  /** Whether the client marked the result as an error. */
  isError: boolean;
  /** Substrings the result text must contain. */
  includes?: readonly string[];
  /** Substrings the result text must not contain. */
  excludes?: readonly string[];
}

/** What the hook note after the tool results must look like. */
export interface NoteExpectation {
  /** Substrings the system message after the results must contain. */
  includes: readonly string[];
}

/** What must be on disk at an absolute path: a file with this exact text, a directory, or nothing. */
export type PathExpectation = { text: string } | "dir" | "missing";

/**
 * What a conversation request must carry about the previous turn's tool
 * calls, and what the disk must hold when it arrives (the previous turn's
 * tools have all finished by then).
 */
export interface RequestExpectation {
  /** One entry per tool call of the previous turn, in the order they were sent. */
  toolResults?: readonly ToolResultExpectation[];
  /** A hook note after the results, or `"none"` when there must be none. */
  note?: NoteExpectation | "none";
  /** Absolute paths and what they must be. */
  paths?: Readonly<Record<string, PathExpectation>>;
}

/** One model turn: what the request that asks for it must carry, and what to answer. */
export interface ScriptedTurn {
  /** Checked against the request this turn answers. */
  expect?: RequestExpectation;
  /** The content the fake model answers with; the stop reason follows from it. */
  blocks: readonly ScriptBlock[];
}

/** How a logged request was handled. */
export type RequestKind = "turn" | "side" | "count-tokens" | "other" | "rejected";

/** One request the server received. */
export interface LoggedRequest {
  /** Arrival order, from 0. */
  seq: number;
  method: string;
  /** Path and query string. */
  path: string;
  kind: RequestKind;
  /** The parsed JSON body, or null when there was none or it did not parse. */
  body: unknown;
  /** Body size in bytes. */
  bodyBytes: number;
  /** For `turn` requests: the index of the scripted turn served (past the end when exhausted). */
  turn: number | null;
  /** For `turn` requests: the tool_use ids sent in the answer. */
  toolUseIds: string[];
  /** For `turn` requests: how the request missed its turn's expectation. */
  failures: string[];
}

/** Limits that keep the fake API bounded. */
export interface FakeApiLimits {
  /** Requests answered before the server starts refusing them. */
  maxRequests: number;
  /** Milliseconds after which the server shuts itself down. */
  lifetimeMs: number;
  /** Largest request body read, in bytes. */
  maxBodyBytes: number;
}

/** A running fake API. */
export interface FakeApi {
  /** Base URL for `ANTHROPIC_BASE_URL`. */
  url: string;
  /** Every request so far, in arrival order. */
  log: LoggedRequest[];
  /** The scripted turns it serves. */
  script: readonly ScriptedTurn[];
  /**
   * Every way the traffic so far missed the script: unmet expectations,
   * turns never asked for, requests past the end of the script, refused
   * requests. Empty when the conversation went exactly as scripted.
   */
  failures(): string[];
  /** Stops the server and waits until it has closed. */
  close(): Promise<void>;
}

/**
 * The default limits: generous for one scenario, small enough to stop a
 * runaway client. The lifetime outlasts the harness's client guard
 * (`CLIENT_TIMEOUT_MS`), so a slow but honest run is never cut off by it.
 */
export const DEFAULT_LIMITS: FakeApiLimits = {
  maxRequests: 200,
  lifetimeMs: 660_000,
  maxBodyBytes: 16 * 1024 * 1024,
};

const MODEL = "claude-fake-e2e";
const EXHAUSTED_TEXT = "(fake API: script exhausted)";
const SIDE_TEXT = "ok";

/** The id the fake model gives the `block`-th block of turn `turn`. */
export function toolUseId(turn: number, block: number): string {
  return `toolu_e2e_${String(turn).padStart(3, "0")}_${block}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * True for a request of the main conversation: it offers the Bash tool.
 * Side requests the client makes for itself (titles, summaries, quota
 * checks) offer no tools, so they never consume a scripted turn.
 */
function isConversationRequest(body: unknown): boolean {
  if (!isRecord(body) || !Array.isArray(body.tools)) return false;
  return body.tools.some((tool) => isRecord(tool) && tool.name === "Bash");
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function usage(output: number): Record<string, number> {
  return {
    input_tokens: 10,
    output_tokens: output,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

/** Splits a text into a few chunks, so the client has to assemble deltas like in real traffic. */
function chunks(text: string, size = 24): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [""];
}

/** The SSE stream of one model message. */
function streamedMessage(id: string, blocks: readonly ScriptBlock[], ids: string[]): string {
  const stopReason = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  let out = sse("message_start", {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model: MODEL,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(1),
    },
  });
  out += sse("ping", { type: "ping" });
  blocks.forEach((block, index) => {
    if (block.type === "text") {
      out += sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      for (const part of chunks(block.text)) {
        out += sse("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text: part },
        });
      }
    } else {
      out += sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: ids[index], name: block.name, input: {} },
      });
      for (const part of chunks(JSON.stringify(block.input))) {
        out += sse("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: part },
        });
      }
    }
    out += sse("content_block_stop", { type: "content_block_stop", index });
  });
  out += sse("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 20 },
  });
  out += sse("message_stop", { type: "message_stop" });
  return out;
}

/** The same message as one JSON body, for a client that asked without streaming. */
function plainMessage(id: string, blocks: readonly ScriptBlock[], ids: string[]): unknown {
  return {
    id,
    type: "message",
    role: "assistant",
    model: MODEL,
    content: blocks.map((block, index) =>
      block.type === "text"
        ? { type: "text", text: block.text }
        : { type: "tool_use", id: ids[index], name: block.name, input: block.input }
    ),
    stop_reason: blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: usage(20),
  };
}

/** The words Claude Code puts before a hook's `additionalContext` when it passes it on. */
export const NOTE_MARKER = "hook additional context:";

/** The text of a message or tool result content: a string, or its text blocks joined. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => isRecord(b) && typeof b.text === "string" ? b.text : "").join("\n");
}

function messagesOf(body: unknown): Record<string, unknown>[] {
  if (!isRecord(body) || !Array.isArray(body.messages)) return [];
  return body.messages.filter(isRecord);
}

/** Index of the message holding the tool result for `id`, and that result block. */
function findResult(
  messages: Record<string, unknown>[],
  id: string,
): { index: number; block: Record<string, unknown> } | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const content = messages[index].content;
    if (!Array.isArray(content)) continue;
    const block = content.find((b) =>
      isRecord(b) && b.type === "tool_result" && b.tool_use_id === id
    );
    if (isRecord(block)) return { index, block };
  }
  return null;
}

/** Texts of the hook notes in system messages after message `index`. */
export function notesAfter(messages: Record<string, unknown>[], index: number): string[] {
  return messages.slice(index + 1)
    .filter((m) => m.role === "system")
    .map((m) => contentText(m.content))
    .filter((text) => text.includes(NOTE_MARKER));
}

/** Checks what is on disk at `path` against `want`; returns how it differs, or null. */
export function checkPath(path: string, want: PathExpectation): string | null {
  let info: Deno.FileInfo | null = null;
  try {
    info = Deno.statSync(path);
  } catch {
    info = null;
  }
  if (want === "missing") return info ? `${path} exists, expected it missing` : null;
  if (want === "dir") return info?.isDirectory ? null : `${path} is not a directory`;
  if (!info?.isFile) return `${path} is not a file`;
  const text = Deno.readTextFileSync(path);
  return text === want.text
    ? null
    : `${path} holds ${JSON.stringify(text)}, expected ${JSON.stringify(want.text)}`;
}

/** Checks one conversation request against the expectation of the turn it asks for. */
function checkRequest(
  body: unknown,
  previousIds: readonly string[],
  want: RequestExpectation,
): string[] {
  const failures: string[] = [];
  const messages = messagesOf(body);
  let lastResultIndex = messages.findLastIndex((m) => m.role === "assistant");
  (want.toolResults ?? []).forEach((expected, i) => {
    const id = previousIds[i];
    const found = id === undefined ? null : findResult(messages, id);
    if (!found) {
      failures.push(`no tool result for tool call ${i} (${id ?? "never sent"})`);
      return;
    }
    lastResultIndex = Math.max(lastResultIndex, found.index);
    const isError = found.block.is_error === true;
    const text = contentText(found.block.content);
    if (isError !== expected.isError) {
      failures.push(
        `tool result ${i} has is_error ${isError}: ${JSON.stringify(text.slice(0, 300))}`,
      );
    }
    for (const part of expected.includes ?? []) {
      if (!text.includes(part)) {
        failures.push(`tool result ${i} lacks ${JSON.stringify(part)}: ${JSON.stringify(text)}`);
      }
    }
    for (const part of expected.excludes ?? []) {
      if (text.includes(part)) failures.push(`tool result ${i} contains ${JSON.stringify(part)}`);
    }
  });
  if (want.note !== undefined) {
    const notes = notesAfter(messages, lastResultIndex);
    if (want.note === "none") {
      if (notes.length > 0) failures.push(`unexpected hook note: ${JSON.stringify(notes)}`);
    } else {
      const parts = want.note.includes;
      if (!notes.some((note) => parts.every((part) => note.includes(part)))) {
        failures.push(
          `no hook note with ${JSON.stringify(parts)}; notes: ${JSON.stringify(notes)}`,
        );
      }
    }
  }
  for (const [path, state] of Object.entries(want.paths ?? {})) {
    const failure = checkPath(path, state);
    if (failure) failures.push(failure);
  }
  return failures;
}

function jsonResponse(status: number, data: unknown): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { "content-type": "application/json" },
  });
}

function apiError(status: number, type: string, message: string): Response {
  return jsonResponse(status, { type: "error", error: { type, message } });
}

/** Reads at most `max` bytes of a body; a larger body yields null. */
export async function readBounded(req: Request, max: number): Promise<Uint8Array | null> {
  if (!req.body) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of req.body) {
    total += part.length;
    if (total > max) return null;
    parts.push(part);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Parses a JSON body; one that does not parse yields null. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

/** What `scriptFailures` reads of a logged request (every fake model logs these). */
export interface ScriptedEntry {
  seq: number;
  path: string;
  kind: string;
  turn: number | null;
  failures: readonly string[];
}

/**
 * Every way the logged traffic missed a script of `scriptLength` turns:
 * refused requests, requests past the end, unmet expectations, turns never
 * asked for.
 */
export function scriptFailures(scriptLength: number, log: readonly ScriptedEntry[]): string[] {
  const out: string[] = [];
  let served = 0;
  for (const entry of log) {
    if (entry.kind === "rejected") out.push(`request ${entry.seq} (${entry.path}) was refused`);
    if (entry.kind !== "turn" || entry.turn === null) continue;
    served = Math.max(served, entry.turn + 1);
    if (entry.turn >= scriptLength) out.push(`request ${entry.seq} came after the script ended`);
    for (const failure of entry.failures) out.push(`turn ${entry.turn}: ${failure}`);
  }
  if (served < scriptLength) {
    out.push(`turns ${served}..${scriptLength - 1} were never requested`);
  }
  return out;
}

/**
 * Serves `handler` on an ephemeral port of 127.0.0.1 until `close` or the
 * lifetime runs out; resolves once listening, with the base URL.
 */
export function serveLoopback(
  handler: (req: Request) => Response | Promise<Response>,
  lifetimeMs: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const abort = new AbortController();
  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      signal: abort.signal,
      onListen: ({ port }) => {
        resolve({
          url: `http://127.0.0.1:${port}`,
          close: async () => {
            clearTimeout(timer);
            abort.abort();
            await server.finished;
          },
        });
      },
    }, handler);
    const timer = setTimeout(() => abort.abort(), lifetimeMs);
  });
}

/** Starts a fake API serving `script` on an ephemeral port of 127.0.0.1. */
export function startFakeApi(
  script: readonly ScriptedTurn[],
  limits: FakeApiLimits = DEFAULT_LIMITS,
): Promise<FakeApi> {
  const log: LoggedRequest[] = [];
  let nextTurn = 0;
  let previousIds: string[] = [];

  const answerMessages = (
    entry: LoggedRequest,
    body: Record<string, unknown>,
  ): Response => {
    const conversation = isConversationRequest(body);
    let blocks: readonly ScriptBlock[];
    if (conversation) {
      entry.kind = "turn";
      entry.turn = nextTurn;
      const turn = script[nextTurn];
      blocks = turn?.blocks ?? [{ type: "text", text: EXHAUSTED_TEXT }];
      if (turn?.expect) entry.failures = checkRequest(body, previousIds, turn.expect);
      nextTurn++;
    } else {
      entry.kind = "side";
      blocks = [{ type: "text", text: SIDE_TEXT }];
    }
    const ids = blocks.map((_, i) => toolUseId(entry.turn ?? 900 + entry.seq, i));
    entry.toolUseIds = blocks.flatMap((b, i) => b.type === "tool_use" ? [ids[i]] : []);
    if (conversation) previousIds = entry.toolUseIds;
    const messageId = `msg_e2e_${String(entry.seq).padStart(4, "0")}`;
    if (body.stream === true) {
      return new Response(streamedMessage(messageId, blocks, ids), {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      });
    }
    return jsonResponse(200, plainMessage(messageId, blocks, ids));
  };

  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const entry: LoggedRequest = {
      seq: log.length,
      method: req.method,
      path: url.pathname + url.search,
      kind: "other",
      body: null,
      bodyBytes: 0,
      turn: null,
      toolUseIds: [],
      failures: [],
    };
    log.push(entry);
    if (entry.seq >= limits.maxRequests) {
      entry.kind = "rejected";
      return apiError(429, "rate_limit_error", "fake API request budget exhausted");
    }
    const bytes = await readBounded(req, limits.maxBodyBytes);
    if (bytes === null) {
      entry.kind = "rejected";
      return apiError(413, "request_too_large", "fake API body limit exceeded");
    }
    entry.bodyBytes = bytes.length;
    entry.body = bytes.length > 0 ? parseJson(bytes) : null;
    if (req.method === "POST" && url.pathname === "/v1/messages/count_tokens") {
      entry.kind = "count-tokens";
      return jsonResponse(200, { input_tokens: 10 });
    }
    if (req.method === "POST" && url.pathname === "/v1/messages" && isRecord(entry.body)) {
      return answerMessages(entry, entry.body);
    }
    if (req.method === "HEAD") return new Response(null, { status: 200 });
    if (req.method === "GET") return jsonResponse(200, {});
    return apiError(404, "not_found_error", "fake API: no such endpoint");
  };

  return serveLoopback(handler, limits.lifetimeMs).then(({ url, close }) => ({
    url,
    log,
    script,
    failures: () => scriptFailures(script.length, log),
    close,
  }));
}
