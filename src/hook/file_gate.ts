/**
 * The first-touch gate of Edit, Write, MultiEdit and NotebookEdit.
 *
 * `decideFileGate` walks each target of the call through the order of
 * checks (exempt, subagent, checked, sensitive or hard-linked, prior-search
 * credit, comment-only edit, sibling collapse, denial cap, deny) and stops
 * at the first denial. The transcript scan, the search evidence and the
 * change profile are loaded only on the branch that needs them.
 *
 * @module
 */

import type { DecideContext, Decision, GateEvent, ProfileRecord } from "./decision.ts";
import { SUBAGENT_KEY_PREFIX } from "./decision.ts";
import { emptyDelta, type StateDelta } from "../state/schema.ts";
import {
  closestMissLine,
  creditNote,
  fileDenialText,
  type GateVerb,
  sanitizeForDisplay,
  siblingNote,
  type TooComplexInput,
  trivialNote,
} from "../questions/messages.ts";
import { selectQuestions } from "../questions/select.ts";
import type { ResolvedTarget, Roots } from "../file_facts/resolve.ts";
import { type GateTarget, isChecked, rootsOf, targetsOf } from "./file_targets.ts";
import { classify, type TargetClass } from "../file_facts/class.ts";
import { isSensitive } from "../file_facts/sensitive.ts";
import { isHardLinked } from "../file_facts/hardlink.ts";
import { exemptReason, parseExemptGlobs } from "../file_facts/exempt.ts";
import { isNewFile } from "../file_facts/new_file.ts";
import { siblingDirKey } from "../file_facts/sibling.ts";
import type { TurnScan } from "../transcript/turn_scan.ts";
import type { ChangeInput } from "../change/profile.ts";
import type { FsPort } from "../platform/fs_port.ts";

/** Largest file the comment-only check reads to compare the edit window. */
const FILE_CONTEXT_MAX_BYTES = 1024 * 1024;

/** How long a sibling window stays open when there is no transcript at all. */
const SIBLING_WINDOW_MS = 120_000;

/** Per-call memo of the lazily computed facts several targets share. */
interface CallMemo {
  scan: TurnScan | null | undefined;
}

function scanOnce(ctx: DecideContext, memo: CallMemo): Promise<TurnScan | null> {
  if (memo.scan !== undefined) return Promise.resolve(memo.scan);
  const path = ctx.call.transcriptPath;
  if (!path) {
    memo.scan = null;
    return Promise.resolve(null);
  }
  const reader = ctx.call.logKind
    ? import("../agents/session_logs.ts").then((m) => m.turnReader(ctx.call.logKind ?? null))
    : import("../transcript/turn_scan.ts");
  return reader.then(async ({ scanTurn, PENDING_RESCAN }) => {
    const input = {
      transcriptPath: path,
      promptId: ctx.call.promptId,
      toolUseId: ctx.call.toolUseId,
    };
    const sizeNow = (): number | null => {
      const info = ctx.ports.fs.stat(path);
      return info.ok ? info.size : null;
    };
    let size = sizeNow();
    let scan = scanTurn(input, ctx.ports.fs, ctx.budget);
    // The client may not have written this call's own record yet; until it
    // does, the previous batch would pass for this one, so give it a moment.
    // A file that did not grow meanwhile would only be read again in vain.
    let retries = input.toolUseId === null ? 0 : PENDING_RESCAN.retries;
    while (scan !== null && !scan.pendingFound && retries-- > 0) {
      await new Promise((resolve) => setTimeout(resolve, PENDING_RESCAN.delayMs));
      const grown = sizeNow();
      if (grown === size) continue;
      size = grown;
      scan = scanTurn(input, ctx.ports.fs, ctx.budget);
    }
    memo.scan = scan;
    return scan;
  }).catch(() => {
    memo.scan = null;
    return null;
  });
}

/**
 * The turn the pending call belongs to. The payload's `prompt_id` names it
 * even when the transcript does not hold the turn yet: Claude Code creates
 * the file after a session's first hook call and writes a new prompt or a
 * compaction some milliseconds late, and then the scan is null or shows an
 * earlier turn. Without a payload id the transcript's turn is the only one.
 */
function pendingTurnId(promptId: string | null, scan: TurnScan | null): string | null {
  return promptId ?? scan?.turnId ?? null;
}

function changeInputOf(ctx: DecideContext, entries: unknown[]): ChangeInput | null {
  const input = ctx.call.toolInput ?? {};
  switch (ctx.call.toolName) {
    case "Edit":
      return {
        tool: "Edit",
        oldString: input.old_string,
        newString: input.new_string,
        replaceAll: input.replace_all,
      };
    case "MultiEdit":
      return { tool: "MultiEdit", edits: entries };
    case "Write":
      return { tool: "Write", content: input.content };
    default:
      return null;
  }
}

/** Only a regular file is opened: opening a FIFO in the target's place would block the hook. */
function isRegularFile(fs: FsPort, path: string): boolean {
  const info = fs.stat(path);
  return info.ok && info.isFile;
}

async function profileOf(
  ctx: DecideContext,
  gt: GateTarget,
): Promise<ProfileRecord | null> {
  const change = changeInputOf(ctx, gt.entries);
  if (!change) return null;
  try {
    const { profileChange, profileWork } = await import("../change/profile.ts");
    const fileText = change.tool === "Write" || gt.target.foreign ||
        !isRegularFile(ctx.ports.fs, gt.target.absolute)
      ? null
      : ctx.ports.fs.readTextBounded(gt.target.absolute, FILE_CONTEXT_MAX_BYTES);
    if (!ctx.budget.spend(profileWork(change, fileText), "change")) return null;
    return profileChange(gt.target.absolute, change, fileText);
  } catch {
    return null;
  }
}

/** What one target's walk through the order of checks produced. */
type TargetResult =
  | { kind: "pass"; event: GateEvent | null }
  | { kind: "note"; text: string; event: GateEvent | null }
  | { kind: "deny"; text: string; event: GateEvent | null };

/** Decides the whole file-tool call. */
export async function decideFileGate(ctx: DecideContext): Promise<Decision> {
  const { settings } = ctx;
  const roots = rootsOf(ctx);
  const delta = emptyDelta();
  const events: GateEvent[] = [];
  const warnings: string[] = [];
  const targets = targetsOf(ctx, roots);
  if (targets.length === 0) {
    if (settings.metrics) events.push(event(ctx, null, "pass", "no-path", false, null, null));
    return { outcome: { kind: "pass" }, delta, events, warnings };
  }
  const memo: CallMemo = { scan: undefined };
  const notes: string[] = [];
  for (const gt of targets) {
    const result = await decideTarget(ctx, roots, gt, delta, memo);
    if (result.event) events.push(result.event);
    if (result.kind === "deny") {
      return { outcome: { kind: "deny", text: result.text }, delta, events, warnings };
    }
    if (result.kind === "note") notes.push(result.text);
  }
  const outcome = notes.length > 0
    ? { kind: "note" as const, text: notes.join("\n") }
    : { kind: "pass" as const };
  return { outcome, delta, events, warnings };
}

function event(
  ctx: DecideContext,
  cls: TargetClass | null,
  decision: string,
  reason: string,
  sensitive: boolean,
  questions: readonly string[] | null,
  profile: ProfileRecord | null,
): GateEvent {
  return { tool: ctx.call.toolName, class: cls, decision, reason, sensitive, questions, profile };
}

/**
 * The built-in settings-file exemption holds only for the file itself: a
 * missing file, or a regular file with one name. A symlink or a second hard
 * link would let `.claude/settings.json` stand for any other file.
 */
function plainFile(target: ResolvedTarget, fs: DecideContext["ports"]["fs"]): boolean {
  if (target.fsPath === null) return true;
  const st = fs.lstat(target.fsPath);
  if (!st.ok) return st.code === "ENOENT";
  return st.isFile && !st.isSymlink && (st.nlink ?? 1) <= 1;
}

/** Marks a key checked in the delta. */
function check(delta: StateDelta, key: string): void {
  delta.check.push(key);
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** The order of checks for one target. */
async function decideTarget(
  ctx: DecideContext,
  roots: Roots,
  gt: GateTarget,
  delta: StateDelta,
  memo: CallMemo,
): Promise<TargetResult> {
  const { settings, state, ports, call } = ctx;
  const { target } = gt;
  const metrics = settings.metrics;
  // Class and sensitivity of a pass are computed only for its metrics line.
  const lazyEvent = (decision: string, reason: string): GateEvent | null =>
    metrics
      ? event(
        ctx,
        classify(target.classPath),
        decision,
        reason,
        isSensitive(target, roots, ports.fs),
        null,
        null,
      )
      : null;

  // 1. Exempt: operator globs and Claude settings files win over everything.
  const exempt = exemptReason(
    target,
    parseExemptGlobs(settings.exemptGlobs),
    roots,
    ports.fs,
    ctx.budget,
  );
  if (exempt === "exempt-glob" || (exempt === "claude-settings" && plainFile(target, ports.fs))) {
    return { kind: "pass", event: lazyEvent("pass-exempt", exempt) };
  }

  const alreadyChecked = isChecked(state.checked, target);
  const verb: GateVerb = call.toolName === "Write" ? "write" : "edit";
  const strictness = (): { sensitive: boolean; strict: boolean } => {
    const sensitive = isSensitive(target, roots, ports.fs);
    return { sensitive, strict: sensitive || isHardLinked(target, ports.fs) };
  };

  // 2. Subagents: the parent was gated, except on sensitive or hard-linked paths.
  if (call.agentId) {
    const { sensitive, strict } = strictness();
    if (!strict) return { kind: "pass", event: lazyEvent("pass-subagent", "subagent") };
    const cls = classify(target.classPath);
    const subKey = SUBAGENT_KEY_PREFIX + target.key;
    if (alreadyChecked || state.checked.has(subKey)) {
      return {
        kind: "pass",
        event: metrics ? event(ctx, cls, "pass-checked", "checked", sensitive, null, null) : null,
      };
    }
    check(delta, subKey);
    return deny(ctx, gt, delta, cls, verb, {
      sensitive,
      reason: sensitive ? "subagent-sensitive" : "subagent-hard-linked",
      profile: null,
      closestMiss: null,
      siblingKey: null,
    });
  }

  // 3. Already checked this session.
  if (alreadyChecked) return { kind: "pass", event: lazyEvent("pass-checked", "checked") };

  // 4. Sensitive or hard-linked: straight to the full denial.
  const { sensitive, strict } = strictness();
  const cls = classify(target.classPath);
  if (strict) {
    check(delta, target.key);
    return deny(ctx, gt, delta, cls, verb, {
      sensitive,
      reason: sensitive ? "sensitive" : "hard-linked",
      profile: null,
      closestMiss: null,
      siblingKey: null,
    });
  }

  // The project file may narrow the gate for ordinary targets only.
  if (!settings.fileGates) return { kind: "pass", event: lazyEvent("pass", "file-gates-off") };
  if (
    settings.fileExemptGlobs.length > 0 &&
    exemptReason(target, settings.fileExemptGlobs, roots, ports.fs, ctx.budget) === "exempt-glob"
  ) {
    return { kind: "pass", event: lazyEvent("pass-exempt", "exempt-glob") };
  }

  const pathTooComplex = budgetDenial(ctx, gt, delta, cls, verb, "path", null);
  if (pathTooComplex) return pathTooComplex;

  const newWrite = call.toolName === "Write" && isNewFile(target, ports.fs);
  const creditTarget = {
    absolute: target.absolute,
    basename: target.basename,
    cls,
    isNewWrite: newWrite,
    windowsStyle: target.windowsStyle,
  };
  const searchRoots = {
    toolCwd: call.cwd,
    projectDirEnv: settings.projectDirEnv,
    processCwd: ports.processCwd,
  };

  // 5. Prior-search credit from the current turn.
  const scan = await scanOnce(ctx, memo);
  let credit: import("../evidence/credit.ts").CreditResult | null = null;
  if (scan) {
    try {
      // A turn that cannot name the target gives neither credit nor a miss,
      // so the search parsers need not load.
      const { turnMayMention } = await import("../evidence/prefilter.ts");
      const prefilterTarget = {
        basename: target.basename,
        isTest: cls === "test",
        isNewWrite: newWrite,
      };
      if (turnMayMention(prefilterTarget, scan)) {
        const evidence = await import("../evidence/credit.ts");
        credit = evidence.priorSearchCredit(
          creditTarget,
          scan,
          searchRoots,
          ports.fs,
          ctx.budget,
        );
      }
    } catch {
      credit = null;
    }
    if (credit?.credited) {
      check(delta, target.key);
      delta.inc.fact_force_credited = (delta.inc.fact_force_credited ?? 0) + 1;
      bump(delta.creditedClass, cls);
      return {
        kind: "note",
        text: creditNote(sanitizeForDisplay(target.raw), credit.tool, credit.detail),
        event: metrics ? event(ctx, cls, "credit", "prior-search", false, null, null) : null,
      };
    }
  }

  const searchesTooComplex = budgetDenial(ctx, gt, delta, cls, verb, "searches", null);
  if (searchesTooComplex) return searchesTooComplex;

  // 6. Comment or whitespace-only Edit of code, tests or prose (never marked checked).
  const profileDue = call.toolName !== "NotebookEdit" &&
    (cls === "code" || ((cls === "test" || cls === "prose") && verb === "edit"));
  const profile = profileDue ? await profileOf(ctx, gt) : null;
  const changeTooComplex = budgetDenial(ctx, gt, delta, cls, verb, "edit", profile);
  if (changeTooComplex) return changeTooComplex;
  if (
    verb === "edit" && call.toolName !== "NotebookEdit" && profile?.known && profile.trivial &&
    (cls === "code" || cls === "test" || cls === "prose")
  ) {
    delta.inc.trivial_allows = (delta.inc.trivial_allows ?? 0) + 1;
    return {
      kind: "note",
      text: trivialNote(sanitizeForDisplay(target.raw)),
      event: metrics
        ? event(ctx, cls, "trivial", "comment-whitespace", false, null, profile)
        : null,
    };
  }

  // 7. Sibling collapse of new files created in one directory this turn.
  const siblingKey = newWrite && (cls === "code" || cls === "test" || cls === "prose")
    ? siblingDirKey(target, cls, roots, ports.fs)
    : null;
  const turnId = pendingTurnId(call.promptId, scan);
  if (siblingKey) {
    const gate = state.dirGates[`${cls}\u0000${siblingKey}`];
    const open = gate !== undefined && gate.at <= ports.now && (
      turnId !== null ? gate.turn === turnId : call.transcriptPath === null && gate.turn === null &&
        ports.now - gate.at <= SIBLING_WINDOW_MS
    );
    if (open) {
      check(delta, target.key);
      delta.inc.sibling_allows = (delta.inc.sibling_allows ?? 0) + 1;
      return {
        kind: "note",
        text: siblingNote(gate.first, gate.ordinal),
        event: metrics ? event(ctx, cls, "sibling", "same-turn-dir", false, null, profile) : null,
      };
    }
  }

  // 8. The opt-in denial cap.
  if (settings.maxDenials !== null && state.counters.fact_force_denials >= settings.maxDenials) {
    check(delta, target.key);
    delta.inc.cap_allows = (delta.inc.cap_allows ?? 0) + 1;
    return {
      kind: "pass",
      event: metrics ? event(ctx, cls, "cap", "max-denials", false, null, profile) : null,
    };
  }

  // 9. Deny, naming the closest search that did not count.
  let closestMiss: { code: string; line: string } | null = null;
  if (scan && credit && !credit.credited && credit.miss) {
    closestMiss = {
      code: credit.miss.code,
      line: closestMissLine(credit.miss.tool, credit.miss.detail, credit.miss.code),
    };
  }
  check(delta, target.key);
  return deny(ctx, gt, delta, cls, verb, {
    sensitive: false,
    reason: closestMiss ? `near-miss:${closestMiss.code}` : "first-touch",
    profile,
    closestMiss: closestMiss?.line ?? null,
    siblingKey: siblingKey ? { key: `${cls}\u0000${siblingKey}`, turn: turnId } : null,
  });
}

interface DenyDetails {
  sensitive: boolean;
  reason: string;
  profile: ProfileRecord | null;
  closestMiss: string | null;
  siblingKey: { key: string; turn: string | null } | null;
  tooComplex?: TooComplexInput;
}

/**
 * Once the call's work budget is spent, whatever was not worked out leaves
 * doubt, and doubt denies: no credit, comment-only pass, sibling collapse or
 * cap may follow. The denial names `input` as what was too large to check.
 */
function budgetDenial(
  ctx: DecideContext,
  gt: GateTarget,
  delta: StateDelta,
  cls: TargetClass,
  verb: GateVerb,
  input: TooComplexInput,
  profile: ProfileRecord | null,
): TargetResult | null {
  if (ctx.budget.exhausted() === null) return null;
  check(delta, gt.target.key);
  return deny(ctx, gt, delta, cls, verb, {
    sensitive: false,
    reason: "work-budget",
    profile,
    closestMiss: null,
    siblingKey: null,
    tooComplex: input,
  });
}

function deny(
  ctx: DecideContext,
  gt: GateTarget,
  delta: StateDelta,
  cls: TargetClass,
  verb: GateVerb,
  d: DenyDetails,
): TargetResult {
  const { settings, state, ports, call } = ctx;
  const ordinal = state.counters.fact_force_denials + 1;
  delta.inc.fact_force_denials = (delta.inc.fact_force_denials ?? 0) + 1;
  bump(delta.deniedClass, cls);
  const strictReason = d.reason.endsWith("sensitive")
    ? "sensitive"
    : d.reason.endsWith("hard-linked")
    ? "hard-linked"
    : null;
  // Strict targets and notebooks always get the full questions, word for word.
  const fullQuestions = strictReason !== null || call.toolName === "NotebookEdit";
  const selection = selectQuestions(
    cls,
    verb,
    fullQuestions ? null : d.profile,
    settings.externalContract,
  );
  const file = sanitizeForDisplay(gt.target.raw);
  if (d.siblingKey) {
    delta.dirGates[d.siblingKey.key] = {
      turn: d.siblingKey.turn,
      at: ports.now,
      first: file,
      ordinal,
    };
  }
  const text = fileDenialText({
    verb,
    file,
    questions: selection.questions,
    fixedHint: selection.fixedHint,
    ordinal,
    condensed: ordinal > settings.fullDenials,
    targetNote: strictReason,
    closestMiss: d.closestMiss,
    tooComplex: d.tooComplex ?? null,
    domainText: settings.domainText,
  });
  return {
    kind: "deny",
    text,
    event: settings.metrics
      ? event(ctx, cls, "deny", d.reason, d.sensitive, selection.questions, d.profile)
      : null,
  };
}
