/**
 * Tests of doctor's findings on settings that do nothing or are refused,
 * and on GateGuard-like hooks registered beside this one.
 *
 * @module
 */

import { assertEquals } from "../helpers/assert.ts";
import type { EnvName, EnvSnapshot } from "../../src/config/env.ts";
import { type ProjectFileStatus, settingsFrom } from "../../src/config/settings.ts";
import type { HookEnv } from "../../src/setup/claude_doctor.ts";
import {
  neighbourFindings,
  packSwitchFindings,
  switchSpellingFindings,
} from "../../src/setup/setting_findings.ts";
import { PACKS } from "../../src/shell/packs/registry.ts";

const hookEnv = (env: EnvSnapshot, setBy: Array<[EnvName, string]> = []): HookEnv => ({
  env,
  setBy: new Map(setBy),
});

const IDS = PACKS.map((p) => p.id).join(", ");
const FILE = "/p/.gateguard.jsonc";

function withFilePacks(packs: string[], env: EnvSnapshot) {
  const projectFile: ProjectFileStatus = {
    state: "loaded",
    path: FILE,
    unknownKeys: [],
    invalid: [],
    trust: { state: "untrusted", looseningKeys: ["destructivePacks"], storeProblem: null },
    config: { destructivePacks: packs },
  };
  return { ...settingsFrom(env), projectFile };
}

Deno.test("[doctor] an unknown or refused pack switch fails, in the file (trusted or not) and in the variable", () => {
  const env = { GATEGUARD_DESTRUCTIVE_PACKS: "bogus, +cloud" };
  const found = packSwitchFindings(
    withFilePacks(["-nosuch", "-core", "+publish"], env),
    hookEnv(env, [["GATEGUARD_DESTRUCTIVE_PACKS", "/p/.claude/settings.json"]]),
  );
  assertEquals(found, [
    {
      level: "FAIL",
      text: `destructive pack switch "-nosuch" in ${FILE} does nothing: unknown destructive pack ` +
        `"nosuch" ignored; fix: name one of ${IDS}, with + (on) or - (off)`,
    },
    {
      level: "FAIL",
      text: `destructive pack switch "-core" in ${FILE} is refused: the core pack cannot be ` +
        "switched off; fix: remove it",
    },
    {
      level: "FAIL",
      text: 'destructive pack switch "bogus" in GATEGUARD_DESTRUCTIVE_PACKS (env block of ' +
        '/p/.claude/settings.json) does nothing: unknown destructive pack "bogus" ignored; fix: ' +
        `name one of ${IDS}, with + (on) or - (off)`,
    },
  ]);
  assertEquals(packSwitchFindings(settingsFrom({}), hookEnv({})), []);
});

Deno.test("[doctor] a switch spelling the switch does not know fails, naming what works", () => {
  const env: EnvSnapshot = {
    GATEGUARD_DISABLED: "true",
    ECC_GATEGUARD: "no",
    GATEGUARD_BASH_ROUTINE_DISABLED: "y",
    GATEGUARD_METRICS: "2",
    GATEGUARD_EXTERNAL_CONTRACT_QUESTION: "sure",
    ECC_DISABLED_HOOKS: "pre:bash:gateguard-fact-force, pre:edit:gateguard",
  };
  assertEquals(switchSpellingFindings(hookEnv(env)).map((f) => [f.level, f.text]), [
    [
      "FAIL",
      'GATEGUARD_DISABLED="true" does nothing: only exactly 1 switches every gate off; fix: use ' +
      "one of those spellings, or remove it",
    ],
    [
      "FAIL",
      'ECC_GATEGUARD="no" does nothing: 0, false, off, disabled or disable switch every gate ' +
      "off; fix: use one of those spellings, or remove it",
    ],
    [
      "FAIL",
      'GATEGUARD_BASH_ROUTINE_DISABLED="y" does nothing: 1, true, on, enabled, enable or yes ' +
      "switch the routine shell gate off; fix: use one of those spellings, or remove it",
    ],
    [
      "FAIL",
      'GATEGUARD_METRICS="2" does nothing: 1, true, on, enabled, enable or yes switch the ' +
      "metrics on; fix: use one of those spellings, or remove it",
    ],
    [
      "FAIL",
      'GATEGUARD_EXTERNAL_CONTRACT_QUESTION="sure" does nothing: 1, true, on, enabled, enable ' +
      "or yes add the question; fix: use one of those spellings, or remove it",
    ],
    [
      "FAIL",
      'ECC_DISABLED_HOOKS lists "pre:edit:gateguard", which names no hook and does nothing; fix: ' +
      "use one of pre:edit-write:gateguard-fact-force, pre:bash:gateguard-fact-force, " +
      "pre:powershell:gateguard-fact-force, or remove it",
    ],
  ]);
  // Spellings that do what they say: switched, or plainly not.
  const fine: EnvSnapshot = {
    GATEGUARD_DISABLED: "0",
    ECC_GATEGUARD: " Off ",
    GATEGUARD_BASH_ROUTINE_DISABLED: "YES",
    GATEGUARD_METRICS: "",
    GATEGUARD_EXTERNAL_CONTRACT_QUESTION: "false",
    ECC_DISABLED_HOOKS: "pre:bash:gateguard-fact-force,",
  };
  assertEquals(switchSpellingFindings(hookEnv(fine)), []);
  // Only exactly 1 counts: a padded one does nothing.
  assertEquals(switchSpellingFindings(hookEnv({ GATEGUARD_DISABLED: " 1" })).length, 1);
});

const ECC = "node ~/.claude/plugins/ecc/scripts/hooks/gateguard-fact-force.js";

function settingsWith(...commands: Array<[string, string]>) {
  return {
    hooks: Object.fromEntries(
      commands.map(([event, command]) => [event, [{
        matcher: "Edit|Write",
        hooks: [{ type: "command", command }],
      }]]),
    ),
  };
}

Deno.test("[doctor] another GateGuard-like hook beside this one is a warning, and a shared state dir one more", () => {
  const parsed: Array<[string, ReturnType<typeof settingsWith>]> = [
    ["/h/.claude/settings.json", settingsWith(["PreToolUse", ECC])],
    [
      "/p/.claude/settings.json",
      settingsWith(
        ["PreToolUse", "/usr/local/bin/gateguard"],
        ["PostToolUse", "/home/u/.local/bin/gateguard-read-tracker"],
      ),
    ],
  ];
  const found = neighbourFindings(parsed, "/h/.gateguard/", "/h");
  assertEquals(found, [
    {
      level: "WARN",
      text: "/h/.claude/settings.json: ECC's GateGuard hook (gateguard-fact-force) is registered " +
        `beside this GateGuard (PreToolUse: "${ECC}"); both gate every call and ask different ` +
        "questions; fix: keep one of them",
    },
    {
      level: "WARN",
      text: "/p/.claude/settings.json: the gateguard-ai Python hook is registered beside this " +
        'GateGuard (PostToolUse: "/home/u/.local/bin/gateguard-read-tracker"); both gate every ' +
        "call and ask different questions; fix: keep one of them",
    },
    {
      level: "WARN",
      text: "this GateGuard keeps its state in /h/.gateguard, where those gates keep theirs too, " +
        "so each reads the other's state as its own; fix: remove the other gate, or set " +
        "GATEGUARD_STATE_DIR to a directory of this one's own",
    },
  ]);
  // Its own state dir elsewhere: only the neighbours.
  assertEquals(neighbourFindings(parsed, "/s", "/h").length, 2);
  // A command that only mentions gateguard is nobody's gate.
  const quiet: Array<[string, ReturnType<typeof settingsWith>]> = [
    ["/p/.claude/settings.json", settingsWith(["PreToolUse", "logger -t gateguard-hooks hi"])],
  ];
  assertEquals(neighbourFindings(quiet, "/h/.gateguard", "/h"), []);
});
