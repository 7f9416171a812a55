/**
 * The check behind gating a settings change that would switch GateGuard
 * off or weaken it; ordinary changes pass.
 */

import { assertEquals } from "../helpers/assert.ts";
import { settingsWeakenings } from "../../src/setup/weakening.ts";
import { registrationGroups } from "../../src/setup/claude_settings.ts";

const CMD = "/usr/local/bin/gateguard";
const installed = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ ...extra, hooks: { PreToolUse: registrationGroups(CMD) } }, null, 2);

Deno.test("[claude-settings] ordinary settings changes weaken nothing", () => {
  assertEquals(settingsWeakenings(installed(), installed({ model: "opus" }), CMD), []);
  assertEquals(settingsWeakenings(null, '{"permissions": {"allow": ["Bash(ls)"]}}', CMD), []);
  assertEquals(settingsWeakenings(installed(), installed({ env: { FOO: "1" } }), CMD), []);
  // Adding GateGuard, or reformatting its entries, is no weakening.
  assertEquals(settingsWeakenings("{}", installed(), CMD), []);
  assertEquals(settingsWeakenings(installed(), JSON.stringify(JSON.parse(installed())), CMD), []);
  assertEquals(settingsWeakenings("{", "{}", CMD), []);
});

Deno.test("[claude-settings] each way of switching GateGuard off through settings is named", () => {
  assertEquals(settingsWeakenings(installed(), "{}", CMD), [
    "2 of GateGuard's hook entries would be removed or changed, so some tools would no longer be gated",
  ]);
  const bashOnly = JSON.parse(installed());
  bashOnly.hooks.PreToolUse[1].matcher = "Bash";
  assertEquals(settingsWeakenings(installed(), JSON.stringify(bashOnly), CMD).length, 1);
  const asyncHandler = JSON.parse(installed());
  asyncHandler.hooks.PreToolUse[0].hooks[0].async = true;
  assertEquals(settingsWeakenings(installed(), JSON.stringify(asyncHandler), CMD).length, 1);
  assertEquals(settingsWeakenings(installed(), installed({ disableAllHooks: true }), CMD), [
    '"disableAllHooks": true would stop every hook, GateGuard included',
  ]);
  assertEquals(
    settingsWeakenings(installed(), installed({ env: { GATEGUARD_DISABLED: "1" } }), CMD),
    ['the env block would set GATEGUARD_DISABLED="1", which configures GateGuard'],
  );
  assertEquals(
    settingsWeakenings("{}", JSON.stringify({ env: { GATEGUARD_EXEMPT_GLOBS: "**" } }), CMD),
    ['the env block would set GATEGUARD_EXEMPT_GLOBS="**", which configures GateGuard'],
  );
  assertEquals(
    settingsWeakenings(
      JSON.stringify({ env: { GATEGUARD_EXTERNAL_CONTRACT_QUESTION: "1" } }),
      "{}",
      CMD,
    ),
    ["the env block would drop GATEGUARD_EXTERNAL_CONTRACT_QUESTION, which configures GateGuard"],
  );
  assertEquals(
    settingsWeakenings("{}", JSON.stringify({ env: { ECC_DISABLED_HOOKS: "x" } }), CMD).length,
    1,
  );
  assertEquals(settingsWeakenings(installed(), installed() + "{", CMD), [
    "the file would no longer parse, so Claude Code would drop GateGuard's hook entries",
  ]);
});
