/**
 * The shell side of GateGuard's self-protection: which files of the control
 * surface (`control/surface.ts`) a shell command could write, move, delete,
 * link or replace, whether it runs GateGuard's own hook by hand or stores a
 * variable GateGuard reads for later sessions (`shell_environment.ts`), and
 * whether a destructive command is aimed at the home directory, a
 * filesystem root, the project root or its `.git`.
 *
 * The reading is deliberately wider than the shells': every word of every
 * command (arguments, redirection targets, code handed to an interpreter,
 * here-documents fed to a program) is cut into path-like pieces, and a piece
 * is compared with the table's paths segment by segment. A part the line
 * cannot know (an outside variable, a command substitution) stands for any
 * name, so `$d/settings.json` or a wildcard spelling of `.claude` still
 * reach Claude's settings, and so does an absolute tail cut from code that
 * glues it to a computed folder (`homedir() + '/.claude/settings.json'`); a piece whose folder cannot be placed (the line changes
 * directory, or a variable leads the path) is matched anywhere in the table,
 * but only through a name that belongs to GateGuard's files, so an ordinary
 * `rm -rf "$out/dist"` is left to the destructive gate.
 *
 * Reading is not writing: a segment that the read-only check accepts, an
 * index-only git command, and GateGuard's own reporting subcommands pass,
 * unless their output is piped into something that runs it. Everything
 * else that names a control file counts, since a program the reader does
 * not know may write whatever it is given.
 *
 * @module
 */

import { parseBash, type Segment } from "../shell/bash/mod.ts";
import type { ShellDialect } from "../shell/dialect.ts";
import {
  controlSurfaceRows,
  danglingTarget,
  DELETION_HARMLESS,
  hardLinkMatch,
  knownLocations,
  onPathRow,
  rowApplies,
  sourcedMatch,
  type SurfaceContext,
  type SurfaceKind,
  type SurfaceRow,
  wideFolders,
} from "../control/surface.ts";
import { absolutePath, formatPath, parsePath, type PathParts } from "../file_facts/paths.ts";
import {
  type KnownLocations,
  realLocation,
  walkedRealLocation,
  walkTooLong,
} from "../file_facts/real_path.ts";
import type { FsPort } from "../platform/fs_port.ts";
import { homeDir } from "../config/settings.ts";
import type { WorkBudget } from "../platform/budget.ts";
import { DIRECTORY_CHANGERS } from "./shell_words.ts";
import {
  bashSegments,
  commandPieces,
  commandWordAt,
  lower,
  ownSubcommand,
  type Piece,
  readsOnly,
  runsOwnHook,
} from "./shell_pieces.ts";
import { type LaterEffectHit, laterEffectHits } from "./shell_environment.ts";
import { harmlessEnvWrites } from "./env_writes.ts";
import { mayWriteUnread, needsFolderReader } from "./folder_writers.ts";
import type { ArchiveReader } from "./archive_reader.ts";
import type { ArchiveKind } from "./archive_names.ts";

export { prefetchArchives } from "./archive_reader.ts";
import {
  hasGlob,
  knownFolderVariables,
  patternsMeet,
  placedMeets,
  segmentsMeet,
  tailMeets,
  UNKNOWN,
  withKnownParts,
} from "./path_match.ts";

/** Work units charged for each piece compared with the table. */
const UNITS_PER_PIECE = 64;
/** Work units charged for each piece whose real location is looked up. */
const UNITS_PER_LOOKUP = 4096;

/** What the shell side found in a command. */
export type ShellProtectHit =
  | {
    kind: "control";
    /** The piece of the command as written. */
    piece: string;
    row: SurfaceRow;
    /**
     * Set when the piece deletes anything below its folder, whatever its
     * name (`find -delete` or `-exec` without a name test, `git clean`).
     */
    broad?: boolean;
  }
  /** It runs GateGuard's own program by hand; `subcommand` is the word after it, if any. */
  | { kind: "own-hook"; piece: string; subcommand?: string }
  /**
   * A link the piece names (or ends in) whose real location cannot be
   * found (a loop, a chain too long, a place the hook may not look): it may
   * stand for any control file.
   */
  | { kind: "unresolved"; piece: string }
  | LaterEffectHit;

/** What the command is read against. */
export interface ShellProtectContext {
  surface: SurfaceContext;
  /** The directory the command runs in (the payload's `cwd`), or null when unknown. */
  cwd: string | null;
  /**
   * Reads the paths an archive or patch would write (`prefetchArchives`);
   * without it, an extraction or a patch stands for any name.
   */
  archives?: ArchiveReader;
}

/** A piece made into a path: placed (absolute) or to be matched anywhere. */
interface Probe {
  piece: string;
  /** Lowercased absolute segments, or null when the folder cannot be placed. */
  placed: PathParts | null;
  /** The same path as written (case kept), for looking it up on disk. */
  written: PathParts | null;
  /** The path's text before `..` were folded, and the folder it is relative to (with `written`). */
  spelled: { text: string; base: string } | null;
  /** Lowercased segments below an unknown folder (for `placed === null`). */
  tail: string[];
}

/** One path of the table, split for matching. */
interface Target {
  row: SurfaceRow;
  root: string;
  segments: string[];
  /** The path as the table gives it, case kept. */
  written: PathParts;
}

/** The probe a piece stands for, or null for a piece that names no path at all. */
function probeOf(
  piece: string,
  ctx: ShellProtectContext,
  movesDirectory: boolean,
  dialect?: ShellDialect,
): Probe | null {
  const home = homeDir(ctx.surface.env);
  // After a `cd` of the line, `$PWD` is wherever it went.
  const where = movesDirectory ? null : { cwd: ctx.cwd, top: ctx.surface.projectRoot };
  const variables = knownFolderVariables(ctx.surface.env);
  const text = withKnownParts(piece, { home, variables, ...where }, dialect).replaceAll("\\", "/");
  if (text === "" || text === "-" || /^-{1,2}[A-Za-z]/.test(text)) return null;
  const parts = parsePath(text, /^[A-Za-z]:\//.test(text));
  const segments = parts.segments.map(lower);
  const leadingUnknown = segments.findIndex((s) => s.includes(UNKNOWN));
  if (parts.root === "" && (leadingUnknown === 0 || movesDirectory || ctx.cwd === null)) {
    const tail = segments.slice(leadingUnknown === 0 ? 1 : 0).filter((s) =>
      s !== "." && s !== ".."
    );
    return { piece, placed: null, written: null, spelled: null, tail };
  }
  const globstar = segments.indexOf("**");
  if (globstar >= 0) {
    return {
      piece,
      placed: null,
      written: null,
      spelled: null,
      tail: segments.slice(globstar + 1),
    };
  }
  const base = ctx.cwd ?? "/";
  const placed = absolutePath(text, base, base);
  return {
    piece,
    placed: { ...placed, segments: placed.segments.map(lower) },
    written: placed,
    spelled: { text, base },
    tail: [],
  };
}

function targetsOf(ctx: ShellProtectContext): Target[] {
  const cwd = ctx.surface.processCwd;
  return controlSurfaceRows(ctx.surface).map(({ row, path }) => {
    const parts = absolutePath(path, cwd, cwd);
    return { row, root: lower(parts.root), segments: parts.segments.map(lower), written: parts };
  });
}

/** Folders a write may hold without being this table's business (the home, the project). */
function tooWide(probe: PathParts, ctx: ShellProtectContext): boolean {
  return probe.segments.length === 0 || wideFolders(ctx.surface).some((dir) => {
    const w = absolutePath(dir, "/", "/");
    return lower(w.root) === lower(probe.root) && probe.segments.length <= w.segments.length &&
      probe.segments.every((s, i) => segmentsMeet(s, lower(w.segments[i])));
  });
}

/**
 * The command's context for matching, with whether its wildcards reach
 * hidden names and whether the piece stands for everything below its folder
 * (an archive extracted there), so that no folder is too wide for it.
 */
type MatchContext = ShellProtectContext & {
  hidden: boolean;
  /** Set when the piece is only deleted or made an empty folder: rows whose deletion weakens nothing are skipped. */
  clearing?: boolean;
  subtree?: boolean;
  /** For a subtree piece: the name patterns a target's file name must match (`find -name`). */
  names?: readonly string[];
  /** Set for a bare program name a segment runs: it is looked up on PATH, not written there. */
  bareProgram?: boolean;
};

/**
 * The kinds of rows a plain shell write is judged for by the text it leaves
 * (`env_writes.ts`) instead of counting as any write.
 */
const JUDGED_KINDS: ReadonlySet<SurfaceKind | undefined> = new Set([
  "env-file",
  "terminal-settings",
]);

/**
 * Whether `target` is left out for a piece the context says is only
 * cleared. A piece of a program that changes the names it reaches
 * (`removes`: `find -exec`, a lister handed to xargs) counts as clearing
 * only when its name tests cannot name a definition (`*.o`, not `*.md`):
 * `find -name SKILL.md -exec sed -i …` writes one.
 */
function skipped(target: Target, ctx: MatchContext): boolean {
  // A bare program name is looked up (on PATH; by cmd.exe in the folder first) and run, never
  // written: it meets no row, not even a project folder of that name (`mise` and `mise/`).
  if (ctx.bareProgram === true) return true;
  if (ctx.clearing !== true || !DELETION_HARMLESS.has(target.row.kind)) return false;
  return ctx.names === undefined || !ctx.names.some((n) => patternsMeet(n, "*.md"));
}

/** Whether a target's file name passes the piece's name patterns (`find -name`). */
function namesAllow(target: Target, names: readonly string[] | undefined): boolean {
  if (names === undefined) return true;
  const last = target.segments[target.segments.length - 1] ?? "";
  return names.some((n) => patternsMeet(n, last));
}

function matchPlaced(
  placed: PathParts,
  targets: readonly Target[],
  ctx: MatchContext,
): SurfaceRow | null {
  const root = lower(placed.root);
  for (const target of targets) {
    if (skipped(target, ctx)) continue;
    if (
      root === target.root && placed.segments.length >= 1 &&
      placedMeets(placed.segments, target.segments, ctx.hidden) &&
      !(placed.segments.length < target.segments.length && !ctx.subtree &&
        (tooWide(placed, ctx) || onPathRow(target.row))) &&
      namesAllow(target, ctx.names) && rowApplies(target.row, ctx.surface)
    ) {
      return target.row;
    }
  }
  return null;
}

function matchProbe(
  probe: Probe,
  targets: readonly Target[],
  ctx: MatchContext,
): SurfaceRow | null {
  if (probe.placed !== null) return matchPlaced(probe.placed, targets, ctx);
  for (const target of targets) {
    if (
      !skipped(target, ctx) && tailMeets(probe.tail, target.segments, ctx.hidden) &&
      rowApplies(target.row, ctx.surface)
    ) {
      return target.row;
    }
  }
  return null;
}

/** The last name a probe names, lowercased ("" for none). */
function probeLast(probe: Probe): string {
  const segments = probe.placed?.segments ?? probe.tail;
  return segments[segments.length - 1] ?? "";
}

/** Whether `name` could be one of the programs the PATH rows hold. */
function namedOnPath(name: string, onPath: readonly Target[]): boolean {
  return onPath.some((t) => segmentsMeet(name, t.segments[t.segments.length - 1] ?? ""));
}

/** The items `test` holds for, and the others. */
function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

/** Whether `path` itself is a symbolic link. */
function isLink(path: PathParts, fs: FsPort): boolean {
  const own = fs.lstat(formatPath(path));
  return own.ok && own.isSymlink;
}

/** A real location, folded to lowercase for matching. */
function lowered(parts: PathParts): PathParts {
  return { ...parts, segments: parts.segments.map(lower) };
}

/**
 * The table's paths at their real locations (a `~/.claude` that links
 * into a dotfiles folder): each folder above a path's first wildcard is
 * looked up once. Charged per folder; null when the budget runs out.
 */
function realTargetsOf(
  targets: readonly Target[],
  fs: FsPort,
  budget: WorkBudget,
  known: KnownLocations,
): Target[] | null {
  const dirs = new Map<string, PathParts | null>();
  const out: Target[] = [];
  for (const target of targets) {
    const fixed = target.segments.findIndex((s) => s.includes("*"));
    const cut = Math.max(0, (fixed < 0 ? target.segments.length : fixed) - 1);
    const dirSegments = target.written.segments.slice(0, cut);
    const key = target.written.root + dirSegments.join("/");
    if (!dirs.has(key)) {
      if (!budget.spend(UNITS_PER_LOOKUP, "self-protection")) return null;
      dirs.set(key, realLocation({ ...target.written, segments: dirSegments }, fs, known));
    }
    const real = dirs.get(key);
    if (!real) continue;
    out.push({
      row: target.row,
      root: lower(real.root),
      segments: [...real.segments.map(lower), ...target.segments.slice(cut)],
      written: target.written,
    });
  }
  return out;
}

/** The folder-write reader, once `loadFolderWrites` loaded it. */
let folderReader: typeof import("./folder_writes.ts") | null = null;

/**
 * Loads the folder-write reader (`folder_writes.ts`) when `command`, read
 * as Bash, runs a program that may write into a folder; without a command,
 * loads it in any case. The shell gate awaits this before
 * `shellProtectHits`, which counts any name in the working folder for such
 * a command when the reader is missing.
 */
export async function loadFolderWrites(dialect?: ShellDialect, command?: string): Promise<void> {
  if (folderReader !== null) return;
  if (command !== undefined) {
    const segments = dialect === "bash" ? bashSegments(command) : null;
    if (dialect === undefined || !needsFolderReader(dialect, command, segments, commandWordAt)) {
      return;
    }
  }
  folderReader = await (import(new URL("./folder_writes.ts", import.meta.url).href) as Promise<
    typeof import("./folder_writes.ts")
  >);
}

/**
 * What in `command` writes to GateGuard's control surface or runs its
 * hook by hand: one hit per control row (the first piece that reached it)
 * and one for the hook, or `null` when the budget ran out first (the
 * caller fails closed). The caller loads the read-only check for `command`
 * first (`loadReadOnly`); until it has, a piece that needs the Bash parser
 * to be judged read-only counts as live.
 */
export function shellProtectHits(
  dialect: ShellDialect,
  command: string,
  ctx: ShellProtectContext,
  budget: WorkBudget,
): ShellProtectHit[] | null {
  const { pieces, movesDirectory, segments } = commandPieces(dialect, command, budget);
  // Past the Bash reader's limits, a line that may write folders unseen is too large to check.
  if (dialect === "bash" && segments === null) {
    if (mayWriteUnread(command, parseBash(command), commandWordAt)) return null;
  }
  pieces.push(...folderWritePieces(dialect, command, segments, ctx));
  // A path through a link the line makes (`ln -s ~ h`) is also the path the link reaches.
  const reach = folderReader?.linkReach(dialect, command, segments, commandWordAt);
  const linked = (p: Piece) =>
    reach!(p.text).map((text) => ({ ...p, text, shown: p.shown ?? p.text }));
  if (reach) pieces.push(...pieces.filter((p) => p.live).flatMap(linked));
  // Bash's own wildcards skip dot names unless the line turns that off.
  const hidden = dialect !== "bash" || /dotglob|GLOBIGNORE/.test(command);
  const hits: ShellProtectHit[] = laterEffectHits(command, segments, commandWordAt, bashSegments);
  const fs = ctx.surface.fs;
  const envJudged = segments !== null && fs ? harmlessEnvWrites(segments, fs, ctx.cwd) : undefined;
  return matchPieces(pieces, { movesDirectory, hidden, dialect, envJudged }, ctx, budget, hits);
}

/**
 * The paths the command writes into folders without spelling them
 * (`folder_writes.ts`), as live pieces; when the reader was not loaded
 * first (`loadFolderWrites`), any name in the working folder.
 */
function folderWritePieces(
  dialect: ShellDialect,
  command: string,
  segments: readonly Segment[] | null,
  ctx: ShellProtectContext,
): Piece[] {
  if (!needsFolderReader(dialect, command, segments, commandWordAt)) return [];
  if (folderReader === null) {
    const shown = "<what this command writes into folders>";
    return [{ text: `${ctx.cwd ?? "."}/${UNKNOWN}`, live: true, shown, subtree: true }];
  }
  const archives = ctx.archives;
  const wctx = {
    cwd: ctx.cwd,
    commandAt: commandWordAt,
    readsOnly: (segment: Segment) => readsOnly(dialect, segment),
    parse: bashSegments,
    repository: ctx.surface.projectRoot,
    ...(archives ? { list: (path: string, kind: ArchiveKind) => archives.paths(path, kind) } : {}),
  };
  const writes = dialect === "powershell"
    ? folderReader.powershellFolderWrites(command, wctx)
    : folderReader.folderWrites(segments!, wctx);
  return writes.map((w) => ({
    text: w.path,
    live: true,
    shown: w.shown,
    subtree: w.subtree,
    names: w.names,
    removes: w.removes,
    anywhere: w.anywhere,
  }));
}

/**
 * The control rows that paths a tool names reach (a tool GateGuard does
 * not read, such as an MCP server's): each path matched as a shell piece
 * would be, real locations included; null when the budget ran out.
 */
export function pathHits(
  paths: readonly string[],
  ctx: ShellProtectContext,
  budget: WorkBudget,
): ShellProtectHit[] | null {
  const pieces = paths.map((text): Piece => ({ text, live: true }));
  return matchPieces(pieces, { movesDirectory: false, hidden: true }, ctx, budget, []);
}

/**
 * Matches live pieces against the control surface, adding one hit per row
 * (and one for GateGuard's hook run by hand) to `hits`; null when the
 * budget ran out.
 */
function matchPieces(
  pieces: readonly Piece[],
  how: {
    movesDirectory: boolean;
    hidden: boolean;
    dialect?: ShellDialect;
    /** Pieces whose writes to a `.env` row leave no runtime variable (`env_writes.ts`). */
    envJudged?: ReadonlySet<string>;
  },
  ctx: ShellProtectContext,
  budget: WorkBudget,
  hits: ShellProtectHit[],
): ShellProtectHit[] | null {
  const { movesDirectory, dialect } = how;
  const targets = targetsOf(ctx);
  const mctx: MatchContext = { ...ctx, hidden: how.hidden };
  const seen = new Set<string>();
  const looked = new Set<string>();
  let realTargets: Target[] | null | undefined;
  // The PATH folders' real locations are looked up only for a piece named like a program there.
  const [onPath, others] = partition(targets, (t) => onPathRow(t.row));
  let realOnPath: Target[] | null | undefined;
  // Whether the word the current parts were cut from reached a row itself.
  let wordReached = false;
  for (let at = 0; at < pieces.length; at++) {
    const piece = pieces[at];
    if (!piece.part) wordReached = false;
    if (!piece.live) continue;
    if (!budget.spend(UNITS_PER_PIECE, "self-protection")) return null;
    if (runsOwnHook(pieces, at) && !seen.has("own-hook")) {
      seen.add("own-hook");
      const subcommand = ownSubcommand(pieces, at);
      hits.push({ kind: "own-hook", piece: piece.text, ...(subcommand ? { subcommand } : {}) });
    }
    if (piece.anywhere) {
      const row = targets[0]?.row;
      if (row !== undefined && !seen.has(row.id)) {
        seen.add(row.id);
        hits.push({ kind: "control", piece: piece.shown ?? piece.text, row });
      }
      continue;
    }
    const probe = probeOf(piece.text, ctx, movesDirectory, dialect);
    if (probe === null) continue;
    const clearing = piece.clears === true ||
      (piece.removes === true && piece.names !== undefined);
    const bareProgram = piece.program === true && !/[\\/]/.test(piece.text);
    const pctx = piece.subtree
      ? { ...mctx, subtree: true, names: piece.names, clearing }
      : clearing || bareProgram
      ? { ...mctx, clearing, bareProgram }
      : mctx;
    // The programs on PATH are rows by name: only a piece of such a name (or any name) meets them.
    const named = piece.subtree === true || namedOnPath(probeLast(probe), onPath);
    let row = matchProbe(probe, named ? targets : others, pctx);
    if (row === null && piece.glued && !wordReached) {
      // The folder before a glued piece is unknown: match it anywhere, by GateGuard's names.
      const loose = probeOf(`${UNKNOWN}${piece.text}`, ctx, movesDirectory, dialect);
      row = loose === null ? null : matchProbe(loose, named ? targets : others, pctx);
    }
    // A judged write to a `.env` row still goes on to where the path really leads.
    const judged = how.envJudged?.has(piece.text) === true;
    if (judged && JUDGED_KINDS.has(row?.kind)) row = null;
    const fs = ctx.surface.fs;
    // A bare program name is found on PATH (bash never runs one from the working folder).
    const lookup = !(bareProgram && dialect === "bash");
    if (row === null && lookup && probe.written !== null && fs && !looked.has(piece.text)) {
      // A link can carry a control file under another name, and the table's
      // folders may themselves be links: judge real locations too.
      looked.add(piece.text);
      if (!budget.spend(UNITS_PER_LOOKUP, "self-protection")) return null;
      realTargets ??= realTargetsOf(others, fs, budget, knownLocations(ctx.surface));
      if (realTargets === null) return null;
      // Writing through a dangling link creates the file it names.
      const spelled = probe.spelled!;
      const real = walkedRealLocation(spelled.text, spelled.base, fs) ??
        danglingTarget(probe.written, fs);
      const realNamed = named ||
        (real !== null &&
          namedOnPath(lower(real.segments[real.segments.length - 1] ?? ""), onPath));
      if (realNamed) {
        realOnPath ??= realTargetsOf(onPath, fs, budget, knownLocations(ctx.surface));
        if (realOnPath === null) return null;
      }
      // Undecidable through a link, or along a walk of `..` too long to follow: any control file.
      const undecided = real === null &&
        (isLink(probe.written, fs) || walkTooLong(spelled.text, spelled.base));
      if (undecided && !seen.has("unresolved")) {
        seen.add("unresolved");
        hits.push({ kind: "unresolved", piece: piece.shown ?? piece.text });
      }
      const candidates = real === null ? [probe.placed!] : [lowered(real), probe.placed!];
      for (const placed of candidates) {
        row ??= matchPlaced(placed, realNamed ? targets : others, pctx) ??
          matchPlaced(placed, realTargets, pctx) ??
          (realNamed && realOnPath ? matchPlaced(placed, realOnPath, pctx) : null);
      }
      // A file a start-up file loads is start-up code too; looked up only under the home folder.
      const seenAt = real === null ? [probe.written] : [probe.written, real];
      row ??= sourcedMatch(seenAt, ctx.surface)?.row ??
        hardLinkMatch(real ?? probe.written, ctx.surface)?.row ?? null;
      if (judged && JUDGED_KINDS.has(row?.kind)) row = null;
    }
    if (!piece.part && row !== null) wordReached = true;
    if (row !== null && !seen.has(row.id)) {
      seen.add(row.id);
      const broad = piece.subtree === true && piece.names === undefined && piece.removes === true;
      hits.push({
        kind: "control",
        piece: piece.shown ?? piece.text,
        row,
        ...(broad ? { broad } : {}),
      });
    }
  }
  return hits;
}

/** A git pathspec for the whole worktree from its top: `:/`, `:/*`, `:(top)`, `:(top,glob)*`. */
const TOP_PATHSPEC = /^:(?:\/|\([^)]*\btop\b[^)]*\))[./*]*$/;

/** What a destructive command may not be aimed at without the user's say. */
export type ProtectedTarget = "home" | "root" | "project" | "git";

/**
 * The protected place a destructive command names, if any: the home
 * directory, a filesystem root, the project root, the project's `.git`, a
 * folder above one of them, or a wildcard over one of their contents
 * (`~/*`, `/*`, `./*` at the project root).
 */
export function protectedTargetOf(
  dialect: ShellDialect,
  command: string,
  ctx: ShellProtectContext,
): { target: ProtectedTarget; piece: string } | null {
  const { pieces, movesDirectory, segments } = commandPieces(dialect, command);
  // A deletion of every name below a folder (`find -delete`, `git clean`) is aimed at that folder.
  pieces.push(
    ...folderWritePieces(dialect, command, segments, ctx).filter((p) => p.removes && !p.names),
  );
  const home = homeDir(ctx.surface.env);
  const places: [ProtectedTarget, PathParts][] = [];
  const add = (target: ProtectedTarget, dir: string | null) => {
    if (dir) {
      const p = absolutePath(dir, "/", "/");
      places.push([target, { ...p, segments: p.segments.map(lower) }]);
    }
  };
  add("home", home);
  add("project", ctx.surface.projectRoot);
  add("git", ctx.surface.projectRoot ? `${ctx.surface.projectRoot}/.git` : null);
  const placeOf = (probe: Probe): ProtectedTarget | null => {
    const segs = probe.placed?.segments ?? [];
    const root = probe.placed?.root ?? "";
    for (const [target, place] of places) {
      if (lower(place.root) !== lower(root) || segs.length !== place.segments.length) continue;
      if (segs.every((s, i) => s === place.segments[i])) return target;
    }
    return segs.length === 0 && probe.placed !== null ? "root" : null;
  };
  // `cd ~ && rm -rf *`: a wildcard or `.` after a move into a protected place.
  const movedInto = pieces.flatMap((p) => {
    if (!p.dirChange || !p.live || p.text.startsWith("-")) return [];
    const probe = probeOf(p.text, ctx, false, dialect);
    const target = probe === null ? null : placeOf(probe);
    return target === null || DIRECTORY_CHANGERS.has(lower(p.text))
      ? []
      : [{ target, piece: p.text }];
  });
  for (const piece of pieces) {
    if (!piece.live || piece.text.startsWith("-")) continue;
    if (piece.dirChange || (piece.first && piece.text === ".")) continue;
    if (movedInto.length > 0 && /^(\.|\.\/|\.?\*|\.\/\*|\.\*)$/.test(piece.text)) {
      return movedInto[0];
    }
    // git's pathspec magic for the top of the worktree (`git checkout HEAD~3 -- :/`).
    if (TOP_PATHSPEC.test(piece.text) && ctx.surface.projectRoot) {
      return { target: "project", piece: piece.text };
    }
    const probe = probeOf(piece.text, ctx, movesDirectory, dialect);
    if (probe === null) continue;
    if (probe.placed === null) {
      if (probe.tail.length > 0 && probe.tail[probe.tail.length - 1] === ".git") {
        return { target: "git", piece: piece.shown ?? piece.text };
      }
      continue;
    }
    const segs = probe.placed.segments;
    const withoutWildcard = segs.length > 0 && hasGlob(segs[segs.length - 1]) &&
        /^[*?]+$/.test(segs[segs.length - 1].replaceAll(UNKNOWN, "*"))
      ? segs.slice(0, -1)
      : segs;
    if (withoutWildcard.length === 0) return { target: "root", piece: piece.shown ?? piece.text };
    for (const [target, place] of places) {
      if (lower(place.root) !== lower(probe.placed.root)) continue;
      if (withoutWildcard.length > place.segments.length) continue;
      if (withoutWildcard.every((s, i) => segmentsMeet(s, place.segments[i]))) {
        return { target, piece: piece.shown ?? piece.text };
      }
    }
  }
  return null;
}
