/**
 * Tests of the fake Messages API on its own: its stream, logging,
 * expectations and limits.
 *
 * @module
 */

import { tempDir } from "../../helpers/temp.ts";
import { waitFor } from "../../helpers/wait.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";
import {
  DEFAULT_LIMITS,
  type FakeApi,
  type ScriptedTurn,
  startFakeApi,
  toolUseId,
} from "./fake_api.ts";

const TOOLS = [{ name: "Bash", input_schema: { type: "object" } }];

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

function parseSse(text: string): SseEvent[] {
  return text.trim().split("\n\n").map((chunk) => {
    const [eventLine, dataLine] = chunk.split("\n");
    return { event: eventLine.slice("event: ".length), data: JSON.parse(dataLine.slice(6)) };
  });
}

async function post(api: FakeApi, path: string, body: unknown): Promise<Response> {
  return await fetch(`${api.url}${path}`, { method: "POST", body: JSON.stringify(body) });
}

async function withApi(
  script: readonly ScriptedTurn[],
  fn: (api: FakeApi) => Promise<void>,
  limits = DEFAULT_LIMITS,
): Promise<void> {
  const api = await startFakeApi(script, limits);
  try {
    await fn(api);
  } finally {
    await api.close();
  }
}

/** A conversation request whose last message answers turn 0's first tool call. */
function answerTo(content: unknown, isError: boolean, extra: unknown[] = []): unknown {
  return {
    stream: true,
    tools: TOOLS,
    messages: [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool_use", id: toolUseId(0, 0), name: "Bash" }] },
      {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: toolUseId(0, 0),
          content,
          is_error: isError,
        }],
      },
      ...extra,
    ],
  };
}

Deno.test("[real-client] the fake API streams a tool call with the event sequence of the real API", async () => {
  const input = { command: "grep -rn widget src", description: "a long enough input to be split" };
  await withApi([{
    blocks: [{ type: "text", text: "Searching." }, { type: "tool_use", name: "Bash", input }],
  }], async (api) => {
    const res = await post(api, "/v1/messages?beta=true", {
      stream: true,
      tools: TOOLS,
      messages: [],
    });
    assertEquals(res.headers.get("content-type"), "text/event-stream");
    const events = parseSse(await res.text());
    const names = events.map((e) => e.event);
    assertEquals(names.slice(0, 3), ["message_start", "ping", "content_block_start"]);
    assertEquals(names.slice(-2), ["message_delta", "message_stop"]);
    assertEquals(names.filter((n) => n === "content_block_stop").length, 2);
    const json = events.filter((e) =>
      (e.data.delta as Record<string, unknown>)?.type === "input_json_delta"
    )
      .map((e) => (e.data.delta as Record<string, string>).partial_json);
    assert(json.length > 1, "the input should arrive in several deltas");
    assertEquals(JSON.parse(json.join("")), input);
    const start = events.find((e) =>
      (e.data.content_block as Record<string, unknown>)?.type === "tool_use"
    );
    assertEquals((start?.data.content_block as Record<string, unknown>).id, toolUseId(0, 1));
    const delta = events.find((e) => e.event === "message_delta")?.data.delta;
    assertEquals((delta as Record<string, unknown>).stop_reason, "tool_use");
    assertEquals(api.log[0].kind, "turn");
    assertEquals(api.log[0].toolUseIds, [toolUseId(0, 1)]);
    assertEquals(api.failures(), []);
  });
});

Deno.test("[real-client] side requests, token counts and other endpoints are answered and logged without using a turn", async () => {
  await withApi([{ blocks: [{ type: "text", text: "final" }] }], async (api) => {
    const side = await post(api, "/v1/messages", { messages: [], max_tokens: 1 });
    assertEquals((await side.json()).content, [{ type: "text", text: "ok" }]);
    const count = await post(api, "/v1/messages/count_tokens", { messages: [] });
    assertEquals(await count.json(), { input_tokens: 10 });
    const get = await fetch(`${api.url}/v1/models`);
    assertEquals(get.status, 200);
    await get.body?.cancel();
    const unknown = await post(api, "/v1/other", {});
    assertEquals(unknown.status, 404);
    await unknown.body?.cancel();
    assertEquals(api.failures(), ["turns 0..0 were never requested"]);
    const turn = await post(api, "/v1/messages", { tools: TOOLS, messages: [] });
    const message = await turn.json();
    assertEquals(message.stop_reason, "end_turn");
    assertEquals(message.content, [{ type: "text", text: "final" }]);
    assertEquals(api.log.map((r) => r.kind), ["side", "count-tokens", "other", "other", "turn"]);
    assertEquals(api.failures(), []);
  });
});

Deno.test("[real-client] expectations on tool results, hook notes and paths are checked when a request arrives", async () => {
  const dir = await tempDir();
  await Deno.writeTextFile(`${dir}/kept.txt`, "same\n");
  const script: ScriptedTurn[] = [
    { blocks: [{ type: "tool_use", name: "Bash", input: { command: "ls" } }] },
    {
      expect: {
        toolResults: [{ isError: true, includes: ["PreToolUse:Bash hook error: ", "denied"] }],
        note: "none",
        paths: {
          [`${dir}/kept.txt`]: { text: "same\n" },
          [`${dir}/gone`]: "missing",
          [dir]: "dir",
        },
      },
      blocks: [{ type: "tool_use", name: "Bash", input: { command: "ls" } }],
    },
    {
      expect: {
        toolResults: [{ isError: false, excludes: ["secret"] }],
        note: { includes: ["credit"] },
        paths: { [`${dir}/kept.txt`]: "missing" },
      },
      blocks: [{ type: "text", text: "done" }],
    },
  ];
  try {
    await withApi(script, async (api) => {
      await (await post(api, "/v1/messages", { tools: TOOLS, messages: [] })).body?.cancel();
      await (await post(api, "/v1/messages", answerTo("PreToolUse:Bash hook error: denied", true)))
        .body?.cancel();
      assertEquals(api.failures(), ["turns 2..2 were never requested"]);
      const note = {
        role: "system",
        content: [{ type: "text", text: "PreToolUse:Bash hook additional context: no" }],
      };
      // The second answer reuses turn 0's id, so the result is looked up under turn 1's id.
      await (await post(
        api,
        "/v1/messages",
        answerTo([{ type: "text", text: "a secret" }], false, [note]),
      ))
        .body?.cancel();
      assertEquals(api.failures(), [
        `turn 2: no tool result for tool call 0 (${toolUseId(1, 0)})`,
        `turn 2: no hook note with ["credit"]; notes: ["PreToolUse:Bash hook additional context: no"]`,
        `turn 2: ${dir}/kept.txt exists, expected it missing`,
      ]);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[real-client] the fake API refuses requests past its budget and reports them", async () => {
  const limits = { ...DEFAULT_LIMITS, maxRequests: 1 };
  await withApi([{ blocks: [{ type: "text", text: "one" }] }], async (api) => {
    await (await post(api, "/v1/messages", { tools: TOOLS, messages: [] })).body?.cancel();
    const refused = await post(api, "/v1/messages", { tools: TOOLS, messages: [] });
    assertEquals(refused.status, 429);
    await refused.body?.cancel();
    assertEquals(api.failures(), ["request 1 (/v1/messages) was refused"]);
  }, limits);
});

Deno.test("[real-client] the fake API reports requests past the end of the script", async () => {
  await withApi([], async (api) => {
    const res = await post(api, "/v1/messages", { tools: TOOLS, messages: [] });
    assertEquals((await res.json()).content[0].text, "(fake API: script exhausted)");
    assertEquals(api.failures(), ["request 0 came after the script ended"]);
  });
});

Deno.test("[real-client] the fake API shuts itself down after its lifetime", async () => {
  const api = await startFakeApi([], { ...DEFAULT_LIMITS, lifetimeMs: 50 });
  // However late a loaded machine fires the lifetime timer, the server stops answering.
  await waitFor("the server's shutdown", () =>
    fetch(`${api.url}/v1/models`).then(
      async (res) => (await res.body?.cancel(), false),
      () => true,
    ));
  await api.close();
});
