#!/bin/sh
# Installs the GateGuard release binary for this machine (Linux or macOS, x64
# or arm64): downloads the asset of the latest release, or of the version
# given, checks it against the release's SHA256SUMS, and puts it in
# ~/.local/bin (or the directory given) as `gateguard`.
#
#   curl -fsSL https://github.com/gateguard/gateguard/releases/latest/download/install.sh | sh
#   sh install.sh [--version vX.Y.Z] [--dir DIR] [--record]
#
# --record also leaves gateguard.sha256 beside the binary: the digest it was
# verified against, its asset name and the version asked for ("latest" when
# none was), so a launcher or `gateguard doctor` can check it later without
# the network (the Claude Code plugin installs its binary this way).
#
# GATEGUARD_INSTALL_BASE_URL replaces https://github.com/gateguard/gateguard/releases
# (a mirror, or a local server in the tests).
set -eu

# Everything runs from main, called on the last line: a download cut short
# while piped into sh defines nothing instead of running half a script.
main() {
  BASE_URL="${GATEGUARD_INSTALL_BASE_URL:-https://github.com/gateguard/gateguard/releases}"
  VERSION=""
  DIR="${HOME}/.local/bin"
  RECORD=""

  say() { printf '%s\n' "$*"; }
  fail() {
    printf 'gateguard install: %s\n' "$*" >&2
    exit 1
  }

  usage() {
    say "Usage: install.sh [--version vX.Y.Z] [--dir DIR] [--record]"
    say "Installs the gateguard binary for this machine into DIR (default ~/.local/bin)."
    say "--record also writes DIR/gateguard.sha256: the verified digest, asset and version."
  }

  while [ $# -gt 0 ]; do
    case "$1" in
      --version)
        [ $# -ge 2 ] || fail "--version needs a value, such as v0.1.0"
        VERSION="$2"
        shift 2
        ;;
      --dir)
        [ $# -ge 2 ] || fail "--dir needs a directory"
        DIR="$2"
        shift 2
        ;;
      --record)
        RECORD=1
        shift
        ;;
      -h | --help)
        usage
        exit 0
        ;;
      *)
        usage >&2
        fail "unknown argument: $1"
        ;;
    esac
  done

  case "$VERSION" in
    "") ;;
    v[0-9]*) ;;
    [0-9]*) VERSION="v${VERSION}" ;;
    *) fail "not a version: ${VERSION} (expected something like v0.1.0)" ;;
  esac

  # The release assets, named as scripts/compile.ts names them.
  os_name=$(uname -s)
  arch_name=$(uname -m)
  case "$os_name" in
    Linux) os=linux ;;
    Darwin) os=macos ;;
    *)
      fail "no release binary for the operating system '${os_name}'. Releases ship for Linux and macOS (x64, arm64) and for Windows (use install.ps1); elsewhere, run GateGuard from source with Deno (see the README)."
      ;;
  esac
  case "$arch_name" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *)
      fail "no release binary for the CPU '${arch_name}' on ${os_name}. Releases ship for x64 and arm64; elsewhere, run GateGuard from source with Deno (see the README)."
      ;;
  esac
  # A shell under Rosetta reports x86_64 on Apple silicon; the native binary is faster.
  if [ "$os" = macos ] && [ "$arch" = x64 ] &&
    [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
    arch=arm64
  fi
  asset="gateguard-${os}-${arch}"

  if [ -n "$VERSION" ]; then
    release_url="${BASE_URL}/download/${VERSION}"
  else
    release_url="${BASE_URL}/latest/download"
  fi

  if command -v curl >/dev/null 2>&1; then
    download() { curl --fail --silent --show-error --location --proto '=https,http' --output "$2" "$1"; }
  elif command -v wget >/dev/null 2>&1; then
    download() { wget --quiet --output-document="$2" "$1"; }
  else
    fail "neither curl nor wget is installed; install one of them and run this again"
  fi

  if command -v sha256sum >/dev/null 2>&1; then
    sha256() { sha256sum "$1" | cut -d' ' -f1; }
  elif command -v shasum >/dev/null 2>&1; then
    sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
  else
    fail "neither sha256sum nor shasum is installed, so the download cannot be verified"
  fi

  tmp=$(mktemp -d 2>/dev/null || mktemp -d -t gateguard)
  trap 'rm -rf "$tmp"' EXIT
  trap 'exit 1' HUP INT TERM

  download "${release_url}/SHA256SUMS" "${tmp}/SHA256SUMS" ||
    fail "could not download ${release_url}/SHA256SUMS (is ${VERSION:-the latest release} published?)"
  # A line is "<hex>  <name>" (or "<hex> *<name>" in binary mode); exactly one may name the asset.
  expected=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print tolower($1) }' "${tmp}/SHA256SUMS")
  case "$expected" in
    "") fail "SHA256SUMS of ${release_url} has no line for ${asset}; refusing to install an unverified binary" ;;
    *[!0-9a-f]*) fail "SHA256SUMS of ${release_url} has a malformed or repeated line for ${asset}; refusing to install" ;;
  esac
  [ ${#expected} -eq 64 ] || fail "SHA256SUMS of ${release_url} has a malformed line for ${asset}; refusing to install"

  target="${DIR}/gateguard"
  if [ -f "$target" ] && [ "$(sha256 "$target")" = "$expected" ]; then
    say "${target} is already this release (${asset}); nothing to do."
  else
    say "Downloading ${release_url}/${asset}"
    download "${release_url}/${asset}" "${tmp}/${asset}" || fail "could not download ${release_url}/${asset}"
    actual=$(sha256 "${tmp}/${asset}")
    [ "$actual" = "$expected" ] ||
      fail "checksum mismatch for ${asset}: SHA256SUMS says ${expected}, the download is ${actual}; nothing was installed"
    mkdir -p "$DIR" || fail "cannot create ${DIR}"
    # Copy beside the target, then rename: a running gateguard keeps its old file.
    cp "${tmp}/${asset}" "${target}.new.$$" || fail "cannot write to ${DIR}"
    chmod 755 "${target}.new.$$"
    mv -f "${target}.new.$$" "$target" || fail "cannot replace ${target}"
    say "Installed ${asset} as ${target} (SHA-256 verified)."
  fi

  "$target" --version || fail "${target} was installed but does not run on this machine"

  if [ -n "$RECORD" ]; then
    # Written beside, then renamed: a reader sees the old record or the new one, never half.
    printf '%s  %s  %s\n' "$expected" "$asset" "${VERSION:-latest}" >"${target}.sha256.new.$$" &&
      mv -f "${target}.sha256.new.$$" "${target}.sha256" ||
      fail "cannot write ${target}.sha256"
    say "Recorded its SHA-256 in ${target}.sha256."
  fi

  case ":${PATH:-}:" in
    *":${DIR}:"*)
      say "Next, in your project: gateguard init"
      ;;
    *)
      case "${SHELL:-}" in
        */zsh) profile="${HOME}/.zshrc" ;;
        */bash) profile="${HOME}/.bashrc" ;;
        *) profile="${HOME}/.profile" ;;
      esac
      say "${DIR} is not on your PATH. Add it with:"
      say "  echo 'export PATH=\"${DIR}:\$PATH\"' >> ${profile}"
      say "then open a new shell. Next, in your project: gateguard init"
      say "(or now, without changing PATH: \"${target}\" init)"
      ;;
  esac
}

main "$@"
