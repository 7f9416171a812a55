/**
 * Commands that store an environment variable for later sessions, in
 * process: each store a command can reach (`setx`, `launchctl setenv`, the
 * systemd and D-Bus user environment, .NET's `SetEnvironmentVariable`, the
 * registry key, direnv's and mise's approvals), by every spelling the reader follows, beside commands that
 * only read, print or store a variable GateGuard never reads.
 */
import { assertEquals } from "../helpers/assert.ts";
import type { ShellDialect } from "../../src/shell/dialect.ts";
import { reaches } from "./shell_reader.ts";
import { laterEffectHits } from "../../src/hook/shell_environment.ts";
import { parseBash, type Segment } from "../../src/shell/bash/mod.ts";

function bashSegments(text: string): readonly Segment[] | null {
  const parse = parseBash(text);
  return parse.ok ? parse.segments : null;
}

function stores(command: string, dialect: ShellDialect = "bash"): boolean {
  return reaches("environment", command, dialect);
}

Deno.test("[self-protection] a command that stores a variable GateGuard reads for later sessions is caught", () => {
  const caught: [string, ShellDialect][] = [
    ["setx GATEGUARD_DISABLED 1", "bash"],
    ["setx ecc_gateguard off /M", "bash"],
    [`setx PATH "$PATH:/opt/x"`, "bash"],
    ["launchctl setenv CLAUDE_CONFIG_DIR /tmp/empty", "bash"],
    [`sudo launchctl setenv "$name" 1`, "bash"],
    ["systemctl --user set-environment GATEGUARD_STATE_DIR=/tmp/x", "bash"],
    ["systemctl --user import-environment", "bash"],
    ["dbus-update-activation-environment --systemd --all", "bash"],
    ["sh -c 'launchctl setenv ECC_DISABLED_HOOKS gateguard'", "bash"],
    ["setx /F vars.txt GATEGUARD_DISABLED /A 0,0", "bash"],
    ["[Environment]::SetEnvironmentVariable('GATEGUARD_DISABLED', '1', 'User')", "powershell"],
    [
      "[System.Environment]::SetEnvironmentVariable($n, '1', [EnvironmentVariableTarget]::Machine)",
      "powershell",
    ],
    ["Set-ItemProperty -Path HKCU:\\Environment -Name X -Value 1", "powershell"],
    ["reg add HKCU\\Environment /v ECC_GATEGUARD /d off /f", "powershell"],
    [
      `reg add "HKCU\\Software\\Microsoft\\Command Processor" /v AutoRun /d "call C:\\x.cmd" /f`,
      "powershell",
    ],
    ["cmd /c setx CODEX_HOME C:\\empty", "powershell"],
    // Approving a folder's environment file: whatever it exports reaches the next agent there.
    ["direnv allow", "bash"],
    ["direnv allow .", "bash"],
    ["echo 'export LD_PRELOAD=/tmp/x.so' >> .envrc && direnv allow", "bash"],
    ["/usr/bin/direnv permit ~/proj", "bash"],
    ["direnv edit .", "bash"],
    ["mise trust", "bash"],
    ["mise --yes trust ./mise.toml", "bash"],
    ["bash -c 'direnv grant'", "bash"],
    ["direnv.exe allow", "powershell"],
    // A multiplexer's environment: every window it opens next starts with it.
    ["tmux set-environment -g LD_PRELOAD /tmp/x.so", "bash"],
    ["tmux setenv -t main DENO_V8_FLAGS --max-heap-size=2", "bash"],
    ["screen -X setenv PATH /tmp/bin", "bash"],
    ["screen -X eval 'setenv GATEGUARD_DISABLED 1'", "bash"],
  ];
  for (const [command, dialect] of caught) assertEquals(stores(command, dialect), true, command);
});

Deno.test("[self-protection] reading, printing, this process only, or a variable GateGuard never reads is left alone", () => {
  const left: [string, ShellDialect][] = [
    ["setx JAVA_HOME /opt/jdk", "bash"],
    ["launchctl setenv FOO 1", "bash"],
    ["launchctl getenv ECC_GATEGUARD", "bash"],
    ["systemctl --user import-environment FOO BAR", "bash"],
    ["export GATEGUARD_DISABLED=1", "bash"],
    ["echo setx PATH /x", "bash"],
    ["git commit -m 'setx GATEGUARD_DISABLED 1'", "bash"],
    ["[Environment]::SetEnvironmentVariable('GATEGUARD_DISABLED', '1')", "powershell"],
    ["[Environment]::SetEnvironmentVariable('FOO', '1', 'User')", "powershell"],
    ["Get-ItemProperty HKCU:\\Environment", "powershell"],
    ["$env:GATEGUARD_DISABLED = '1'", "powershell"],
    ["direnv status", "bash"],
    ["direnv deny", "bash"],
    ["mise install", "bash"],
    ["mise ls", "bash"],
    ["tmux set-environment -g EDITOR vim", "bash"],
    ["tmux new-session -d", "bash"],
    ["screen -ls", "bash"],
  ];
  for (const [command, dialect] of left) assertEquals(stores(command, dialect), false, command);
});

Deno.test("[self-protection] sh -c code is parsed once for every later-effect check", () => {
  let parses = 0;
  const code = "launchctl setenv A 1; GATEGUARD_DISABLED=1 true; codex features list";
  const segments = bashSegments(`sh -c '${code}'`)!;
  const hits = laterEffectHits(`sh -c '${code}'`, segments, () => 0, (text) => {
    parses++;
    return bashSegments(text);
  });
  assertEquals(hits.map((h) => h.kind), ["ungated-launch"]);
  assertEquals(parses, 1);
});
