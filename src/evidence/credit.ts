/**
 * Prior-search credit: whether a search earlier in the current human turn
 * already covered a first-touch target, and, when none did, the closest
 * call of the turn that mentioned the target without counting.
 *
 * Both read the one cached turn scan and share one parse per call. The
 * miss is only worked out when the caller reads it (the deny path), so
 * credit, trivial, sibling and cap allowances never pay for it. Every
 * export returns the fail-closed value on any error. See
 * docs/search-credit.md "Prior-search credit" and "Closest search that did
 * not count".
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { TurnCall, TurnScan } from "../session_logs/turn_scan.ts";
import { absolutePath, isAbsolute, parsePath } from "../file_facts/paths.ts";
import {
  closer,
  judgeSearch,
  type JudgeTarget,
  mentionsTarget,
  MISS_CODES,
  type MissCode,
  samePlace,
  type Verdict,
} from "./judge.ts";
import { callEvidence, contextKey } from "./search.ts";
import type { CallEvidence, ParseContext } from "./types.ts";
import { changesDirectory } from "./shell_search.ts";

export { loadPowerShellReader } from "./shell_lex.ts";
import { resolutionSteps } from "./arg_collector.ts";
import { callMatters, mayName, maySearchContents, namingText } from "./prefilter.ts";
import { creditableName, mayNameSymbol } from "./symbol.ts";
import { MIN_MENTION_LENGTH, stemOf } from "./stem.ts";
import { CREDITING_TOOL_NAMES, READ_TOOL, toolNames } from "../tools/gated.ts";

/** A first-touch target, as the decision code hands it over. */
export interface CreditTarget {
  /** Absolute, `/`-separated path. */
  absolute: string;
  basename: string;
  cls: "instruction" | "test" | "prose" | "config" | "code";
  /** A Write of a file that does not exist yet. */
  isNewWrite: boolean;
  windowsStyle: boolean;
}

/** Why the closest call of the turn did not count, closest first. */
export type NearMissCode = MissCode;

/** The closest call that mentioned the target without crediting it. */
export interface NearMiss {
  code: NearMissCode;
  /** One of Glob, Grep, LS, Bash, PowerShell, Read. */
  tool: string;
  /** Sanitized tool input, at most 60 characters. */
  detail: string;
}

/**
 * The credit decision. `tool` and `detail` name the crediting search. A
 * non-credit carries the closest miss, computed when `miss` is first read.
 */
export type CreditResult =
  | { credited: true; tool: string; detail: string }
  | { credited: false; miss: NearMiss | null };

/** Where relative paths of the turn's calls resolve. */
export interface SearchRoots {
  /** The payload `cwd`. */
  toolCwd: string | null;
  /** `CLAUDE_PROJECT_DIR`. */
  projectDirEnv: string | null;
  /** The hook process's working directory. */
  processCwd: string;
}

/** Tools whose calls may change the shell's directory. */
const SHELL_TOOLS: ReadonlySet<string> = new Set(toolNames("shell"));

function judgeTarget(
  target: CreditTarget,
  roots: SearchRoots,
  budget: WorkBudget | undefined,
): JudgeTarget {
  const base = roots.toolCwd || roots.projectDirEnv || roots.processCwd;
  let place = parsePath(target.absolute, target.windowsStyle);
  if (place.root === "") place = absolutePath(target.absolute, base, roots.processCwd);
  const basename = target.basename || place.segments.at(-1) || "";
  const stem = stemOf(basename, target.cls === "test");
  return {
    place,
    parent: { ...place, segments: place.segments.slice(0, -1) },
    basename,
    stem,
    isNewWrite: target.isNewWrite,
    below: new Map(),
    filter: {
      segments: place.segments,
      path: place.segments.join("/"),
      basename,
      stem: stem.name,
      windows: place.windows,
      budget,
      verdicts: new Map(),
    },
  };
}

/** True when a shell call may have moved the shell: it ran, and it changes directory. */
function movesShell(call: TurnCall): boolean {
  return SHELL_TOOLS.has(call.tool) && !call.denied && typeof call.input.command === "string" &&
    changesDirectory(call.input.command, call.tool);
}

/**
 * The directory a call started in, from the `cwd` its own record carries.
 * That value was written when the model sent the call, so another call of
 * the same batch that changes directory may have moved the shell before
 * this one ran: then the start is unknown (null), as it is without a value.
 * `batchOf` gives the calls of the call's own message.
 */
function recordedStart(call: TurnCall, batchOf: (call: TurnCall) => TurnCall[]): string | null {
  if (call.cwd === null || !isAbsolute(call.cwd)) return null;
  const batchMoved = call.messageId !== null &&
    batchOf(call).some((c) => c !== call && movesShell(c));
  return batchMoved ? null : call.cwd;
}

/**
 * The calls of each message of the scan, grouped in one pass on first use,
 * so finding a call's batch costs its batch, not the turn.
 */
function batches(scan: TurnScan): (call: TurnCall) => TurnCall[] {
  let byMessage: Map<string, TurnCall[]> | null = null;
  return (call) => {
    if (byMessage === null) {
      byMessage = new Map();
      for (const c of scan.calls) {
        if (c.messageId === null) continue;
        const batch = byMessage.get(c.messageId);
        if (batch) batch.push(c);
        else byMessage.set(c.messageId, [c]);
      }
    }
    return call.messageId === null ? [] : byMessage.get(call.messageId) ?? [];
  };
}

/**
 * Builds each call's parse context. A call whose record tells where it
 * started resolves its relative paths there, whatever other calls did to
 * the shell. Without that (other clients' logs, older transcripts), the
 * payload's cwd stands in while no shell call of the turn changed
 * directory. When the only one that did is the call itself, the payload's
 * cwd is either where it started or, had the client kept its change,
 * where it ended: its searches are read both ways and must cover the
 * target in both. Any other mover leaves every shell search's cwd unknown.
 * A call the client refused never ran, so it moved nothing.
 */
function contextsFor(scan: TurnScan, roots: SearchRoots): (call: TurnCall) => ParseContext {
  const base = roots.toolCwd || roots.projectDirEnv || roots.processCwd;
  const plain: ParseContext = {
    base,
    processCwd: roots.processCwd,
    shellCwdUnknown: false,
  };
  const batchOf = batches(scan);
  let movers: TurnCall[] | null = null;
  return (call) => {
    const start = recordedStart(call, batchOf);
    if (start !== null) return { ...plain, base: start };
    if (!SHELL_TOOLS.has(call.tool)) return plain;
    movers ??= scan.calls.filter(movesShell);
    if (movers.length === 0) return plain;
    if (movers.length === 1 && movers[0] === call) return { ...plain, ownMoveOnly: true };
    return { ...plain, shellCwdUnknown: true };
  };
}

/** One call's evidence and the closest verdict of its searches. */
interface Judged {
  ev: CallEvidence;
  verdict: Verdict;
}

/**
 * Units a call's parse costs per character of its input: lexing it,
 * reading its flags and resolving each operand make a character cost many
 * times a byte scanned (a command of 232 short operands took about 1 to 3
 * ms to parse in a fresh hook process, some 2,100 characters).
 */
const UNITS_PER_INPUT_CHAR = 16;

/**
 * Units per path segment operand resolution joins: each operand copies its
 * whole base, so 900 operands run 1,300 directories deep took about as
 * long as parsing a million characters.
 */
const UNITS_PER_JOINED_SEGMENT = 8;

/** Characters of the call's input text: what parsing and judging it reads. */
function inputChars(call: TurnCall): number {
  let n = 0;
  for (const value of Object.values(call.input)) if (typeof value === "string") n += value.length;
  return n;
}

/**
 * Judges each call once per decision, for the credit and the closest miss
 * alike, charging its input text to `budget` first. Calls with the same
 * tool, input and context are one judgement: the first pays for parsing
 * and judging, each later one only for reading its input to find it. A
 * call the budget cannot pay for is null: it earns nothing and names no
 * miss.
 */
function judgeEachOnce(
  t: JudgeTarget,
  contextOf: (call: TurnCall) => ParseContext,
  fs: FsPort,
  budget: WorkBudget | undefined,
): (call: TurnCall) => Judged | null {
  const memo = new Map<TurnCall, Judged | null>();
  const byContent = new Map<string, Judged>();
  return (call) => {
    const known = memo.get(call);
    if (known !== undefined) return known;
    let judged: Judged | null = null;
    const chars = inputChars(call);
    const ctx = contextOf(call);
    const key = `${call.tool}\u0000${contextKey(ctx)}\u0000${JSON.stringify(call.input)}`;
    const same = byContent.get(key);
    if (same !== undefined) {
      if (!budget || budget.spend(chars, "evidence")) judged = same;
    } else if (!budget || budget.spend(UNITS_PER_INPUT_CHAR * chars, "evidence")) {
      // Resolving operands costs the base's depth each: a parse's steps are
      // bounded by the longest command and path, and charged once known.
      const before = resolutionSteps();
      const ev = callEvidence(call, ctx);
      const joined = resolutionSteps() - before;
      if (!budget || budget.spend(UNITS_PER_JOINED_SEGMENT * joined, "evidence")) {
        let verdict: Verdict = { kind: "silent" };
        if (!ev.ambiguous) {
          for (const search of ev.searches) verdict = closer(verdict, judgeSearch(search, t, fs));
        }
        judged = { ev, verdict };
        byContent.set(key, judged);
      }
    }
    memo.set(call, judged);
    return judged;
  };
}

/**
 * The calls of a scan the stem rules judged, by target: they named the
 * target and were held to the scope rules already, so the symbol pass
 * leaves them be (and pays for no second judgement of them).
 */
const judgedByStem = new WeakMap<TurnScan, Map<string, Set<TurnCall>>>();

function rememberStemJudged(scan: TurnScan, target: string, call: TurnCall): void {
  let byTarget = judgedByStem.get(scan);
  if (!byTarget) judgedByStem.set(scan, byTarget = new Map());
  let calls = byTarget.get(target);
  if (!calls) byTarget.set(target, calls = new Set());
  calls.add(call);
}

/**
 * Decides prior-search credit for `target` from the turn's completed
 * searches, newest first. The returned non-credit computes its closest miss
 * lazily. Parsing and glob matching draw on `budget`; what it cannot pay for
 * earns nothing. An error is thrown to the caller (reading the miss, too),
 * which decides without the fact and says so: a fault here must not pass
 * for a plain denial.
 */
export function priorSearchCredit(
  target: CreditTarget,
  scan: TurnScan,
  roots: SearchRoots,
  fs: FsPort,
  budget?: WorkBudget,
): CreditResult {
  const t = judgeTarget(target, roots, budget);
  const judged = judgeEachOnce(t, contextsFor(scan, roots), fs, budget);
  if (t.stem.usable || t.isNewWrite) {
    for (const call of scan.calls) {
      if (!CREDITING_TOOL_NAMES.has(call.tool) || !call.completed || call.messageId === null) {
        continue;
      }
      if (call.sameBatch) continue;
      if (!mayName(call, t.stem.name, t.isNewWrite)) continue;
      const j = judged(call);
      if (j === null || j.ev.ambiguous) continue;
      if (j.verdict.kind === "credit") {
        return { credited: true, tool: j.ev.tool, detail: j.ev.detail };
      }
      if (j.verdict.kind === "miss") rememberStemJudged(scan, target.absolute, call);
    }
  }
  return lazyMiss(() => findClosestMiss(t, scan, judged));
}

/**
 * Symbol credit: whether a completed content search of the turn searched
 * for one of `names`, the names `target` exports (`change/surface_names.ts`),
 * and covered it under the same scope rules as a stem search. Only names
 * long and uncommon enough count, and only calls no stem matched whose
 * text holds one of them are parsed. A non-credit names no miss. What
 * `budget` cannot pay for earns nothing; an error is thrown to the caller,
 * as `priorSearchCredit`'s is. See docs/search-credit.md
 * "Symbol searches".
 */
export function symbolSearchCredit(
  target: CreditTarget,
  names: readonly string[],
  scan: TurnScan,
  roots: SearchRoots,
  fs: FsPort,
  budget?: WorkBudget,
): CreditResult {
  const none: CreditResult = { credited: false, miss: null };
  const calls = scan.calls.filter((c) => CREDITING_TOOL_NAMES.has(c.tool) && maySearchContents(c));
  const symbols: ReadonlySet<string> = new Set(names.filter(creditableName));
  if (calls.length === 0 || symbols.size === 0 || target.isNewWrite) return none;
  const byStem = judgedByStem.get(scan)?.get(target.absolute);
  const t: JudgeTarget = { ...judgeTarget(target, roots, budget), symbols };
  const judged = judgeEachOnce(t, contextsFor(scan, roots), fs, budget);
  for (const call of calls) {
    if (byStem?.has(call) || !mayNameSymbol(namingText(call), symbols)) continue;
    const j = judged(call);
    if (j === null || j.ev.ambiguous) continue;
    if (j.verdict.kind === "credit") {
      return { credited: true, tool: j.ev.tool, detail: j.ev.detail };
    }
  }
  return none;
}

function lazyMiss(compute: () => NearMiss | null): CreditResult {
  let memo: NearMiss | null | undefined;
  return {
    credited: false,
    get miss(): NearMiss | null {
      if (memo === undefined) memo = compute();
      return memo;
    },
  };
}

/**
 * The closest call of the turn that mentioned `target` without crediting
 * it, or null. For callers that skip `priorSearchCredit`; an error is thrown
 * to the caller, as there.
 */
export function closestMiss(
  target: CreditTarget,
  scan: TurnScan,
  roots: SearchRoots,
  fs: FsPort,
  budget?: WorkBudget,
): NearMiss | null {
  const t = judgeTarget(target, roots, budget);
  return findClosestMiss(t, scan, judgeEachOnce(t, contextsFor(scan, roots), fs, budget));
}

function findClosestMiss(
  t: JudgeTarget,
  scan: TurnScan,
  judged: (call: TurnCall) => Judged | null,
): NearMiss | null {
  let best: NearMiss | null = null;
  let bestRank = Infinity;
  const canMention = t.isNewWrite || t.stem.name.length >= MIN_MENTION_LENGTH;
  for (const call of scan.calls) {
    if (!callMatters(call)) continue;
    if (
      call.tool !== READ_TOOL.read.name &&
      (!canMention || !mayName(call, t.stem.name, t.isNewWrite))
    ) {
      continue;
    }
    const j = judged(call);
    if (j === null || j.ev.ambiguous) continue;
    const { ev } = j;
    let verdict: Verdict = j.verdict;
    if (ev.readPath && samePlace(ev.readPath, t.place)) {
      verdict = closer(verdict, { kind: "miss", code: "not-a-search" });
    }
    if (ev.otherTexts.some((text) => mentionsTarget(text, t))) {
      verdict = closer(verdict, { kind: "miss", code: "not-a-search" });
    }
    if (verdict.kind === "credit" && call.sameBatch) verdict = { kind: "miss", code: "same-batch" };
    if (verdict.kind !== "miss") continue;
    const r = MISS_CODES.indexOf(verdict.code);
    if (r < bestRank) {
      best = { code: verdict.code, tool: ev.tool, detail: ev.detail };
      bestRank = r;
    }
  }
  return best;
}
