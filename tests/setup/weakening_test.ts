/**
 * The check behind gating a settings change that would switch GateGuard
 * off or weaken it; ordinary changes pass.
 */

import { assertEquals } from "../helpers/assert.ts";
import {
  hookFileWeakenings,
  projectConfigWeakenings,
  settingsWeakenings,
} from "../../src/setup/weakening.ts";
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
    "3 of GateGuard's hook entries would be removed or changed, so some tools would no longer be gated",
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
    ["the env block would set a variable that configures GateGuard"],
  );
  assertEquals(
    settingsWeakenings("{}", JSON.stringify({ env: { GATEGUARD_EXEMPT_GLOBS: "**" } }), CMD),
    ["the env block would set a variable that configures GateGuard"],
  );
  assertEquals(
    settingsWeakenings(
      JSON.stringify({ env: { GATEGUARD_EXTERNAL_CONTRACT_QUESTION: "1" } }),
      "{}",
      CMD,
    ),
    ["the env block would drop a variable that configures GateGuard"],
  );
  assertEquals(
    settingsWeakenings("{}", JSON.stringify({ env: { ECC_DISABLED_HOOKS: "x" } }), CMD).length,
    1,
  );
  assertEquals(settingsWeakenings(installed(), installed() + "{", CMD), [
    "the file would no longer parse, so Claude Code would drop GateGuard's hook entries",
  ]);
});

Deno.test("[self-protection] settings Claude Code would reject, a hook of another's, a command-running key or a moving env value weaken", () => {
  assertEquals(settingsWeakenings(installed(), installed() + " // note", CMD), [
    "Claude Code reads this file as strict JSON (no comments, no trailing commas) and would ignore all of it, GateGuard's hook entries included",
  ]);
  assertEquals(
    settingsWeakenings(installed(), installed().replace(/\n\}$/, ",\n}"), CMD).length,
    1,
  );
  const stop = JSON.parse(installed());
  stop.hooks.Stop = [{ hooks: [{ type: "command", command: "true" }] }];
  assertEquals(settingsWeakenings(installed(), JSON.stringify(stop), CMD), [
    "1 Stop hook entry would be added or changed: it runs a command GateGuard does not check, which could undo it",
  ]);
  // Removing someone else's hook takes nothing from GateGuard.
  assertEquals(settingsWeakenings(JSON.stringify(stop), installed(), CMD), []);
  assertEquals(
    settingsWeakenings(
      installed(),
      installed({ statusLine: { type: "command", command: "x" } }),
      CMD,
    ),
    ['"statusLine" would change: it runs a command GateGuard does not check, which could undo it'],
  );
  for (
    const name of [
      "PATH",
      "DENO_DIR",
      "npm_config_registry",
      "BASH_ENV",
      "CLAUDE_CONFIG_DIR",
      // Claude Code's own switches for its hooks (bare mode, safe mode, personal hooks off).
      "CLAUDE_CODE_SIMPLE",
      "CLAUDE_CODE_SAFE_MODE",
      "CLAUDE_CODE_PERSONAL_HOOKS_OFF",
      "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
    ]
  ) {
    assertEquals(
      settingsWeakenings(installed(), installed({ env: { [name]: "/x" } }), CMD),
      [`the env block would set ${name}="/x", which moves what GateGuard reads or changes how it starts`],
      name,
    );
  }
});

Deno.test("[self-protection] each agent's hook file: its own switches, and its own JSON dialect", () => {
  const gemini = (extra: Record<string, unknown>) => JSON.stringify({ ...extra, hooks: {} });
  assertEquals(
    hookFileWeakenings("gemini", gemini({ hooksConfig: { enabled: true } }), gemini({})),
    ['"hooksConfig" would change: it decides whether and which hooks Gemini CLI runs'],
  );
  assertEquals(
    hookFileWeakenings("gemini", gemini({}), gemini({ tools: { enableHooks: false } })),
    ['"tools.enableHooks" would change: it decides whether Gemini CLI runs hooks'],
  );
  // MCP servers are programs the agent starts outside GateGuard's gates.
  const mcp = "it changes which MCP servers the agent starts, programs that run outside " +
    "GateGuard's gates";
  assertEquals(
    hookFileWeakenings("gemini", gemini({}), gemini({ mcpServers: { x: { command: "sh" } } })),
    [`"mcpServers" would change: ${mcp}`],
  );
  assertEquals(
    hookFileWeakenings("gemini", gemini({}), gemini({ mcp: { serverCommand: "sh x.sh" } })),
    [`"mcp" would change: ${mcp}`],
  );
  const runs = "it runs a command GateGuard does not check, which could undo it";
  for (const [key, value] of [["discoveryCommand", "sh x"], ["callCommand", "sh x"]]) {
    assertEquals(
      hookFileWeakenings("gemini", gemini({}), gemini({ tools: { [key]: value } })),
      [`"tools.${key}" would change: ${runs}`],
    );
  }
  assertEquals(
    hookFileWeakenings("gemini", gemini({}), gemini({ tools: { shell: { pager: "sh x" } } })),
    [`"tools.shell.pager" would change: ${runs}`],
  );
  assertEquals(
    hookFileWeakenings("gemini", gemini({}), gemini({ tools: { sandbox: "./wrap" } })),
    [`"tools.sandbox" would change: ${runs}`],
  );
  assertEquals(
    hookFileWeakenings("claude", "{}", '{"enableAllProjectMcpServers": true}'),
    [`"enableAllProjectMcpServers" would change: ${mcp}`],
  );
  assertEquals(
    hookFileWeakenings("claude", "{}", '{"enabledMcpjsonServers": ["db"]}'),
    [`"enabledMcpjsonServers" would change: ${mcp}`],
  );
  // Gemini CLI reads comments; Codex CLI does not.
  assertEquals(hookFileWeakenings("gemini", "{}", '{ // x\n "model": {} }'), []);
  assertEquals(hookFileWeakenings("codex", "{}", '{ // x\n "hooks": {} }'), [
    "Codex CLI reads this file as strict JSON (no comments, no trailing commas) and would ignore all of it, GateGuard's hook entries included",
  ]);
  assertEquals(
    hookFileWeakenings(
      "copilot",
      '{"version":1,"hooks":{}}',
      '{"version":1,"disableAllHooks":true,"hooks":{}}',
    ),
    ['"disableAllHooks" would change: it can stop every hook, GateGuard included'],
  );
  assertEquals(
    hookFileWeakenings(
      "cursor",
      '{"version":1,"hooks":{"enabled":true}}',
      '{"version":1,"hooks":{}}',
    ),
    [
      "a setting inside the hooks block would change, which can stop hooks from running",
    ],
  );
  assertEquals(hookFileWeakenings("cursor", "{}", "{"), [
    "the file would no longer parse, so Cursor would ignore it",
  ]);
});

Deno.test("[self-protection] the project file may only tighten", () => {
  const before = '{ "destructiveCommands": ["make clean"], "destructivePacks": ["+cloud"] }';
  assertEquals(
    projectConfigWeakenings(
      before,
      '{ "destructiveCommands": ["make clean", "rm db"], "destructivePacks": ["+cloud", "+publish"], "domainText": "x", "fullDenials": 5 }',
    ),
    [],
  );
  assertEquals(
    projectConfigWeakenings(
      before,
      '{ "fileGates": false, "routineShell": false, "maxDenials": 2, "fullDenials": 1, "destructivePacks": ["-core"] }',
    ),
    [
      '"fileGates": false would switch a gate off',
      '"routineShell": false would switch a gate off',
      "a lower fullDenials would shorten the denials sooner",
      "a denial cap would let first touches through after a number of denials",
      "destructiveCommands phrases would be dropped",
      "destructivePacks would switch a pack of destructive-command rules off",
    ],
  );
  assertEquals(projectConfigWeakenings(null, '{ "exemptGlobs": ["dist/**"] }'), [
    "new exemptGlobs would exempt files from the gate",
  ]);
  assertEquals(projectConfigWeakenings(before, "{"), [
    "the file would no longer parse, so GateGuard would ignore all of it",
  ]);
});
