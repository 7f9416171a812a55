/**
 * A short live demonstration: real payloads through the real CLI (with the
 * binary's permissions) in a throwaway project, printing what Claude Code
 * would receive for a first Edit, its retry, a read-only command, a first
 * routine command and a destructive command.
 *
 * Usage: deno task demo
 *
 * @module
 */

import { sourceArgv } from "../src/platform/permissions.ts";

const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

async function hook(payload: unknown, env: Record<string, string>): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: sourceArgv(Deno.execPath(), REPO).slice(1),
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
    env,
    clearEnv: true,
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(payload)));
  await w.close();
  const out = new TextDecoder().decode((await child.output()).stdout).trim();
  if (out === "") return "(nothing printed: the call proceeds)";
  const o = JSON.parse(out).hookSpecificOutput;
  return o.permissionDecision === "deny"
    ? `DENIED:\n${o.permissionDecisionReason}`
    : `ALLOWED WITH A NOTE:\n${o.additionalContext}`;
}

if (import.meta.main) {
  const tmp = await Deno.makeTempDir({ prefix: "gateguard-demo-" });
  const project = `${tmp}/project`;
  await Deno.mkdir(`${project}/src`, { recursive: true });
  await Deno.writeTextFile(`${project}/src/report.py`, "def total(rows):\n    return sum(rows)\n");
  const env = { GATEGUARD_STATE_DIR: `${tmp}/state`, CLAUDE_PROJECT_DIR: project, HOME: tmp };
  const base = { session_id: "demo", cwd: project, hook_event_name: "PreToolUse" };
  const editCall = {
    ...base,
    tool_name: "Edit",
    tool_input: {
      file_path: `${project}/src/report.py`,
      old_string: "return sum(rows)",
      new_string: "return round(sum(rows), 2)",
    },
  };
  const steps: [string, unknown][] = [
    ["1. The agent's first Edit of src/report.py", editCall],
    ["2. The same Edit again, after presenting the facts", editCall],
    ["3. A read-only first shell command", {
      ...base,
      tool_name: "Bash",
      tool_input: { command: "ls src" },
    }],
    ["4. The first routine shell command", {
      ...base,
      tool_name: "Bash",
      tool_input: { command: "pytest -q" },
    }],
    ["5. A destructive command", {
      ...base,
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
    }],
    ["6. The destructive command retried", {
      ...base,
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
    }],
  ];
  for (const [title, payload] of steps) {
    console.log(`\n=== ${title}\n${await hook(payload, env)}`);
  }
  await Deno.remove(tmp, { recursive: true });
}
