/**
 * GateGuard's control surface, as one table: every file or directory whose
 * change could switch GateGuard off, weaken it, or forge what it trusts,
 * for every agent it answers. The file gate's self-protection rule, the
 * shell side, `gateguard explain` and `gateguard doctor` all read this one
 * table, so a new agent or a new state file is one more row.
 *
 * A row says where its paths are found (a base directory, from the
 * environment snapshot, the project root, the state directory or the
 * program that runs), a pattern below that base, what kind of file it is,
 * and, in plain words, what a change to it would switch off or forge. The
 * kind tells the rule how to judge a change: settings and hook files are
 * compared before and after, every other kind is weakened by any write.
 *
 * Paths are compared folded and case-insensitively on every host: a
 * spelling that differs only in case names the same file on Windows and
 * macOS, and reading too much as control surface only costs a look at the
 * change. With a filesystem port, the real location is judged as well, so
 * a symlinked directory cannot launder a control file under another name,
 * and a location that cannot be resolved (a dangling link, a loop) is
 * reported as such: the caller fails closed.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { homeDir, stateDirFrom } from "../config/settings.ts";
import type { FsPort } from "../platform/fs_port.ts";
import { joinPath } from "../platform/path.ts";
import { absolutePath, formatPath, type PathParts } from "../file_facts/paths.ts";
import { realLocation } from "../file_facts/real_path.ts";

/** Whose file a row is: an agent's, or GateGuard's own. */
export type SurfaceAgent = "claude" | "codex" | "gemini" | "copilot" | "cursor" | "gateguard";

/** Where a row sits. */
export type SurfaceLevel = "project" | "local" | "user" | "managed" | "state" | "program";

/**
 * What kind of file a row is, which decides how a change is judged:
 * `settings` (Claude Code's settings) and `hook-file` (another agent's hook
 * file) are compared before and after; `config` (GateGuard's project file
 * and user file) by the keys that loosen it; every other kind is weakened by any write.
 */
export type SurfaceKind =
  | "settings"
  | "hook-file"
  | "config"
  | "trust"
  | "state"
  | "evidence"
  | "program";

/**
 * The directory a row's pattern is found under:
 * - `project`: the project root;
 * - `home`: the user's home directory;
 * - `claude-config`: `CLAUDE_CONFIG_DIR`, and `~/.claude` in any case;
 * - `codex-home`: `CODEX_HOME`, and `~/.codex`;
 * - `gemini-home`: `GEMINI_CLI_HOME/.gemini`, and `~/.gemini`;
 * - `copilot-home`: `COPILOT_HOME`, and `~/.copilot`;
 * - `managed`: the system folders Claude Code reads managed settings from;
 * - `state`: GateGuard's state directory;
 * - `binary`, `runtime`, `checkout`: the program the registration runs (a
 *   compiled binary; or Deno and the source checkout);
 * - `source-home`: the home directory, only when GateGuard runs from source
 *   (what Deno reads there before any GateGuard code runs).
 */
export type SurfaceBase =
  | "project"
  | "home"
  | "claude-config"
  | "codex-home"
  | "gemini-home"
  | "copilot-home"
  | "managed"
  | "state"
  | "binary"
  | "runtime"
  | "checkout"
  | "source-home";

/** One row of the control surface. */
export interface SurfaceRow {
  /** A short stable id (`claude-project-settings`). */
  id: string;
  agent: SurfaceAgent;
  level: SurfaceLevel;
  base: SurfaceBase;
  /**
   * The path below the base, `/`-separated: a name, `*` (any one name),
   * `*.json` (a name ending so), or `**` as the last segment (the folder
   * and everything below it). `""` is the base itself.
   */
  pattern: string;
  kind: SurfaceKind;
  /** What a change to it would switch off or forge, as a phrase. */
  controls: string;
}

/** The control surface, most specific rows first: the first row that matches names a path. */
export const CONTROL_SURFACE: readonly SurfaceRow[] = [
  {
    id: "claude-project-settings",
    agent: "claude",
    level: "project",
    base: "project",
    pattern: ".claude/settings.json",
    kind: "settings",
    controls:
      "Claude Code's project settings: GateGuard's hook entries, and the hooks and environment every session of this project starts with",
  },
  {
    id: "claude-local-settings",
    agent: "claude",
    level: "local",
    base: "project",
    pattern: ".claude/settings.local.json",
    kind: "settings",
    controls:
      "Claude Code's local project settings: hooks and environment that override the project's",
  },
  {
    id: "claude-user-settings",
    agent: "claude",
    level: "user",
    base: "claude-config",
    pattern: "settings.json",
    kind: "settings",
    controls:
      "Claude Code's user settings: GateGuard's hook entries, and the hooks and environment of every session",
  },
  {
    id: "claude-user-local-settings",
    agent: "claude",
    level: "user",
    base: "claude-config",
    pattern: "settings.local.json",
    kind: "settings",
    controls: "Claude Code's settings beside the user settings",
  },
  {
    id: "claude-managed-settings",
    agent: "claude",
    level: "managed",
    base: "managed",
    pattern: "managed-settings.json",
    kind: "settings",
    controls: "Claude Code's managed settings, which override every other level",
  },
  {
    id: "claude-plugins",
    agent: "claude",
    level: "user",
    base: "claude-config",
    pattern: "plugins/**",
    kind: "program",
    controls:
      "Claude Code's installed plugins, whose hook files (GateGuard's plugin among them) run at every call",
  },
  {
    id: "claude-transcripts",
    agent: "claude",
    level: "user",
    base: "claude-config",
    pattern: "projects/**",
    kind: "evidence",
    controls:
      "Claude Code's session transcripts, which GateGuard reads as the record of earlier searches and denials",
  },
  {
    id: "project-config",
    agent: "gateguard",
    level: "project",
    base: "project",
    pattern: ".gateguard.jsonc",
    kind: "config",
    controls: "GateGuard's project file, which can loosen its gates for this project",
  },
  {
    id: "trust-store",
    agent: "gateguard",
    level: "state",
    base: "state",
    pattern: "trust.json",
    kind: "trust",
    controls: "the hashes of the project files the user trusted to loosen GateGuard",
  },
  {
    id: "user-config",
    agent: "gateguard",
    level: "user",
    base: "state",
    pattern: "config.jsonc",
    kind: "config",
    controls:
      "GateGuard's user file, whose allowDestructive entries let destructive commands through and whose destructiveDecision asks instead of denying",
  },
  {
    id: "state-dir",
    agent: "gateguard",
    level: "state",
    base: "state",
    pattern: "**",
    kind: "state",
    controls:
      "GateGuard's session state, which records what was already checked and which denials were read",
  },
  {
    id: "program-binary",
    agent: "gateguard",
    level: "program",
    base: "binary",
    pattern: "",
    kind: "program",
    controls: "the GateGuard program every registration runs",
  },
  {
    id: "program-runtime",
    agent: "gateguard",
    level: "program",
    base: "runtime",
    pattern: "",
    kind: "program",
    controls: "the Deno runtime a from-source registration runs GateGuard with",
  },
  {
    id: "program-checkout",
    agent: "gateguard",
    level: "program",
    base: "checkout",
    pattern: "**",
    kind: "program",
    controls:
      "the GateGuard source checkout (its deno.json and code) a from-source registration runs",
  },
  {
    id: "program-npmrc",
    agent: "gateguard",
    level: "program",
    base: "source-home",
    pattern: ".npmrc",
    kind: "program",
    controls: "a file Deno reads before any GateGuard code runs from source",
  },
  {
    id: "program-deno-cache",
    agent: "gateguard",
    level: "program",
    base: "source-home",
    pattern: ".cache/deno/**",
    kind: "program",
    controls: "Deno's module cache, which a from-source run loads code from",
  },
  {
    id: "codex-project-hooks",
    agent: "codex",
    level: "project",
    base: "project",
    pattern: ".codex/hooks.json",
    kind: "hook-file",
    controls: "Codex CLI's project hook file, where GateGuard is registered for Codex",
  },
  {
    id: "codex-project-config",
    agent: "codex",
    level: "project",
    base: "project",
    pattern: ".codex/config.toml",
    kind: "hook-file",
    controls: "Codex CLI's project configuration, which can hold hooks and switch them off",
  },
  {
    id: "codex-user-hooks",
    agent: "codex",
    level: "user",
    base: "codex-home",
    pattern: "hooks.json",
    kind: "hook-file",
    controls: "Codex CLI's user hook file, where GateGuard is registered for Codex",
  },
  {
    id: "codex-user-config",
    agent: "codex",
    level: "user",
    base: "codex-home",
    pattern: "config.toml",
    kind: "hook-file",
    controls: "Codex CLI's user configuration, which can hold hooks and switch them off",
  },
  {
    id: "codex-sessions",
    agent: "codex",
    level: "user",
    base: "codex-home",
    pattern: "sessions/**",
    kind: "evidence",
    controls: "Codex CLI's session logs, which GateGuard reads as the record of earlier searches",
  },
  {
    id: "gemini-project-settings",
    agent: "gemini",
    level: "project",
    base: "project",
    pattern: ".gemini/settings.json",
    kind: "hook-file",
    controls: "Gemini CLI's project settings, where GateGuard is registered and hooks are enabled",
  },
  {
    id: "gemini-user-settings",
    agent: "gemini",
    level: "user",
    base: "gemini-home",
    pattern: "settings.json",
    kind: "hook-file",
    controls: "Gemini CLI's user settings, where GateGuard is registered and hooks are enabled",
  },
  {
    id: "gemini-chats",
    agent: "gemini",
    level: "user",
    base: "gemini-home",
    pattern: "tmp/**",
    kind: "evidence",
    controls: "Gemini CLI's chat logs, which GateGuard reads as the record of earlier searches",
  },
  {
    id: "copilot-project-hooks",
    agent: "copilot",
    level: "project",
    base: "project",
    pattern: ".github/hooks/*.json",
    kind: "hook-file",
    controls: "Copilot CLI's repository hook files, where GateGuard is registered for Copilot",
  },
  {
    id: "copilot-user-hooks",
    agent: "copilot",
    level: "user",
    base: "copilot-home",
    pattern: "hooks/*.json",
    kind: "hook-file",
    controls: "Copilot CLI's user hook files, where GateGuard is registered for Copilot",
  },
  {
    id: "copilot-sessions",
    agent: "copilot",
    level: "user",
    base: "copilot-home",
    pattern: "session-state/**",
    kind: "evidence",
    controls: "Copilot CLI's session logs, which GateGuard reads as the record of earlier searches",
  },
  {
    id: "cursor-project-hooks",
    agent: "cursor",
    level: "project",
    base: "project",
    pattern: ".cursor/hooks.json",
    kind: "hook-file",
    controls: "Cursor's project hook file, where GateGuard is registered for Cursor",
  },
  {
    id: "cursor-user-hooks",
    agent: "cursor",
    level: "user",
    base: "home",
    pattern: ".cursor/hooks.json",
    kind: "hook-file",
    controls: "Cursor's user hook file, where GateGuard is registered for Cursor",
  },
];

/** The program a registration runs: a compiled binary, or Deno and a source checkout. */
export interface ProgramPaths {
  /** The compiled binary, when GateGuard runs as one. */
  binary: string | null;
  /** The Deno executable, when GateGuard runs from source. */
  runtime: string | null;
  /** The source checkout (the folder of its deno.json), when GateGuard runs from source. */
  checkout: string | null;
}

/** What the table is resolved against for one call or one command. */
export interface SurfaceContext {
  env: EnvSnapshot;
  /** The project root of the call. */
  projectRoot: string;
  /** Relative paths and bases resolve against this (the hook process's directory). */
  processCwd: string;
  /** The program this build runs as; null leaves the program rows without paths. */
  program: ProgramPaths | null;
  /** When given, real locations are judged too (symlinks resolved). */
  fs?: FsPort;
}

/** The folders Claude Code reads managed settings from, per system. */
const MANAGED_DIRS: readonly string[] = [
  "/etc/claude-code",
  "/Library/Application Support/ClaudeCode",
  "C:/ProgramData/ClaudeCode",
];

function nonBlank(value: string | undefined | null): string | null {
  return value && value.trim() !== "" ? value : null;
}

function homeUnder(env: EnvSnapshot, dir: string): string[] {
  const home = homeDir(env);
  return home ? [joinPath(home, dir)] : [];
}

/** The directories a base stands for (several when a variable moves it), as written. */
export function baseDirs(base: SurfaceBase, ctx: SurfaceContext): string[] {
  const { env, program } = ctx;
  const moved = (variable: string | null, fallback: string): string[] => [
    ...(variable ? [variable] : []),
    ...homeUnder(env, fallback),
  ];
  switch (base) {
    case "project":
      return [ctx.projectRoot];
    case "home": {
      const home = homeDir(env);
      return home ? [home] : [];
    }
    case "claude-config":
      return moved(nonBlank(env.CLAUDE_CONFIG_DIR), ".claude");
    case "codex-home":
      return moved(nonBlank(env.CODEX_HOME), ".codex");
    case "gemini-home": {
      const moved = nonBlank(env.GEMINI_CLI_HOME);
      return [...(moved ? [joinPath(moved, ".gemini")] : []), ...homeUnder(env, ".gemini")];
    }
    case "copilot-home":
      return moved(nonBlank(env.COPILOT_HOME), ".copilot");
    case "managed":
      return [...MANAGED_DIRS];
    case "state":
      return [stateDirFrom(env)];
    case "binary":
      return program?.binary ? [program.binary] : [];
    case "runtime":
      return program?.runtime ? [program.runtime] : [];
    case "checkout":
      return program?.checkout ? [program.checkout] : [];
    case "source-home": {
      const home = homeDir(env);
      return home && program?.checkout ? [home] : [];
    }
  }
}

/** The trust store: `<state dir>/trust.json`, where `gateguard trust` keeps trusted hashes. */
export function trustStorePath(env: EnvSnapshot): string {
  return joinPath(stateDirFrom(env), "trust.json");
}

/** How a path relates to a row. */
export type SurfaceRelation =
  /** The path is one of the row's files (or its folder, for a `**` row). */
  | "is"
  /** The path is a folder holding the row's files: moving or deleting it takes them along. */
  | "holds";

/** A path of the control surface: the row, and the row's concrete path it was matched at. */
export interface SurfaceMatch {
  row: SurfaceRow;
  relation: SurfaceRelation;
  /** The base directory the match was found under, folded. */
  base: string;
}

/** The answer when the path's real location cannot be told: the caller fails closed. */
export interface SurfaceUnresolved {
  unresolved: true;
}

function fold(parts: PathParts): PathParts {
  return { ...parts, root: parts.root.toLowerCase(), segments: parts.segments.map(lower) };
}

function lower(s: string): string {
  return s.toLowerCase();
}

function segmentMatches(pattern: string, name: string): boolean {
  if (pattern === "*") return true;
  if (pattern.startsWith("*")) return name.endsWith(pattern.slice(1));
  return pattern === name;
}

/** The pattern's segments, lowercased; `**` may only come last. */
function patternSegments(pattern: string): string[] {
  return pattern.split("/").filter((s) => s !== "").map(lower);
}

/** The segments of a pattern before its first wildcard: the folder its files all sit in. */
function fixedPrefix(segments: readonly string[]): string[] {
  const at = segments.findIndex((s) => s.includes("*"));
  return at < 0 ? [...segments] : segments.slice(0, at);
}

/** True when the relative segments `rel` match the pattern's segments. */
function matchesPattern(pattern: readonly string[], rel: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === "**") return true;
    if (i >= rel.length || !segmentMatches(pattern[i], rel[i])) return false;
  }
  return rel.length === pattern.length;
}

/** `inner`'s segments below `outer` (`[]` when they are the same), or null when outside. */
function below(outer: PathParts, inner: PathParts): string[] | null {
  if (outer.root !== inner.root || inner.segments.length < outer.segments.length) return null;
  for (let i = 0; i < outer.segments.length; i++) {
    if (outer.segments[i] !== inner.segments[i]) return null;
  }
  return inner.segments.slice(outer.segments.length);
}

/** A folder whose move would take every project or the whole home along: out of this table's scope. */
function tooWide(path: PathParts, ctx: SurfaceContext, cwd: string): boolean {
  const wide = [ctx.projectRoot, homeDir(ctx.env)].flatMap((d) => d ? [d] : []);
  return path.segments.length === 0 ||
    wide.some((d) => below(path, fold(absolutePath(d, cwd, cwd))) !== null);
}

interface ResolvedBase {
  row: SurfaceRow;
  dir: PathParts;
  pattern: string[];
}

/** The table's bases as written (`real` false) or at their real locations, folded. */
function resolvedBases(ctx: SurfaceContext, real: boolean): ResolvedBase[] {
  const cwd = ctx.processCwd;
  const seen = new Map<string, PathParts | null>();
  const out: ResolvedBase[] = [];
  for (const row of CONTROL_SURFACE) {
    const pattern = patternSegments(row.pattern);
    for (const written of baseDirs(row.base, ctx)) {
      let dir = seen.get(written);
      if (dir === undefined) {
        const parts = absolutePath(written, cwd, cwd);
        const located = real && ctx.fs ? realLocation(parts, ctx.fs) : parts;
        dir = located ? fold(located) : null;
        seen.set(written, dir);
      }
      if (dir) out.push({ row, dir, pattern });
    }
  }
  return out;
}

function matchAt(
  path: PathParts,
  bases: readonly ResolvedBase[],
  ctx: SurfaceContext,
): SurfaceMatch | null {
  for (const { row, dir, pattern } of bases) {
    const rel = below(dir, path);
    if (rel !== null && matchesPattern(pattern, rel)) {
      return { row, relation: "is", base: formatPath(dir) };
    }
  }
  if (tooWide(path, ctx, ctx.processCwd)) return null;
  for (const { row, dir, pattern } of bases) {
    const fixed = { ...dir, segments: [...dir.segments, ...fixedPrefix(pattern)] };
    if (below(path, fixed) !== null) return { row, relation: "holds", base: formatPath(dir) };
  }
  return null;
}

/**
 * The control-surface row `path` belongs to, or null when it is no part of
 * it. `path` is made absolute against the context's process directory and
 * folded. With a filesystem port its real location is judged too, against
 * the bases as written and at their real locations; a location that cannot
 * be resolved gives `{unresolved: true}`.
 */
export function controlSurfaceOf(
  path: string,
  ctx: SurfaceContext,
): SurfaceMatch | SurfaceUnresolved | null {
  const cwd = ctx.processCwd;
  const parts = absolutePath(path, cwd, cwd);
  const written = resolvedBases(ctx, false);
  const lexical = matchAt(fold(parts), written, ctx);
  if (lexical || !ctx.fs) return lexical;
  const real = realLocation(parts, ctx.fs);
  if (!real) return { unresolved: true };
  const folded = fold(real);
  return matchAt(folded, written, ctx) ?? matchAt(folded, resolvedBases(ctx, true), ctx);
}

/** One concrete entry of the control surface, for `doctor` and `explain`. */
export interface SurfacePath {
  row: SurfaceRow;
  /** The path, or the folder and pattern for a row with wildcards. */
  path: string;
}

/**
 * Every row with the concrete paths it stands for in this context, in
 * table order; a row whose base is unknown here (no home, no program) has
 * none. A row with wildcards is given as its base joined with its pattern.
 */
export function controlSurfaceRows(ctx: SurfaceContext): SurfacePath[] {
  const out: SurfacePath[] = [];
  for (const row of CONTROL_SURFACE) {
    for (const dir of baseDirs(row.base, ctx)) {
      out.push({ row, path: row.pattern === "" ? dir : joinPath(dir, row.pattern) });
    }
  }
  return out;
}
