/**
 * `gateguard init` as pure functions: the registered command, how GateGuard
 * handlers and matchers are recognised, the settings-file edit (add, update
 * in place, remove) and the diff of `--dry-run`.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import {
  editRegistration,
  FILE_MATCHER,
  isGateGuardCommand,
  matcherCovers,
  PLUGIN_COMMAND,
  pluginHooksJson,
  registrationCommand,
  registrationGroups,
  settingsFiles,
  SHELL_MATCHER,
  shellQuote,
  unifiedDiff,
} from "../../src/cli/init.ts";

const CMD = "/opt/gateguard/bin/gateguard";
const MODULE = "file:///repo%20dir/src/cli/init.ts";

function added(text: string | null, command = CMD): string {
  const r = editRegistration(text, command, "add");
  if (!r.ok || r.text === null) throw new Error(r.ok ? "no text" : r.error);
  return r.text;
}

function removed(text: string, command = CMD): string | null {
  const r = editRegistration(text, command, "remove");
  if (!r.ok) throw new Error(r.error);
  return r.text;
}

const handler = (command = CMD): string =>
  `{ "type": "command", "command": "${command}", "timeout": 10 }`;

Deno.test("[init] a compiled binary registers its own absolute path, quoted for the shell", () => {
  assertEquals(
    registrationCommand("/usr/local/bin/gateguard", MODULE, false),
    "/usr/local/bin/gateguard",
  );
  assertEquals(
    registrationCommand("/home/o'k/gate guard", MODULE, false),
    `'/home/o'\\''k/gate guard'`,
  );
  assertEquals(
    registrationCommand("C:\\Program Files\\gateguard.exe", MODULE, true),
    '"C:/Program Files/gateguard.exe"',
  );
});

Deno.test("[init] from source the deno run line carries the binary's permission set", () => {
  assertEquals(
    registrationCommand("/usr/bin/deno", MODULE, false),
    "/usr/bin/deno run --quiet --no-prompt --config '/repo dir/deno.json' " +
      "--permission-set=gateguard '/repo dir/src/main.ts'",
  );
  assertEquals(
    registrationCommand("C:\\deno\\deno.exe", "file:///C:/src/gg/src/cli/init.ts", true),
    "C:/deno/deno.exe run --quiet --no-prompt --config C:/src/gg/deno.json " +
      "--permission-set=gateguard C:/src/gg/src/main.ts",
  );
  assertEquals(shellQuote("plain/path-1.2", false), "plain/path-1.2");
});

Deno.test("[init] GateGuard commands are recognised by program name or permission set", () => {
  for (
    const c of [
      CMD,
      '"/x y/gateguard.exe"',
      "/dl/gateguard-linux-x64",
      "C:\\bin\\gateguard-windows-x64.exe",
      "/usr/bin/deno run --config /r/deno.json --permission-set=gateguard /r/src/main.ts",
      PLUGIN_COMMAND,
    ]
  ) assert(isGateGuardCommand(c), c);
  for (
    const c of [
      "node scripts/hooks/gateguard-fact-force.js",
      "prettier --write",
      "/usr/bin/gateguardian",
      "echo gate guard",
    ]
  ) assert(!isGateGuardCommand(c), c);
});

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

Deno.test("[init] a missing or blank file gets both entries, and a second run changes nothing", () => {
  const fresh = added(null);
  assertEquals(JSON.parse(fresh), { hooks: { PreToolUse: registrationGroups(CMD) } });
  assertEquals(added(fresh), fresh);
  assertEquals(added(" \n"), fresh);
  assertEquals(registrationGroups(CMD).map((g) => (g as { matcher: string }).matcher), [
    FILE_MATCHER,
    SHELL_MATCHER,
  ]);
});

Deno.test("[init] other settings, hooks and comments stay byte for byte", () => {
  const before = `{
  // team settings
  "permissions": { "allow": ["Bash(ls)"] }, /* keep */
  "hooks": {
    "PostToolUse": [{ "matcher": "Edit", "hooks": [{ "type": "command", "command": "fmt" }] }],
    "PreToolUse": [
      { "matcher": "Read", "hooks": [{ "type": "command", "command": "audit" }] } // theirs
    ]
  }
}
`;
  const group = (matcher: string): string =>
    `      {
        "matcher": "${matcher}",
        "hooks": [
          {
            "type": "command",
            "command": "${CMD}",
            "timeout": 10
          }
        ]
      }`;
  const after = added(before);
  assertEquals(
    after,
    `{
  // team settings
  "permissions": { "allow": ["Bash(ls)"] }, /* keep */
  "hooks": {
    "PostToolUse": [{ "matcher": "Edit", "hooks": [{ "type": "command", "command": "fmt" }] }],
    "PreToolUse": [
      { "matcher": "Read", "hooks": [{ "type": "command", "command": "audit" }] }, // theirs
${group(FILE_MATCHER)},
${group(SHELL_MATCHER)}
    ]
  }
}
`,
  );
  assertEquals(added(after), after);
  assertEquals(removed(after), before);
});

Deno.test("[init] an older GateGuard entry is updated in place, not duplicated", () => {
  const before = `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "/old/gateguard", "timeout": 5, "statusMessage": "gate" }]
      },
      {
        "matcher": "Edit|Write",
        "hooks": [{ "type": "command", "command": "/old/gateguard", "args": ["-v"] }]
      }
    ]
  }
}
`;
  const after = added(before);
  assertEquals(
    after,
    `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash|PowerShell",
        "hooks": [{ "type": "command", "command": "${CMD}", "timeout": 10, "statusMessage": "gate" }]
      },
      {
        "matcher": "Edit|Write|MultiEdit|NotebookEdit",
        "hooks": [{ "type": "command", "command": "${CMD}", "timeout": 10 }]
      }
    ]
  }
}
`,
  );
});

Deno.test("[init] GateGuard handlers shared with other hooks and extra copies are taken out", () => {
  const before = `{"hooks": {"PreToolUse": [
  {"matcher": "*", "hooks": [{"type": "command", "command": "lint"}, ${handler("/a/gateguard")}]},
  {"matcher": "Edit", "hooks": [${handler()}, ${handler()}]},
  {"matcher": "Write", "hooks": [${handler()}]}
]}}`;
  const after = added(before);
  const value = JSON.parse(after);
  assertEquals(value.hooks.PreToolUse, [
    { matcher: "*", hooks: [{ type: "command", command: "lint" }] },
    ...registrationGroups(CMD),
  ]);
  assertEquals(added(after), after);
});

Deno.test("[init] a binary under another name is still recognised as this build", () => {
  const once = added(null, "/opt/gg");
  assertEquals(added(once, "/opt/gg"), once);
  assertEquals(removed(once, "/opt/gg"), "{}\n");
});

Deno.test("[init] CRLF and tab layout are kept when entries are added", () => {
  const before = '{\r\n\t"model": "opus"\r\n}\r\n';
  const after = added(before);
  assert(
    after.startsWith('{\r\n\t"model": "opus",\r\n\t"hooks": {\r\n\t\t"PreToolUse": [\r\n'),
    after,
  );
  assert(!after.replaceAll("\r\n", "").includes("\n"), "a bare LF slipped in");
  assertEquals(removed(after), before);
});

Deno.test("[init] remove leaves containers the user made, and does nothing when absent", () => {
  const own = `{"hooks": {"PreToolUse": [], "Stop": []}}`;
  assertEquals(removed(own), own);
  const withOurs =
    `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [${handler()}]}], "Stop": []}}`;
  assertEquals(removed(withOurs), `{"hooks": {"Stop": []}}`);
  assertEquals(
    removed(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [${handler()}]}]}}`),
    "{}",
  );
  assertEquals(editRegistration(null, CMD, "remove"), { ok: true, text: null });
});

Deno.test("[init] a file that does not parse or has the wrong shape is refused", () => {
  assertEquals(editRegistration('{\n  "hooks": {,\n}', CMD, "add"), {
    ok: false,
    error: `cannot parse it at 2:13: expected a property name or '}', found character ","`,
  });
  assertEquals(editRegistration("[]", CMD, "add"), {
    ok: false,
    error: "the top level is not a JSON object",
  });
  assertEquals(editRegistration('{"hooks": []}', CMD, "add"), {
    ok: false,
    error: '"hooks" is not an object',
  });
  assertEquals(editRegistration('{"hooks": {"PreToolUse": {}}}', CMD, "add"), {
    ok: false,
    error: '"hooks.PreToolUse" is not a list',
  });
  assertEquals(editRegistration('{"hooks": 1}', CMD, "remove"), { ok: true, text: '{"hooks": 1}' });
});

Deno.test("[init] the dry-run diff is a unified diff with three lines of context", () => {
  assertEquals(
    unifiedDiff("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk\n", "x", "y"),
    "--- x\n+++ y\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -7,4 +7,5 @@\n g\n h\n i\n-j\n+J\n+k\n",
  );
  assertEquals(
    unifiedDiff("", "a\nb\n", "/dev/null", "y"),
    "--- /dev/null\n+++ y\n@@ -0,0 +1,2 @@\n+a\n+b\n",
  );
  assertEquals(unifiedDiff("a\r\n", "a\n", "x", "y"), "");
});

Deno.test("[init] the shipped plugin hooks.json is the one init prints", async () => {
  const shipped = await Deno.readTextFile(new URL("../../hooks/hooks.json", import.meta.url));
  assertEquals(shipped, pluginHooksJson());
  const plugin = JSON.parse(shipped);
  assertEquals(plugin.hooks.PreToolUse, registrationGroups(PLUGIN_COMMAND));
  assert(typeof plugin.description === "string" && plugin.description.length > 0);
  assert(PLUGIN_COMMAND.includes('"${CLAUDE_PLUGIN_ROOT}/src/main.ts"'));
  assert(!PLUGIN_COMMAND.includes("GATEGUARD_STATE_DIR"), "state must follow CLAUDE_PLUGIN_DATA");
});
