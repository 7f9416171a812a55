/**
 * Test harness for prior-search credit: builds a Claude Code transcript
 * around a list of calls, scans it through an in-memory port, and asks
 * for credit the way the file gate does.
 *
 * @module
 */

import {
  type CreditTarget,
  type NearMiss,
  priorSearchCredit,
  type SearchRoots,
} from "../../src/evidence/credit.ts";
import { extensionOf } from "../../src/evidence/stem.ts";
import type { WorkBudget } from "../../src/platform/budget.ts";
import { scanTurn } from "../../src/session_logs/claude_log.ts";
import type { TurnScan } from "../../src/session_logs/turn_scan.ts";
import {
  assistant,
  jsonl,
  MemoryFs,
  prompt,
  result,
  ROOT,
  type ToolUseBlock,
} from "../session_logs/builder.ts";
import { SCANNED_TOOL_NAMES } from "../../src/tools/gated.ts";

/** The prompt id of every built turn. */
export const PROMPT = "0b1c2d3e-0000-4000-8000-0000000000c1";

/** The pending call's `tool_use_id`. */
export const PENDING = "toolu_pending";

/** One call of the built turn. */
export interface Call {
  name: string;
  input: Record<string, unknown>;
  /** Its result is an error. */
  error?: boolean;
  /** Sent in the pending call's own assistant message. */
  sameBatch?: boolean;
  /** The `cwd` its records carry; null leaves the field out. Defaults to the turn's. */
  cwd?: string | null;
  /** The client refused to run it, as after a hook denial. */
  denied?: boolean;
  /** Neighbouring calls naming one message were sent in one batch; each has its own otherwise. */
  message?: string;
}

/** Sets or removes the `cwd` field of built records. */
function placeRecords(records: Record<string, unknown>[], cwd: string | null): void {
  for (const r of records) {
    if (cwd === null) delete r.cwd;
    else r.cwd = cwd;
  }
}

const DENIAL = { decision: "reject", source: "hook", reasonType: "hook" };

let ids = 0;

/**
 * A transcript: a prompt, each call in its own message with its result,
 * then the pending Edit. Records carry `cwd` (null: no such field) unless
 * a call names its own.
 */
export function turnText(calls: Call[], cwd: string | null = ROOT): string {
  const records: Record<string, unknown>[] = [prompt("fix it", PROMPT)];
  const batch: ToolUseBlock[] = [];
  const batchResults: Record<string, unknown>[] = [];
  // Calls of one message: their records, then their results.
  let message: string | null = null;
  const uses: Record<string, unknown>[] = [];
  const results: Record<string, unknown>[] = [];
  const flush = (): void => {
    records.push(...uses.splice(0), ...results.splice(0));
  };
  for (const call of calls) {
    const id = `toolu_${++ids}`;
    const use = { id, name: call.name, input: call.input };
    const denied = call.denied ? { extra: { permissionDecision: DENIAL } } : {};
    const res = result(id, PROMPT, call.error || call.denied ? { error: true, ...denied } : {});
    const place = call.cwd === undefined ? cwd : call.cwd;
    placeRecords([res], place);
    if (call.sameBatch) {
      batch.push(use);
      batchResults.push(res);
      continue;
    }
    const next = call.message ?? `msg_${id}`;
    if (next !== message) flush();
    message = next;
    const built = assistant(next, [use]);
    placeRecords(built, place);
    uses.push(...built);
    results.push(res);
  }
  flush();
  const pending = {
    id: PENDING,
    name: "Edit",
    input: { file_path: `${ROOT}/x`, old_string: "a", new_string: "b" },
  };
  const batchUses = assistant("msg_pending", [...batch, pending]);
  placeRecords(batchUses, cwd);
  placeRecords(records.slice(0, 1), cwd);
  records.push(...batchUses, ...batchResults);
  return jsonl(records);
}

/** Scans a built turn whose records carry `cwd` (null: none). */
export function scanOf(calls: Call[], cwd: string | null = ROOT): TurnScan {
  const fs = new MemoryFs({ "/t.jsonl": turnText(calls, cwd) });
  const scan = scanTurn({
    transcriptPath: "/t.jsonl",
    promptId: PROMPT,
    toolUseId: PENDING,
    tools: SCANNED_TOOL_NAMES,
  }, fs);
  if (!scan) throw new Error("the built transcript has no turn");
  return scan;
}

/** A target from its absolute path; the class defaults to code. */
export function target(
  absolute: string,
  opts: Partial<Omit<CreditTarget, "absolute">> = {},
): CreditTarget {
  const basename = absolute.slice(absolute.lastIndexOf("/") + 1);
  return {
    absolute,
    basename,
    cls: opts.cls ?? (extensionOf(basename) === ".md" ? "prose" : "code"),
    isNewWrite: opts.isNewWrite ?? false,
    windowsStyle: opts.windowsStyle ?? false,
    ...opts,
  };
}

/** The roots of a call made in the project directory. */
export const ROOTS: SearchRoots = { toolCwd: ROOT, projectDirEnv: null, processCwd: "/" };

/** The credit result with its lazy miss read out, as plain data. */
export type Outcome =
  | { credited: true; tool: string; detail: string; miss?: undefined }
  | { credited: false; miss: NearMiss | null };

/** Builds the turn from `calls` and decides credit for `t`. */
export function creditOf(
  calls: Call[],
  t: CreditTarget,
  opts: { roots?: SearchRoots; fs?: MemoryFs; budget?: WorkBudget } = {},
): Outcome {
  const roots = opts.roots ?? ROOTS;
  // In a turn that never moved the shell, every record carries the payload's cwd.
  const scan = scanOf(calls, roots.toolCwd);
  const res = priorSearchCredit(t, scan, roots, opts.fs ?? new MemoryFs(), opts.budget);
  return res.credited ? { ...res } : { credited: false, miss: res.miss };
}

/** Shorthand for a credited outcome. */
export function credited(tool: string, detail: string): Outcome {
  return { credited: true, tool, detail };
}

/** Shorthand for a denied outcome with (or without) a closest miss. */
export function missed(code: NearMiss["code"] | null, tool = "", detail = ""): Outcome {
  return { credited: false, miss: code === null ? null : { code, tool, detail } };
}
