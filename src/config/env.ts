/**
 * The environment snapshot: every variable GateGuard reads, read once per
 * process into a plain object, and the parsing rules for its switches.
 *
 * The compiled binary may only read the variables listed in the
 * `gateguard` permission set of `deno.run.json`; `ENV_VARIABLES` must list the
 * same names (a test keeps the two in step).
 *
 * @module
 */

/** Every environment variable GateGuard reads, in one table. */
export const ENV_VARIABLES = [
  "HOME",
  "USERPROFILE",
  // The user's home when a from-source hook command moved HOME for Deno (platform/permissions.ts).
  "GATEGUARD_HOME",
  "NO_COLOR",
  "CLAUDE_PROJECT_DIR",
  "CLAUDE_SESSION_ID",
  "ECC_SESSION_ID",
  "CLAUDE_CODE_SESSION_ID",
  "CLAUDE_PLUGIN_DATA",
  "INIT_CWD",
  // Copilot CLI's home, where the hook finds a session's event log.
  "COPILOT_HOME",
  // Where Claude Code, Codex CLI and Gemini CLI keep their user settings and logs:
  // part of GateGuard's control surface (control/surface.ts).
  "CLAUDE_CONFIG_DIR",
  "CODEX_HOME",
  "GEMINI_CLI_HOME",
  // doctor and init look a bare registered command up the way the hook's shell would.
  "PATH",
  "ECC_GATEGUARD",
  "GATEGUARD_DISABLED",
  "ECC_DISABLED_HOOKS",
  "GATEGUARD_BASH_ROUTINE_DISABLED",
  "GATEGUARD_EXEMPT_GLOBS",
  "GATEGUARD_FACT_FORCE_FULL_DENIALS",
  "GATEGUARD_FACT_FORCE_MAX_DENIALS",
  "GATEGUARD_BASH_EXTRA_DESTRUCTIVE",
  "GATEGUARD_DESTRUCTIVE_PACKS",
  "GATEGUARD_STATE_DIR",
  "GATEGUARD_METRICS",
  "GATEGUARD_EXTERNAL_CONTRACT_QUESTION",
] as const;

/** Name of a variable GateGuard reads. */
export type EnvName = typeof ENV_VARIABLES[number];

/** The variables that were set, by name. Unset variables are absent. */
export type EnvSnapshot = Readonly<Partial<Record<EnvName, string>>>;

/**
 * Reads every variable of `ENV_VARIABLES` from the process environment.
 * A variable the runtime refuses to hand out counts as unset, so a
 * permission mistake can never crash the hook.
 */
export function readEnv(): EnvSnapshot {
  const out: Partial<Record<EnvName, string>> = {};
  for (const name of ENV_VARIABLES) {
    try {
      const value = Deno.env.get(name);
      if (value !== undefined) out[name] = value;
    } catch {
      // Not readable under the current permissions: treated as unset.
    }
  }
  return out;
}

/**
 * Default number of denials that carry the full fact block (what
 * `GATEGUARD_FACT_FORCE_FULL_DENIALS` and the file's `fullDenials` replace).
 */
export const DEFAULT_FULL_DENIALS = 3;

const TRUTHY = new Set(["1", "true", "on", "enabled", "enable", "yes"]);
const OFF = new Set(["0", "false", "off", "disabled", "disable"]);

/** The spellings that turn an opt-in boolean switch on (case and space insensitive). */
export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && TRUTHY.has(value.trim().toLowerCase());
}

/** The spellings of `ECC_GATEGUARD` that turn GateGuard off. */
export function isOffSwitch(value: string | undefined): boolean {
  return value !== undefined && OFF.has(value.trim().toLowerCase());
}

/**
 * Strict whole non-negative integer parse: digits only (surrounding spaces
 * allowed), a safe integer. Returns null for anything else, so `3oops`
 * never becomes 3.
 */
export function parseWholeNumber(value: string | undefined): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (!/^[0-9]+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) ? n : null;
}

/** Whether a variable of this name configures GateGuard (its own and ECC's prefixes). */
export function configuresGateGuard(name: string): boolean {
  return /^(GATEGUARD_|ECC_)/.test(name);
}

/**
 * Variables that move what GateGuard reads (its home, state, the agents'
 * homes, the project), change how its program starts (the search path,
 * Deno's, Rust's and npm's settings, the loader and the C library, the
 * shell's start-up files), or
 * switch an agent's hooks off or move the settings they come from (Claude
 * Code's bare, safe and personal-hooks-off modes and settings paths,
 * Gemini CLI's system settings; as found in Claude Code 2.1.332 and Gemini
 * CLI 0.61.0).
 */
const MOVING_VARIABLE =
  /^(HOME|USERPROFILE|PATH|SHELL|BASH_ENV|ENV|ZDOTDIR|CLAUDE_PLUGIN_DATA|CLAUDE_CONFIG_DIR|CLAUDE_PROJECT_DIR|CODEX_HOME|COPILOT_HOME|GEMINI_CLI_HOME|XDG_CACHE_HOME|XDG_CONFIG_HOME|NODE_OPTIONS|GLIBC_TUNABLES|MALLOC_.*|RUST_.*|DENO_.*|NPM_CONFIG_.*|LD_.*|DYLD_.*|CLAUDE_CODE_(SIMPLE|SAFE_MODE|PERSONAL_HOOKS_OFF|RESTRICT_PERSONAL_CONFIG|HOST_OWNED_CONFIG_DIR|MANAGED_SETTINGS_PATH|REMOTE_SETTINGS_PATH)|GEMINI_CLI_SYSTEM_(SETTINGS|DEFAULTS)_PATH)$/i;

/** Whether a variable of this name moves what GateGuard reads or changes how it starts. */
export function movesGateGuard(name: string): boolean {
  return MOVING_VARIABLE.test(name);
}
