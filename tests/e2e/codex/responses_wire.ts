/**
 * The OpenAI Responses API as Codex CLI speaks it, for the fake model:
 * `POST /v1/responses` answered with server-sent events, one
 * `response.output_item.done` per output item.
 *
 * A call whose input is text becomes a `custom_tool_call` (Codex's
 * free-form `apply_patch`); one with an object becomes a `function_call`
 * with JSON arguments (`exec_command`). The results come back in the next
 * request's `input` as `function_call_output` / `custom_tool_call_output`.
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

const OUTPUT_TYPES = new Set(["function_call_output", "custom_tool_call_output"]);

function item(call: IssuedCall): Record<string, unknown> {
  return typeof call.input === "string"
    ? {
      type: "custom_tool_call",
      id: `ctc_${call.id}`,
      call_id: call.id,
      name: call.name,
      input: call.input,
    }
    : {
      type: "function_call",
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.input),
    };
}

function message(text: string, seq: number): Record<string, unknown> {
  return {
    type: "message",
    id: `msg_${seq}`,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}

/** The Responses API wire. */
export const RESPONSES_WIRE: ModelWire = {
  classify(method: string, path: string): WireKind {
    return method === "POST" && path.endsWith("/responses") ? "turn" : "other";
  },
  answer(calls, text, seq): Response {
    const id = `resp_${seq}`;
    const items = [
      ...(text === null ? [] : [message(text, seq)]),
      ...calls.map(item),
    ];
    let out = sse("response.created", { type: "response.created", response: { id } });
    items.forEach((it, index) => {
      out += sse("response.output_item.done", {
        type: "response.output_item.done",
        output_index: index,
        item: it,
      });
    });
    out += sse("response.completed", {
      type: "response.completed",
      response: {
        id,
        usage: {
          input_tokens: 10,
          input_tokens_details: null,
          output_tokens: 5,
          output_tokens_details: null,
          total_tokens: 15,
        },
      },
    });
    return sseResponse(out);
  },
  side(): Response {
    return jsonResponse(404, { error: { message: "fake model: no side requests" } });
  },
  other(method: string): Response {
    return method === "GET"
      ? jsonResponse(200, { object: "list", data: [] })
      : jsonResponse(404, { error: { message: "fake model: no such endpoint" } });
  },
  outputsFor(body, ids): (string | null)[] {
    const input = isRecord(body) && Array.isArray(body.input) ? body.input.filter(isRecord) : [];
    return ids.map((id) => {
      const found = input.findLast((it) =>
        typeof it.type === "string" && OUTPUT_TYPES.has(it.type) && it.call_id === id
      );
      return found ? resultText(found.output) : null;
    });
  },
};
