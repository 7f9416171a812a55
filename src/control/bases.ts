/**
 * Where the control surface's rows are in one context: the folders each
 * row's base stands for (the project, the home, the agents' homes moved by
 * their variables, the state folder, the program, the folders of PATH and
 * those an agent looks for `.env` files in), and whether a row counts at
 * all here. `surface.ts` matches paths against them.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { homeDir, stateDirFrom } from "../config/settings.ts";
import type { FsPort } from "../platform/fs_port.ts";
import { dirName, joinPath } from "../platform/path.ts";
import { absolutePath, formatPath } from "../file_facts/paths.ts";
import type { SurfaceBase, SurfaceRow } from "./row_types.ts";

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
  /**
   * The host system as `Deno.build.os` names it, when known: only its own
   * managed-settings folder is looked at (all of them without it).
   */
  os?: string;
}

/**
 * `make()` for `ctx`, made the first time it is asked for and kept in
 * `cache`: what a call works out about its context (PATH, the `.env`
 * folders, lookups of folders) it works out once.
 */
export function once<T>(cache: WeakMap<SurfaceContext, T>, ctx: SurfaceContext, make: () => T): T {
  if (cache.has(ctx)) return cache.get(ctx)!;
  const made = make();
  cache.set(ctx, made);
  return made;
}

/** The folders Claude Code reads managed settings from, per system. */
const MANAGED_DIRS: Readonly<Record<string, string>> = {
  linux: "/etc/claude-code",
  darwin: "/Library/Application Support/ClaudeCode",
  windows: "C:/ProgramData/ClaudeCode",
};

function nonBlank(value: string | undefined | null): string | null {
  return value && value.trim() !== "" ? value : null;
}

/** `dir` under the home folder, when there is one. */
export function homeUnder(env: EnvSnapshot, dir: string): string[] {
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
    case "managed": {
      const own = ctx.os === undefined ? undefined : MANAGED_DIRS[ctx.os];
      return own ? [own] : ctx.os === undefined ? Object.values(MANAGED_DIRS) : [];
    }
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
    case "dotenv-folders":
      return dotenvFolders(ctx);
    case "path-dirs":
      return pathDirs(ctx).beforeBinary;
    case "runtime-path-dirs":
      return pathDirs(ctx).beforeRuntime;
    case "path-all":
      return pathDirs(ctx).all;
    // Found on demand (`startupSourcedMatch`, `hookScriptMatch`), never as a
    // folder: reading those files for every call would cost every call.
    case "startup-sourced":
    case "hook-sourced":
    case "envrc-sourced":
    case "extension-linked":
      return [];
  }
}

/** Whether an agent or tool that loads `.env` files has a home here, by context. */
const LOADER_PRESENT = new WeakMap<SurfaceContext, boolean>();

/**
 * Whether something that loads a folder's `.env` file into an agent's
 * environment has a home folder on this machine: Gemini CLI, which loads
 * them when it starts, or direnv, whose `dotenv` loads one for a shell
 * entering the folder (Codex CLI loads only its own, a row of its own).
 * Without a filesystem port it is assumed: reading too much as control
 * surface only costs a look at the change. Removing those folders is itself
 * a change to the table.
 */
function dotenvLoaderPresent(ctx: SurfaceContext): boolean {
  const fs = ctx.fs;
  if (!fs) return true;
  return once(
    LOADER_PRESENT,
    ctx,
    () => direnvPresent(ctx, fs) || baseDirs("gemini-home", ctx).some((dir) => fs.lstat(dir).ok),
  );
}

/** Whether direnv has its data folder here, by context. */
const DIRENV_PRESENT = new WeakMap<SurfaceContext, boolean>();

/** Whether direnv has its data folder here, looked up once per context. */
export function direnvPresent(ctx: SurfaceContext, fs: FsPort): boolean {
  return once(
    DIRENV_PRESENT,
    ctx,
    () => homeUnder(ctx.env, ".local/share/direnv").some((dir) => fs.lstat(dir).ok),
  );
}

/** Whether mise has its data, state or config folder here, by context. */
const MISE_PRESENT = new WeakMap<SurfaceContext, boolean>();

/** Whether mise has a folder of its own in the home; assumed without a filesystem port. */
function misePresent(ctx: SurfaceContext): boolean {
  const fs = ctx.fs;
  if (!fs) return true;
  return once(MISE_PRESENT, ctx, () =>
    [".local/share/mise", ".local/state/mise", ".config/mise"]
      .some((dir) => homeUnder(ctx.env, dir).some((path) => fs.lstat(path).ok)));
}

/**
 * Whether `row` counts in this context: a row with `needsLoader` only while
 * what loads it lives here (`dotenvLoaderPresent`, `misePresent`), asked
 * only once a path has matched such a row, so other calls pay no lookup
 * for it.
 */
export function rowApplies(row: SurfaceRow, ctx: SurfaceContext): boolean {
  switch (row.needsLoader) {
    case undefined:
      return true;
    case "dotenv":
      return dotenvLoaderPresent(ctx);
    case "mise":
      return misePresent(ctx);
  }
}

/** The folders a bare command name is looked up in, as the bases on PATH read them. */
interface PathDirs {
  /** Those searched before the running binary's own (`path-dirs`). */
  beforeBinary: string[];
  /** From source, those searched before the running Deno's own (`runtime-path-dirs`). */
  beforeRuntime: string[];
  /** All of them (`path-all`). */
  all: string[];
}

/**
 * The folders of `PATH` (`PathDirs`), where a program named like GateGuard
 * or Deno would run in its place. `PATH` is split as the host splits it;
 * relative entries (an empty one is the current folder) are taken from the
 * process's folder. Read once per context: every row on PATH asks for them.
 */
function pathDirs(ctx: SurfaceContext): PathDirs {
  return once(PATH_DIRS, ctx, () => readPathDirs(ctx));
}

const PATH_DIRS = new WeakMap<SurfaceContext, PathDirs>();

function readPathDirs(ctx: SurfaceContext): PathDirs {
  const raw = ctx.env.PATH ?? "";
  const windows = ctx.os === "windows" || /^[A-Za-z]:[\\/]/.test(raw) || raw.includes(";");
  const cwd = ctx.processCwd;
  const runtime = ctx.program?.runtime ?? null;
  if (raw.trim() === "") {
    const found = windows ? [cwd] : [];
    return { beforeBinary: found, beforeRuntime: runtime ? found : [], all: found };
  }
  const entries = raw.split(windows ? ";" : ":").map((entry) => {
    const trimmed = entry.trim().replace(/^"(.*)"$/, "$1");
    return formatPath(absolutePath(trimmed === "" ? "." : trimmed, cwd, cwd));
  });
  const searched = (list: string[]) => [...new Set(windows ? [cwd, ...list] : list)];
  // Every folder when the program's own is not on PATH.
  const before = (program: string) => {
    const ownDir = dirName(formatPath(absolutePath(program, cwd, cwd))).toLowerCase();
    const at = entries.findIndex((e) => e.toLowerCase() === ownDir);
    return searched(at < 0 ? entries : entries.slice(0, at));
  };
  const binary = ctx.program?.binary ?? null;
  return {
    beforeBinary: binary ? before(binary) : searched(entries),
    beforeRuntime: runtime ? before(runtime) : [],
    all: searched(entries),
  };
}

/**
 * The folders an agent started in this project looks for a `.env` file in:
 * the project root, the process's folder, and every folder above either,
 * the home left out (the home's own `.env` row holds it).
 */
export function dotenvFolders(ctx: SurfaceContext): string[] {
  return once(DOTENV_FOLDERS, ctx, () => readDotenvFolders(ctx));
}

/** `dotenvFolders` of a context, found once. */
const DOTENV_FOLDERS = new WeakMap<SurfaceContext, string[]>();

function readDotenvFolders(ctx: SurfaceContext): string[] {
  const cwd = ctx.processCwd;
  const home = homeDir(ctx.env);
  const homeKey = home ? formatPath(absolutePath(home, cwd, cwd)).toLowerCase() : null;
  const out = new Map<string, string>();
  for (const start of [ctx.projectRoot, cwd]) {
    const parts = absolutePath(start, cwd, cwd);
    for (let depth = parts.segments.length; depth >= 0; depth--) {
      const dir = formatPath({ ...parts, segments: parts.segments.slice(0, depth) });
      const key = dir.toLowerCase();
      if (key !== homeKey && !out.has(key)) out.set(key, dir);
    }
  }
  return [...out.values()];
}
