/**
 * Deterministic synthetic metrics files for tests and benchmarks: realistic
 * mixes of decisions, built with the real line builder so every line is one
 * the hook could have written.
 *
 * @module
 */

import { buildLine, type MetricsEvent } from "../../src/metrics/line.ts";
import { mulberry32 as random } from "../helpers/prng.ts";

const CODE_PROFILE = {
  known: true,
  language: "ts",
  touchesPublicSurface: false,
  touchesData: false,
  trivial: false,
};

function file(
  tool: string,
  cls: string,
  decision: string,
  reason: string,
  questions: string[] | null = null,
): MetricsEvent {
  const profile = cls === "code" && decision !== "pass-checked" ? CODE_PROFILE : null;
  return { tool, class: cls, decision, reason, questions, sensitive: false, profile };
}

function shell(tool: string, decision: string, reason: string): MetricsEvent {
  return { tool, class: null, decision, reason, questions: null, sensitive: false, profile: null };
}

/** Decisions and their relative weights, roughly as a working session produces them. */
const MIX: readonly [number, MetricsEvent][] = [
  [30, file("Edit", "code", "pass-checked", "checked")],
  [20, shell("Bash", "pass", "routine-checked")],
  [6, shell("Bash", "routine-readonly", "readonly")],
  [2, shell("Bash", "routine-deny", "first-command")],
  [1, shell("PowerShell", "destructive-deny", "destructive")],
  [6, file("Edit", "code", "deny", "first-touch", ["local-callers", "quote-instruction"])],
  [
    3,
    file("Edit", "code", "deny", "near-miss:out-of-scope", [
      "importers",
      "public-api",
      "data-schema",
      "quote-instruction",
    ]),
  ],
  [
    2,
    file("Write", "test", "deny", "first-touch", [
      "test-subject",
      "test-existing",
      "quote-instruction",
    ]),
  ],
  [1, {
    ...file("Edit", "config", "deny", "sensitive", [
      "config-reader",
      "config-effect",
      "config-secrets",
      "quote-instruction",
    ]),
    sensitive: true,
  }],
  [5, file("Edit", "code", "credit", "prior-search")],
  [2, file("Write", "code", "sibling", "same-turn-dir")],
  [2, file("MultiEdit", "code", "trivial", "comment-whitespace")],
  [1, file("Write", "prose", "cap", "max-denials")],
  [3, file("Write", "prose", "pass-exempt", "exempt-glob")],
  [1, file("NotebookEdit", "code", "pass-subagent", "subagent")],
];

const TOTAL_WEIGHT = MIX.reduce((n, [w]) => n + w, 0);

function pick(r: number): MetricsEvent {
  let left = r * TOTAL_WEIGHT;
  for (const [weight, event] of MIX) {
    left -= weight;
    if (left < 0) return event;
  }
  return MIX[MIX.length - 1][1];
}

/** Decisions start here and move forward a few seconds each. */
const START_MS = Date.UTC(2026, 8, 1, 8, 0, 0);

/**
 * Newline-terminated metrics lines totalling at most `bytes` bytes (ASCII),
 * spread over eight sessions, the same for the same `seed`.
 */
export function generateMetrics(bytes: number, seed: number): string {
  const next = random(seed);
  const sessions = Array.from(
    { length: 8 },
    (_, i) => ((seed * 8 + i + 1) * 0x9e3779b1 >>> 0).toString(16).padStart(8, "0") + "abcd",
  );
  const parts: string[] = [];
  let size = 0;
  let now = START_MS;
  for (;;) {
    now += Math.floor(next() * 30_000);
    const session = sessions[Math.floor(next() * sessions.length)];
    const line = buildLine(pick(next()), session, now) + "\n";
    if (size + line.length > bytes) break;
    parts.push(line);
    size += line.length;
  }
  return parts.join("");
}
