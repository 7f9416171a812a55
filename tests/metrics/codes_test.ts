import { assertEquals } from "../helpers/assert.ts";
import {
  isCode,
  isReasonCode,
  isSessionDigest,
  isToolName,
  MAX_CODE_LENGTH,
} from "../../src/metrics/codes.ts";

Deno.test("[metrics] a code is short lowercase letters, digits and dashes, led by a letter", () => {
  const ok = ["a", "code", "first-touch", "pass-checked", "x1", "a".repeat(MAX_CODE_LENGTH)];
  const bad = [
    "",
    "Code",
    "1st",
    "-x",
    "first touch",
    "a/b",
    "a.b",
    "a_b",
    "near-miss:excluded",
    "a".repeat(MAX_CODE_LENGTH + 1),
    "code\n",
    "ĉode",
    null,
    7,
    ["code"],
  ];
  assertEquals(ok.map(isCode), ok.map(() => true));
  assertEquals(bad.map(isCode), bad.map(() => false));
});

Deno.test("[decision-metrics] a reason is a code or near-miss:<code>", () => {
  assertEquals(isReasonCode("first-touch"), true);
  assertEquals(isReasonCode("near-miss:out-of-scope"), true);
  assertEquals(isReasonCode("near-miss:"), false);
  assertEquals(isReasonCode("near-miss:near-miss:excluded"), false);
  assertEquals(isReasonCode("near-miss:Excluded"), false);
  assertEquals(isReasonCode("other:excluded"), false);
  assertEquals(isReasonCode(`near-miss:${"a".repeat(MAX_CODE_LENGTH + 1)}`), false);
});

Deno.test("[decision-metrics] tool names are exactly the six gated tools", () => {
  const tools = ["Edit", "Write", "MultiEdit", "NotebookEdit", "Bash", "PowerShell"];
  assertEquals(tools.map(isToolName), tools.map(() => true));
  assertEquals(["edit", "Read", "Glob", "Task", " Bash", ""].map(isToolName), Array(6).fill(false));
});

Deno.test("[decision-metrics] a session digest is exactly 12 lowercase hex characters", () => {
  assertEquals(isSessionDigest("3f9c0a1b2d4e"), true);
  const bad = ["3F9C0A1B2D4E", "3f9c0a1b2d4", "3f9c0a1b2d4e0", "3f9c0a1b2d4g", "", 123456789012];
  assertEquals(bad.map(isSessionDigest), bad.map(() => false));
});
