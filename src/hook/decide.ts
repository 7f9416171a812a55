/**
 * The decision core's entry point: reads the call's input through the
 * table of gated tools and routes the typed call to its gate.
 *
 * Only the gate that applies is loaded, so a shell call never compiles the
 * file-gate code and the reverse.
 *
 * @module
 */

import type { DecideContext, Decision, GateEvent } from "./decision.ts";
import { emptyDelta } from "../state/schema.ts";
import { changesThroughForeignTool, gatedTool } from "../tools/gated.ts";
import type { ToolCall } from "../tools/call.ts";
import { malformed } from "../tools/fields.ts";

/** The hook id that switches off the gate of a tool, or null for ungated tools. */
export function hookIdOf(toolName: string): string | null {
  return gatedTool(toolName)?.hookId ?? null;
}

/**
 * True when this call goes through a gate at all under these settings: a
 * gated tool whose gate is on, or a foreign tool that may change files
 * (`tools/gated.ts`), looked at for GateGuard's own files while GateGuard is on.
 */
export function isGated(toolName: string, settings: DecideContext["settings"]): boolean {
  if (settings.disabled) return false;
  const id = hookIdOf(toolName);
  return id !== null ? !settings.disabledHooks.has(id) : changesThroughForeignTool(toolName);
}

function pass(): Decision {
  return { outcome: { kind: "pass" }, delta: emptyDelta(), events: [], warnings: [] };
}

/** The metrics event of a call denied for its input before any gate looked at it. */
function inputEvent(tool: string, reason: string): GateEvent {
  return {
    tool,
    class: null,
    decision: "deny",
    reason,
    sensitive: false,
    questions: null,
    profile: null,
  };
}

/** Decides one call. Ungated calls pass with no state change. */
export async function decide(ctx: DecideContext): Promise<Decision> {
  const { call, settings } = ctx;
  const tool = gatedTool(call.toolName);
  if (!isGated(call.toolName, settings)) return pass();
  if (!tool) {
    const { decideForeignCall } =
      await (import(new URL("./shell_gate.ts", import.meta.url).href) as Promise<
        typeof import("./shell_gate.ts")
      >);
    return decideForeignCall(ctx);
  }
  let typed: ToolCall = call.typed ??
    (call.toolInput === null
      ? malformed(tool.name, "`tool_input` is missing or not an object")
      : tool.read(call.toolInput));
  if (typed.kind === "shell" && typed.session !== undefined) {
    const { openInputProblem } =
      await (import(new URL("../tools/session_input.ts", import.meta.url).href) as Promise<
        typeof import("../tools/session_input.ts")
      >);
    const problem = openInputProblem(typed.dialect, typed.command);
    if (problem !== null) typed = { kind: "malformed", tool: typed.session, problem };
  }
  if (typed.kind === "oversize") {
    // Refused by count before any entry is looked at; every retry is refused too.
    const { tooComplexText } =
      await (import(new URL("../questions/messages.ts", import.meta.url).href) as Promise<
        typeof import("../questions/messages.ts")
      >);
    return {
      outcome: { kind: "deny", text: tooComplexText("edit") },
      delta: emptyDelta(),
      events: settings.metrics ? [inputEvent(call.toolName, "oversize-input")] : [],
      warnings: [`input holds ${typed.entries} entries, more than the ${typed.limit} read`],
      rules: settings.metrics ? ["input"] : [],
    };
  }
  if (typed.kind === "malformed") {
    const { malformedInputText } =
      await (import(new URL("../questions/messages.ts", import.meta.url).href) as Promise<
        typeof import("../questions/messages.ts")
      >);
    return {
      outcome: { kind: "deny", text: malformedInputText(typed.tool, typed.problem) },
      delta: emptyDelta(),
      events: settings.metrics ? [inputEvent(call.toolName, "malformed-input")] : [],
      warnings: [`${typed.tool} input not read: ${typed.problem}`],
      rules: settings.metrics ? ["input"] : [],
    };
  }
  if (typed.kind === "shell") {
    const { decideShellGate } =
      await (import(new URL("./shell_gate.ts", import.meta.url).href) as Promise<
        typeof import("./shell_gate.ts")
      >);
    return decideShellGate(ctx, typed);
  }
  // The call's files are resolved once, here, for the fast path and the gate.
  const { allTargetsChecked, rootsOf, targetsOf } =
    await (import(new URL("./file_targets.ts", import.meta.url).href) as Promise<
      typeof import("./file_targets.ts")
    >);
  const roots = rootsOf(ctx);
  const targets = targetsOf(ctx, typed, roots);
  // Retries of checked files are most file calls; without metrics to fill
  // in, they need none of the rules that follow.
  if (!settings.metrics && allTargetsChecked(ctx, targets)) return pass();
  const { decideFileGate } =
    await (import(new URL("./file_gate.ts", import.meta.url).href) as Promise<
      typeof import("./file_gate.ts")
    >);
  return decideFileGate(ctx, roots, targets);
}
