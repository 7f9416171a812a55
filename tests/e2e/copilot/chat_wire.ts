/**
 * OpenAI Chat Completions as Copilot CLI speaks it with a custom provider,
 * for the fake model: `POST /v1/chat/completions` with `stream: true`,
 * answered with `chat.completion.chunk` events, a usage chunk and
 * `data: [DONE]`.
 *
 * A conversation request is one that offers the `bash` tool; other
 * completions the client asks for itself get a short text. The results of
 * the previous calls arrive as `role: "tool"` messages.
 *
 * @module
 */

import {
  isRecord,
  type IssuedCall,
  jsonResponse,
  type ModelWire,
  resultText,
  sse,
  sseResponse,
  type WireKind,
} from "../real_client/fake_model.ts";

const MODEL = "fake-model";

function offersBash(body: unknown): boolean {
  if (!isRecord(body) || !Array.isArray(body.tools)) return false;
  return body.tools.some((tool) =>
    isRecord(tool) && isRecord(tool.function) && tool.function.name === "bash"
  );
}

function chunk(seq: number, choices: unknown[], extra: Record<string, unknown> = {}): string {
  return sse(null, {
    id: `chatcmpl-${seq}`,
    object: "chat.completion.chunk",
    created: 0,
    model: MODEL,
    choices,
    ...extra,
  });
}

function toolCall(call: IssuedCall, index: number): Record<string, unknown> {
  const args = typeof call.input === "string" ? call.input : JSON.stringify(call.input);
  return { index, id: call.id, type: "function", function: { name: call.name, arguments: args } };
}

function stream(seq: number, calls: readonly IssuedCall[], text: string | null): Response {
  let out = chunk(seq, [{
    index: 0,
    delta: {
      role: "assistant",
      content: text,
      ...(calls.length > 0 ? { tool_calls: calls.map(toolCall) } : {}),
    },
    finish_reason: null,
  }]);
  out += chunk(seq, [{
    index: 0,
    delta: {},
    finish_reason: calls.length > 0 ? "tool_calls" : "stop",
  }]);
  out += chunk(seq, [], {
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
  out += sse(null, "[DONE]");
  return sseResponse(out);
}

/** The Chat Completions wire. */
export const CHAT_WIRE: ModelWire = {
  classify(method: string, path: string, body: unknown): WireKind {
    if (method !== "POST" || !path.endsWith("/chat/completions")) return "other";
    return offersBash(body) ? "turn" : "side";
  },
  answer(calls, text, seq): Response {
    return stream(seq, calls, text);
  },
  side(_path, body, seq): Response {
    const text = "ok";
    if (isRecord(body) && body.stream === true) return stream(seq, [], text);
    return jsonResponse(200, {
      id: `chatcmpl-${seq}`,
      object: "chat.completion",
      created: 0,
      model: MODEL,
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
    });
  },
  other(method: string, path: string): Response {
    if (method === "GET" && path.endsWith("/models")) {
      return jsonResponse(200, { object: "list", data: [{ id: MODEL, object: "model" }] });
    }
    return jsonResponse(404, { error: { message: "fake model: no such endpoint" } });
  },
  outputsFor(body, ids): (string | null)[] {
    const messages = isRecord(body) && Array.isArray(body.messages)
      ? body.messages.filter(isRecord)
      : [];
    return ids.map((id) => {
      const found = messages.findLast((m) => m.role === "tool" && m.tool_call_id === id);
      return found ? resultText(found.content) : null;
    });
  },
};
