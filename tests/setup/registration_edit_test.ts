/**
 * The settings-file edit of `gateguard init` in Claude Code's layout: add,
 * update in place, remove, and what is refused.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import {
  CLAUDE_CODE_FORMAT,
  FILE_MATCHER,
  registrationGroups,
  SHELL_MATCHER,
} from "../../src/setup/claude_settings.ts";
import { MCP_CHANGE_MATCHER } from "../../src/tools/gated.ts";
import { editRegistration } from "../../src/setup/registration_edit.ts";

const CMD = "/opt/gateguard/bin/gateguard";

function added(text: string | null, command = CMD): string {
  const r = editRegistration(CLAUDE_CODE_FORMAT, text, command, "add");
  if (!r.ok || r.text === null) throw new Error(r.ok ? "no text" : r.error);
  return r.text;
}

function removed(text: string, command = CMD): string | null {
  const r = editRegistration(CLAUDE_CODE_FORMAT, text, command, "remove");
  if (!r.ok) throw new Error(r.error);
  return r.text;
}

/** One GateGuard group as the editor writes a new one. */
const group = (matcher: string): string =>
  `      {
        "matcher": "${matcher}",
        "hooks": [
          {
            "type": "command",
            "command": "${CMD}",
            "timeout": 10,
            "onFailure": "block"
          }
        ]
      }`;

const handler = (command = CMD): string =>
  `{ "type": "command", "command": "${command}", "timeout": 10 }`;

Deno.test("[init] a missing or blank file gets every entry, and a second run changes nothing", () => {
  const fresh = added(null);
  assertEquals(JSON.parse(fresh), { hooks: { PreToolUse: registrationGroups(CMD) } });
  assertEquals(added(fresh), fresh);
  assertEquals(added(" \n"), fresh);
  assertEquals(registrationGroups(CMD).map((g) => (g as { matcher: string }).matcher), [
    FILE_MATCHER,
    SHELL_MATCHER,
    MCP_CHANGE_MATCHER,
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
${group(SHELL_MATCHER)},
${group(MCP_CHANGE_MATCHER)}
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
        "hooks": [{ "type": "command", "command": "${CMD}", "timeout": 10, "statusMessage": "gate", "onFailure": "block" }]
      },
      {
        "matcher": "Edit|Write|MultiEdit|NotebookEdit",
        "hooks": [{ "type": "command", "command": "${CMD}", "timeout": 10, "onFailure": "block" }]
      },
${group(MCP_CHANGE_MATCHER)}
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
  assertEquals(editRegistration(CLAUDE_CODE_FORMAT, null, CMD, "remove"), {
    ok: true,
    text: null,
    leftAlone: [],
  });
});

Deno.test("[init] a file that does not parse or has the wrong shape is refused", () => {
  assertEquals(editRegistration(CLAUDE_CODE_FORMAT, '{\n  "hooks": {,\n}', CMD, "add"), {
    ok: false,
    error: `cannot parse it at 2:13: expected a property name or '}', found character ","`,
  });
  assertEquals(editRegistration(CLAUDE_CODE_FORMAT, "[]", CMD, "add"), {
    ok: false,
    error: "the top level is not a JSON object",
  });
  assertEquals(editRegistration(CLAUDE_CODE_FORMAT, '{"hooks": []}', CMD, "add"), {
    ok: false,
    error: '"hooks" is not an object',
  });
  assertEquals(editRegistration(CLAUDE_CODE_FORMAT, '{"hooks": {"PreToolUse": {}}}', CMD, "add"), {
    ok: false,
    error: '"hooks.PreToolUse" is not a list',
  });
  assertEquals(editRegistration(CLAUDE_CODE_FORMAT, '{"hooks": 1}', CMD, "remove"), {
    ok: true,
    text: '{"hooks": 1}',
    leftAlone: [],
  });
});

Deno.test("[init] other people's hooks that mention gateguard are kept byte for byte, and named", () => {
  const theirs = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "logger -t gateguard \\"bash call\\"" }] },
      { "matcher": "Edit", "hooks": [{ "type": "command", "command": "/opt/tools/gateguard-audit.rb --log" }] },
      { "matcher": "*", "hooks": [{ "type": "command", "command": "tee -a /var/log/gateguard" }] },
      { "matcher": "Write", "hooks": [{ "type": "command", "command": "echo checked by gateguard >> /tmp/log" }] }
    ]
  }
}
`;
  const outcome = editRegistration(CLAUDE_CODE_FORMAT, theirs, CMD, "add");
  if (!outcome.ok || outcome.text === null) throw new Error("refused");
  assert(outcome.text.startsWith(theirs.slice(0, theirs.lastIndexOf("}\n    ]"))), outcome.text);
  const value = JSON.parse(outcome.text);
  assertEquals(value.hooks.PreToolUse.slice(0, 4), JSON.parse(theirs).hooks.PreToolUse);
  assertEquals(value.hooks.PreToolUse.slice(4), registrationGroups(CMD));
  assertEquals(outcome.leftAlone, [
    'logger -t gateguard "bash call"',
    "tee -a /var/log/gateguard",
    "echo checked by gateguard >> /tmp/log",
  ]);
  assertEquals(removed(outcome.text), theirs);
  const echoOnly = `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
    {"type": "command", "command": "echo checked by gateguard >> /tmp/log"}]}]}}`;
  assertEquals(editRegistration(CLAUDE_CODE_FORMAT, echoOnly, CMD, "remove"), {
    ok: true,
    text: echoOnly,
    leftAlone: ["echo checked by gateguard >> /tmp/log"],
  });
});
