/**
 * The decision core's entry point: reads the call's input through the
 * table of gated tools and routes the typed call to its gate.
 *
 * Only the gate that applies is loaded, so a shell call never compiles the
 * file-gate code and the reverse.
 *
 * @module
 */

import type { DecideContext, Decision } from "./decision.ts";
import { emptyDelta } from "../state/schema.ts";
import { gatedTool } from "../tools/gated.ts";

/** The hook id that switches off the gate of a tool, or null for ungated tools. */
export function hookIdOf(toolName: string): string | null {
  return gatedTool(toolName)?.hookId ?? null;
}

/** True when this call goes through a gate at all under these settings. */
export function isGated(toolName: string, settings: DecideContext["settings"]): boolean {
  const id = hookIdOf(toolName);
  return id !== null && !settings.disabled && !settings.disabledHooks.has(id);
}

function pass(): Decision {
  return { outcome: { kind: "pass" }, delta: emptyDelta(), events: [], warnings: [] };
}

/** Decides one call. Ungated calls pass with no state change. */
export async function decide(ctx: DecideContext): Promise<Decision> {
  const { call, settings } = ctx;
  const tool = gatedTool(call.toolName);
  if (!tool || !isGated(call.toolName, settings)) return pass();
  const typed = call.typed ?? tool.read(call.toolInput ?? {});
  if (typed.kind === "oversize") {
    // Refused by count before any entry is looked at; every retry is refused too.
    const { tooComplexText } = await import("../questions/messages.ts");
    return {
      outcome: { kind: "deny", text: tooComplexText("edit") },
      delta: emptyDelta(),
      events: settings.metrics
        ? [{
          tool: call.toolName,
          class: null,
          decision: "deny",
          reason: "oversize-input",
          sensitive: false,
          questions: null,
          profile: null,
        }]
        : [],
      warnings: [`input holds ${typed.entries} entries, more than the ${typed.limit} read`],
      rules: settings.metrics ? ["input"] : [],
    };
  }
  if (typed.kind === "shell") {
    const { decideShellGate } = await import("./shell_gate.ts");
    return decideShellGate(ctx, typed);
  }
  // Retries of checked files are most file calls; without metrics to fill
  // in, they need none of the rules that follow.
  if (!settings.metrics) {
    const { allTargetsChecked } = await import("./file_targets.ts");
    if (allTargetsChecked(ctx, typed)) return pass();
  }
  const { decideFileGate } = await import("./file_gate.ts");
  return decideFileGate(ctx, typed);
}
