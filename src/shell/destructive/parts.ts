/**
 * The parts of the destructive engine a command may never need, loaded on
 * demand: the PowerShell reader, the cmd.exe reader, the git reader, the
 * glob matcher, and
 * the rules of every pack but the core one. A Bash
 * `rm -rf build` reaches none of them, and loading code costs a hook
 * process more than running it.
 *
 * The engine is synchronous, so it cannot wait for a module halfway through
 * a command. Where it needs a part that is not loaded yet it throws
 * `MissingPart`; the caller loads the part (destructive.ts,
 * `findDestructive`) and reads the command again from the start, with the
 * work budget as it was. The parts a command reaches therefore decide what
 * loads, however the command names them (`x=pwsh; $x -c …` included),
 * and a part that is missing can only cost a reread, never a pass.
 *
 * This module holds what is loaded and the shapes the engine uses; it
 * imports none of the parts, so they can import the engine's helpers.
 *
 * @module
 */

import type { Engine, Verdict, Walk } from "./detect_types.ts";
import type * as Glob from "../../glob/glob.ts";
import type * as PowerShell from "../powershell/mod.ts";
import type { Pack } from "../packs/mod.ts";

/** The name of a reader loaded on demand. */
export type ReaderName = "powershell" | "cmd" | "glob" | "git";

/** A pack's rules loaded on demand, by the pack's id (shell/packs/manifest.ts). */
export type PackPartName = `pack:${string}`;

/** The name of a part loaded on demand. */
export type PartName = ReaderName | PackPartName;

/** Every reader part, in the order `loadAllParts` loads them (packs follow). */
export const PART_NAMES: readonly ReaderName[] = ["powershell", "cmd", "glob", "git"];

/** What the engine takes from the PowerShell reader (detect_powershell.ts). */
export interface PowerShellPart {
  powerShellVerdict(
    command: string,
    walk: Walk,
    stdin: readonly string[],
    engine: Engine,
  ): Verdict;
  removeItemDestructive(args: readonly string[]): boolean;
  bindParameter: typeof PowerShell.bindParameter;
  splitColonArg: typeof PowerShell.splitColonArg;
  fetchesText: typeof PowerShell.fetchesText;
  PS_HIDDEN: RegExp;
}

/** What the engine takes from the cmd.exe reader (detect_cmd.ts). */
export interface CmdPart {
  cmdVerdict(text: string, walk: Walk, engine: Engine): Verdict;
  cmdRemovesTree(name: string, args: readonly string[]): boolean;
}

/** What the engine takes from the glob matcher (glob/glob.ts). */
export interface GlobPart {
  compileGlob: typeof Glob.compileGlob;
  matchGlob: typeof Glob.matchGlob;
  GLOB_MAX_PATTERN: number;
}

/** What the engine takes from the git reader (detect_git.ts). */
export interface GitPart {
  gitVerdict(
    args: readonly string[],
    stdin: readonly string[],
    walk: Walk,
    engine: Engine,
  ): Verdict;
}

/** Each part's shape, by name. */
export interface Parts {
  powershell: PowerShellPart;
  cmd: CmdPart;
  glob: GlobPart;
  git: GitPart;
}

/** Thrown where the engine needs a part that is not loaded: load it and read the command again. */
export class MissingPart extends Error {
  /** The part to load. */
  readonly part: PartName;

  constructor(part: PartName) {
    super(`the ${part} part of the destructive engine is not loaded`);
    this.name = "MissingPart";
    this.part = part;
  }
}

const loaded: Partial<Parts> = {};
const packs = new Map<string, Pack>();

/** The part `name`; throws `MissingPart` when it is not loaded yet. */
export function part<K extends ReaderName>(name: K): Parts[K] {
  const found = loaded[name];
  if (found === undefined) throw new MissingPart(name);
  return found as Parts[K];
}

/** Records a loaded reader part (find.ts imports the modules). */
export function installPart<K extends ReaderName>(name: K, module: Parts[K]): void {
  loaded[name] = module;
}

/** Every part loaded now: the readers, then the packs, as `PartName`s. */
export function loadedParts(): PartName[] {
  return [
    ...PART_NAMES.filter((name) => loaded[name] !== undefined),
    ...[...packs.keys()].map((id): PartName => `pack:${id}`),
  ];
}

/** The rules of the pack `id` when they are loaded, else undefined. */
export function loadedPack(id: string): Pack | undefined {
  return packs.get(id);
}

/** Records the loaded rules of a pack. */
export function installPack(pack: Pack): void {
  packs.set(pack.id, pack);
}

/**
 * Unloads every part, as a new process finds the engine: tests read each
 * command of a corpus from nothing loaded, to show that loading on demand
 * never changes an answer.
 */
export function forgetParts(): void {
  for (const name of PART_NAMES) delete loaded[name];
  packs.clear();
}
