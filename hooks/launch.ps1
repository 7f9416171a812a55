<#
GateGuard's launcher for the Claude Code plugin on Windows without Git Bash:
the PowerShell twin of hooks/launch.sh, with the same choices in the same
order. hooks.json runs it as a script block (no execution policy applies),
so it finds the plugin through CLAUDE_PLUGIN_ROOT rather than its own path.

1. gateguard.exe in the plugin's data folder, when its recorded SHA-256
   matches (a match is remembered in a stamp: digest and size, trusted while
   the binary and its record are not newer than the stamp);
2. no binary there: in a source checkout with Deno on PATH, GateGuard from
   source;
3. otherwise, or when the binary cannot be verified, the call is blocked
   (exit 2) with the command that installs the binary.

`--verify` only hashes the binary against its record and writes the stamp.
It never downloads anything.
#>
$ErrorActionPreference = "Stop"
Set-StrictMode -Version 3

$Root = $env:CLAUDE_PLUGIN_ROOT
$Data = $env:CLAUDE_PLUGIN_DATA
$Bin = if ($Data) { Join-Path (Join-Path $Data "bin") "gateguard.exe" } else { "" }
$RecordFile = "$Bin.sha256"
$Stamp = "$Bin.verified"
$InstallHint = "powershell -NoProfile -ExecutionPolicy Bypass -File '$Root\hooks\install_binary.ps1' '$Data'"

function Block([string]$Message) {
  [Console]::Error.WriteLine("GateGuard (Claude Code plugin): $Message")
  exit 2
}

function Want() {
  if (-not (Test-Path -LiteralPath $RecordFile -PathType Leaf)) { return "" }
  $line = [IO.File]::ReadAllText($RecordFile).Trim()
  return ($line -split '\s+')[0].ToLower()
}

function Stamped([string]$WantDigest, [long]$Size) {
  if ($WantDigest -eq "" -or -not (Test-Path -LiteralPath $Stamp -PathType Leaf)) { return $false }
  if ([IO.File]::ReadAllText($Stamp).Trim() -ne "$WantDigest $Size") { return $false }
  $stampTime = (Get-Item -LiteralPath $Stamp).LastWriteTimeUtc
  return (Get-Item -LiteralPath $Bin).LastWriteTimeUtc -le $stampTime -and
    (Get-Item -LiteralPath $RecordFile).LastWriteTimeUtc -le $stampTime
}

function Verify([string]$WantDigest, [long]$Size) {
  if ($WantDigest -eq "") {
    Block "the binary $Bin has no SHA-256 record beside it, so it is not run. Reinstall it with: $InstallHint"
  }
  $actual = (Get-FileHash -Algorithm SHA256 -LiteralPath $Bin).Hash.ToLower()
  if ($actual -ne $WantDigest) {
    Block "the binary $Bin does not match its recorded SHA-256 (recorded $WantDigest, found $actual), so it is not run. Reinstall it with: $InstallHint"
  }
  $tmp = "$Stamp.$PID"
  [IO.File]::WriteAllText($tmp, "$WantDigest $Size`n")
  Move-Item -Force -LiteralPath $tmp -Destination $Stamp
}

$HaveBinary = $Bin -ne "" -and (Test-Path -LiteralPath $Bin -PathType Leaf)

if ($args.Count -gt 0 -and $args[0] -eq "--verify") {
  if (-not $HaveBinary) { Block "no binary at $Bin." }
  Verify (Want) (Get-Item -LiteralPath $Bin).Length
  exit 0
}

# The payload is passed on as UTF-8 bytes, unchanged.
[Console]::InputEncoding = [Text.UTF8Encoding]::new($false)
[Console]::OutputEncoding = [Text.UTF8Encoding]::new($false)
$OutputEncoding = [Text.UTF8Encoding]::new($false)

if ($HaveBinary) {
  $wantDigest = Want
  $size = (Get-Item -LiteralPath $Bin).Length
  if (-not (Stamped $wantDigest $size)) { Verify $wantDigest $size }
  [Console]::In.ReadToEnd() | & $Bin
  exit $LASTEXITCODE
}

$Deno = Get-Command deno -ErrorAction SilentlyContinue
if ($Root -and (Test-Path -LiteralPath (Join-Path $Root "src\main.ts")) -and $Deno) {
  # Deno reads the home .npmrc and its cache before GateGuard runs: keep both in the
  # checkout and hand GateGuard the user's home (src/platform/permissions.ts).
  $env:GATEGUARD_HOME = $HOME
  $env:HOME = $Root
  $env:USERPROFILE = $Root
  $env:DENO_DIR = Join-Path $Root ".cache\deno"
  # The bundle `deno task bundle` builds, when there is one; else the sources as they are.
  $Entry = Join-Path $Root "src\main.ts"
  $Bundle = Join-Path $Root ".cache\bundle\main.js"
  if (Test-Path -LiteralPath $Bundle) { $Entry = $Bundle }
  [Console]::In.ReadToEnd() | & $Deno.Source run --quiet --no-prompt "--v8-flags=--min-semi-space-size=16" --config (Join-Path $Root "deno.run.json") "--permission-set=gateguard" $Entry
  exit $LASTEXITCODE
}

if (-not $Data) {
  Block "Claude Code gave the plugin no data folder (CLAUDE_PLUGIN_DATA), so there is no GateGuard binary to run and Deno is not on PATH to run it from source; this call is blocked. Update Claude Code, or install Deno."
}
Block "the GateGuard binary is not installed yet (expected at $Bin) and Deno is not on PATH to run it from source, so this call is blocked. Install it with: $InstallHint (a new Claude Code session also installs it when it starts)."
