/**
 * The Gemini API as Gemini CLI speaks it, for the fake model:
 * `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` answered with
 * one `data:` event holding the whole candidate.
 *
 * A conversation request is one that offers `run_shell_command`; anything
 * else the client asks a model for (routing, checks) is a side request. The
 * results of the previous calls arrive as `functionResponse` parts.
 *
 * @module
 */

import {
  isRecord,
  jsonResponse,
  type ModelWire,
  resultText,
  sse,
  sseResponse,
  type WireKind,
} from "../real_client/fake_model.ts";

const USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

function offersShell(body: unknown): boolean {
  if (!isRecord(body) || !Array.isArray(body.tools)) return false;
  return body.tools.some((tool) =>
    isRecord(tool) && Array.isArray(tool.functionDeclarations) &&
    tool.functionDeclarations.some((f) => isRecord(f) && f.name === "run_shell_command")
  );
}

function candidate(parts: unknown[]): Record<string, unknown> {
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: USAGE,
    modelVersion: "gemini-2.5-flash",
  };
}

function functionResponses(body: unknown): Record<string, unknown>[] {
  if (!isRecord(body) || !Array.isArray(body.contents)) return [];
  return body.contents.filter(isRecord).flatMap((content) =>
    Array.isArray(content.parts)
      ? content.parts.filter(isRecord).flatMap((part) =>
        isRecord(part.functionResponse) ? [part.functionResponse] : []
      )
      : []
  );
}

/** The Gemini API wire. */
export const GEMINI_WIRE: ModelWire = {
  classify(method: string, path: string, body: unknown): WireKind {
    if (method !== "POST" || !path.includes(":")) return "other";
    return path.endsWith(":streamGenerateContent") && offersShell(body) ? "turn" : "side";
  },
  answer(calls, text): Response {
    const parts = [
      ...(text === null ? [] : [{ text }]),
      ...calls.map((call) => ({
        functionCall: { id: call.id, name: call.name, args: call.input },
      })),
    ];
    return sseResponse(sse(null, candidate(parts)));
  },
  side(path: string): Response {
    // Side checks ask for JSON; an empty object makes each fall back to its default.
    const body = candidate([{ text: "{}" }]);
    return path.endsWith(":streamGenerateContent")
      ? sseResponse(sse(null, body))
      : jsonResponse(200, body);
  },
  other(): Response {
    return jsonResponse(404, { error: { code: 404, message: "fake model: no such endpoint" } });
  },
  outputsFor(body, ids): (string | null)[] {
    const responses = functionResponses(body);
    return ids.map((id) => {
      const found = responses.findLast((r) => r.id === id);
      return found ? resultText(found.response) : null;
    });
  },
};
