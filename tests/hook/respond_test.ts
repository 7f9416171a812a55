import { assertEquals } from "../helpers/assert.ts";
import { renderOutcome } from "../../src/hook/respond.ts";

Deno.test("[pretooluse-output] a denial carries permissionDecision deny and the reason", () => {
  assertEquals(
    JSON.parse(renderOutcome({ kind: "deny", text: "why" })),
    {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "why",
      },
    },
  );
});

Deno.test("[fail-to-deny] a note is additionalContext only, never an allow decision", () => {
  const out = JSON.parse(renderOutcome({ kind: "note", text: "n" }));
  assertEquals(out, {
    hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "n" },
  });
});

Deno.test("[pretooluse-output] a plain pass prints nothing", () => {
  assertEquals(renderOutcome({ kind: "pass" }), "");
});
