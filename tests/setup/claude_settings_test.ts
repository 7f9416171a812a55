/**
 * Claude Code's side of a registration: settings files, matchers, and the
 * plugin form.
 */

import { LEGACY_PLUGIN_COMMANDS } from "../../src/setup/plugin_command.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  matcherCovers,
  PLUGIN_COMMAND,
  pluginHooksJson,
  registrationGroups,
  settingsFiles,
} from "../../src/setup/claude_settings.ts";
import { PLUGIN_INSTALL_COMMAND } from "../../src/setup/plugin_command.ts";
import { classifyCommand } from "../../src/setup/recognise.ts";

Deno.test("[init] matchers follow Claude Code: all, exact name lists, or unanchored regex", () => {
  for (const all of [undefined, null, "", "*"]) assert(matcherCovers(all, "PowerShell"));
  assert(matcherCovers("Edit|Write", "Write"));
  assert(matcherCovers("Bash, PowerShell", "PowerShell"));
  assert(!matcherCovers("Edit|Write", "NotebookEdit"));
  assert(!matcherCovers("bash", "Bash"));
  assert(matcherCovers("Edit.*", "NotebookEdit"));
  assert(matcherCovers("^(Bash|Power.*)$", "PowerShell"));
  assert(!matcherCovers("^Edit$", "MultiEdit"));
  assert(!matcherCovers("(", "Edit"));
  assert(!matcherCovers(42, "Edit"));
});

Deno.test("[init] settings files of each scope", () => {
  assertEquals(settingsFiles("/p/", "/h"), [
    { scope: "user", path: "/h/.claude/settings.json" },
    { scope: "project", path: "/p/.claude/settings.json" },
    { scope: "local", path: "/p/.claude/settings.local.json" },
  ]);
  assertEquals(settingsFiles("/p", null).map((f) => f.scope), ["project", "local"]);
});

Deno.test("[init] the shipped plugin hooks.json is the one init prints", async () => {
  const shipped = await Deno.readTextFile(new URL("../../hooks/hooks.json", import.meta.url));
  assertEquals(shipped, pluginHooksJson());
  const plugin = JSON.parse(shipped);
  assertEquals(plugin.hooks.PreToolUse, registrationGroups(PLUGIN_COMMAND));
  for (const group of plugin.hooks.PreToolUse) assertEquals(group.hooks[0].onFailure, "block");
  assertEquals(Object.keys(plugin.hooks), ["SessionStart", "PreToolUse"]);
  assertEquals(plugin.hooks.SessionStart[0].hooks[0].command, PLUGIN_INSTALL_COMMAND);
  assert(typeof plugin.description === "string" && plugin.description.length > 0);
  // sh by its path: a bare one is looked up on PATH, where the agent may have written one.
  assert(PLUGIN_COMMAND.includes('exec /bin/sh "$CLAUDE_PLUGIN_ROOT/hooks/launch.sh"'));
  assert(
    PLUGIN_INSTALL_COMMAND.includes('exec /bin/sh "$CLAUDE_PLUGIN_ROOT/hooks/install_binary.sh"'),
  );
  for (const legacy of LEGACY_PLUGIN_COMMANDS) assertEquals(classifyCommand(legacy), "ours");
  assert(!PLUGIN_COMMAND.includes("GATEGUARD_STATE_DIR"), "state must follow CLAUDE_PLUGIN_DATA");
  assertEquals(classifyCommand(PLUGIN_COMMAND), "ours");
});
