/**
 * Prior-search credit as the file gate's rules ask for it: the stem and
 * directory check (`credit`), and the symbol check (`symbol-credit`), which
 * reads the target's exported names. Loaded by `file_rules.ts` only when
 * the call has a turn to read; each check loads the search-evidence
 * modules, and the symbol check the surface readers, only on the branch
 * that needs them. See docs/search-credit.md.
 *
 * @module
 */

import type { CreditResult, CreditTarget, SearchRoots } from "../evidence/credit.ts";
import { maySearchContents, turnMayMention } from "../evidence/prefilter.ts";
import type { TurnScan } from "../session_logs/turn_scan.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { WorkBudget } from "../platform/budget.ts";
import { gatedTool } from "../tools/gated.ts";

/** What both credit checks read. */
export interface CreditInputs {
  target: CreditTarget;
  scan: TurnScan;
  roots: SearchRoots;
  fs: FsPort;
  budget: WorkBudget;
}

/** The credit reader, with the PowerShell reader when the turn holds a PowerShell call. */
async function loadCredit(scan: TurnScan): Promise<typeof import("../evidence/credit.ts")> {
  const credit = await (import(new URL("../evidence/credit.ts", import.meta.url).href) as Promise<
    typeof import("../evidence/credit.ts")
  >);
  if (scan.calls.some((c) => gatedTool(c.tool)?.dialect === "powershell")) {
    await credit.loadPowerShellReader();
  }
  return credit;
}

function loadNames(): Promise<typeof import("../change/surface_names.ts")> {
  return import(new URL("../change/surface_names.ts", import.meta.url).href);
}

function loadSymbols(): Promise<typeof import("../evidence/symbol.ts")> {
  return import(new URL("../evidence/symbol.ts", import.meta.url).href);
}

/**
 * Credit by stem or named directory. A turn that cannot name the target
 * gives neither credit nor a miss, so the search parsers need not load.
 */
export async function stemCredit(i: CreditInputs): Promise<CreditResult | null> {
  const { target: t, scan } = i;
  const prefilter = { basename: t.basename, isTest: t.cls === "test", isNewWrite: t.isNewWrite };
  if (!turnMayMention(prefilter, scan)) return null;
  return (await loadCredit(scan)).priorSearchCredit(t, scan, i.roots, i.fs, i.budget);
}

/**
 * Credit by a content search for a name the target exports. The target's
 * text (`currentText`: bounded, regular files only) is read only for a code
 * or test file that exists, whose language has a name reader, in a turn
 * holding a call that may search file contents; lexing it is charged to
 * the budget first.
 */
export async function symbolCredit(
  i: CreditInputs,
  currentText: () => string | null,
): Promise<CreditResult | null> {
  const { target: t, scan } = i;
  if ((t.cls !== "code" && t.cls !== "test") || t.isNewWrite) return null;
  if (!scan.calls.some(maySearchContents)) return null;
  const names = await loadNames();
  if (!names.hasNameReader(t.absolute)) return null;
  await names.prepareNames(t.absolute);
  const text = currentText();
  if (text === null) return null;
  const { UNITS_PER_FILE_CHAR } = await loadSymbols();
  if (!i.budget.spend(UNITS_PER_FILE_CHAR * text.length, "symbols")) return null;
  const exported = names.fileExportedNames(t.absolute, text);
  return (await loadCredit(scan)).symbolSearchCredit(t, exported, scan, i.roots, i.fs, i.budget);
}
