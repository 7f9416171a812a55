/**
 * Commands that start programs GateGuard would no longer gate, in process:
 * a variable that configures GateGuard handed to what a command runs, and
 * an agent's CLI started without GateGuard's hooks, by every spelling the
 * reader follows, beside ordinary runs of the same programs.
 */
import { assertEquals } from "../helpers/assert.ts";
import type { ShellDialect } from "../../src/shell/dialect.ts";
import { reaches } from "./shell_reader.ts";

function ungated(command: string, dialect: ShellDialect = "bash"): boolean {
  return reaches("ungated-launch", command, dialect);
}

function reconfigures(command: string, dialect: ShellDialect = "bash"): boolean {
  return reaches("agent-config", command, dialect);
}

Deno.test("[self-protection] a command that hands GateGuard's switches to what it runs is caught", () => {
  const caught: [string, ShellDialect][] = [
    ["GATEGUARD_DISABLED=1 claude -p 'clean up'", "bash"],
    ["export ECC_GATEGUARD=off; codex exec x", "bash"],
    ["env ECC_DISABLED_HOOKS=gateguard make agent", "bash"],
    ["declare -x GATEGUARD_FACT_FORCE_MAX_DENIALS=1", "bash"],
    ["sh -c 'GATEGUARD_BASH_ROUTINE_DISABLED=1 gemini -p x'", "bash"],
    ["$env:GATEGUARD_DISABLED = '1'; claude -p x", "powershell"],
    ["Set-Item env:ECC_GATEGUARD off", "powershell"],
    ["[Environment]::SetEnvironmentVariable('GATEGUARD_EXEMPT_GLOBS', '**')", "powershell"],
    [`cmd /c "set GATEGUARD_DISABLED=1 && codex exec x"`, "powershell"],
  ];
  for (const [command, dialect] of caught) assertEquals(ungated(command, dialect), true, command);
});

Deno.test("[self-protection] an agent's CLI started without GateGuard's hooks is caught", () => {
  const caught: [string, ShellDialect][] = [
    ["claude -p --bare 'remove it'", "bash"],
    ["claude --setting-sources local -p hi", "bash"],
    [`claude -p --settings '{"disableAllHooks":true}' x`, "bash"],
    ["CLAUDE_CONFIG_DIR=/tmp/empty claude -p x", "bash"],
    ["CLAUDE_CODE_SIMPLE=1 claude -p x", "bash"],
    ["claude --safe-mode -p x", "bash"],
    ["HOME=/tmp/h codex exec x", "bash"],
    ["codex exec -c hooks.PreToolUse=[] x", "bash"],
    ["codex --disable=hooks exec x", "bash"],
    ["npx @anthropic-ai/claude-code@latest --bare -p x", "bash"],
    ["copilot --config-dir /tmp/c -p x", "bash"],
    ["$env:CLAUDE_CONFIG_DIR='C:\\e'; claude -p x", "powershell"],
    ["claude.exe --bare -p x", "powershell"],
    ["cmd /c claude --bare -p x", "powershell"],
    // A program no table knows may run its arguments: an agent among them is started.
    ["tini -- claude --bare -p x", "bash"],
    ["dotenv -- claude --settings x.json -p hi", "bash"],
    ["./run.sh env CLAUDE_CODE_SIMPLE=1 claude -p x", "bash"],
    ["pueue add -- codex --disable hooks exec x", "bash"],
    ["op run -- npx @anthropic-ai/claude-code --bare -p x", "bash"],
    ["./run.sh env GATEGUARD_DISABLED=1 make deploy", "bash"],
    ["tini -- env CLAUDE_CONFIG_DIR=/tmp/e claude -p x", "bash"],
    // Arguments only known at run time may be the option that drops the hooks.
    ["f=--bare; claude $f -p x", "bash"],
    ["claude $(echo --bare) -p x", "bash"],
    ['claude "$@"', "bash"],
    ["echo --bare | xargs claude -p x", "bash"],
    ["xargs claude -p x <<< --bare", "bash"],
  ];
  for (const [command, dialect] of caught) assertEquals(ungated(command, dialect), true, command);
});

Deno.test("[self-protection] ordinary runs of agents and ordinary variables are left alone", () => {
  const left: [string, ShellDialect][] = [
    ["claude -p 'summarize the diff'", "bash"],
    ["HOME=/tmp/h npm test", "bash"],
    ["MY_VAR=1 claude -p x", "bash"],
    ["codex exec -c model=o3 x", "bash"],
    ["echo GATEGUARD_DISABLED=1", "bash"],
    ["echo claude --bare", "bash"],
    ["grep -rn claude --bare docs", "bash"],
    ["tini -- claude -p x", "bash"],
    ["git diff | xargs echo claude --bare", "bash"],
    ["ls | xargs -n1 wc -l", "bash"],
    ["git commit -m 'GATEGUARD_DISABLED=1 docs'", "bash"],
    ["export PATH=$PATH:/x", "bash"],
    ["$env:PATH += ';C:\\x'", "powershell"],
    ["if ($env:GATEGUARD_DISABLED -eq '1') { 'on' }", "powershell"],
  ];
  for (const [command, dialect] of left) assertEquals(ungated(command, dialect), false, command);
});

Deno.test("[self-protection] an agent's own subcommand that changes which hooks it loads is caught; reading its setup is not", () => {
  for (
    const command of [
      "claude plugin disable gateguard@gateguard",
      "claude plugins uninstall gateguard",
      "claude plugin marketplace add evil/marketplace",
      "claude import codex",
      "codex features disable hooks",
      "codex plugin add helper",
      "gemini extensions install https://example.com/ext",
      "gemini hooks migrate",
      "copilot config disableAllHooks true",
      "copilot plugin disable gateguard",
      "npx @openai/codex features disable hooks",
      "sh -c 'claude plugin disable gateguard'",
      // An MCP server is a program every later session starts before any tool call.
      "claude mcp add helper -- node server.js",
      'claude mcp add-json helper \'{"command":"sh"}\'',
      "codex mcp add helper -- sh",
      "gemini mcp add helper sh",
      "gemini mcp enable helper",
      "copilot mcp add helper -- sh -c x",
      "copilot mcp enable helper",
      "./with-env.sh claude plugin disable gateguard",
      "tini -- codex features disable hooks",
      // A subcommand or action only known at run time may be any of them.
      'claude plugin "$action" gateguard',
      "claude $cmd disable gateguard",
      "echo plugin disable gateguard | xargs claude",
    ]
  ) {
    assertEquals(reconfigures(command), true, command);
  }
  assertEquals(reconfigures("codex features disable hooks", "powershell"), true);
  for (
    const command of [
      "claude plugin list",
      "claude mcp list",
      "claude mcp remove helper",
      "codex mcp login helper",
      "claude plugin validate .",
      "codex features list",
      "gemini extensions list",
      "copilot plugin list",
      "copilot mcp list",
      "copilot mcp disable helper",
      "claude -p 'plugin disable'",
      "git commit -m 'claude plugin disable'",
      // A lone unknown word is read as a prompt here (as a possible option, it is an ungated launch).
      'claude -p "$PROMPT"',
    ]
  ) {
    assertEquals(reconfigures(command), false, command);
  }
});
