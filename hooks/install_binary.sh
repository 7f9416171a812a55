#!/bin/sh
# Installs or updates the GateGuard release binary the plugin runs, in the
# plugin's data folder (which survives plugin updates), pinned to the plugin's
# own version, with the project's installer (scripts/install.sh: SHA-256
# verified against the release's SHA256SUMS, renamed into place).
#
#   sh hooks/install_binary.sh [DATA_DIR]           by hand (default: $CLAUDE_PLUGIN_DATA)
#   sh hooks/install_binary.sh --session-start      as the plugin's SessionStart hook
#
# Already installed and verified: nothing is downloaded and nothing is said.
# Otherwise it says one line: what it installed, or why it could not and what
# the gate does until then. As a SessionStart hook that line goes to the user
# (a `systemMessage`), and the hook always exits 0: a session is never stopped
# from starting, since the PreToolUse launcher fails closed on its own. Two
# sessions starting at once do not install twice: the second finds the lock
# (a directory, created atomically) and leaves the work to the first.
set -u

# Every program this runs (the project's installer, curl, sha256sum, the
# launcher's check) comes from the system's own folders: a `curl` an agent
# left in a folder of the user's PATH could serve a forged binary with
# matching sums. Deno is looked up on the user's PATH, only to say what the
# gate does until the binary is there.
user_path=${PATH:-}
PATH=/usr/bin:/bin:/usr/sbin:/sbin:/run/current-system/sw/bin
export PATH

root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
hook=""
if [ "${1:-}" = --session-start ]; then
  hook=1
  shift
  # The hook's stdin is Claude Code's payload, which nothing here needs.
  exec </dev/null
fi
data=${1:-${CLAUDE_PLUGIN_DATA:-}}

# One line, as JSON for Claude Code or as plain text for a person.
tell() {
  if [ -n "$hook" ]; then
    escaped=$(printf '%s' "GateGuard: $*" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' | tr -d '\n\r')
    printf '{"systemMessage":"%s"}\n' "$escaped"
  else
    printf 'GateGuard: %s\n' "$*"
  fi
  exit 0
}

[ -n "$data" ] || tell "no data folder to install the binary into (CLAUDE_PLUGIN_DATA is not set; pass one as the first argument)."

version=$(sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "${root}/.claude-plugin/plugin.json" | head -n 1)
[ -n "$version" ] || tell "cannot read the plugin's version from ${root}/.claude-plugin/plugin.json; the binary was not installed."
dir="${data}/bin"
bin="${dir}/gateguard"
[ "${OS:-}" = Windows_NT ] && bin="${dir}/gateguard.exe"

# What the gate runs when there is no binary, for the line said on a failure.
fallback() {
  if [ -f "${root}/src/main.ts" ] && (PATH=$user_path && command -v deno >/dev/null 2>&1); then
    printf 'until then GateGuard runs from source with Deno'
  else
    printf 'until then every gated tool call is blocked'
  fi
}

recorded_version() {
  [ -f "${bin}.sha256" ] && IFS=' ' read -r _ _ v <"${bin}.sha256" && printf '%s' "$v"
}

# Installed for this version, and it still matches its record.
ready() {
  [ -f "$bin" ] && [ "$(recorded_version)" = "v${version}" ] &&
    CLAUDE_PLUGIN_DATA="$data" sh "${root}/hooks/launch.sh" --verify 2>/dev/null
}

ready && exit 0

if [ "${OS:-}" = Windows_NT ]; then
  tell "on Windows the binary is installed by hooks/install_binary.ps1; run: powershell -NoProfile -ExecutionPolicy Bypass -File '${root}/hooks/install_binary.ps1' '${data}' ($(fallback))."
fi

mkdir -p "$data" 2>/dev/null || tell "cannot create the data folder ${data}; the v${version} binary was not installed ($(fallback))."
lock="${data}/bin.lock"
if ! mkdir "$lock" 2>/dev/null; then
  # A lock older than ten minutes was left by an install that died.
  if [ -n "$(find "$lock" -prune -mmin +10 2>/dev/null)" ]; then
    rm -rf "$lock"
    mkdir "$lock" 2>/dev/null || exit 0
  else
    exit 0
  fi
fi
log="${lock}/install.log"
trap 'rm -rf "$lock"' EXIT
trap 'exit 1' HUP INT TERM
# Another session may have finished the install while this one waited for the lock.
ready && exit 0

if sh "${root}/scripts/install.sh" --version "v${version}" --dir "$dir" --record >"$log" 2>&1 &&
  CLAUDE_PLUGIN_DATA="$data" sh "${root}/hooks/launch.sh" --verify 2>>"$log"; then
  tell "installed its v${version} binary in ${dir} (SHA-256 verified)."
fi
reason=$(grep -v '^Downloading ' "$log" | tail -n 1 | sed -e 's/^gateguard install: //' -e 's/^GateGuard (Claude Code plugin): //')
tell "could not install its v${version} binary (${reason:-the installer failed}); $(fallback). Retry with: sh '${root}/hooks/install_binary.sh' '${data}'"
