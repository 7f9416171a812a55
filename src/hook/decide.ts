/**
 * The decision core's entry point: routes a call to its gate.
 *
 * Only the gate that applies is loaded, so a shell call never compiles the
 * file-gate code and the reverse.
 *
 * @module
 */

import type { DecideContext, Decision } from "./decision.ts";
import { FILE_TOOLS, SHELL_TOOLS } from "./decision.ts";
import { emptyDelta } from "../state/schema.ts";
import { HOOK_IDS } from "../config/settings.ts";

/** The hook id that switches off the gate of a tool, or null for ungated tools. */
export function hookIdOf(toolName: string): string | null {
  if (FILE_TOOLS.has(toolName)) return HOOK_IDS.editWrite;
  if (toolName === "Bash") return HOOK_IDS.bash;
  if (toolName === "PowerShell") return HOOK_IDS.powershell;
  return null;
}

/** True when this call goes through a gate at all under these settings. */
export function isGated(toolName: string, settings: DecideContext["settings"]): boolean {
  const id = hookIdOf(toolName);
  return id !== null && !settings.disabled && !settings.disabledHooks.has(id);
}

/** Decides one call. Ungated calls pass with no state change. */
export async function decide(ctx: DecideContext): Promise<Decision> {
  if (!isGated(ctx.call.toolName, ctx.settings)) {
    return { outcome: { kind: "pass" }, delta: emptyDelta(), events: [], warnings: [] };
  }
  if (SHELL_TOOLS.has(ctx.call.toolName)) {
    const { decideShellGate } = await import("./shell_gate.ts");
    return decideShellGate(ctx);
  }
  // Retries of checked files are most file calls; without metrics to fill
  // in, they need none of the rules that follow.
  if (!ctx.settings.metrics) {
    const { allTargetsChecked } = await import("./file_targets.ts");
    if (allTargetsChecked(ctx)) {
      return { outcome: { kind: "pass" }, delta: emptyDelta(), events: [], warnings: [] };
    }
  }
  const { decideFileGate } = await import("./file_gate.ts");
  return decideFileGate(ctx);
}
