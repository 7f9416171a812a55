<#
.SYNOPSIS
Installs the GateGuard release binary for this Windows machine (x64 or arm64).

.DESCRIPTION
Downloads the asset of the latest release, or of the version given, checks it
against the release's SHA256SUMS, and puts it in ~\.local\bin (or the
directory given) as gateguard.exe. GATEGUARD_INSTALL_BASE_URL replaces
https://github.com/gateguard/gateguard/releases (a mirror, or a local server).
-Record also leaves gateguard.exe.sha256 beside it: the digest it was verified
against, its asset name and the version asked for ("latest" when none was),
which the Claude Code plugin's launcher and `gateguard doctor` check later.

.EXAMPLE
irm https://github.com/gateguard/gateguard/releases/latest/download/install.ps1 | iex

.EXAMPLE
& ([scriptblock]::Create((irm https://github.com/gateguard/gateguard/releases/latest/download/install.ps1))) -Version v0.1.0 -Dir C:\tools
#>
param(
  [string]$Version = "",
  [string]$Dir = (Join-Path $HOME ".local\bin"),
  [switch]$Record
)

$ErrorActionPreference = "Stop"
Set-StrictMode -Version 3

function Fail([string]$Message) {
  Write-Error "gateguard install: $Message" -ErrorAction Continue
  exit 1
}

$BaseUrl = if ($env:GATEGUARD_INSTALL_BASE_URL) { $env:GATEGUARD_INSTALL_BASE_URL } else { "https://github.com/gateguard/gateguard/releases" }

if ($Version -ne "") {
  if ($Version -match '^[0-9]') { $Version = "v$Version" }
  if ($Version -notmatch '^v[0-9][0-9A-Za-z.+-]*$') { Fail "not a version: $Version (expected something like v0.1.0)" }
  $ReleaseUrl = "$BaseUrl/download/$Version"
} else {
  $ReleaseUrl = "$BaseUrl/latest/download"
}

# PowerShell 7 also runs on Linux and macOS, where install.sh is the installer.
if ((Test-Path Variable:IsWindows) -and -not $IsWindows) {
  Fail "this installer is for Windows; on Linux and macOS use install.sh"
}

# The OS architecture, not the process's: an x64 PowerShell on an arm64 machine still gets the native binary.
try {
  $Cpu = [string][System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture
} catch {
  $Cpu = if ($env:PROCESSOR_ARCHITEW6432) { $env:PROCESSOR_ARCHITEW6432 } else { $env:PROCESSOR_ARCHITECTURE }
}
switch -regex ($Cpu) {
  '^(X64|AMD64)$' { $Asset = "gateguard-windows-x64.exe" }
  '^(Arm64|ARM64)$' { $Asset = "gateguard-windows-arm64.exe" }
  default { Fail "no release binary for the CPU '$Cpu'. Releases ship for x64 and arm64; elsewhere, run GateGuard from source with Deno (see the README)." }
}

# Windows PowerShell 5.1 may not offer TLS 1.2 by default.
[Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12

$Tmp = Join-Path ([IO.Path]::GetTempPath()) ("gateguard-" + [Guid]::NewGuid())
New-Item -ItemType Directory -Path $Tmp | Out-Null
try {
  $SumsFile = Join-Path $Tmp "SHA256SUMS"
  try {
    Invoke-WebRequest -UseBasicParsing -Uri "$ReleaseUrl/SHA256SUMS" -OutFile $SumsFile
  } catch {
    Fail "could not download $ReleaseUrl/SHA256SUMS (is the release published?): $($_.Exception.Message)"
  }
  # A line is "<hex>  <name>" (or "<hex> *<name>"); exactly one may name the asset.
  $Lines = @(Get-Content $SumsFile | Where-Object { $_ -match '^\S+\s+\*?(\S+)\s*$' -and $Matches[1] -eq $Asset })
  if ($Lines.Count -eq 0) { Fail "SHA256SUMS of $ReleaseUrl has no line for $Asset; refusing to install an unverified binary" }
  if ($Lines.Count -gt 1 -or -not ($Lines[0] -match '^([0-9A-Fa-f]{64})\s')) {
    Fail "SHA256SUMS of $ReleaseUrl has a malformed or repeated line for $Asset; refusing to install"
  }
  # The -match just above, having succeeded, left the digest in $Matches.
  $Expected = $Matches[1].ToLower()

  $Target = Join-Path $Dir "gateguard.exe"
  if ((Test-Path $Target -PathType Leaf) -and (Get-FileHash -Algorithm SHA256 $Target).Hash.ToLower() -eq $Expected) {
    Write-Output "$Target is already this release ($Asset); nothing to do."
  } else {
    Write-Output "Downloading $ReleaseUrl/$Asset"
    $Download = Join-Path $Tmp $Asset
    try {
      Invoke-WebRequest -UseBasicParsing -Uri "$ReleaseUrl/$Asset" -OutFile $Download
    } catch {
      Fail "could not download $ReleaseUrl/${Asset}: $($_.Exception.Message)"
    }
    $Actual = (Get-FileHash -Algorithm SHA256 $Download).Hash.ToLower()
    if ($Actual -ne $Expected) {
      Fail "checksum mismatch for ${Asset}: SHA256SUMS says $Expected, the download is $Actual; nothing was installed"
    }
    New-Item -ItemType Directory -Force -Path $Dir | Out-Null
    # A running gateguard.exe cannot be overwritten, but it can be renamed out of the way.
    if (Test-Path $Target) {
      Remove-Item -Force "$Target.old" -ErrorAction SilentlyContinue
      Move-Item -Force $Target "$Target.old"
    }
    Move-Item -Force $Download $Target
    Remove-Item -Force "$Target.old" -ErrorAction SilentlyContinue
    Write-Output "Installed $Asset as $Target (SHA-256 verified)."
  }
} finally {
  Remove-Item -Recurse -Force $Tmp -ErrorAction SilentlyContinue
}

& $Target --version
if ($LASTEXITCODE -ne 0) { Fail "$Target was installed but does not run on this machine" }

if ($Record) {
  # Written beside, then moved: a reader sees the old record or the new one, never half.
  $RecordVersion = if ($Version -ne "") { $Version } else { "latest" }
  $RecordTmp = "$Target.sha256.new.$PID"
  [IO.File]::WriteAllText($RecordTmp, "$Expected  $Asset  $RecordVersion`n")
  Move-Item -Force $RecordTmp "$Target.sha256"
  Write-Output "Recorded its SHA-256 in $Target.sha256."
}

$Normalize = { param($p) $p.Trim().TrimEnd('\').ToLowerInvariant() }
$OnPath = @(($env:Path -split ';') | Where-Object { $_ -and ((& $Normalize $_) -eq (& $Normalize $Dir)) }).Count -gt 0
if ($OnPath) {
  Write-Output "Next, in your project: gateguard init"
} else {
  Write-Output "$Dir is not on your PATH. Add it for your user with:"
  Write-Output "  [Environment]::SetEnvironmentVariable('Path', '$Dir;' + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')"
  Write-Output "then open a new terminal. Next, in your project: gateguard init"
  Write-Output "(or now, without changing PATH: & '$Target' init)"
}
