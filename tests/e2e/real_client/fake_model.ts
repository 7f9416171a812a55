/**
 * A scripted fake model on 127.0.0.1 for the real-client tests of agents
 * other than Claude Code. The conversation logic is shared; each agent's
 * wire format (Responses API, Gemini `streamGenerateContent`, Chat
 * Completions) is a `ModelWire` in that agent's test folder.
 *
 * Every request is logged with its parsed body. A conversation request gets
 * the next scripted reply; before answering, the server records what the
 * request carries as the results of the previous reply's tool calls (the
 * text the model would read) and checks the disk, so a test can assert what
 * the model saw and what had happened by then. A request budget and a
 * lifetime keep a confused client from holding a test.
 *
 * @module
 */

import {
  checkPath,
  DEFAULT_LIMITS,
  type FakeApiLimits,
  parseJson,
  type PathExpectation,
  readBounded,
  scriptFailures,
  serveLoopback,
} from "../claude_code/fake_api.ts";

/** A tool call of the fake model: arguments as an object, or the raw text of a free-form tool. */
export interface ModelToolCall {
  name: string;
  input: Record<string, unknown> | string;
}

/** A tool call with the id the server gave it. */
export interface IssuedCall extends ModelToolCall {
  id: string;
}

/** What the tool result of one call of the previous reply must contain, or not. */
export interface OutputExpectation {
  includes?: readonly string[];
  excludes?: readonly string[];
}

/** One scripted model reply, and what the request asking for it must show. */
export interface ModelReply {
  /** Tool calls the model makes; none means a final answer. */
  calls?: readonly ModelToolCall[];
  /** Assistant text (a final answer when there are no calls). */
  text?: string;
  /** One entry per call of the previous reply, in order. */
  outputs?: readonly OutputExpectation[];
  /** Absolute paths and what they must be when the request arrives. */
  paths?: Readonly<Record<string, PathExpectation>>;
}

/** How a request was classified by the wire. */
export type WireKind = "turn" | "side" | "other";

/** One agent's wire format. */
export interface ModelWire {
  /** Whether a request asks for a conversation turn, a side answer, or neither. */
  classify(method: string, path: string, body: unknown): WireKind;
  /** The response carrying one scripted reply. */
  answer(calls: readonly IssuedCall[], text: string | null, seq: number, body: unknown): Response;
  /** The response to a side request (titles, checks the client makes for itself). */
  side(path: string, body: unknown, seq: number): Response;
  /** The response to anything else (model lists, probes). */
  other(method: string, path: string): Response;
  /** The result texts a request carries for each of `ids`, null where it has none. */
  outputsFor(body: unknown, ids: readonly string[]): (string | null)[];
}

/** One request the fake model received. */
export interface ModelRequest {
  seq: number;
  method: string;
  path: string;
  kind: WireKind | "rejected";
  body: unknown;
  /** For turns: the index of the reply served (past the end when exhausted). */
  turn: number | null;
  /** For turns: the result texts this request carried for the previous reply's calls. */
  outputs: (string | null)[];
  /** For turns: the calls sent in the answer. */
  calls: IssuedCall[];
  /** For turns: how the request missed its reply's expectations. */
  failures: string[];
}

/** A running fake model. */
export interface FakeModel {
  /** The base URL (no trailing slash). */
  url: string;
  log: ModelRequest[];
  /** The conversation requests only, in order. */
  turns(): ModelRequest[];
  /** Every way the traffic missed the script; empty when it went as written. */
  failures(): string[];
  close(): Promise<void>;
}

/** The id the fake model gives call `index` of reply `turn`. */
export function callId(turn: number, index: number): string {
  return `call_${String(turn).padStart(3, "0")}_${index}`;
}

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One server-sent event; `event` is omitted when null. */
export function sse(event: string | null, data: unknown): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return `${event === null ? "" : `event: ${event}\n`}data: ${payload}\n\n`;
}

/** A `text/event-stream` response. */
export function sseResponse(body: string): Response {
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** A JSON response. */
export function jsonResponse(status: number, data: unknown): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/**
 * The text of a tool result in any of the shapes the clients use: a string,
 * a list of parts with `text`, or an object holding one of those under
 * `content`, `output`, `error` or `text`.
 */
export function resultText(value: unknown, depth = 0): string {
  if (typeof value === "string") return value;
  if (depth > 4) return "";
  if (Array.isArray(value)) return value.map((v) => resultText(v, depth + 1)).join("\n");
  if (!isRecord(value)) return value === undefined || value === null ? "" : JSON.stringify(value);
  for (const key of ["text", "content", "output", "error"]) {
    if (key in value) return resultText(value[key], depth + 1);
  }
  return JSON.stringify(value);
}

function checkReply(
  reply: ModelReply,
  outputs: readonly (string | null)[],
  previous: readonly IssuedCall[],
): string[] {
  const failures: string[] = [];
  (reply.outputs ?? []).forEach((want, i) => {
    const text = outputs[i];
    if (text === null || text === undefined) {
      failures.push(`no result for call ${i} (${previous[i]?.id ?? "never sent"})`);
      return;
    }
    for (const part of want.includes ?? []) {
      if (!text.includes(part)) {
        failures.push(`result ${i} lacks ${JSON.stringify(part)}: ${JSON.stringify(text)}`);
      }
    }
    for (const part of want.excludes ?? []) {
      if (text.includes(part)) {
        failures.push(`result ${i} contains ${JSON.stringify(part)}: ${JSON.stringify(text)}`);
      }
    }
  });
  for (const [path, state] of Object.entries(reply.paths ?? {})) {
    const failure = checkPath(path, state);
    if (failure) failures.push(failure);
  }
  return failures;
}

const EXHAUSTED_TEXT = "(fake model: script exhausted)";

/** Starts a fake model speaking `wire`, serving `script` on an ephemeral port of 127.0.0.1. */
export function startFakeModel(
  wire: ModelWire,
  script: readonly ModelReply[],
  limits: FakeApiLimits = DEFAULT_LIMITS,
): Promise<FakeModel> {
  const log: ModelRequest[] = [];
  let nextTurn = 0;
  let previous: IssuedCall[] = [];

  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const entry: ModelRequest = {
      seq: log.length,
      method: req.method,
      path: url.pathname + url.search,
      kind: "other",
      body: null,
      turn: null,
      outputs: [],
      calls: [],
      failures: [],
    };
    log.push(entry);
    const bytes = entry.seq < limits.maxRequests
      ? await readBounded(req, limits.maxBodyBytes)
      : null;
    if (bytes === null) {
      entry.kind = "rejected";
      return jsonResponse(429, { error: { message: "fake model: request refused" } });
    }
    entry.body = bytes.length > 0 ? parseJson(bytes) : null;
    entry.kind = wire.classify(req.method, url.pathname, entry.body);
    if (entry.kind === "side") return wire.side(url.pathname, entry.body, entry.seq);
    if (entry.kind === "other") return wire.other(req.method, url.pathname);
    entry.turn = nextTurn++;
    entry.outputs = wire.outputsFor(entry.body, previous.map((c) => c.id));
    const reply = script[entry.turn];
    if (reply) entry.failures = checkReply(reply, entry.outputs, previous);
    entry.calls = (reply?.calls ?? []).map((call, i) => ({ ...call, id: callId(entry.turn!, i) }));
    previous = entry.calls;
    const text = reply ? reply.text ?? null : EXHAUSTED_TEXT;
    return wire.answer(entry.calls, text, entry.seq, entry.body);
  };

  return serveLoopback(handler, limits.lifetimeMs).then(({ url, close }) => ({
    url,
    log,
    turns: () => log.filter((r) => r.kind === "turn"),
    failures: () => scriptFailures(script.length, log),
    close,
  }));
}
