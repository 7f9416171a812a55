/**
 * Whether a change to a Claude Code settings file would switch GateGuard
 * off or weaken it: the pure check behind gating such a write like a
 * destructive command. It compares the file before and after the change
 * and names each thing the change turns off, so the denial can say what
 * the agent is about to do. Ordinary settings changes give no weakening.
 *
 * What counts: GateGuard's own hook entries removed or changed (matcher or
 * handler), `disableAllHooks` turned on, any `GATEGUARD_*` or `ECC_*`
 * variable of the `env` block set, changed or removed, and a file that no
 * longer parses while it held GateGuard's entries. A change whose result
 * cannot be told (the file unreadable, a replacement that does not apply,
 * content the gate does not read) has no answer: the caller fails closed.
 *
 * @module
 */

import type { JsonValue } from "../config/jsonc.ts";
import type { FileChange } from "../tools/call.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { WorkBudget } from "../platform/budget.ts";
import { textAfterChange } from "../change/after_text.ts";
import { CLAUDE_CODE_FORMATS, registrationsOf } from "./claude_settings.ts";
import { parseSettings, readSettingsText } from "./settings_io.ts";
import { canonicalJson, isRecord } from "../platform/json.ts";

/** Variables whose change in an `env` block is a weakening. */
const GUARDED_VARIABLE = /^(GATEGUARD_|ECC_)/;

function parsed(text: string | null): JsonValue | undefined {
  if (text === null || text.trim() === "") return {};
  const outcome = parseSettings(text);
  return outcome.kind === "parsed" ? outcome.value : undefined;
}

/**
 * GateGuard's entries of a parsed file (PreToolUse and ConfigChange), each as
 * a canonical text of event, matcher and handler.
 */
function ownEntries(value: JsonValue, ownCommand: string | undefined): string[] {
  return CLAUDE_CODE_FORMATS.flatMap((format) =>
    registrationsOf(value, "", false, ownCommand, format.event).ours.map((r) =>
      canonicalJson([format.event, r.matcher ?? null, r.handler])
    )
  ).sort();
}

function guardedEnv(value: JsonValue): Map<string, string> {
  const env = isRecord(value) ? value.env : undefined;
  const found = new Map<string, string>();
  if (!isRecord(env)) return found;
  for (const [name, v] of Object.entries(env)) {
    if (GUARDED_VARIABLE.test(name)) found.set(name, JSON.stringify(v));
  }
  return found;
}

/**
 * What changing a settings file from `before` (null when it does not exist)
 * to `after` would turn off or weaken, one phrase each; empty for an
 * ordinary change. `ownCommand` is this build's registered command, when
 * known; GateGuard's registered shapes are recognised without it.
 */
export function settingsWeakenings(
  before: string | null,
  after: string,
  ownCommand?: string,
): string[] {
  const old = parsed(before);
  const next = parsed(after);
  const oldEntries = old === undefined ? [] : ownEntries(old, ownCommand);
  if (next === undefined) {
    return oldEntries.length > 0
      ? ["the file would no longer parse, so Claude Code would drop GateGuard's hook entries"]
      : [];
  }
  const found: string[] = [];
  const nextEntries = ownEntries(next, ownCommand);
  const kept = [...nextEntries];
  const lost = oldEntries.filter((entry) => {
    const k = kept.indexOf(entry);
    if (k < 0) return true;
    kept.splice(k, 1);
    return false;
  });
  if (lost.length > 0) {
    found.push(
      `${lost.length} of GateGuard's hook entries would be removed or changed, ` +
        "so some tools would no longer be gated",
    );
  }
  const wasOff = isRecord(old) && old.disableAllHooks === true;
  if (isRecord(next) && next.disableAllHooks === true && !wasOff) {
    found.push('"disableAllHooks": true would stop every hook, GateGuard included');
  }
  const oldEnv = old === undefined ? new Map<string, string>() : guardedEnv(old);
  const nextEnv = guardedEnv(next);
  for (const name of new Set([...oldEnv.keys(), ...nextEnv.keys()])) {
    const from = oldEnv.get(name);
    const to = nextEnv.get(name);
    if (from === to) continue;
    found.push(
      to === undefined
        ? `the env block would drop ${name}, which configures GateGuard`
        : `the env block would set ${name}=${to.slice(0, 80)}, which configures GateGuard`,
    );
  }
  return found;
}

/** Work units charged per character of the texts compared (read, applied, parsed twice). */
const UNITS_PER_CHARACTER = 4;

/**
 * What a typed `change` to the settings file at `path` would turn off or
 * weaken (see `settingsWeakenings`), reading the current text through `fs`;
 * null when the outcome cannot be told: the file cannot be read, the change
 * does not apply to it, or `budget` cannot pay for the comparison.
 */
export async function changeWeakenings(
  fs: FsPort,
  path: string,
  change: FileChange,
  ownCommand: string | undefined,
  budget: WorkBudget,
): Promise<string[] | null> {
  const read = await readSettingsText(fs, path);
  if (read.kind === "unreadable") return null;
  const before = read.kind === "text" ? read.text : null;
  const after = textAfterChange(before, change);
  if (after === null) return null;
  const units = ((before?.length ?? 0) + after.length) * UNITS_PER_CHARACTER;
  if (!budget.spend(units, "settings")) return null;
  return settingsWeakenings(before, after, ownCommand);
}
