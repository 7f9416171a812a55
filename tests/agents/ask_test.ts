/**
 * A question for the user (`ask`) as each agent reads it: Claude Code gets
 * `permissionDecision: "ask"`; every other agent has no such answer (Codex
 * even runs the tool on one), so it gets its denial with the deny text.
 */

import { assertEquals } from "../helpers/assert.ts";
import { mergeOutcomes } from "../../src/agents/adapter.ts";
import { loadAdapter } from "../../src/agents/registry.ts";
import type { Outcome } from "../../src/hook/decision.ts";

const ASK: Outcome = { kind: "ask", text: "ask the user", denyText: "denied, ask the user" };

Deno.test("[self-protection] Claude Code renders a question for the user as an ask with its reason", async () => {
  const claude = await loadAdapter("claude");
  assertEquals(JSON.parse(claude.render(ASK)), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "ask",
      permissionDecisionReason: "ask the user",
    },
  });
});

Deno.test("[self-protection] agents without an ask render the question as their denial, with the deny text", async () => {
  const expected: Record<string, unknown> = {
    codex: {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "denied, ask the user",
      },
    },
    gemini: { decision: "deny", reason: "denied, ask the user" },
    copilot: { permissionDecision: "deny", permissionDecisionReason: "denied, ask the user" },
    cursor: {
      permission: "deny",
      agent_message: "denied, ask the user",
      user_message: "denied, ask the user",
    },
  };
  for (const [agent, answer] of Object.entries(expected)) {
    const adapter = await loadAdapter(agent as "codex");
    assertEquals(JSON.parse(adapter.render(ASK)), answer, agent);
  }
});

Deno.test("[self-protection] merged outcomes: a denial beside a question denies with both texts; questions alone stay one question", () => {
  const other: Outcome = { kind: "ask", text: "second", denyText: "second denied" };
  assertEquals(mergeOutcomes([ASK, { kind: "note", text: "n" }, other]), {
    kind: "ask",
    text: "ask the user\n\nsecond",
    denyText: "denied, ask the user\n\nsecond denied",
  });
  assertEquals(mergeOutcomes([{ kind: "deny", text: "first-touch" }, ASK]), {
    kind: "deny",
    text: "first-touch\n\ndenied, ask the user",
  });
  assertEquals(mergeOutcomes([{ kind: "pass" }, ASK]), ASK);
});
