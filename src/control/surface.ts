/**
 * GateGuard's control surface: the one table of `rows.ts` (every file or
 * directory whose change could switch GateGuard off, weaken it, or forge
 * what it trusts, for every agent it answers) resolved against a call, and
 * paths matched against it. The file gate's self-protection rule, the
 * shell side, `gateguard explain` and `gateguard doctor` all read it, so a
 * new agent or a new state file is one more row.
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
import { baseName, dirName, joinPath } from "../platform/path.ts";
import { absolutePath, formatPath, type PathParts } from "../file_facts/paths.ts";
import { type KnownLocations, realLocation, walkedRealLocation } from "../file_facts/real_path.ts";
import {
  CONTROL_SURFACE,
  ENVRC_SOURCED_ROW,
  HOOK_SCRIPT_ROW,
  LINKED_EXTENSION_ROW,
  STARTUP_SOURCED_ROW,
  type SurfaceRow,
} from "./rows.ts";
import { envrcSources, startupSources } from "./startup_sources.ts";
import {
  claudeConfigFileScripts,
  hookScripts,
  linkedExtensionFiles,
  linkedExtensionScripts,
  linkedExtensionSources,
} from "./hook_scripts.ts";
import {
  baseDirs,
  direnvPresent,
  dotenvFolders,
  once,
  rowApplies,
  type SurfaceContext,
} from "./bases.ts";

export { baseDirs, type ProgramPaths, rowApplies, type SurfaceContext } from "./bases.ts";
export {
  CONTROL_SURFACE,
  DELETION_HARMLESS,
  type SurfaceAgent,
  type SurfaceBase,
  type SurfaceKind,
  type SurfaceLevel,
  type SurfaceRow,
} from "./rows.ts";

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
  if (!pattern.includes("*")) return pattern === name;
  const parts = pattern.split("*");
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (name.length < first.length + last.length) return false;
  if (!name.startsWith(first) || !name.endsWith(last)) return false;
  let at = first.length;
  for (const middle of parts.slice(1, -1)) {
    const found = name.indexOf(middle, at);
    if (found < 0 || found + middle.length > name.length - last.length) return false;
    at = found + middle.length;
  }
  return true;
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

/**
 * The folders whose move would take every project or the whole home along
 * (the project root, the home directory): what holds them is out of this
 * table's scope. The shell reader asks the same question of its pieces.
 */
export function wideFolders(ctx: SurfaceContext): string[] {
  return [ctx.projectRoot, homeDir(ctx.env)].flatMap((d) => d ? [d] : []);
}

/** A folder whose move would take every project or the whole home along: out of this table's scope. */
function tooWide(path: PathParts, ctx: SurfaceContext, cwd: string): boolean {
  return path.segments.length === 0 ||
    wideFolders(ctx).some((d) => below(path, fold(absolutePath(d, cwd, cwd))) !== null);
}

interface ResolvedBase {
  row: SurfaceRow;
  dir: PathParts;
  pattern: string[];
}

/**
 * True when a row could hold `path` whatever its base resolves to: a row
 * with a fixed pattern only holds paths whose last names match it, so its
 * base need not be resolved for any other path.
 */
function mayHold(pattern: readonly string[], path: PathParts): boolean {
  if (pattern.length === 0 || pattern.includes("**")) return true;
  const tail = path.segments.slice(-pattern.length);
  return tail.length === pattern.length &&
    tail.every((name, i) => segmentMatches(pattern[i], name));
}

/** The real locations of folders found while judging one call, by context. */
const KNOWN_LOCATIONS = new WeakMap<SurfaceContext, KnownLocations>();

/**
 * The real locations already found in this context, for `realLocation`:
 * the table's folders share parents (the home, the project, the folders
 * above them), and each is resolved once per call.
 */
export function knownLocations(ctx: SurfaceContext): KnownLocations {
  return once(KNOWN_LOCATIONS, ctx, () => new Map());
}

/** Whether a row's base is a PATH folder: its files are programs found by name. */
export function onPathRow(row: SurfaceRow): boolean {
  return row.base === "path-dirs" || row.base === "runtime-path-dirs" || row.base === "path-all";
}

/**
 * The table's bases as written (`real` false) or at their real locations,
 * folded; with `only`, just the rows that may hold that path. `rows` keeps
 * the rows of programs on PATH out (`without`) or keeps only them (`only`):
 * a PATH folder holds nothing but programs by name, so those rows are
 * resolved only for a path whose last name could be one.
 */
function resolvedBases(
  ctx: SurfaceContext,
  real: boolean,
  only?: PathParts,
  rows: "all" | "without" | "only" = "all",
): ResolvedBase[] {
  const cwd = ctx.processCwd;
  const seen = new Map<string, PathParts | null>();
  const out: ResolvedBase[] = [];
  for (const row of CONTROL_SURFACE) {
    if (rows !== "all" && onPathRow(row) !== (rows === "only")) continue;
    const pattern = patternSegments(row.pattern);
    if (only && !mayHold(pattern, only)) continue;
    for (const written of baseDirs(row.base, ctx)) {
      let dir = seen.get(written);
      if (dir === undefined) {
        const parts = absolutePath(written, cwd, cwd);
        const located = real && ctx.fs ? realLocation(parts, ctx.fs, knownLocations(ctx)) : parts;
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
    if (rel !== null && matchesPattern(pattern, rel) && rowApplies(row, ctx)) {
      return { row, relation: "is", base: formatPath(dir) };
    }
  }
  if (tooWide(path, ctx, ctx.processCwd)) return null;
  for (const { row, dir, pattern } of bases) {
    // A PATH folder holds programs by name only: moving it takes no control file along.
    if (onPathRow(row)) continue;
    const fixed = { ...dir, segments: [...dir.segments, ...fixedPrefix(pattern)] };
    if (below(path, fixed) !== null && rowApplies(row, ctx)) {
      return { row, relation: "holds", base: formatPath(dir) };
    }
  }
  return null;
}

/** Most links followed from a dangling one before it counts as unresolved. */
const MAX_LINK_HOPS = 8;

/**
 * Where writing through a dangling symlink would create its file: the link
 * read hop by hop (relative targets against the link's folder) until a
 * location resolves; null when the port cannot read links, a hop is no
 * link, or the chain is longer than `MAX_LINK_HOPS`.
 */
export function danglingTarget(parts: PathParts, fs: FsPort): PathParts | null {
  let at = parts;
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    const link = fs.readLink?.(formatPath(at)) ?? null;
    if (link === null) return null;
    const dir = formatPath({ ...at, segments: at.segments.slice(0, -1) });
    at = absolutePath(link, dir, dir);
    const real = realLocation(at, fs);
    if (real) return real;
  }
  return null;
}

/**
 * The control-surface row `path` belongs to, or null when it is no part of
 * it. `path` is made absolute against the context's process directory and
 * folded. With a filesystem port its real location is judged too, against
 * the bases as written and at their real locations; a location that cannot
 * be resolved gives `{unresolved: true}`. `unfolded`, the same path with its
 * `..` kept, is the one whose real location is looked up.
 */
export function controlSurfaceOf(
  path: string,
  ctx: SurfaceContext,
  unfolded?: string,
): SurfaceMatch | SurfaceUnresolved | null {
  const cwd = ctx.processCwd;
  const parts = absolutePath(path, cwd, cwd);
  const written = resolvedBases(ctx, false, undefined, "without");
  const named = (p: PathParts) => matchAt(p, resolvedBases(ctx, false, p, "only"), ctx);
  const lexical = matchAt(fold(parts), written, ctx) ?? named(fold(parts));
  if (lexical || !ctx.fs) return lexical;
  const real = walkedRealLocation(unfolded ?? path, cwd, ctx.fs) ?? danglingTarget(parts, ctx.fs);
  if (!real) return { unresolved: true };
  const folded = fold(real);
  return matchAt(folded, written, ctx) ?? named(folded) ??
    matchAt(folded, resolvedBases(ctx, true, folded), ctx) ??
    sourcedMatch([parts, real], ctx) ?? hardLinkMatch(real, ctx);
}

/**
 * The row of a path that one of the table's files brings in by reading it
 * (a start-up file's `source`, a hook's script, an `.envrc`'s load, a
 * linked Gemini CLI extension), as written or at its real location; each
 * list is read only when a path gets this far, once per context.
 */
export function sourcedMatch(
  paths: readonly PathParts[],
  ctx: SurfaceContext,
): SurfaceMatch | null {
  return startupSourcedMatch(paths, ctx) ?? hookScriptMatch(paths, ctx) ??
    envrcSourcedMatch(paths, ctx) ?? linkedExtensionMatch(paths, ctx);
}

/** The folders Gemini CLI's linked extensions load from, read once per context. */
const LINKED_SOURCES = new WeakMap<SurfaceContext, string[]>();

/** `linkedExtensionSources` of the extensions folders under Gemini CLI's homes, once per context. */
function linkedSources(ctx: SurfaceContext, fs: FsPort): string[] {
  return once(LINKED_SOURCES, ctx, () =>
    linkedExtensionSources(
      baseDirs("gemini-home", ctx).map((d) => joinPath(d, "extensions")),
      fs,
    ));
}

/** The files of the linked extensions' folders, folded, found once per context. */
const LINKED_EXTENSIONS = new WeakMap<SurfaceContext, { config: PathParts; hooks: PathParts }[]>();

/**
 * The linked-extension row for a path that is the config or under the
 * hooks folder of a Gemini CLI extension linked from elsewhere
 * (`hook_scripts.ts`), at the folder's spelling or its real location.
 */
export function linkedExtensionMatch(
  paths: readonly PathParts[],
  ctx: SurfaceContext,
): SurfaceMatch | null {
  const fs = ctx.fs;
  if (!fs) return null;
  const linked = once(LINKED_EXTENSIONS, ctx, () => {
    return linkedSources(ctx, fs).flatMap((source) => {
      const parts = absolutePath(source, ctx.processCwd, ctx.processCwd);
      const real = realLocation(parts, fs, knownLocations(ctx));
      return (real ? [parts, real] : [parts]).map((p) => {
        const { config, hooks } = linkedExtensionFiles(formatPath(p));
        const at = (path: string) => fold(absolutePath(path, "/", "/"));
        return { config: at(config), hooks: at(hooks) };
      });
    });
  });
  if (linked.length === 0) return null;
  const found = paths.map(fold).some((c) =>
    linked.some((l) => samePath(c, l.config) || below(l.hooks, c) !== null)
  );
  return found ? { row: LINKED_EXTENSION_ROW, relation: "is", base: ctx.projectRoot } : null;
}

/** The files the `.envrc` files load, folded, found once per context. */
const ENVRC_LOADED = new WeakMap<SurfaceContext, PathParts[]>();

/**
 * The direnv-loaded row for a path (as written or at its real location)
 * that an `.envrc` in the folders an agent starts in loads, or null. Read
 * only while direnv has its data folder here, once per context.
 */
export function envrcSourcedMatch(
  paths: readonly PathParts[],
  ctx: SurfaceContext,
): SurfaceMatch | null {
  const fs = ctx.fs;
  if (!fs || !direnvPresent(ctx, fs)) return null;
  const home = homeDir(ctx.env);
  const envrcs = () =>
    [...dotenvFolders(ctx), ...(home ? [home] : [])].map((dir) => joinPath(dir, ".envrc"));
  return listedMatch(paths.map(fold), ctx, fs, ENVRC_LOADED, () => envrcSources(envrcs(), fs), {
    row: ENVRC_SOURCED_ROW,
    base: ctx.projectRoot,
  });
}

/** The table's existing files by identity, with their rows, found once per context. */
const IDENTITIES = new WeakMap<SurfaceContext, Map<string, SurfaceRow>>();

/**
 * The row of a control file that `path` is another name of (a hard link:
 * the same file under a name the table does not hold), or null. Only a
 * file with more than one name is compared, against the table's files that
 * exist (looked up once per context) and the scripts the registered hooks
 * run. A file inside a wildcard row's folder is not enumerated: a hard
 * link to one of those gets the file gate's strict first touch only.
 */
export function hardLinkMatch(path: PathParts, ctx: SurfaceContext): SurfaceMatch | null {
  const fs = ctx.fs;
  if (!fs) return null;
  const own = fs.stat(formatPath(path));
  if (!own.ok || !own.isFile || own.nlink === null || own.nlink < 2 || !own.fileId) return null;
  const ids = once(IDENTITIES, ctx, () => {
    const found = new Map<string, SurfaceRow>();
    const named: [SurfaceRow, string][] = controlSurfaceRows(ctx)
      .filter(({ path }) => !path.includes("*"))
      .map(({ row, path }) => [row, path]);
    for (const script of registeredHookScripts(ctx, fs)) named.push([HOOK_SCRIPT_ROW, script]);
    for (const [row, file] of named) {
      const info = fs.stat(file);
      if (info.ok && info.isFile && info.fileId && !found.has(info.fileId)) {
        found.set(info.fileId, row);
      }
    }
    return found;
  });
  const row = ids.get(own.fileId);
  return row === undefined ? null : { row, relation: "is", base: formatPath(path) };
}

/** The scripts the registered hooks run, folded, found once per context. */
const HOOK_SCRIPTS = new WeakMap<SurfaceContext, PathParts[]>();

/**
 * The hook-script row for a path (as written or at its real location) that
 * one of the agents' registered hooks runs, or null. The registration files
 * the table lists are read once per context, only for an existing file no
 * other row holds (a script a hook names that is not there yet is left out:
 * reading them for every path a call writes cost every call a millisecond).
 */
export function hookScriptMatch(
  paths: readonly PathParts[],
  ctx: SurfaceContext,
): SurfaceMatch | null {
  const fs = ctx.fs;
  if (!fs) return null;
  const existing = paths.some((p) => {
    const own = fs.lstat(formatPath(p));
    return own.ok && !own.isDirectory;
  });
  if (!existing) return null;
  return listedMatch(paths.map(fold), ctx, fs, HOOK_SCRIPTS, () => registeredHookScripts(ctx, fs), {
    row: HOOK_SCRIPT_ROW,
    base: ctx.projectRoot,
  });
}

/** Most names listed in a folder of registration files (`.github/hooks/*.json`). */
const MAX_LISTED = 64;

/**
 * The scripts that the hooks and servers registered in the table's files
 * run, as written: settings and hook files, and the server lists. A row
 * whose last name is a wildcard (`.github/hooks/*.json`) is read by
 * listing its folder; a row with a wildcard elsewhere is not read.
 */
function registeredHookScripts(ctx: SurfaceContext, fs: FsPort): string[] {
  return once(REGISTERED_SCRIPTS, ctx, () => readRegisteredScripts(ctx, fs));
}

/** `registeredHookScripts` of a context: the hook-script and hard-link rows both ask. */
const REGISTERED_SCRIPTS = new WeakMap<SurfaceContext, string[]>();

function readRegisteredScripts(ctx: SurfaceContext, fs: FsPort): string[] {
  const rows = controlSurfaceRows(ctx);
  const files = rows
    .filter(({ row }) =>
      row.kind === "settings" || row.kind === "hook-file" || row.listsPrograms === "all"
    )
    .flatMap(({ path }) => {
      if (!path.includes("*")) return [path];
      const dir = dirName(path);
      const last = baseName(path);
      if (dir.includes("*") || last === "**") return [];
      const names = fs.listNames?.(dir, MAX_LISTED) ?? [];
      return names.filter((n) => segmentMatches(lower(last), lower(n))).map((n) =>
        joinPath(dir, n)
      );
    });
  const home = homeDir(ctx.env);
  // Claude Code's own config file holds every project's servers: only this project's are read.
  const claudeConfigs = rows.filter(({ row }) => row.listsPrograms === "by-project")
    .map(({ path }) => path);
  return [
    ...hookScripts(files, ctx.projectRoot, home, fs),
    // A linked Gemini CLI extension's config and hooks name what they run, as a settings file does.
    ...linkedSources(ctx, fs).flatMap((source) =>
      linkedExtensionScripts(source, ctx.projectRoot, home, fs)
    ),
    ...claudeConfigFileScripts(claudeConfigs, ctx.projectRoot, home, fs),
  ];
}

/** Whether two folded paths are the same. */
function samePath(a: PathParts, b: PathParts): boolean {
  return a.root === b.root && a.segments.length === b.segments.length &&
    a.segments.every((s, i) => s === b.segments[i]);
}

/** The files the start-up files load, folded, found once per context. */
const SOURCED = new WeakMap<SurfaceContext, PathParts[]>();

/**
 * The start-up-sourced row for a path that one of the shells' start-up
 * files loads (as written or at its real location), or null. Only a path
 * under the home directory and outside the project is looked up, so the
 * start-up files are read only for such a path, once per context.
 */
export function startupSourcedMatch(
  paths: readonly PathParts[],
  ctx: SurfaceContext,
): SurfaceMatch | null {
  const home = homeDir(ctx.env);
  const fs = ctx.fs;
  if (!home || !fs) return null;
  const homeParts = fold(absolutePath(home, "/", "/"));
  const project = fold(absolutePath(ctx.projectRoot, "/", "/"));
  const candidates = paths.map(fold).filter((p) =>
    below(homeParts, p) !== null && below(project, p) === null
  );
  if (candidates.length === 0) return null;
  const startup = () =>
    CONTROL_SURFACE.filter((r) => r.kind === "startup" && r.base === "home")
      .filter((r) => !r.pattern.includes("*")).map((r) => joinPath(home, r.pattern));
  return listedMatch(candidates, ctx, fs, SOURCED, () => startupSources(startup(), home, fs), {
    row: STARTUP_SOURCED_ROW,
    base: formatPath(homeParts),
  });
}

/**
 * The match of `row` when one of `candidates` (folded) is a file `list`
 * names, as written or at its real location; the list is made once per
 * context and kept in `cache`.
 */
function listedMatch(
  candidates: readonly PathParts[],
  ctx: SurfaceContext,
  fs: FsPort,
  cache: WeakMap<SurfaceContext, PathParts[]>,
  list: () => string[],
  found: { row: SurfaceRow; base: string },
): SurfaceMatch | null {
  const listed = once(cache, ctx, () =>
    list().flatMap((path) => {
      const parts = absolutePath(path, "/", "/");
      const real = realLocation(parts, fs, knownLocations(ctx));
      return real ? [fold(parts), fold(real)] : [fold(parts)];
    }));
  return candidates.some((c) => listed.some((s) => samePath(c, s)))
    ? { row: found.row, relation: "is", base: found.base }
    : null;
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

/**
 * The concrete entries of `controlSurfaceRows` that exist on disk (through
 * the context's filesystem port), for `doctor`: a row with wildcards is
 * shown when the folder its files sit in exists; then each existing script
 * a registered hook runs.
 */
export function presentSurfaceRows(ctx: SurfaceContext): SurfacePath[] {
  const fs = ctx.fs;
  if (!fs) return [];
  const present = controlSurfaceRows(ctx).filter(({ row, path }) => {
    if (!rowApplies(row, ctx)) return false;
    const wild = path.indexOf("*");
    const fixed = wild < 0 ? path : path.slice(0, Math.max(0, path.lastIndexOf("/", wild)));
    return fixed !== "" && fs.lstat(fixed).ok;
  });
  const scripts = [...new Set(registeredHookScripts(ctx, fs))]
    .filter((path) => fs.lstat(path).ok)
    .map((path) => ({ row: HOOK_SCRIPT_ROW, path }));
  return [...present, ...scripts];
}
