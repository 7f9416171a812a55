/**
 * `gateguard doctor` as pure functions: finding registrations, judging
 * their coverage of the six gated tools, reporting the project file and
 * the sources of the effective configuration.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  configurationFindings,
  coverageFindings,
  projectFileFindings,
  type Registration,
  registrationsOf,
} from "../../src/cli/doctor.ts";
import { registrationGroups } from "../../src/setup/claude_settings.ts";
import { type Settings, settingsFrom } from "../../src/config/settings.ts";
import type { JsonValue } from "../../src/config/jsonc.ts";

const CMD = "/usr/local/bin/gateguard";

const reg = (
  matcher: unknown,
  origin = "project",
  plugin = false,
  command = CMD,
): Registration => ({
  origin,
  plugin,
  matcher,
  command,
});

Deno.test("[doctor] registrations are read from hooks.PreToolUse, other handlers ignored", () => {
  const settings: JsonValue = {
    hooks: {
      PreToolUse: [
        { matcher: "Read", hooks: [{ type: "command", command: "audit" }] },
        { hooks: [{ type: "command", command: CMD }] },
        { matcher: "Bash", hooks: [{ type: "command", command: "/x/renamed" }, "junk"] },
        "junk",
      ],
      PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: CMD }] }],
    },
  };
  assertEquals(registrationsOf(settings, "s", false, "/x/renamed"), [
    reg(undefined, "s", false),
    reg("Bash", "s", false, "/x/renamed"),
  ]);
  assertEquals(registrationsOf({ hooks: { PreToolUse: {} } }, "s", false, CMD), []);
  assertEquals(registrationsOf([], "s", false, CMD), []);
});

Deno.test("[doctor] no registration at all is a problem with the init fix", () => {
  const [f] = coverageFindings([]);
  assertEquals(f.level, "FAIL");
  assertStringIncludes(f.text, "fix: run `gateguard init`");
});

Deno.test("[doctor] a Bash-only matcher is flagged with the tools it misses", () => {
  assertEquals(coverageFindings([reg("Bash")]), [{
    level: "FAIL",
    text: "GateGuard never sees Edit, Write, MultiEdit, NotebookEdit, PowerShell: no registered " +
      "matcher reaches them; fix: run `gateguard init` (it registers " +
      "Edit|Write|MultiEdit|NotebookEdit and Bash|PowerShell)",
  }]);
  assertEquals(
    coverageFindings([reg("Edit|Write|MultiEdit"), reg("Bash|PowerShell")])[0].text.split(":")[0],
    "GateGuard never sees NotebookEdit",
  );
});

Deno.test("[doctor] init's two entries, one catch-all, or a regex reaching all six are healthy", () => {
  const ok = [{
    level: "ok",
    text: "registrations reach Edit, Write, MultiEdit, NotebookEdit, Bash, PowerShell once each",
  }];
  const both = registrationGroups(CMD).map((g) => reg((g as { matcher: string }).matcher));
  assertEquals(coverageFindings(both), ok);
  assertEquals(coverageFindings([reg("*")]), ok);
  assertEquals(coverageFindings([reg(".*Edit|Write|Bash|PowerShell")]), ok);
  // The same command in several settings files runs once.
  assertEquals(coverageFindings([reg("*", "user"), reg("*", "local")]), ok);
});

Deno.test("[doctor] a plugin plus a settings copy, or two different commands, run twice", () => {
  const twice = coverageFindings([
    reg("*", "plugin gg@m", true),
    reg("Bash|PowerShell", "project settings"),
  ]);
  assertEquals(twice.map((f) => f.level), ["FAIL"]);
  assertStringIncludes(
    twice[0].text,
    "GateGuard runs twice on Bash, PowerShell (plugin gg@m; project settings)",
  );
  assertStringIncludes(twice[0].text, "fix: keep one registration");
  const commands = coverageFindings([
    reg("*", "user"),
    reg("*", "project", false, "/old/gateguard"),
  ]);
  assertStringIncludes(
    commands[0].text,
    "runs twice on Edit, Write, MultiEdit, NotebookEdit, Bash, PowerShell",
  );
});

function withProjectFile(status: Settings["projectFile"]): Settings {
  return { ...settingsFrom({}), projectFile: status };
}

Deno.test("[doctor] a broken project file is shown with line and column and its fix", () => {
  const [f] = projectFileFindings(withProjectFile({
    state: "broken",
    path: "/p/.gateguard.jsonc",
    message: "unterminated string",
    line: 3,
    column: 14,
  }));
  assertEquals(f, {
    level: "FAIL",
    text:
      "project file /p/.gateguard.jsonc:3:14: unterminated string; the hook ignores the whole " +
      "file until it is fixed; fix: correct it at line 3, column 14",
  });
});

Deno.test("[doctor] unknown keys and invalid values of the project file are problems", () => {
  const found = projectFileFindings(withProjectFile({
    state: "loaded",
    path: "/p/.gateguard.jsonc",
    unknownKeys: [{ key: "disabled", line: 2, column: 3, message: "unknown key" }],
    invalid: [{
      key: "destructiveShell",
      line: 3,
      column: 23,
      message: "the project file cannot turn off the destructive shell gate",
    }],
  }));
  assertEquals(found.map((f) => f.level), ["ok", "FAIL", "FAIL"]);
  assertStringIncludes(
    found[1].text,
    '/p/.gateguard.jsonc:2:3: unknown key "disabled" is ignored; fix: remove it',
  );
  assertStringIncludes(
    found[2].text,
    ':3:23: "destructiveShell": the project file cannot turn off',
  );
  assertEquals(projectFileFindings(withProjectFile(null)), []);
});

Deno.test("[doctor] each configuration line names the value's source", () => {
  const settings = {
    ...settingsFrom({ GATEGUARD_STATE_DIR: "/s", GATEGUARD_METRICS: "yes" }),
    projectFile: {
      state: "loaded" as const,
      path: "/p/.gateguard.jsonc",
      unknownKeys: [],
      invalid: [],
    },
  };
  settings.sources = { ...settings.sources, maxDenials: { kind: "file" } };
  settings.maxDenials = 4;
  const lines = configurationFindings(settings, {
    env: {},
    setBy: new Map([["GATEGUARD_METRICS", "/p/.claude/settings.json"]]),
  }).map((f) => f.text.replace(/ +/g, " "));
  assertEquals(
    lines.find((l) => l.startsWith("state dir")),
    "state dir /s [env GATEGUARD_STATE_DIR]",
  );
  assertEquals(
    lines.find((l) => l.startsWith("decision metrics")),
    "decision metrics on [env GATEGUARD_METRICS (env block of /p/.claude/settings.json)]",
  );
  assertEquals(
    lines.find((l) => l.startsWith("denial cap")),
    "denial cap 4 [file /p/.gateguard.jsonc]",
  );
  assertEquals(lines.find((l) => l.startsWith("file gates")), "file gates on [default]");
});
