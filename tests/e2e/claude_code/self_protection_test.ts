/**
 * End-to-end proof in the real client that GateGuard defends its own
 * registration: the agent's Edit adding `"disableAllHooks": true` to the
 * project's `.claude/settings.json` is denied, and so is its retry, under
 * acceptEdits and bypass-permissions alike (for a file under `.claude`
 * Claude Code answers its own prompt for the session once allowed, so
 * GateGuard never asks there). An Edit loosening GateGuard's project file
 * is put to the user (`ask`).
 *
 * What `ask` does in a headless (`-p`) run, seen here with the pinned
 * client: the call is refused as if denied, the model reads the reason as
 * the tool's error result (without the `PreToolUse:Edit hook error:`
 * prefix a denial gets), and the result JSON lists it under
 * `permission_denials`. docs/e2e.md and docs/security.md record it.
 *
 * @module
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { ensureClaudeCode } from "../../../scripts/install_claude_code.ts";
import {
  selfProtectionAskText,
  selfProtectionDenyText,
} from "../../../src/questions/protection_texts.ts";
import { CONTROL_SURFACE } from "../../../src/control/surface.ts";
import { DEFINITION_HOOKS_LINE } from "../../../src/setup/definition_weakening.ts";
import { type ScriptedTurn, toolUseId } from "./fake_api.ts";
import {
  cleanup,
  deniedToolUseIds,
  describeRun,
  readTranscript,
  resultRecord,
  runScenario,
  type Scenario,
} from "./harness.ts";

const install = await ensureClaudeCode();
if (!install.ok) {
  console.log(
    `[real-client] SKIPPED: the pinned Claude Code could not be installed (${install.reason}).`,
  );
}
const BINARY = install.ok ? install.binary : "";

function realClientTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: !install.ok, sanitizeResources: false, sanitizeOps: false, fn });
}

const SETTINGS = '{\n  "model": "sonnet"\n}\n';
const CONFIG = '{ "destructiveCommands": ["make clean"] }\n';
const HOOKS_OFF_LINE = '"disableAllHooks": true would stop every hook, GateGuard included';

function controls(id: string): string {
  const row = CONTROL_SURFACE.find((r) => r.id === id);
  assert(row, id);
  return row.controls;
}

/** The Edit the agent tries twice: its file (project-relative) and replacement. */
interface Attempt {
  rel: string;
  oldString: string;
  newString: string;
  /** The file's text before, when it is neither the settings nor the project file. */
  original?: string;
}

const HOOKS_OFF: Attempt = {
  rel: ".claude/settings.json",
  oldString: '"model": "sonnet"',
  newString: '"model": "sonnet",\n  "disableAllHooks": true',
};

const SKILL = "---\nname: review\ndescription: Reviews a diff\n---\nRead the diff.\n";

const SKILL_HOOKED: Attempt = {
  rel: ".claude/skills/review/SKILL.md",
  oldString: "description: Reviews a diff\n",
  newString: "description: Reviews a diff\nhooks:\n  Stop:\n    - hooks:\n" +
    "        - type: command\n          command: echo hi\n",
  original: SKILL,
};

const CONFIG_LOOSENED: Attempt = {
  rel: ".gateguard.jsonc",
  oldString: '"destructiveCommands": ["make clean"]',
  newString: '"exemptGlobs": ["**"]',
};

function attempt(project: string, a: Attempt): ScriptedTurn["blocks"] {
  return [{
    type: "tool_use",
    name: "Edit",
    input: { file_path: `${project}/${a.rel}`, old_string: a.oldString, new_string: a.newString },
  }];
}

/** The metrics lines GateGuard wrote for the run, as `decision/reason`. */
async function decisions(stateDir: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${stateDir}/metrics.jsonl`).catch(() => "");
  return text.split("\n").filter((l) => l !== "").map((l) => {
    const line = JSON.parse(l);
    return `${line.decision}/${line.reason}`;
  });
}

/** What the model must read as the result of each stopped try, for the file's absolute path. */
interface Seen {
  includes: (file: string) => string[];
  excludes?: string[];
  /** The transcript's `toolUseResult` of each stopped try, when it is known exactly. */
  transcript?: (file: string) => string;
}

/**
 * Runs the scenario: the Edit, the same Edit again, then the end of the
 * turn. Both tries must be refused with the file untouched, and GateGuard
 * must have decided both the same way.
 */
async function stoppedTwice(
  permissionMode: string,
  a: Attempt,
  seen: Seen,
  expectedDecision: string,
): Promise<void> {
  const original = a.original ?? (a.rel === HOOKS_OFF.rel ? SETTINGS : CONFIG);
  const scenario: Scenario = {
    files: {
      ".claude/settings.json": SETTINGS,
      ".gateguard.jsonc": CONFIG,
      ...(a.original === undefined ? {} : { [a.rel]: a.original }),
    },
    prompt: "loosen the gate",
    permissionMode,
    env: { GATEGUARD_METRICS: "1", IS_SANDBOX: "1" },
    turns: (p) => {
      const stopped = {
        isError: true,
        includes: seen.includes(`${p}/${a.rel}`),
        excludes: seen.excludes ?? [],
      };
      return [
        { blocks: attempt(p, a) },
        { expect: { toolResults: [stopped] }, blocks: attempt(p, a) },
        { expect: { toolResults: [stopped] }, blocks: [{ type: "text", text: "Done." }] },
      ];
    },
  };
  const run = await runScenario(BINARY, scenario);
  const context = describeRun(run);
  assertEquals(run.code, 0, context);
  assertEquals(run.api.failures(), [], context);
  const after = await Deno.readTextFile(`${run.tree.project}/${a.rel}`);
  assert(!after.includes(a.newString), after);
  if (a.rel !== HOOKS_OFF.rel) assertEquals(after, original);
  assertEquals(deniedToolUseIds(run), [toolUseId(0, 0), toolUseId(1, 0)], context);
  if (seen.transcript) {
    const records = await readTranscript(run);
    for (const id of [toolUseId(0, 0), toolUseId(1, 0)]) {
      const record = resultRecord(records, id);
      assertEquals(record?.toolUseResult, seen.transcript(`${run.tree.project}/${a.rel}`), id);
    }
  }
  assertEquals(await decisions(run.tree.stateDir), [expectedDecision, expectedDecision]);
  await cleanup(run);
}

const settingsInput = (file: string) => [{
  file,
  controls: controls("claude-project-settings"),
  turnsOff: [HOOKS_OFF_LINE],
}];

const configInput = (file: string) => [{
  file,
  controls: controls("project-config"),
  turnsOff: [
    "new exemptGlobs would exempt files from the gate",
    "destructiveCommands phrases would be dropped",
  ],
}];

const hookDenial = (file: string) =>
  `PreToolUse:Edit hook error: ${selfProtectionDenyText(settingsInput(file))}`;

for (const mode of ["acceptEdits", "bypassPermissions"]) {
  realClientTest(
    `[real-client] [self-protection] under ${mode} an Edit adding disableAllHooks to the project settings and its retry are denied`,
    () =>
      stoppedTwice(mode, HOOKS_OFF, {
        includes: (file) => [hookDenial(file)],
        transcript: (file) => `Error: ${hookDenial(file)}`,
      }, "self-protect-deny/self-protection"),
  );
}

const skillDenial = (file: string) =>
  `PreToolUse:Edit hook error: ${
    selfProtectionDenyText([{
      file,
      controls: controls("claude-project-skills"),
      turnsOff: [DEFINITION_HOOKS_LINE],
    }])
  }`;

realClientTest(
  "[real-client] [self-protection] under bypassPermissions an Edit giving a project skill hooks and its retry are denied",
  () =>
    stoppedTwice("bypassPermissions", SKILL_HOOKED, {
      includes: (file) => [skillDenial(file)],
      transcript: (file) => `Error: ${skillDenial(file)}`,
    }, "self-protect-deny/self-protection"),
);

realClientTest(
  "[real-client] [self-protection] an Edit loosening GateGuard's project file is put to the user; under -p it and its retry are refused, the model reading GateGuard's reason",
  () =>
    stoppedTwice("acceptEdits", CONFIG_LOOSENED, {
      includes: (file) => [selfProtectionAskText(configInput(file))],
      excludes: ["PreToolUse:Edit hook error"],
      transcript: (file) => `Error: ${selfProtectionAskText(configInput(file))}`,
    }, "self-protect-ask/self-protection"),
);
