/**
 * `gateguard explain`'s plain-language summary: what the hook would do
 * with a call and why, one sentence per deciding reason, before the rule
 * trace. The words are declared once per reason code, so a new code
 * without words fails its test rather than printing a bare code.
 *
 * @module
 */

import { changesThroughForeignTool } from "../tools/gated.ts";
import { NEAR_MISS_PREFIX } from "../metrics/codes.ts";

/** Why a target was decided as it was, by reason code, as the end of a "because" sentence. */
export const REASON_WORDS: Readonly<Record<string, string>> = {
  // File gate.
  "oversize-input": "the call holds more entries than GateGuard reads",
  "malformed-input": "GateGuard cannot read the call's input (a field is missing or of the wrong " +
    "type), and a call it cannot read is never passed",
  "self-protection": "the change would switch GateGuard off or weaken it (a file of its " +
    "control surface, the environment it starts with, or an agent started without it), which " +
    "only the user may allow",
  "cannot-tell": "what the change does to a file of GateGuard's control surface cannot be " +
    "told, so it counts as one that switches GateGuard off",
  "unseen-denial": "the same call was denied before, but that denial has not reached the agent yet",
  "exempt-glob": "the path matches an exempt glob",
  "claude-settings": "Claude Code's own settings files are not asked about",
  subagent: "a subagent's calls are not asked about (its parent's were)",
  "subagent-sensitive": "a subagent is changing a sensitive file, which is always asked about",
  "subagent-hard-linked": "a subagent is changing a file with more than one name (a hard link)",
  checked: "the file was already asked about this session",
  sensitive: "the file is sensitive (secrets, keys, credentials), which is always asked about",
  "hard-linked": "the file has more than one name (a hard link), which is always asked about",
  "file-gates-off": "the project file turns the file gates off",
  "work-budget": "the input is too large or too complex to check within GateGuard's work limit",
  "prior-search": "a search earlier in this turn already covered the file",
  "comment-whitespace": "the change touches only comments or whitespace",
  "same-turn-dir": "a new file beside it was asked about earlier in this turn",
  "max-denials": "the session's denial cap is reached",
  "first-touch": "it is the first change to the file this session and no search earlier in " +
    "the turn covered it",
  [NEAR_MISS_PREFIX]: "it is the first change to the file this session; the closest search of " +
    "the turn did not count",
  "state-error": "the session state could not be saved",
  // Shell gates.
  "readonly-git": "the command only reads the git repository",
  destructive: "the command is destructive",
  "allowed-by-rule":
    "every path the destructive command names is covered by an allowDestructive entry the user set",
  "own-hook": "the command runs GateGuard's own hook by hand, which could forge its decisions",
  "protected-target": "the destructive command is aimed at the home directory, a filesystem " +
    "root, the project root or its .git, which only the user may allow",
  "destructive-retry": "it retries a destructive command whose denial the agent has seen",
  "routine-disabled": "the routine shell gate is switched off",
  "routine-checked": "the session's first shell command was already asked about",
  readonly: "the command only reads",
  "first-command": "it is the first shell command of the session",
};

/** The words of a reason code; a prefixed code (`near-miss:…`) by its prefix. */
export function reasonWords(reason: string): string {
  if (Object.hasOwn(REASON_WORDS, reason)) return REASON_WORDS[reason];
  const prefix = reason.slice(0, reason.indexOf(":") + 1);
  return prefix !== "" && Object.hasOwn(REASON_WORDS, prefix) ? REASON_WORDS[prefix] : reason;
}

/** What the summary reads from an explained call. */
export interface SummaryInput {
  tool: string;
  gated: boolean;
  decision: "pass" | "note" | "deny" | "ask";
  /** Each target's decision and reason, with the tool it was decided as. */
  targets: readonly { tool: string; decision: string; reason: string }[];
  /** The destructive rule of a shell call, when one matched. */
  destructive?: { pack: string; rule: string; destroys: string } | null;
}

const LEADS: Readonly<Record<SummaryInput["decision"], string>> = {
  deny: "GateGuard would deny this call",
  ask: "GateGuard would ask the user about this call",
  note: "GateGuard would let this call through with a note to the agent",
  pass: "GateGuard would let this call through",
};

function because(t: SummaryInput["targets"][number], x: SummaryInput): string {
  const d = x.destructive;
  if (t.reason === "destructive" && d) {
    return `the command is destructive: it ${d.destroys} (rule ${d.pack}/${d.rule})`;
  }
  return reasonWords(t.reason);
}

/**
 * The plain-language lines: the decision and why ("GateGuard would deny
 * this call because …"), one reason per deciding target.
 */
export function plainSummary(x: SummaryInput): string[] {
  if (!x.gated) {
    return [
      `GateGuard would let this call through: ${x.tool || "a call without a tool name"} ` +
      "is not gated (not a tool GateGuard gates, or its gate is switched off).",
    ];
  }
  const lead = LEADS[x.decision];
  if (x.targets.length === 0 && changesThroughForeignTool(x.tool)) {
    // A foreign tool has no rules of its own: only the control surface is read.
    return [
      x.decision === "pass"
        ? `${lead}: ${x.tool} is a tool GateGuard does not read; it is looked at only for ` +
          "GateGuard's own files, and it names none."
        : `${lead} because it names a file of GateGuard's control surface, and ${x.tool} is a ` +
          "tool GateGuard does not read, so what it would leave there cannot be read first.",
    ];
  }
  // A denial is explained by the targets that denied (`deny`, `destructive-deny`,
  // `routine-deny`, ...), a question by those that ask; anything else by every target.
  const numbered = x.targets.map((t, i) => ({ ...t, n: i + 1 }));
  const deciding = x.decision === "deny" || x.decision === "ask"
    ? numbered.filter((t) => t.decision.endsWith(x.decision))
    : numbered;
  if (deciding.length === 0) {
    return [`${lead}: the call was turned away before any rule looked at it.`];
  }
  if (deciding.length === 1) return [`${lead} because ${because(deciding[0], x)}.`];
  return [
    `${lead}:`,
    ...deciding.map((t) => `- target ${t.n} (${t.tool}): because ${because(t, x)}.`),
  ];
}
