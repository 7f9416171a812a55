/**
 * Doctor's probe of a registered command: how its result is judged, and
 * which commands are run with what environment.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import {
  pluginDataDir,
  probeFindings,
  probePayload,
  probeProblem,
  type ProbeResult,
  type ProbeRun,
} from "../../src/setup/probe.ts";
import type { Registration } from "../../src/setup/claude_settings.ts";

const DENY = JSON.stringify({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    permissionDecisionReason: "x",
  },
});

const exited = (code: number, stdout: string, stderr = ""): ProbeResult => ({
  kind: "exited",
  code,
  stdout,
  stderr,
});

Deno.test("[doctor] a probe passes only on exit 0 with one JSON deny", () => {
  assertEquals(probeProblem(exited(0, `${DENY}\n`)), null);
  assertEquals(
    probeProblem({ kind: "not-started", why: "NotFound" }),
    "it could not be started (NotFound)",
  );
  assertEquals(
    probeProblem({ kind: "timed-out", seconds: 10 }),
    "it gave no answer within its 10-second timeout",
  );
  assertEquals(
    probeProblem(exited(1, "", "error: Error loading .npmrc at /h/.npmrc.\nCaused by: x")),
    "it exited with status 1: error: Error loading .npmrc at /h/.npmrc.",
  );
  assertEquals(
    probeProblem(exited(127, "", "sh: 1: /gone/deno: not found")),
    "it exited with status 127: sh: 1: /gone/deno: not found",
  );
  assertEquals(probeProblem(exited(0, "")), "it printed no answer");
  assertEquals(
    probeProblem(exited(0, "hello\n")),
    'it printed something that is not JSON ("hello")',
  );
  assertEquals(
    probeProblem(exited(0, "{}")),
    "it did not deny the probe `rm -rf /tmp/gateguard-doctor-probe` (answered no decision)",
  );
  assertEquals(
    probeProblem(
      exited(0, JSON.stringify({ hookSpecificOutput: { permissionDecision: "allow" } })),
    ),
    'it did not deny the probe `rm -rf /tmp/gateguard-doctor-probe` (answered "allow")',
  );
  // A deny without the wrapper is ignored by Claude Code, so it is not GateGuard's answer either.
  assert(probeProblem(exited(0, JSON.stringify({ permissionDecision: "deny" }))) !== null);
});

Deno.test("[doctor] the probe payload is a first Bash call of a fresh session in the project", () => {
  const payload = JSON.parse(probePayload("/p", "s1"));
  assertEquals(payload.hook_event_name, "PreToolUse");
  assertEquals(payload.cwd, "/p");
  assertEquals(payload.session_id, "s1");
  assertEquals(payload.tool_name, "Bash");
  assertEquals(payload.tool_input.command, "rm -rf /tmp/gateguard-doctor-probe");
});

function reg(origin: string, command: string, extra: Partial<Registration> = {}): Registration {
  return {
    origin,
    plugin: false,
    matcher: "Bash|PowerShell",
    command,
    handler: { type: "command", command, timeout: 10, onFailure: "block" },
    ...extra,
  };
}

Deno.test("[doctor] each distinct command runs once, in a private state dir, with the user's home", async () => {
  const runs: ProbeRun[] = [];
  const answers: Record<string, ProbeResult> = {
    "/ok/gateguard": exited(0, DENY),
    "/broken/gateguard": exited(1, "", "boom"),
  };
  let n = 0;
  const findings = await probeFindings(
    [
      reg("project settings /p/.claude/settings.json", "/ok/gateguard"),
      reg("project settings /p/.claude/settings.json", "/ok/gateguard", { matcher: "Edit" }),
      reg("user settings /h/.claude/settings.json", "/broken/gateguard", {
        handler: { type: "command", command: "/broken/gateguard" },
      }),
      reg("local settings /p/.claude/settings.local.json", "/missing/gateguard"),
      reg("plugin gg@m /h/.claude/plugins/c/hooks/hooks.json", "sh $CLAUDE_PLUGIN_ROOT/x.sh", {
        plugin: true,
        pluginInstall: { id: "gg@m", root: "/h/.claude/plugins/c" },
      }),
    ],
    {
      projectRoot: "/p",
      home: "/h",
      path: "/usr/bin",
      lookup: {
        state: (path) => path === "/missing/gateguard" ? "missing" : "ok",
        onPath: () => "/bin/sh",
      },
      stateDir: () => Promise.resolve(`/tmp/state-${n++}`),
      run: (run) => {
        runs.push(run);
        return Promise.resolve(answers[run.command] ?? exited(0, DENY));
      },
    },
  );
  // The missing program is the program check's finding; it is not run.
  assertEquals(runs.map((r) => r.command), [
    "/ok/gateguard",
    "/broken/gateguard",
    "sh $CLAUDE_PLUGIN_ROOT/x.sh",
  ]);
  assertEquals(runs[0].env, {
    PATH: "/usr/bin",
    CLAUDE_PROJECT_DIR: "/p",
    GATEGUARD_STATE_DIR: "/tmp/state-0",
    HOME: "/h",
  });
  assertEquals(runs[0].cwd, "/p");
  assertEquals(runs[0].timeoutSeconds, 10);
  assertEquals(runs[2].env.CLAUDE_PLUGIN_ROOT, "/h/.claude/plugins/c");
  assertEquals(runs[2].env.CLAUDE_PLUGIN_DATA, "/h/.claude/plugins/data/gg-m");
  assertEquals(runs[2].env.GATEGUARD_STATE_DIR, "/tmp/state-2");
  assertEquals(findings, [
    {
      level: "ok",
      text:
        "the registered command of project settings /p/.claude/settings.json answers as GateGuard",
    },
    {
      level: "FAIL",
      text: "the registered command of user settings /h/.claude/settings.json does not answer as " +
        "GateGuard: it exited with status 1: boom; so Claude Code lets every gated call through; " +
        'fix: run `gateguard init` again from the installed binary (command: "/broken/gateguard")',
    },
    {
      level: "ok",
      text: "the registered command of plugin gg@m /h/.claude/plugins/c/hooks/hooks.json " +
        "answers as GateGuard",
    },
  ]);
  assertEquals(pluginDataDir("/h", "gateguard@local"), "/h/.claude/plugins/data/gateguard-local");
});
