/**
 * The self-protection rule's judgement of one target of GateGuard's
 * control surface: what the change would switch off (setup/weakening.ts,
 * or any write for state, evidence, trust and program files), and whether
 * the user is asked or the change is denied. `file_rules.ts` places it
 * first in the file gate's order of checks.
 *
 * @module
 */

import { askReachesPerson } from "./escalate.ts";
import type { DecideContext } from "./decision.ts";
import type { GateTarget } from "./file_targets.ts";
import {
  DELETION_HARMLESS,
  type SurfaceKind,
  type SurfaceMatch,
  type SurfaceUnresolved,
} from "../control/surface.ts";
import { sanitizeForDisplay } from "../questions/messages.ts";
import type { Judge } from "../setup/weakening.ts";
import {
  selfProtectionAskText,
  selfProtectionDenyText,
  UNRESOLVED_CONTROLS,
  UNRESOLVED_LINE,
} from "../questions/protection_texts.ts";

/** The reason codes of the self-protection rule. */
export type ProtectionReason = "self-protection" | "cannot-tell";

/** Any change to a file of these kinds can switch GateGuard off or forge what it trusts. */
const ANY_CHANGE_LINE = "any change to it can switch GateGuard off or forge what it trusts";

/**
 * Why any change to a file of a kind weakens GateGuard, where the general
 * line says less than the kind's own.
 */
const ANY_CHANGE_BY_KIND: Partial<Record<SurfaceKind, string>> = {
  startup: "it is code every new terminal runs, so any line of it can set what GateGuard " +
    "reads when the agent next starts",
};

/** The judges of `.env` files and VS Code's settings, which share a module. */
const envFileJudges = () =>
  import(new URL("../setup/env_file_weakening.ts", import.meta.url).href) as Promise<
    typeof import("../setup/env_file_weakening.ts")
  >;

/**
 * The kinds whose files are mostly the agent's ordinary work, judged by what
 * a change adds (each judge loads only for a change to such a file).
 */
const CONTENT_JUDGES: Partial<Record<SurfaceKind, () => Promise<Judge>>> = {
  definition: async () =>
    (await (import(new URL("../setup/definition_weakening.ts", import.meta.url).href) as Promise<
      typeof import("../setup/definition_weakening.ts")
    >)).definitionWeakenings,
  "env-file": async () => (await envFileJudges()).envFileWeakenings,
  "mise-config": async () =>
    (await (import(new URL("../setup/mise_config_weakening.ts", import.meta.url).href) as Promise<
      typeof import("../setup/mise_config_weakening.ts")
    >)).miseConfigWeakenings,
  "terminal-settings": async () => (await envFileJudges()).terminalSettingsWeakenings,
};

/** What a file here would do to the folder of control files it would take the place of. */
const HOLDS_LINE = "it would take the place of, or move, a folder that holds GateGuard's " +
  "control files";

/** What the change would switch off or weaken, one phrase each; null when that cannot be told. */
async function protectionFindings(
  ctx: DecideContext,
  gt: GateTarget,
  hit: SurfaceMatch | SurfaceUnresolved,
): Promise<string[] | null> {
  if ("unresolved" in hit) return [UNRESOLVED_LINE];
  if (hit.relation === "holds") return [HOLDS_LINE];
  const { row } = hit;
  // A file of such a row that is deleted or moved away weakens nothing (`DELETION_HARMLESS`).
  if (gt.change.kind === "opaque" && gt.change.removes && DELETION_HARMLESS.has(row.kind)) {
    return [];
  }
  const { ports, budget } = ctx;
  const path = gt.target.fsPath;
  if (path === null) return null;
  const agent = row.agent;
  if (
    (row.kind === "settings" || row.kind === "hook-file") && agent !== "gateguard" &&
    agent !== "shell"
  ) {
    const { changeWeakenings, hookFileWeakenings } =
      await (import(new URL("../setup/weakening.ts", import.meta.url).href) as Promise<
        typeof import("../setup/weakening.ts")
      >);
    const judge = (before: string | null, after: string) =>
      hookFileWeakenings(agent, before, after, ports.ownCommand);
    return changeWeakenings(ports.fs, path, gt.change, judge, budget);
  }
  const judgeOf = CONTENT_JUDGES[row.kind];
  if (judgeOf !== undefined) {
    const [{ changeWeakenings }, judge] = await Promise.all([
      import(new URL("../setup/weakening.ts", import.meta.url).href) as Promise<
        typeof import("../setup/weakening.ts")
      >,
      judgeOf(),
    ]);
    return changeWeakenings(ports.fs, path, gt.change, judge, budget);
  }
  if (row.kind === "config") {
    const { changeWeakenings, projectConfigWeakenings } =
      await (import(new URL("../setup/weakening.ts", import.meta.url).href) as Promise<
        typeof import("../setup/weakening.ts")
      >);
    return changeWeakenings(ports.fs, path, gt.change, projectConfigWeakenings, budget);
  }
  return [ANY_CHANGE_BY_KIND[row.kind] ?? ANY_CHANGE_LINE];
}

/** What the self-protection rule answers for one target: a question for the user, or a denial. */
export interface ProtectionAnswer {
  kind: "ask" | "deny";
  reason: ProtectionReason;
  /** The metrics `decision` field. */
  decision: "self-protect-ask" | "self-protect-deny";
  /** The question put to the user (`ask` only). */
  text: string;
  /** The denial, where no one can be asked. */
  denyText: string;
}

/**
 * A change to a file of GateGuard's control surface (control/surface.ts)
 * that would switch GateGuard off or weaken it, or whose effect cannot be
 * told, is never passed on a retry: the user is asked (Claude Code's
 * `ask`), and where no person would answer (a permission mode that answers
 * for the user, a path whose question Claude Code answers for the session,
 * an agent without an ask) it is denied, every time. Null for a change
 * that weakens nothing: the rules after this one decide.
 */
export async function selfProtectionAnswer(
  ctx: DecideContext,
  gt: GateTarget,
  hit: SurfaceMatch | SurfaceUnresolved,
): Promise<ProtectionAnswer | null> {
  const turnsOff = await protectionFindings(ctx, gt, hit);
  if (turnsOff !== null && turnsOff.length === 0) return null;
  const input = {
    file: sanitizeForDisplay(gt.target.raw),
    controls: "unresolved" in hit ? UNRESOLVED_CONTROLS : sanitizeForDisplay(hit.row.controls),
    turnsOff: turnsOff?.map((line) => sanitizeForDisplay(line)) ?? null,
  };
  const reason: ProtectionReason = turnsOff === null ? "cannot-tell" : "self-protection";
  const denyText = selfProtectionDenyText([input]);
  // A question reaches a person only in an asking mode and where Claude Code
  // puts the hook's question itself (see `askable` in control/rows.ts).
  const askable = !("unresolved" in hit) && hit.row.askable;
  if (!askable || !askReachesPerson(ctx.call.permissionMode)) {
    return { kind: "deny", reason, decision: "self-protect-deny", text: denyText, denyText };
  }
  const text = selfProtectionAskText([input]);
  return { kind: "ask", reason, decision: "self-protect-ask", text, denyText };
}
