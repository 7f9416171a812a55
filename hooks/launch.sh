#!/bin/sh
# GateGuard's launcher when it runs as a Claude Code plugin: every gated tool
# call comes through here, so it forks as little as it can. It never downloads
# anything (hooks/install_binary.sh, run at SessionStart, does that). In order:
#
# 1. The release binary kept in the plugin's data folder, when its recorded
#    SHA-256 matches. A full hash of a ~100 MB binary costs a quarter second,
#    so a match is remembered in a stamp (digest and size), trusted while the
#    binary and its record are not newer than the stamp.
# 2. No binary there: in a source checkout with Deno on PATH, GateGuard from
#    source (the same command a from-source registration runs: the checkout's
#    bundle, or its sources when no bundle was built).
# 3. Otherwise, or when the binary cannot be verified, the call is blocked
#    (exit 2) with the command that installs the binary.
#
# `launch.sh --verify` only hashes the binary against its record and writes
# its stamp (exit 0 when it is ready to run); install_binary.sh calls it.
set -u

# The helpers below (wc, find, sha256sum, cut, mv) come from the system's own
# folders, not from the PATH the session hands over: folders on that PATH the
# user can write (~/.local/bin, Homebrew's bin) could hold a `find` or a
# `sha256sum` that vouches for any binary. Deno is still looked up on the
# user's PATH, where its installers put it, and that PATH is handed back to
# whatever this script runs.
user_path=${PATH:-}
PATH=/usr/bin:/bin:/usr/sbin:/sbin:/run/current-system/sw/bin
export PATH

root=${CLAUDE_PLUGIN_ROOT:-$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)}
data=${CLAUDE_PLUGIN_DATA:-}
exe=gateguard
[ "${OS:-}" = Windows_NT ] && exe=gateguard.exe
bin="${data}/bin/${exe}"
record="${bin}.sha256"
stamp="${bin}.verified"
install_hint="sh '${root}/hooks/install_binary.sh' '${data}'"

block() {
  printf 'GateGuard (Claude Code plugin): %s\n' "$*" >&2
  exit 2
}

# The digest of a file, on stdout; nothing when no hashing tool is installed.
digest() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

# Sets `want` (the recorded digest) and `size` (the binary's, in bytes).
measure() {
  want=""
  [ -f "$record" ] && IFS=' ' read -r want _ <"$record"
  size=$(($(wc -c <"$bin")))
}

# 0 when the stamp vouches for the binary measured.
stamped() {
  seen=""
  [ -f "$stamp" ] && IFS='' read -r seen <"$stamp"
  [ -n "$want" ] && [ "$seen" = "${want} ${size}" ] && [ -z "$(find "$bin" "$record" -newer "$stamp")" ]
}

# Hashes the binary against its record; on a match writes the stamp (renamed into place).
verify() {
  [ -n "$want" ] ||
    block "the binary ${bin} has no SHA-256 record beside it, so it is not run. Reinstall it with: ${install_hint}"
  actual=$(digest "$bin")
  [ -n "$actual" ] ||
    block "neither sha256sum nor shasum is installed, so ${bin} cannot be verified and is not run."
  [ "$actual" = "$want" ] ||
    block "the binary ${bin} does not match its recorded SHA-256 (recorded ${want}, found ${actual}), so it is not run. Reinstall it with: ${install_hint}"
  printf '%s %s\n' "$want" "$size" >"${stamp}.$$" && mv -f "${stamp}.$$" "$stamp"
}

if [ "${1:-}" = --verify ]; then
  [ -n "$data" ] && [ -f "$bin" ] || block "no binary at ${bin}."
  measure
  verify
  exit 0
fi

if [ -n "$data" ] && [ -f "$bin" ]; then
  measure
  stamped || verify
  PATH=$user_path exec "$bin"
fi

deno=""
[ -f "${root}/src/main.ts" ] && [ -f "${root}/deno.run.json" ] && deno=$(PATH=$user_path && command -v deno)
# An empty or relative entry of PATH is the working folder, which is the agent's project.
case $deno in /*) ;; *) deno="" ;; esac
if [ -n "$deno" ]; then
  # The bundle `deno task bundle` builds loads a few files a call instead of
  # dozens of modules; without one the sources run as they are.
  entry="${root}/src/main.ts"
  [ -f "${root}/.cache/bundle/main.js" ] && entry="${root}/.cache/bundle/main.js"
  # Deno reads $HOME/.npmrc and its cache before GateGuard runs: keep both in the
  # checkout and hand GateGuard the user's home (src/platform/permissions.ts).
  PATH=$user_path GATEGUARD_HOME="${HOME:-}" HOME="$root" DENO_DIR="${root}/.cache/deno" \
    exec "$deno" run --quiet --no-prompt --v8-flags=--min-semi-space-size=16 --config "${root}/deno.run.json" --permission-set=gateguard "$entry"
fi

if [ -z "$data" ]; then
  block "Claude Code gave the plugin no data folder (CLAUDE_PLUGIN_DATA), so there is no GateGuard binary to run and Deno is not on PATH to run it from source; this call is blocked. Update Claude Code, or install Deno."
fi
block "the GateGuard binary is not installed yet (expected at ${bin}) and Deno is not on PATH to run it from source, so this call is blocked. Install it with: ${install_hint} (a new Claude Code session also installs it when it starts)."
