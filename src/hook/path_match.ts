/**
 * How a path-like piece of a command is compared with a control-surface
 * path, segment by segment: the places its variables stand for (the home,
 * the working folder), wildcards, parts the line cannot know (`UNKNOWN`), a
 * folder that holds a target, a piece whose folder is unknown, and two
 * file-name patterns that could meet. Pure string work,
 * shared by the shell side of self-protection (`shell_protect.ts`) and the
 * folder writes it reads (`folder_writes.ts`).
 *
 * @module
 */

import { OWN_PROGRAMS } from "./shell_words.ts";
import type { ShellDialect } from "../shell/dialect.ts";

/** A name standing for a part of a path the line cannot know. */
export const UNKNOWN = "\u0000";

/** Whether a segment holds a wildcard or an unknown part. */
export function hasGlob(s: string): boolean {
  return s.includes("*") || s.includes("?") || s.includes("[") || s.includes(UNKNOWN);
}

/**
 * Whether `pattern` (with `*`, `?`, `[…]` and unknown parts) could match
 * `name`. A bracket class stands for any one character: reading too much
 * only widens what is looked at.
 */
export function wildcardMatch(pattern: string, name: string): boolean {
  const p: string[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end > 0) {
        p.push("?");
        i = end;
        continue;
      }
    }
    p.push(c === UNKNOWN ? "*" : c);
  }
  let pi = 0, ni = 0, star = -1, mark = 0;
  while (ni < name.length) {
    if (pi < p.length && (p[pi] === "?" || p[pi] === name[ni])) {
      pi++;
      ni++;
    } else if (pi < p.length && p[pi] === "*") {
      star = pi++;
      mark = ni;
    } else if (star >= 0) {
      pi = star + 1;
      ni = ++mark;
    } else return false;
  }
  while (pi < p.length && p[pi] === "*") pi++;
  return pi === p.length;
}

/**
 * Whether a piece's segment and a table segment could name the same file.
 * A wildcard the shell expands (`*`, not an unknown part) does not reach a
 * name that starts with a dot unless it starts with one itself, as in Bash
 * without `dotglob`; `hiddenToo` lifts that when the line may change it.
 */
export function segmentsMeet(piece: string, target: string, hiddenToo = true): boolean {
  if (
    !hiddenToo && target.startsWith(".") && !piece.startsWith(".") && !piece.startsWith(UNKNOWN)
  ) {
    if (piece.includes("*") || piece.includes("?") || piece.includes("[")) return false;
  }
  if (target === "*" || piece === "*" || piece === UNKNOWN) return true;
  const pieceGlob = hasGlob(piece);
  const targetGlob = target.includes("*");
  // Two patterns meet only if their plain starts and ends agree (`*.o` never names `mise*.toml`).
  if (pieceGlob && targetGlob) return patternsMeet(piece, target);
  if (pieceGlob) return wildcardMatch(piece, target);
  if (targetGlob) return wildcardMatch(target, piece);
  return piece === target;
}

/** A table segment that only GateGuard's and the agents' files carry. */
function distinctive(segment: string): boolean {
  if (segment.includes("*")) return false;
  return (segment.startsWith(".") && segment.length > 1) || segment.includes(".") ||
    OWN_PROGRAMS.has(segment);
}

/**
 * How a placed piece relates to a target: it is the file (or lies in a
 * `**` folder of it), it holds it (a folder above it), or neither.
 */
export function placedMeets(
  probe: readonly string[],
  target: readonly string[],
  hidden: boolean,
): boolean {
  for (let i = 0; i < target.length; i++) {
    if (target[i] === "**") return true;
    if (i >= probe.length) return true;
    if (!segmentsMeet(probe[i], target[i], hidden)) return false;
  }
  return probe.length === target.length;
}

/**
 * Whether the segments of a piece whose folder is unknown could sit
 * somewhere in a target's path, through at least one distinctive name.
 */
export function tailMeets(
  tail: readonly string[],
  target: readonly string[],
  hidden: boolean,
): boolean {
  if (tail.length === 0) return false;
  for (let start = 0; start < target.length; start++) {
    let named = false;
    let ok = true;
    for (let i = 0; i < tail.length; i++) {
      const t = target[start + i];
      if (t === undefined) {
        ok = false;
        break;
      }
      if (t === "**") break;
      if (!segmentsMeet(tail[i], t, hidden)) {
        ok = false;
        break;
      }
      if (distinctive(t) && !hasGlob(tail[i])) named = true;
    }
    if (ok && named) return true;
  }
  return false;
}

/**
 * Whether two name patterns could match one name: by matching when one is
 * plain, by their plain starts and ends when both have wildcards (`*.ts`
 * and `*.json` cannot meet; `**` meets anything).
 */
export function patternsMeet(a: string, b: string): boolean {
  const glob = /[*?[]/;
  if (!glob.test(a)) return wildcardMatch(b, a);
  if (!glob.test(b)) return wildcardMatch(a, b);
  const start = (p: string) => p.slice(0, p.search(glob));
  const end = (p: string) =>
    p.slice(Math.max(p.lastIndexOf("*"), p.lastIndexOf("?"), p.lastIndexOf("]")) + 1);
  const [sa, sb, ea, eb] = [start(a), start(b), end(a), end(b)];
  return (sa.startsWith(sb) || sb.startsWith(sa)) && (ea.endsWith(eb) || eb.endsWith(ea));
}

/**
 * PowerShell's `$PROFILE` (and its `.CurrentUserAllHosts`-style members):
 * always a profile script, which every new PowerShell runs.
 */
const POWERSHELL_PROFILE = /\$profile(?:\.(?:current|all)users?(?:current|all)hosts?)?\b/gi;

/** The places a piece may name by a variable or a command: the home, the working folder, the top. */
export interface KnownPlaces {
  home: string | null;
  /** The folder the line runs in; absent once the line changes directory. */
  cwd?: string | null;
  /** The top of the project's worktree (`git rev-parse --show-toplevel`). */
  top?: string | null;
  /** Variables whose values the hook knows (`knownFolderVariables`), by name. */
  variables?: Readonly<Record<string, string>>;
}

/**
 * Variables that name GateGuard's or an agent's folders, whose values the
 * hook reads from the environment the agent passes it, which its shell
 * commands inherit: `rm -rf "$CLAUDE_CONFIG_DIR"` names Claude Code's
 * settings folder.
 */
export const FOLDER_VARIABLES: readonly string[] = [
  "GATEGUARD_STATE_DIR",
  "CLAUDE_PROJECT_DIR",
  "CLAUDE_CONFIG_DIR",
  "CLAUDE_PLUGIN_DATA",
  "CODEX_HOME",
  "GEMINI_CLI_HOME",
  "COPILOT_HOME",
];

/** The values of `FOLDER_VARIABLES` set (and not empty) in `env`. */
export function knownFolderVariables(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of FOLDER_VARIABLES) {
    const value = env[name];
    if (value) out[name] = value;
  }
  return out;
}

/** The working folder as a line spells it: `$PWD`, `$(pwd)`, `` `pwd` ``. */
const WORKING_FOLDER = /\$\{PWD\}|\$PWD\b|\$\(\s*pwd(?:\s+-[LP])?\s*\)|`\s*pwd(?:\s+-[LP])?\s*`/g;

/** PowerShell's spellings of it (its variables ignore case): `$pwd`, `$pwd.Path`, `(Get-Location)`. */
const POWERSHELL_WORKING_FOLDER =
  /\$pwd(?:\.path)?\b|\(\s*(?:get-location|gl|pwd)\s*\)(?:\.path\b)?/gi;

/** The top of the worktree as a line spells it, in `$(…)` or backquotes. */
const WORKTREE_TOP =
  /\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)|`\s*git\s+rev-parse\s+--show-toplevel\s*`/g;

/**
 * The worktree's git folder as a line spells it. In a linked worktree git
 * answers with a folder elsewhere, but what matters is that the piece names
 * the repository's own store, which the top's `.git` stands for.
 */
const GIT_FOLDER =
  /\$\(\s*git\s+rev-parse\s+--(?:absolute-git-dir|git-dir|git-common-dir)\s*\)|`\s*git\s+rev-parse\s+--(?:absolute-git-dir|git-dir|git-common-dir)\s*`/g;

/**
 * A process's folder under `/proc` (`self`, `thread-self`, a number, or a
 * word the line computes such as `$$`), or a task of it.
 */
function processFolder(at: readonly string[]): { self: boolean } | null {
  const [proc, pid, task] = at;
  if (proc !== "proc" || pid === undefined) return null;
  if (at.length === 2 || (at.length === 4 && task === "task")) {
    return { self: pid === "self" || pid === "thread-self" };
  }
  return null;
}

/**
 * `text` with the kernel's names for a place (which the hook may not look
 * up: Deno refuses `/proc` and `/dev/fd` to it) made the place itself,
 * walked as the kernel walks them, `..` included: `/dev/fd` is
 * `/proc/self/fd`, a process's `root` is `/`, the shell's own `cwd` is the
 * line's working folder, and another process's working folder or a folder
 * an open descriptor holds (`/dev/fd/3/…`) is any folder. So
 * `/dev/fd/../cwd/x` is the working folder's `x`, as the kernel finds it.
 */
function withKernelPlace(text: string, cwd: string | null | undefined): string {
  if (!/^\/(?:proc|dev\/fd)(?:\/|$)/.test(text)) return text;
  const segments = text.split("/");
  let at: string[] = [];
  let placed = false;
  for (let i = 1; i < segments.length; i++) {
    const s = segments[i];
    if (s === "" || s === ".") continue;
    if (s === "..") at.pop();
    else at.push(s);
    if (at.length === 2 && at[0] === "dev" && at[1] === "fd") at = ["proc", "self", "fd"];
    const owner = processFolder(at.slice(0, -1));
    if (owner === null) continue;
    const last = at[at.length - 1];
    if (last === "root" || (last === "cwd" && owner.self && cwd)) {
      at = last === "root" ? [] : cwd!.split("/").filter((p) => p !== "");
      placed = true;
    } else if (
      last === "cwd" ||
      // A descriptor's folder, with a path below it (a bare `/dev/fd/2` is the descriptor).
      (last === "fd" && !/^\.{0,2}$/.test(segments[i + 1] ?? "") && i + 2 < segments.length)
    ) {
      // Another process's working folder, or the folder a descriptor holds: any folder, and
      // whatever `..` walks up from it.
      const rest = segments.slice(i + (last === "fd" ? 2 : 1));
      const after = rest.lastIndexOf("..");
      return [UNKNOWN, ...rest.slice(after + 1)].join("/");
    }
  }
  // A path that names no other place (`/dev/fd/2`, `/proc/cpuinfo`) stays as written.
  return placed ? "/" + at.join("/") : text;
}

/**
 * Replaces what the line cannot know by UNKNOWN and the places it can by
 * their paths: the home, the working folder (`$PWD`, `$(pwd)`, `/proc/self/cwd`)
 * and the top of the worktree and its git folder while the line stays where
 * it started; in PowerShell,
 * `$PROFILE` by a profile path (the Windows one: reaching any of the
 * profile rows is what matters).
 */
export function withKnownParts(piece: string, places: KnownPlaces, dialect?: ShellDialect): string {
  let text = withKernelPlace(piece, places.cwd);
  if (places.cwd) {
    text = text.replace(
      dialect === "powershell" ? POWERSHELL_WORKING_FOLDER : WORKING_FOLDER,
      places.cwd,
    );
  }
  if (places.top) {
    const top = places.top;
    text = text.replace(WORKTREE_TOP, () => top).replace(GIT_FOLDER, () => `${top}/.git`);
  }
  for (const [name, value] of Object.entries(places.variables ?? {})) {
    const spelled = new RegExp(`\\$\\{${name}\\}|\\$${name}\\b|\\$env:${name}\\b|%${name}%`, "gi");
    text = text.replace(spelled, () => value);
  }
  const home = places.home;
  if (home !== null) {
    text = text.replace(/^~(?=$|[\\/])/, home)
      .replace(/\$\{HOME\}|\$HOME\b|\$env:(HOME|USERPROFILE)\b|%(HOME|USERPROFILE)%/gi, home);
    if (dialect === "powershell") {
      text = text.replace(POWERSHELL_PROFILE, `${home}/Documents/PowerShell/profile.ps1`);
    }
  }
  return text
    .replace(
      /\$\([^)]*\)?|`[^`]*`?|\$\{[^}]*\}?|\$env:[A-Za-z_][A-Za-z0-9_]*|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]/g,
      UNKNOWN,
    )
    .replace(/%[A-Za-z_][A-Za-z0-9_]*%/g, UNKNOWN)
    .replace(/^~[^\\/]*/, UNKNOWN);
}
