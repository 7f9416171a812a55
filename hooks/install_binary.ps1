<#
Installs or updates the GateGuard release binary the plugin runs on Windows:
the PowerShell twin of hooks/install_binary.sh. It puts gateguard.exe in the
plugin's data folder, pinned to the plugin's version, with the project's
installer (scripts/install.ps1 -Record: SHA-256 verified, moved into place),
says one line when it installed or could not, and never stops a session.
A lock directory keeps two sessions starting at once from installing twice.

  powershell -NoProfile -ExecutionPolicy Bypass -File hooks\install_binary.ps1 [DATA_DIR]
  (as the SessionStart hook, hooks.json passes --session-start)
#>
$ErrorActionPreference = "Stop"
Set-StrictMode -Version 3

$Root = if ($env:CLAUDE_PLUGIN_ROOT) { $env:CLAUDE_PLUGIN_ROOT } else { Split-Path -Parent $PSScriptRoot }
$Rest = @($args)
$Hook = $Rest.Count -gt 0 -and $Rest[0] -eq "--session-start"
if ($Hook) { $Rest = @($Rest | Select-Object -Skip 1) }
$Data = if ($Rest.Count -gt 0) { [string]$Rest[0] } else { [string]$env:CLAUDE_PLUGIN_DATA }

function Tell([string]$Message) {
  $line = "GateGuard: $Message"
  if ($Hook) { Write-Output (@{ systemMessage = $line } | ConvertTo-Json -Compress) } else { Write-Output $line }
  exit 0
}

function Fallback() {
  if ((Test-Path -LiteralPath (Join-Path $Root "src\main.ts")) -and (Get-Command deno -ErrorAction SilentlyContinue)) {
    return "until then GateGuard runs from source with Deno"
  }
  return "until then every gated tool call is blocked"
}

if (-not $Data) { Tell "no data folder to install the binary into (CLAUDE_PLUGIN_DATA is not set; pass one as the first argument)." }
$Manifest = Get-Content -Raw (Join-Path $Root ".claude-plugin\plugin.json") | ConvertFrom-Json
$PluginVersion = [string]$Manifest.version
if (-not $PluginVersion) { Tell "cannot read the plugin's version; the binary was not installed." }
$Dir = Join-Path $Data "bin"
$Bin = Join-Path $Dir "gateguard.exe"
$Launch = Join-Path $Root "hooks\launch.ps1"

function Verified() {
  $env:CLAUDE_PLUGIN_DATA = $Data
  $env:CLAUDE_PLUGIN_ROOT = $Root
  & powershell -NoProfile -ExecutionPolicy Bypass -File $Launch --verify 2>$null
  return $LASTEXITCODE -eq 0
}

if ((Test-Path -LiteralPath "$Bin.sha256") -and
  (([IO.File]::ReadAllText("$Bin.sha256").Trim() -split '\s+')[2] -eq "v$PluginVersion") -and (Verified)) {
  exit 0
}

New-Item -ItemType Directory -Force -Path $Data | Out-Null
$Lock = Join-Path $Data "bin.lock"
try {
  New-Item -ItemType Directory -Path $Lock | Out-Null
} catch {
  # A lock older than ten minutes was left by an install that died.
  $old = (Get-Item -LiteralPath $Lock -ErrorAction SilentlyContinue)
  if (-not $old -or $old.LastWriteTimeUtc -gt (Get-Date).ToUniversalTime().AddMinutes(-10)) { exit 0 }
  Remove-Item -Recurse -Force -LiteralPath $Lock
  try { New-Item -ItemType Directory -Path $Lock | Out-Null } catch { exit 0 }
}
try {
  $Log = Join-Path $Lock "install.log"
  & powershell -NoProfile -ExecutionPolicy Bypass -File (Join-Path $Root "scripts\install.ps1") -Version "v$PluginVersion" -Dir $Dir -Record *> $Log
  $installed = $LASTEXITCODE -eq 0
  if ($installed -and (Verified)) {
    Remove-Item -Recurse -Force -LiteralPath $Lock -ErrorAction SilentlyContinue
    Tell "installed its v$PluginVersion binary in $Dir (SHA-256 verified)."
  }
  $reason = @(Get-Content -LiteralPath $Log | Where-Object { $_ -and $_ -notmatch '^Downloading ' }) | Select-Object -Last 1
  if (-not $reason) { $reason = "the installer failed" }
  $reason = ([string]$reason) -replace '^gateguard install: ', ''
  Remove-Item -Recurse -Force -LiteralPath $Lock -ErrorAction SilentlyContinue
  Tell "could not install its v$PluginVersion binary ($reason); $(Fallback). Retry with: powershell -NoProfile -ExecutionPolicy Bypass -File '$Root\hooks\install_binary.ps1' '$Data'"
} finally {
  Remove-Item -Recurse -Force -LiteralPath $Lock -ErrorAction SilentlyContinue
}
