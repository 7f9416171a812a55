/**
 * What `gateguard doctor` finds, as pure functions: finding registrations, judging
 * their coverage of the six gated tools, reporting the project file and
 * the sources of the effective configuration.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  configurationFindings,
  coverageFindings,
  healthFindings,
  projectFileFindings,
} from "../../src/setup/claude_doctor.ts";
import {
  type Registration,
  registrationGroups,
  registrationsOf,
} from "../../src/setup/claude_settings.ts";
import { type ProjectTrust, type Settings, settingsFrom } from "../../src/config/settings.ts";
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
  handler: { type: "command", command },
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
  assertEquals(registrationsOf(settings, "s", false, "/x/renamed"), {
    ours: [reg(undefined, "s", false), reg("Bash", "s", false, "/x/renamed")],
    unsure: [],
  });
  const none = { ours: [], unsure: [] };
  assertEquals(registrationsOf({ hooks: { PreToolUse: {} } }, "s", false, CMD), none);
  assertEquals(registrationsOf([], "s", false, CMD), none);
  const echo = {
    hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "echo gateguard" }] }] },
  };
  assertEquals(registrationsOf(echo, "s", false, CMD), { ours: [], unsure: ["echo gateguard"] });
});

Deno.test("[doctor] no registration at all is a problem with the init fix", () => {
  const [f] = coverageFindings([]);
  assertEquals(f.level, "FAIL");
  assertStringIncludes(f.text, "fix: run `gateguard init`");
});

Deno.test("[doctor] a Bash-only matcher is flagged with the tools it misses", () => {
  assertEquals(coverageFindings([reg("Bash")]).slice(0, 1), [{
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

Deno.test("[doctor] init's entries, one catch-all, or a regex reaching all six are healthy", () => {
  const ok = [{
    level: "ok",
    text: "registrations reach Edit, Write, MultiEdit, NotebookEdit, Bash, PowerShell once each",
  }];
  const all = registrationGroups(CMD).map((g) => reg((g as { matcher: string }).matcher));
  assertEquals(coverageFindings(all), ok);
  assertEquals(coverageFindings([reg("*")]), ok);
  assertEquals(coverageFindings([reg(".*Edit|Write|Bash|PowerShell")]).slice(0, 1), ok);
  // The same command in several settings files runs once.
  assertEquals(coverageFindings([reg("*", "user"), reg("*", "local")]), ok);
});

Deno.test("[self-protection] doctor warns when MCP tools that may change files reach no registration", () => {
  // The two entries of an older init: every gated tool, but no MCP server's writer.
  const older = [reg("Edit|Write|MultiEdit|NotebookEdit"), reg("Bash|PowerShell")];
  assertEquals(coverageFindings(older).map((f) => f.level), ["ok", "WARN"]);
  assertEquals(
    coverageFindings(older)[1].text,
    "MCP tools that may change files (mcp__filesystem__write_file, mcp__filesystem__edit_file, " +
      "mcp__filesystem__move_file) reach no registration, so an MCP server could write " +
      "GateGuard's own files unseen; fix: run `gateguard init` (it registers them, looked at " +
      "for GateGuard's own files only)",
  );
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

const NO_TRUST_NEEDED = { state: "not-needed", looseningKeys: [], storeProblem: null } as const;

Deno.test("[project-config-trust] doctor warns, without failing, on loosening keys that wait for trust", () => {
  const loaded = (trust: ProjectTrust) =>
    projectFileFindings(withProjectFile({
      state: "loaded",
      path: "/p/.gateguard.jsonc",
      unknownKeys: [],
      invalid: [],
      trust,
      config: {},
    })).slice(1);
  assertEquals(loaded(NO_TRUST_NEEDED), []);
  const keys = ["exemptGlobs", "maxDenials"];
  assertEquals(loaded({ state: "trusted", looseningKeys: keys, storeProblem: null }), [{
    level: "info",
    text: "project file trusted by you, so its exemptGlobs, maxDenials apply",
  }]);
  assertEquals(loaded({ state: "changed", looseningKeys: keys, storeProblem: null }), [{
    level: "WARN",
    text: "project file /p/.gateguard.jsonc: exemptGlobs, maxDenials would loosen GateGuard and " +
      "are ignored: the file is changed since you trusted it; if you have read it and want " +
      "them, run `gateguard trust /p/.gateguard.jsonc`",
  }]);
  assertEquals(loaded({ state: "untrusted", looseningKeys: keys, storeProblem: "is malformed" }), [{
    level: "WARN",
    text: "project file /p/.gateguard.jsonc: exemptGlobs, maxDenials would loosen GateGuard and " +
      "are ignored: the file is not trusted (the trust store is malformed, so it trusts " +
      "nothing); if you have read it and want them, run `gateguard trust /p/.gateguard.jsonc`",
  }]);
});

Deno.test("[doctor] unknown keys and invalid values of the project file are problems", () => {
  const found = projectFileFindings(withProjectFile({
    state: "loaded",
    path: "/p/.gateguard.jsonc",
    trust: NO_TRUST_NEEDED,
    config: {},
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
      trust: { state: "trusted" as const, looseningKeys: ["maxDenials"], storeProblem: null },
      config: { maxDenials: 4 },
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

Deno.test("[doctor] every cause that keeps a registered GateGuard from gating is one FAIL line", () => {
  const handler = (extra: Record<string, JsonValue>): Registration => ({
    ...reg("*", "project settings /p/.claude/settings.json"),
    handler: { type: "command", command: CMD, timeout: 10, onFailure: "block", ...extra },
  });
  const states: Record<string, "missing" | "directory" | "not-executable" | "ok"> = {
    [CMD]: "ok",
    "/opt/dir/gateguard": "directory",
    "/opt/ro/gateguard": "not-executable",
    "/usr/bin/deno": "ok",
  };
  const lookup = {
    state: (path: string) => states[path] ?? "missing",
    onPath: (name: string) => name === "gateguard-linux-x64" ? "/bin/gateguard-linux-x64" : null,
  };
  const texts = (parsed: Array<[string, JsonValue]>, regs: Registration[]): string[] =>
    healthFindings(parsed, regs, lookup).map((f) => {
      assertEquals(f.level, "FAIL");
      return f.text;
    });
  assertEquals(texts([], [handler({})]), []);
  const where = "the GateGuard handler in project settings /p/.claude/settings.json";
  const fix = "fix: run `gateguard init` (it rewrites GateGuard's own entries)";
  assertEquals(texts([], [handler({ async: true })]), [
    `${where} runs in the background, so its denial arrives after the call ran; ${fix}`,
  ]);
  assertEquals(texts([], [handler({ if: "Bash(git *)" })]), [
    `${where} has an "if" filter, so it runs only for the calls that filter picks; ${fix}`,
  ]);
  assertEquals(texts([], [handler({ type: "http" })]), [
    `${where} has "type": "http", not "command", so Claude Code does not run it as GateGuard needs; ${fix}`,
  ]);
  assertEquals(texts([], [handler({ timeout: 0.001 })]), [
    `${where} has "timeout": 0.001; under 2 seconds the hook is cut off and the call goes through; ${fix}`,
  ]);
  const { onFailure: _, ...open } = handler({}).handler;
  assertEquals(texts([], [{ ...handler({}), handler: open }]), [
    `${where} lacks "onFailure": "block", so a hook that cannot start, crashes or times out ` +
    `lets the call through; ${fix}`,
  ]);
  assertEquals(texts([], [handler({ onFailure: "continue" })]), [
    `${where} has "onFailure": "continue", so a hook that cannot start, crashes or times out ` +
    `lets the call through; ${fix}`,
  ]);
  assertEquals(texts([["/p/s.json", { disableAllHooks: true }]], []), [
    '/p/s.json sets "disableAllHooks": true, so no hook runs, GateGuard included; ' +
    'fix: remove "disableAllHooks" from it',
  ]);
  assertEquals(texts([["/p/s.json", { env: { GATEGUARD_DISABLED: "1" } }]], []), [
    "the env block of /p/s.json sets GATEGUARD_DISABLED=1, which switches GateGuard off; " +
    "fix: remove that variable from the block",
  ]);
  assertEquals(texts([["/p/s.json", { env: { ECC_GATEGUARD: "off", X: "1" } }]], []), [
    'the env block of /p/s.json sets ECC_GATEGUARD="off", which switches GateGuard off; ' +
    "fix: remove that variable from the block",
  ]);
  const again = "fix: run `gateguard init` again from the installed binary";
  const program = (command: string): string[] =>
    texts([], [{
      ...handler({}),
      command,
      handler: { type: "command", command, timeout: 10, onFailure: "block" },
    }]);
  assertEquals(program("/opt/dir/gateguard"), [
    `registered command "/opt/dir/gateguard" is a directory, so the hook cannot run; ${again}`,
  ]);
  assertEquals(program("/opt/ro/gateguard"), [
    'registered command "/opt/ro/gateguard" is not executable, so the hook cannot run; ' +
    "fix: chmod +x /opt/ro/gateguard",
  ]);
  assertEquals(program("gateguard"), [
    `the registered command starts "gateguard", which is not on PATH, so the hook cannot start; ${again} (it registers an absolute path)`,
  ]);
  assertEquals(program("gateguard-linux-x64 hook"), []);
  // The variables a from-source command sets come before the program it starts.
  assertEquals(
    program(
      `GATEGUARD_HOME="$HOME" HOME=/r DENO_DIR=/r/.cache/deno /gone/deno run ` +
        "--permission-set=gateguard /r/src/main.ts",
    ),
    [`registered command "/gone/deno" does not exist, so the hook cannot run; ${again}`],
  );
  // A from-source line of an older init names the checkout's deno.json, which has Deno read
  // the configs of every folder above the checkout first.
  const above = (config: string) =>
    `the registered command runs Deno with "${config}", so before GateGuard starts Deno reads ` +
    "the deno.json, deno.jsonc and package.json of every folder above the checkout, where a " +
    "broken file stops every call; fix: run `gateguard init` again from the checkout (it " +
    "registers deno.run.json)";
  const fromSource = (config: string) =>
    `HOME=/r /usr/bin/deno run --quiet ${config} --permission-set=gateguard /r/src/main.ts`;
  assertEquals(program(fromSource("--config /r/deno.json")), [above("/r/deno.json")]);
  assertEquals(program(fromSource("-c /r/deno.jsonc")), [above("/r/deno.jsonc")]);
  assertEquals(program(fromSource("--config=/r/deno.json")), [above("/r/deno.json")]);
  assertEquals(program(fromSource("--config /r/deno.run.json")), []);
});
