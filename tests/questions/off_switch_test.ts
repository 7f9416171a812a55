/**
 * Model-facing texts teach no way around the gate: every text the hook can
 * show the agent (denials, notes, refusals), built from the message tables
 * with representative inputs and taken from hook answers decided in
 * process, names no variable, hook id or project-file key that switches a
 * gate off. The README, the docs and `gateguard doctor` name them for the
 * user.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import {
  CLASS_QUESTIONS,
  closestMissLine,
  creditNote,
  type FileDenial,
  fileDenialText,
  NEAR_MISS_WHY,
  type QuestionId,
  siblingNote,
  TARGET_NOTES,
  trivialNote,
} from "../../src/questions/file_texts.ts";
import {
  internalErrorText,
  oversizeText,
  stateErrorDestructiveText,
  stateErrorText,
  TOO_COMPLEX_INPUTS,
  tooComplexText,
} from "../../src/questions/messages.ts";
import {
  selfProtectionAskText,
  selfProtectionDenyText,
} from "../../src/questions/protection_texts.ts";
import {
  allowDestructiveHint,
  destructiveDenialText,
  ROUTINE_TEXT,
} from "../../src/questions/shell_texts.ts";
import { selectQuestions } from "../../src/questions/select.ts";
import type { NearMissCode } from "../../src/evidence/credit.ts";
import { PACKS } from "../../src/shell/packs/registry.ts";
import { deletionHit } from "../../src/hook/shell_gate.ts";
import { HOOK_IDS } from "../../src/config/settings.ts";
import { PROJECT_CONFIG_KEYS } from "../../src/config/project_config.ts";
import { settingsWeakenings } from "../../src/setup/weakening.ts";
import { patchTooLargeText } from "../../src/agents/patch_calls.ts";
import { AGENT_NAMES, loadAdapter } from "../../src/agents/registry.ts";
import type { Outcome } from "../../src/hook/decision.ts";
import { decide } from "../../src/hook/decide.ts";
import { applyDelta, emptyState } from "../../src/state/schema.ts";
import { CALL_WORK_UNITS } from "../../src/platform/budget.ts";
import { contextFor, ROOT } from "../hook/context.ts";
import { projectFs } from "../hook/session.ts";

/** Project-file keys that only tighten the gate or change wording; the rest loosen it. */
const TIGHTENING_KEYS = new Set(["destructiveCommands", "domainText", "fullDenials"]);

/**
 * Loosening keys that are narrow hatches, not switches: an allowDestructive
 * entry lets one rule through for the paths it names and leaves the gate on
 * for everything else, so a destructive denial may name it.
 */
const NARROW_HATCHES = new Set(["allowDestructive"]);

/** Every name that switches a gate, or part of one, off. */
const OFF_SWITCHES: readonly string[] = [
  "ECC_GATEGUARD",
  "GATEGUARD_DISABLED",
  "ECC_DISABLED_HOOKS",
  "GATEGUARD_BASH_ROUTINE_DISABLED",
  "GATEGUARD_EXEMPT_GLOBS",
  "GATEGUARD_FACT_FORCE_MAX_DENIALS",
  "GATEGUARD_DESTRUCTIVE_PACKS",
  "disableAllHooks",
  "gateguard-fact-force",
  ...Object.values(HOOK_IDS),
  ...PROJECT_CONFIG_KEYS.filter((k) => !TIGHTENING_KEYS.has(k) && !NARROW_HATCHES.has(k)),
];

/** The off switches `text` names. */
function switchesIn(text: string): string[] {
  return OFF_SWITCHES.filter((name) => text.includes(name));
}

function assertNoSwitch(texts: Iterable<string>): number {
  let n = 0;
  for (const text of texts) {
    n++;
    assertEquals(switchesIn(text), [], text);
  }
  return n;
}

const CODES = Object.keys(NEAR_MISS_WHY) as NearMissCode[];

/** Every file denial shape: each class and verb, full and condensed, with every extra line. */
function* fileDenials(): Generator<string> {
  const classes = ["code", ...Object.keys(CLASS_QUESTIONS)] as const;
  for (const cls of classes) {
    for (const verb of ["edit", "write"] as const) {
      const sel = selectQuestions(cls as "code", verb, null, true);
      for (const condensed of [false, true]) {
        for (
          const targetNote of [null, ...Object.keys(TARGET_NOTES)] as FileDenial["targetNote"][]
        ) {
          const base: FileDenial = {
            verb,
            file: "src/app.py",
            questions: sel.questions as readonly QuestionId[],
            fixedHint: sel.fixedHint,
            ordinal: condensed ? 5 : 1,
            condensed,
            targetNote,
            closestMiss: closestMissLine("Grep", "app in src", CODES[0]),
            domainText: "Dates are UTC.",
            batch: true,
          };
          yield fileDenialText(base);
          yield fileDenialText({ ...base, batch: false, closestMiss: null, domainText: null });
          for (
            const input of Object.keys(TOO_COMPLEX_INPUTS) as (keyof typeof TOO_COMPLEX_INPUTS)[]
          ) {
            yield fileDenialText({ ...base, tooComplex: input });
          }
        }
      }
    }
  }
}

/** Every other text of the message tables. */
function* otherTexts(): Generator<string> {
  for (const pack of PACKS) {
    for (const rule of pack.rules) yield destructiveDenialText(pack.id, rule.id, rule.destroys);
  }
  yield destructiveDenialText("project", "destructiveCommands", "runs a listed command");
  yield allowDestructiveHint("core", "rm-recursive", "dist/**");
  const del = deletionHit("src/old.ts");
  yield destructiveDenialText(del.pack, del.rule, del.destroys);
  yield ROUTINE_TEXT;
  for (const code of CODES) yield closestMissLine("Bash", "rg app .", code);
  yield creditNote("src/app.py", "Grep", "app in src");
  yield trivialNote("src/app.py");
  yield siblingNote("src/a.py", 2);
  yield stateErrorText("EACCES");
  yield stateErrorDestructiveText("EACCES", null);
  yield stateErrorDestructiveText("EACCES", ROUTINE_TEXT);
  yield oversizeText(64);
  for (const input of Object.keys(TOO_COMPLEX_INPUTS) as (keyof typeof TOO_COMPLEX_INPUTS)[]) {
    yield tooComplexText(input);
  }
  yield internalErrorText();
  yield patchTooLargeText();
  const protection = (turnsOff: readonly string[] | null) => {
    const input = [{ file: ".claude/settings.json", controls: "Claude Code's settings", turnsOff }];
    return [selfProtectionAskText(input), selfProtectionDenyText(input)];
  };
  yield* protection(null);
  // The phrases the settings guard builds for a change that drops GateGuard's entry. Its
  // phrases for an `env` change repeat the variable the agent itself wrote, and are left out.
  const installed = JSON.stringify({
    hooks: {
      PreToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "gateguard hook" }] }],
    },
  });
  const dropped = settingsWeakenings(installed, "{}", "gateguard hook");
  assert(dropped.length > 0);
  yield* protection(dropped);
  yield* protection(settingsWeakenings(installed, "{", "x"));
}

Deno.test("[denials-name-no-off-switch] no text of the message tables names a switch that turns a gate off", () => {
  const n = assertNoSwitch([...fileDenials(), ...otherTexts()]);
  // Every pack rule, every class, verb and form was built.
  assert(n > 500, `${n} texts`);
});

Deno.test("[denials-name-no-off-switch] the scan itself finds each off switch", () => {
  for (const name of OFF_SWITCHES) assert(switchesIn(`set ${name}=1`).includes(name), name);
  assertEquals(switchesIn(stateErrorText("EACCES")), []);
});

/** What each agent's hook would print for `outcome`. */
async function rendered(outcome: Outcome): Promise<string[]> {
  const out: string[] = [];
  for (const agent of AGENT_NAMES) out.push((await loadAdapter(agent)).render(outcome));
  return out;
}

Deno.test("[denials-name-no-off-switch] the hook's answers to a session of gated calls name no off switch, for every agent", async () => {
  const fs = projectFs({
    "src/app.py": "x = 1\n",
    ".env": "A=1\n",
    "old.ts": "x\n",
  });
  let state = emptyState(0);
  const env = { GATEGUARD_FACT_FORCE_FULL_DENIALS: "2" };
  const answers: Outcome[] = [];
  const run = async (tool: string, input: unknown) => {
    const d = await decide(contextFor(tool, input, { env, state, fs }));
    state = applyDelta(state, d.delta, 1_000);
    answers.push(d.outcome);
  };
  const edit = (file: string) => ({ file_path: file, old_string: "x = 1", new_string: "x = 2" });
  await run("Bash", { command: "npm test" });
  await run("Bash", { command: "rm -rf build" });
  await run("PowerShell", { command: "Remove-Item -Recurse -Force build" });
  await run("Edit", edit(`${ROOT}/src/app.py`));
  await run("Edit", { file_path: `${ROOT}/.env`, old_string: "A=1", new_string: "A=2" });
  await run("Write", { file_path: `${ROOT}/src/new.py`, content: "import os\n" });
  await run("Write", { file_path: `${ROOT}/docs/new.md`, content: "# New\n" });
  await run("Bash", { command: `echo ${"a".repeat(CALL_WORK_UNITS / 8 + 1)}` });
  // A Codex patch that deletes a file: the destructive gate and the file gate both answer.
  const codex = await loadAdapter("codex");
  const patch = codex.translate({
    session_id: "s1",
    cwd: ROOT,
    tool_name: "apply_patch",
    tool_input: { command: "*** Begin Patch\n*** Delete File: old.ts\n*** End Patch\n" },
  }, {});
  assert(patch.kind === "calls");
  for (const call of patch.calls) {
    const ctx = { ...contextFor("apply_patch", {}, { env, state, fs }), call };
    const d = await decide(ctx);
    state = applyDelta(state, d.delta, 1_000);
    answers.push(d.outcome);
  }
  const denials = answers.flatMap((a) => a.kind === "deny" ? [a.text] : []);
  const count = (part: string) => denials.filter((t) => t.includes(part)).length;
  // The routine, three destructive, five first-touch (two full, three condensed) and one budget denial.
  assertEquals(count("Before the first shell command"), 1);
  assertEquals(count("Destructive command detected"), 3);
  assertEquals(count("present these facts:") - count("Destructive") - 1, 2);
  assertEquals(count("Denial #"), 3);
  assertEquals(count("too large or too complex"), 1);
  for (const outcome of answers) assertNoSwitch(await rendered(outcome));
});
