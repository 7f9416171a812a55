/**
 * The file gate's order of checks, as a table. Each rule has an id, the
 * reason codes it decides with, and a check over the target's facts that
 * either decides (a verdict, with the state changes it asks for) or lets
 * the next rule look. `file_gate.ts` runs the table in order for each
 * target; `gateguard explain` reads the same table to name the rule that
 * decided. A new rule is one more entry, placed where it must run.
 *
 * Facts (class, sensitivity, the transcript scan, search credit, the
 * change profile) are computed the first time a rule asks for them and
 * kept, so a rule that decides early never pays for the ones after it.
 *
 * @module
 */

import type { DecideContext, ProfileRecord, Rule } from "./decision.ts";
import { SUBAGENT_KEY_PREFIX } from "./decision.ts";
import type { CounterName } from "../state/schema.ts";
import { closestMissLine, creditNote, siblingNote, trivialNote } from "../questions/file_texts.ts";
import { sanitizeForDisplay, type TooComplexInput } from "../questions/messages.ts";
import type { Roots } from "../file_facts/resolve.ts";
import { type GateTarget, isChecked, surfaceContextOf, targetSurface } from "./file_targets.ts";
import type { SurfaceMatch, SurfaceUnresolved } from "../control/surface.ts";
import { type ProtectionReason, selfProtectionAnswer } from "./self_protection.ts";
import { classify, type TargetClass } from "../file_facts/class.ts";
import { isSensitive } from "../file_facts/sensitive.ts";
import { isHardLinked } from "../file_facts/hardlink.ts";
import { exemptReason, parseExemptGlobs } from "../file_facts/exempt.ts";
import { isNewFile } from "../file_facts/new_file.ts";
import { siblingDirKey } from "../file_facts/sibling.ts";
import type { TurnScan } from "../session_logs/turn_scan.ts";
import { SCANNED_TOOL_NAMES } from "../tools/gated.ts";
import type { CreditResult, NearMiss } from "../evidence/credit.ts";
import type { CreditInputs } from "./search_credit.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { NEAR_MISS_PREFIX } from "../metrics/codes.ts";

/**
 * The prefix of near-miss reasons. Spelled again so a file call does not
 * load the metrics code; the type holds it equal to the metrics vocabulary.
 */
const NEAR_MISS: typeof NEAR_MISS_PREFIX = "near-miss:";

/** Largest file the comment-only check reads to compare the edit window. */
const FILE_CONTEXT_MAX_BYTES = 1024 * 1024;

/** How long a sibling window stays open when there is no transcript at all. */
const SIBLING_WINDOW_MS = 120_000;

/** A state change a verdict asks for; the gate applies them to the delta in order. */
export type StateChange =
  | { kind: "check"; key: string }
  | { kind: "uncheck"; key: string }
  | { kind: "count"; counter: CounterName }
  | { kind: "credit-class" };

/** What a denial needs beyond its reason: the text is rendered by the gate. */
export interface DenyDetails {
  /** Sensitive and hard-linked targets get their own note and the full questions. */
  strict: "sensitive" | "hard-linked" | null;
  profile: ProfileRecord | null;
  closestMiss: string | null;
  /** The sibling window this denial opens, and the turn it is open for. */
  siblingKey: { key: string; turn: string | null } | null;
  /** What ran past the call's work budget, when that is why the call is denied. */
  tooComplex?: TooComplexInput;
  /**
   * A denial that stands alone, like a destructive command's: this text is
   * shown instead of the first-touch questions, and it is not counted as a
   * first-touch denial.
   */
  text?: string;
}

/** A rule's decision about one target. `R` is the rule's own reason codes. */
export type Verdict<R extends string = string> =
  | {
    kind: "pass" | "note";
    /** The metrics `decision` field. */
    decision: string;
    reason: R;
    /** The note shown to the agent (notes only). */
    text?: string;
    changes: StateChange[];
    profile?: ProfileRecord | null;
  }
  | {
    /** The user decides (`text`); where no one can be asked, `denyText` denies. */
    kind: "ask";
    reason: R;
    decision: string;
    text: string;
    denyText: string;
    changes: StateChange[];
  }
  | {
    kind: "deny";
    reason: R;
    /** The metrics `decision` field when it is not a first-touch `deny`. */
    decision?: string;
    changes: StateChange[];
    deny: DenyDetails;
  };

/** A reason code as a decision carries it: a code ending in `:` is a prefix. */
type ReasonOf<R extends string> = R extends `${infer P}:` ? `${P}:${string}` : R;

/** One rule of the file gate's order of checks. */
export interface FileRule<R extends string = string> extends Rule<R> {
  check: (f: TargetFacts) => Verdict<ReasonOf<R>> | null | Promise<Verdict<ReasonOf<R>> | null>;
}

function rule<const R extends string>(r: FileRule<R>): FileRule<R> {
  return r;
}

/** Per-call memo of the facts every target of a call shares. */
export interface CallMemo {
  scan: TurnScan | null | undefined;
  /**
   * One line per fact that threw while computing. The call is still decided
   * (without that fact, so with less credit, never with more), but the fault
   * shows on stderr instead of passing for a plain denial.
   */
  warnings: string[];
}

/** The stderr line of a fact that threw: its name and the error's kind, never its text. */
export function factWarning(fact: string, err: unknown): string {
  const kind = err instanceof Error ? err.name : typeof err;
  return `the ${fact} could not be computed (${kind}); the call is decided without it`;
}

function scanOnce(ctx: DecideContext, memo: CallMemo): Promise<TurnScan | null> {
  if (memo.scan !== undefined) return Promise.resolve(memo.scan);
  const path = ctx.call.transcriptPath;
  if (!path) {
    memo.scan = null;
    return Promise.resolve(null);
  }
  const reader = ctx.call.logKind
    ? (import(new URL("../session_logs/session_logs.ts", import.meta.url).href) as Promise<
      typeof import("../session_logs/session_logs.ts")
    >).then((m) => m.turnReader(ctx.call.logKind ?? null))
    : (import(new URL("../session_logs/claude_log.ts", import.meta.url).href) as Promise<
      typeof import("../session_logs/claude_log.ts")
    >);
  return reader.then(async ({ scanTurn, PENDING_RESCAN }) => {
    const input = {
      transcriptPath: path,
      promptId: ctx.call.promptId,
      toolUseId: ctx.call.toolUseId,
      tools: SCANNED_TOOL_NAMES,
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
  }).catch((err) => {
    memo.warnings.push(factWarning("transcript scan", err));
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

/** Only a regular file is opened: opening a FIFO in the target's place would block the hook. */
function isRegularFile(fs: FsPort, path: string): boolean {
  const info = fs.stat(path);
  return info.ok && info.isFile;
}

/**
 * The built-in settings-file exemption holds only for the file itself: a
 * missing file, or a regular file with one name. A symlink or a second hard
 * link would let `.claude/settings.json` stand for any other file.
 */
function plainFile(gt: GateTarget, fs: FsPort): boolean {
  const { fsPath } = gt.target;
  if (fsPath === null) return true;
  const st = fs.lstat(fsPath);
  if (!st.ok) return st.code === "ENOENT";
  return st.isFile && !st.isSymlink && (st.nlink ?? 1) <= 1;
}

/** The classes whose changes are profiled and may pass as trivial or as siblings. */
function isTextClass(cls: TargetClass): boolean {
  return cls === "code" || cls === "test" || cls === "prose";
}

/** The credit checks, loaded only by a call that has a turn to read. */
function loadSearchCredit(): Promise<typeof import("./search_credit.ts")> {
  return import(new URL("./search_credit.ts", import.meta.url).href);
}

/** Everything the rules know about one target, each fact computed once on first use. */
export class TargetFacts {
  private memo = new Map<string, unknown>();

  constructor(
    readonly ctx: DecideContext,
    readonly roots: Roots,
    readonly gt: GateTarget,
    private readonly callMemo: CallMemo,
  ) {}

  private once<T>(name: string, compute: () => T): T {
    if (!this.memo.has(name)) this.memo.set(name, compute());
    return this.memo.get(name) as T;
  }

  /** The control-surface row the target belongs to (control/surface.ts), or null. */
  get controlSurface(): SurfaceMatch | SurfaceUnresolved | null {
    return this.once(
      "controlSurface",
      () => targetSurface(this.gt.target, surfaceContextOf(this.ctx)),
    );
  }

  /** The target's class. */
  get cls(): TargetClass {
    return this.once("cls", () => classify(this.gt.target.classPath));
  }

  /** The target is sensitive. */
  get sensitive(): boolean {
    return this.once("sensitive", () => isSensitive(this.gt.target, this.roots, this.ctx.ports.fs));
  }

  /** Sensitive or hard-linked: denied in full whatever came before. */
  get strict(): "sensitive" | "hard-linked" | null {
    return this.once(
      "strict",
      () =>
        this.sensitive
          ? "sensitive"
          : isHardLinked(this.gt.target, this.ctx.ports.fs)
          ? "hard-linked"
          : null,
    );
  }

  /** Checked this session under its key or its legacy raw path. */
  get checked(): boolean {
    return this.once("checked", () => isChecked(this.ctx.state.checked, this.gt.target));
  }

  /** A Write of a file that does not exist yet. */
  get newWrite(): boolean {
    return this.once(
      "newWrite",
      () => this.gt.verb === "write" && isNewFile(this.gt.target, this.ctx.ports.fs),
    );
  }

  /** The current turn of the transcript, shared by every target of the call. */
  scan(): Promise<TurnScan | null> {
    return scanOnce(this.ctx, this.callMemo);
  }

  /** The id of the turn the pending call belongs to, or null when nothing names one. */
  async turnId(): Promise<string | null> {
    return pendingTurnId(this.ctx.call.promptId, await this.scan());
  }

  /** What the credit checks read, or null when there is no turn to read. */
  private async creditInputs(): Promise<CreditInputs | null> {
    const scan = await this.scan();
    if (!scan) return null;
    const { ctx, gt: { target } } = this;
    return {
      target: {
        absolute: target.absolute,
        basename: target.basename,
        cls: this.cls,
        isNewWrite: this.newWrite,
        windowsStyle: target.windowsStyle,
      },
      scan,
      roots: {
        toolCwd: ctx.call.cwd,
        projectDirEnv: ctx.settings.projectDirEnv,
        processCwd: ctx.ports.processCwd,
      },
      fs: ctx.ports.fs,
      budget: ctx.budget,
    };
  }

  /** Prior-search credit from the current turn, or null when there is no turn to read. */
  credit(): Promise<CreditResult | null> {
    return this.once("credit", () => this.computeCredit());
  }

  private async computeCredit(): Promise<CreditResult | null> {
    const inputs = await this.creditInputs();
    if (!inputs) return null;
    try {
      return await (await loadSearchCredit()).stemCredit(inputs);
    } catch (err) {
      this.callMemo.warnings.push(factWarning("prior-search credit", err));
      return null;
    }
  }

  /** The closest search that named the target without crediting it; a fault warns, as any fact's. */
  async closestMiss(): Promise<NearMiss | null> {
    const credit = await this.credit();
    if (credit === null || credit.credited) return null;
    try {
      return credit.miss;
    } catch (err) {
      this.callMemo.warnings.push(factWarning("closest search", err));
      return null;
    }
  }

  /**
   * Symbol credit: a content search of the turn for a name the target
   * exports. Asked only once every other way through has been tried, so
   * the file is read only for a first touch that would otherwise be denied,
   * and only when the turn may hold a content search.
   */
  symbolCredit(): Promise<CreditResult | null> {
    return this.once("symbolCredit", () => this.computeSymbolCredit());
  }

  private async computeSymbolCredit(): Promise<CreditResult | null> {
    const inputs = await this.creditInputs();
    if (!inputs) return null;
    try {
      return await (await loadSearchCredit()).symbolCredit(inputs, () => this.currentText());
    } catch (err) {
      this.callMemo.warnings.push(factWarning("symbol credit", err));
      return null;
    }
  }

  /** The target's current text (regular files only, bounded), read once for every rule. */
  private currentText(): string | null {
    return this.once("currentText", () => {
      const { target } = this.gt;
      const fs = this.ctx.ports.fs;
      return target.foreign || !isRegularFile(fs, target.absolute)
        ? null
        : fs.readTextBounded(target.absolute, FILE_CONTEXT_MAX_BYTES);
    });
  }

  /** The change profile, for the classes and changes that are profiled; else null. */
  profile(): Promise<ProfileRecord | null> {
    return this.once("profile", () => this.computeProfile());
  }

  private async computeProfile(): Promise<ProfileRecord | null> {
    const { gt, cls, ctx } = this;
    const { change, target } = gt;
    const due = change.kind !== "opaque" &&
      (cls === "code" || ((cls === "test" || cls === "prose") && gt.verb === "edit"));
    if (!due) return null;
    try {
      const { prepareProfile, profileChange, profileWork } =
        await (import(new URL("../change/profile.ts", import.meta.url).href) as Promise<
          typeof import("../change/profile.ts")
        >);
      const fileText = change.kind === "write" ? null : this.currentText();
      if (!ctx.budget.spend(profileWork(change, fileText), "change")) return null;
      await prepareProfile(target.absolute);
      return profileChange(target.absolute, change, fileText);
    } catch (err) {
      this.callMemo.warnings.push(factWarning("change profile", err));
      return null;
    }
  }

  /** The sibling-window key of a new text file (class and directory), or null. */
  get siblingKey(): string | null {
    return this.once("siblingKey", () => {
      const { cls } = this;
      if (!this.newWrite || !isTextClass(cls)) return null;
      const dir = siblingDirKey(this.gt.target, cls, this.roots, this.ctx.ports.fs);
      return dir ? `${cls}\u0000${dir}` : null;
    });
  }
}

const check = (key: string): StateChange => ({ kind: "check", key });

/**
 * Once the call's work budget is spent, whatever was not worked out leaves
 * doubt, and doubt denies: no credit, comment-only pass, sibling collapse or
 * cap may follow. The denial names `input` as what was too large to check;
 * the rule sits right after the analysis that spends on that input.
 */
function budgetRule<const Id extends string>(id: Id, title: string, input: TooComplexInput) {
  return rule({
    id,
    title,
    reasons: ["work-budget"],
    check: async (f) => {
      // The change budget is spent by the profile, so it is worked out first.
      const profile = input === "edit" ? await f.profile() : null;
      if (f.ctx.budget.exhausted() === null) return null;
      return {
        kind: "deny",
        reason: "work-budget",
        changes: [check(f.gt.target.key)],
        deny: { strict: null, profile, closestMiss: null, siblingKey: null, tooComplex: input },
      };
    },
  });
}
const count = (counter: CounterName): StateChange => ({ kind: "count", counter });

/**
 * The self-protection rule (self_protection.ts) as a verdict: a question
 * for the user, or a denial given every time. No key is marked, so no
 * state, saved or lost, can turn it into a pass.
 */
async function selfProtection(f: TargetFacts): Promise<Verdict<ProtectionReason> | null> {
  const hit = f.controlSurface;
  if (hit === null) return null;
  const answer = await selfProtectionAnswer(f.ctx, f.gt, hit);
  if (answer === null) return null;
  const { reason, decision, text, denyText } = answer;
  return answer.kind === "ask" ? { kind: "ask", reason, decision, text, denyText, changes: [] } : {
    kind: "deny",
    reason,
    decision,
    changes: [],
    deny: { strict: null, profile: null, closestMiss: null, siblingKey: null, text: denyText },
  };
}

/** The credit note of a target a search of the turn covered (`credit` and `symbol-credit`). */
function creditVerdict(
  f: TargetFacts,
  credit: CreditResult | null,
): Verdict<"prior-search"> | null {
  if (!credit?.credited) return null;
  return {
    kind: "note",
    decision: "credit",
    reason: "prior-search",
    text: creditNote(sanitizeForDisplay(f.gt.target.raw), credit.tool, credit.detail),
    changes: [check(f.gt.target.key), count("fact_force_credited"), { kind: "credit-class" }],
  };
}

/** The file gate's order of checks for one target. */
export const TARGET_RULES = [
  rule({
    id: "self-protection",
    title: "change that would switch GateGuard off or weaken it",
    reasons: ["self-protection", "cannot-tell"],
    // Before the exemption of Claude's settings files, which holds for every other change.
    check: selfProtection,
  }),
  rule({
    id: "exempt",
    title: "exempt path",
    reasons: ["exempt-glob", "claude-settings"],
    // Operator globs and Claude's own settings files win over everything.
    check: (f) => {
      const { target } = f.gt;
      const exempt = exemptReason(
        target,
        parseExemptGlobs(f.ctx.settings.exemptGlobs),
        f.roots,
        f.ctx.ports.fs,
        f.ctx.budget,
      );
      return exempt === "exempt-glob" ||
          (exempt === "claude-settings" && plainFile(f.gt, f.ctx.ports.fs))
        ? { kind: "pass", decision: "pass-exempt", reason: exempt, changes: [] }
        : null;
    },
  }),
  rule({
    id: "subagent",
    title: "subagent call",
    reasons: ["subagent", "checked", "subagent-sensitive", "subagent-hard-linked"],
    // The parent was gated, except on sensitive or hard-linked paths, which
    // a subagent checks once under keys of its own.
    check: (f) => {
      if (!f.ctx.call.agentId) return null;
      const strict = f.strict;
      if (!strict) {
        return { kind: "pass", decision: "pass-subagent", reason: "subagent", changes: [] };
      }
      const subKey = SUBAGENT_KEY_PREFIX + f.gt.target.key;
      if (f.checked || f.ctx.state.checked.has(subKey)) {
        return { kind: "pass", decision: "pass-checked", reason: "checked", changes: [] };
      }
      return {
        kind: "deny",
        reason: strict === "sensitive" ? "subagent-sensitive" : "subagent-hard-linked",
        changes: [check(subKey)],
        deny: { strict, profile: null, closestMiss: null, siblingKey: null },
      };
    },
  }),
  rule({
    id: "checked",
    title: "already checked this session",
    reasons: ["checked"],
    check: (f) =>
      f.checked ? { kind: "pass", decision: "pass-checked", reason: "checked", changes: [] } : null,
  }),
  rule({
    id: "strict",
    title: "sensitive or hard-linked target",
    reasons: ["sensitive", "hard-linked"],
    check: (f) => {
      const strict = f.strict;
      return strict
        ? {
          kind: "deny",
          reason: strict,
          changes: [check(f.gt.target.key)],
          deny: { strict, profile: null, closestMiss: null, siblingKey: null },
        }
        : null;
    },
  }),
  rule({
    id: "project-file",
    title: "file gates off in the project file",
    reasons: ["file-gates-off", "exempt-glob"],
    // The project file may narrow the gate for ordinary targets only.
    check: (f) => {
      const { settings } = f.ctx;
      if (!settings.fileGates) {
        return { kind: "pass", decision: "pass", reason: "file-gates-off", changes: [] };
      }
      return settings.fileExemptGlobs.length > 0 &&
          exemptReason(
              f.gt.target,
              settings.fileExemptGlobs,
              f.roots,
              f.ctx.ports.fs,
              f.ctx.budget,
            ) ===
            "exempt-glob"
        ? { kind: "pass", decision: "pass-exempt", reason: "exempt-glob", changes: [] }
        : null;
    },
  }),
  budgetRule("budget-path", "path checks past the work budget", "path"),
  rule({
    id: "credit",
    title: "prior-search credit",
    reasons: ["prior-search"],
    check: async (f) => creditVerdict(f, await f.credit()),
  }),
  budgetRule("budget-searches", "search evidence past the work budget", "searches"),
  budgetRule("budget-change", "change profile past the work budget", "edit"),
  rule({
    id: "trivial",
    title: "comment or whitespace-only edit",
    reasons: ["comment-whitespace"],
    // Never marked checked: the next change of the file is looked at again.
    check: async (f) => {
      const profile = await f.profile();
      return f.gt.verb === "edit" && profile?.known && profile.trivial
        ? {
          kind: "note",
          decision: "trivial",
          reason: "comment-whitespace",
          text: trivialNote(sanitizeForDisplay(f.gt.target.raw)),
          changes: [count("trivial_allows")],
          profile,
        }
        : null;
    },
  }),
  rule({
    id: "sibling",
    title: "sibling collapse",
    reasons: ["same-turn-dir"],
    // New files created in one directory in the same turn share one check.
    check: async (f) => {
      const key = f.siblingKey;
      if (!key) return null;
      const { state, ports, call } = f.ctx;
      const gate = state.dirGates[key];
      const turnId = await f.turnId();
      const open = gate !== undefined && gate.at <= ports.now && (
        turnId !== null ? gate.turn === turnId : call.transcriptPath === null &&
          gate.turn === null && ports.now - gate.at <= SIBLING_WINDOW_MS
      );
      return open
        ? {
          kind: "note",
          decision: "sibling",
          reason: "same-turn-dir",
          text: siblingNote(gate.first, gate.ordinal),
          changes: [check(f.gt.target.key), count("sibling_allows")],
          profile: await f.profile(),
        }
        : null;
    },
  }),
  rule({
    id: "cap",
    title: "denial cap",
    reasons: ["max-denials"],
    check: async (f) => {
      const { settings, state } = f.ctx;
      return settings.maxDenials !== null &&
          state.counters.fact_force_denials >= settings.maxDenials
        ? {
          kind: "pass",
          decision: "cap",
          reason: "max-denials",
          changes: [check(f.gt.target.key), count("cap_allows")],
          profile: await f.profile(),
        }
        : null;
    },
  }),
  rule({
    id: "symbol-credit",
    title: "prior-search credit for a search of a name the file exports",
    reasons: ["prior-search"],
    // Last before the denial: the file is read for its names only when nothing else let it through.
    check: async (f) => creditVerdict(f, await f.symbolCredit()),
  }),
  budgetRule("budget-symbols", "symbol search past the work budget", "searches"),
  rule({
    id: "deny",
    title: "first-touch denial",
    reasons: ["first-touch", NEAR_MISS],
    // The denial names the closest search of the turn that did not count.
    check: async (f) => {
      const miss = await f.closestMiss();
      return {
        kind: "deny",
        reason: miss ? `${NEAR_MISS}${miss.code}` : "first-touch",
        changes: [check(f.gt.target.key)],
        deny: {
          strict: null,
          profile: await f.profile(),
          closestMiss: miss ? closestMissLine(miss.tool, miss.detail, miss.code) : null,
          siblingKey: f.siblingKey ? { key: f.siblingKey, turn: await f.turnId() } : null,
        },
      };
    },
  }),
] as const;

/** The rules that decide for a whole file call before any target is looked at. */
export const CALL_RULES = [
  {
    id: "input",
    title: "input too large to check, or not readable",
    reasons: ["oversize-input", "malformed-input"],
  },
] as const satisfies readonly Rule[];

/** The file gate's order of checks as `gateguard explain` walks it. */
export const FILE_RULES: readonly Rule[] = [...CALL_RULES, ...TARGET_RULES];

/** Every reason code the file gate decides with. */
export type FileReason =
  | (typeof CALL_RULES)[number]["reasons"][number]
  | ReasonOf<(typeof TARGET_RULES)[number]["reasons"][number]>;
