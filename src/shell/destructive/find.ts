/**
 * The destructive check as the shell gate runs it: the engine
 * (destructive.ts) with its parts loaded on demand (parts.ts). A command is
 * read; where the reading stops at a part that is not loaded, the part is
 * loaded and the command read again from the start, its work given back.
 *
 * @module
 */

import type { ShellDialect } from "../dialect.ts";
import type { DestructiveHit } from "../packs/mod.ts";
import type { DetectBudget } from "./detect_types.ts";
import { coreHit, newDetectBudget, readCommand } from "./destructive.ts";
import { indexRules } from "./rule_match.ts";
import {
  installPack,
  installPart,
  MissingPart,
  PART_NAMES,
  type PartName,
  type Parts,
  type ReaderName,
} from "./parts.ts";
import { PACK_MANIFEST, type PackEntry } from "../packs/mod.ts";

/** Where each reader part comes from (literal paths, so the bundle splits there). */
const READER_MODULES: { readonly [K in ReaderName]: () => Promise<Parts[K]> } = {
  powershell: () =>
    import(new URL("./detect_powershell.ts", import.meta.url).href) as Promise<
      typeof import("./detect_powershell.ts")
    >,
  cmd: () =>
    import(new URL("./detect_cmd.ts", import.meta.url).href) as Promise<
      typeof import("./detect_cmd.ts")
    >,
  git: () =>
    import(new URL("./detect_git.ts", import.meta.url).href) as Promise<
      typeof import("./detect_git.ts")
    >,
  glob: () =>
    import(new URL("../../glob/glob.ts", import.meta.url).href) as Promise<
      typeof import("../../glob/glob.ts")
    >,
};

/** Loads the part `name` of the engine (see parts.ts). */
export async function loadPart(name: PartName): Promise<void> {
  if (name.startsWith("pack:")) {
    const id = name.slice("pack:".length);
    const entry = PACK_MANIFEST.find((p) => p.id === id);
    if (entry?.load === undefined) throw new Error(`no pack ${id} to load`);
    return installPack(await entry.load());
  }
  const reader = name as ReaderName;
  installPart(reader, await READER_MODULES[reader]());
}

/**
 * Parts a part is nearly always read with: the git reader asks for the
 * rules over git's history as soon as it reads a destructive-looking git
 * command, so one reading's stop loads both.
 */
const COMPANIONS: Readonly<Partial<Record<PartName, readonly PartName[]>>> = {
  git: ["pack:git-history"],
};

/** Loads `name` and its companions. */
async function loadWithCompanions(name: PartName): Promise<void> {
  await Promise.all([name, ...(COMPANIONS[name] ?? [])].map(loadPart));
}

/** Every part that loads on demand: the readers, then each pack loaded on demand. */
const ALL_PARTS: readonly PartName[] = [
  ...PART_NAMES,
  ...PACK_MANIFEST.filter((p) => p.load !== undefined).map((p): PartName => `pack:${p.id}`),
];

/** Loads every part of the engine, for callers that read many commands of any dialect. */
export async function loadAllParts(): Promise<void> {
  await Promise.all(ALL_PARTS.map(loadPart));
}

/**
 * Most readings of one command: the first, one after loading the part it
 * stopped at, one after loading all of them. The work budget is given back
 * before each, so a command costs at most this many times its budget.
 */
export const MAX_READS = 3;

/** The dialect readers a command written in `shell` needs before anything else. */
const DIALECT_PART: Readonly<Record<ShellDialect, PartName | null>> = {
  bash: null,
  powershell: "powershell",
};

/**
 * `destructiveHit` under the active `packs` (default: those on by default),
 * loading the parts of the engine the command reaches: the dialect's own
 * reader first, then each part a reading stops at, after which the command
 * is read again from the start with the budget as it was and the rules
 * indexed again. At most `MAX_READS` readings, so a part that still cannot
 * be had ends in the fail-closed answer.
 */
export async function findDestructive(
  shell: ShellDialect,
  command: string,
  extra: readonly RegExp[],
  packs: readonly PackEntry[] = PACK_MANIFEST.filter((p) => p.defaultOn),
  budget: DetectBudget = newDetectBudget(),
): Promise<DestructiveHit | null> {
  const own = DIALECT_PART[shell];
  try {
    if (own !== null) await loadPart(own);
    for (let reads = 1; reads <= MAX_READS; reads++) {
      const before = { ...budget, work: budget.work?.checkpoint() ?? null };
      try {
        return readCommand(shell, command, extra, indexRules(packs), budget);
      } catch (err) {
        if (!(err instanceof MissingPart)) throw err;
        budget.left = before.left;
        budget.chars = before.chars;
        budget.scanned = before.scanned;
        if (before.work !== null) budget.work?.restore(before.work);
        // The second part a command asks for loads everything: a command
        // that names many programs must not make the engine read it once per
        // part, or its work budget would be spent that many times over.
        await (reads === 1 ? loadWithCompanions(err.part) : loadAllParts());
      }
    }
  } catch {
    // An internal error, or a part that cannot be loaded: not found safe.
  }
  return coreHit("unreadable");
}
