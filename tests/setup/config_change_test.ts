/**
 * The ConfigChange judgement: which settings changes GateGuard keeps from
 * applying to a running session, with and without a baseline of the file.
 */

import { assertEquals } from "../helpers/assert.ts";
import {
  blockedChangeText,
  type ConfigChangeInput,
  configChangeWeakenings,
} from "../../src/setup/config_change.ts";
import { CLAUDE_CODE_FORMATS } from "../../src/setup/claude_settings.ts";
import { editRegistration } from "../../src/setup/registration_edit.ts";

const CMD = "/opt/gateguard/bin/gateguard";
const FILE = "/p/.claude/settings.json";

/** The settings text `init` writes into `text`. */
function registered(text: string | null): string {
  let out = text;
  for (const format of CLAUDE_CODE_FORMATS) {
    const r = editRegistration(format, out, CMD, "add");
    if (!r.ok || r.text === null) throw new Error(r.ok ? "no text" : r.error);
    out = r.text;
  }
  return out as string;
}

const INIT = registered('{\n  "model": "opus"\n}\n');
const NO_FILE_GATE = INIT.replace(
  '"matcher": "Edit|Write|MultiEdit|NotebookEdit"',
  '"matcher": "NoSuchTool"',
);

function judge(input: Partial<ConfigChangeInput>): string[] {
  return configChangeWeakenings({
    source: "project_settings",
    filePath: FILE,
    after: INIT,
    before: undefined,
    others: [],
    ...input,
  });
}

Deno.test("[self-protection] with a baseline, the change is compared with the text last accepted", () => {
  assertEquals(judge({ before: INIT, after: INIT.replace('"opus"', '"sonnet"') }), []);
  assertEquals(judge({ before: INIT, after: NO_FILE_GATE }), [
    "1 of GateGuard's hook entries would be removed or changed, so some tools would no longer be gated",
  ]);
  // Taking out the ConfigChange entry alone is a weakening too.
  const parsed = JSON.parse(INIT);
  delete parsed.hooks.ConfigChange;
  assertEquals(judge({ before: INIT, after: JSON.stringify(parsed) }), [
    "1 of GateGuard's hook entries would be removed or changed, so some tools would no longer be gated",
  ]);
  assertEquals(judge({ before: INIT, after: null }), [
    "4 of GateGuard's hook entries would be removed or changed, so some tools would no longer be gated",
  ]);
});

Deno.test("[self-protection] without a baseline, the new text is read by itself with the other files", () => {
  assertEquals(judge({}), []);
  assertEquals(judge({ after: INIT.replace('"opus"', '"sonnet"') }), []);
  assertEquals(judge({ after: NO_FILE_GATE }), [
    "GateGuard's hook entries would no longer reach Edit, Write, MultiEdit, NotebookEdit",
  ]);
  assertEquals(judge({ after: '{\n  "model": "opus"\n}\n' }), [
    "GateGuard's hook entries would no longer reach Edit, Write, MultiEdit, NotebookEdit, Bash, PowerShell",
    `GateGuard's ConfigChange entry would be removed from ${FILE}`,
  ]);
  // The same text is fine when another settings file registers GateGuard.
  assertEquals(
    judge({
      after: '{\n  "model": "opus"\n}\n',
      others: [{ path: "/h/.claude/settings.json", value: JSON.parse(INIT) }],
    }),
    [],
  );
  // The answer reaches the model, so it says what the change does without naming the switch.
  const off = [`${FILE} would switch every hook or GateGuard itself off`];
  assertEquals(judge({ after: INIT.replace("{\n", '{\n  "disableAllHooks": true,\n') }), off);
  assertEquals(
    judge({ after: INIT.replace("{\n", '{\n  "env": { "GATEGUARD_DISABLED": "1" },\n') }),
    off,
  );
  assertEquals(judge({ after: INIT.replaceAll(',\n            "onFailure": "block"', "") }), [
    `the GateGuard handler in ${FILE} lacks "onFailure": "block", so a hook that cannot start, ` +
    "crashes or times out lets the call through; fix: run `gateguard init` " +
    "(it rewrites GateGuard's own entries)",
  ]);
  assertEquals(judge({ after: INIT.slice(0, 40) }), [
    `${FILE} would no longer be valid settings, so Claude Code would drop every hook in it`,
  ]);
  assertEquals(judge({ after: null }), [
    `${FILE} would be emptied or deleted, and with it GateGuard's own hook entries`,
  ]);
  assertEquals(
    judge({ after: null, others: [{ path: "/h/.claude/settings.json", value: JSON.parse(INIT) }] }),
    [],
  );
});

Deno.test("[self-protection] changes of skills or managed policy are not judged", () => {
  assertEquals(judge({ source: "skills", after: null }), []);
  assertEquals(judge({ source: "policy_settings", after: null }), []);
});

Deno.test("[self-protection] the block text names each weakening and what is left on disk", () => {
  assertEquals(
    blockedChangeText(FILE, ["a", "b"]),
    `GateGuard blocked this change to ${FILE} from applying to the session: a; b.\n` +
      "This session keeps the settings it loaded, but the file on disk still holds the change and " +
      "the next session will load it: restore the file unless you made this change yourself.",
  );
});
