/**
 * Claude Code's ConfigChange event, judged: a settings file changed while a
 * session runs (by the agent's shell, an editor, any program), and Claude
 * Code asks its ConfigChange hooks before it applies the change to the
 * session. GateGuard blocks a change that would switch it off or weaken it.
 *
 * The payload names the file (`file_path`, already holding the new text)
 * and its `source`, never the text the session loaded. So the text before
 * is the baseline GateGuard keeps for that file (written by `init` and by
 * every change it let through, `settings_baseline.ts`), compared with
 * `settingsWeakenings`. Without a baseline the check falls back to what the
 * new text shows by itself, read with the other settings files on disk:
 * GateGuard's entries no longer reaching every gated tool, its ConfigChange
 * entry gone from every file (the session runs it, so the changed file held
 * it), its handlers no longer failing closed, a file Claude Code cannot
 * parse, and the switches that turn every hook or GateGuard off.
 *
 * Pure: the caller reads the files.
 *
 * @module
 */

import type { JsonValue } from "../config/jsonc.ts";
import {
  CONFIG_CHANGE_FORMAT,
  CONFIG_CHANGE_SOURCES,
  GATED_TOOLS,
  matcherCovers,
  type Registration,
  registrationsOf,
} from "./claude_settings.ts";
import { handlerProblems, settingsProblems } from "./health.ts";
import { parseSettings } from "./settings_io.ts";
import { settingsWeakenings } from "./weakening.ts";

/** What the hook knows when it judges one change. */
export interface ConfigChangeInput {
  /** `source` of the payload (`project_settings`, `skills`, ...). */
  source: string;
  /** The changed settings file. */
  filePath: string;
  /** Its text now; null when the file is gone. */
  after: string | null;
  /** The text GateGuard last saw accepted for it; undefined when it keeps none. */
  before: string | null | undefined;
  /** The other settings files as they are on disk, parsed (unparsable ones left out). */
  others: ReadonlyArray<{ path: string; value: JsonValue }>;
  /** This build's registered command, when known. */
  ownCommand?: string;
}

/** Whether a change's source is one GateGuard judges (settings files, not skills or policy). */
export function judgedSource(source: string): boolean {
  return CONFIG_CHANGE_SOURCES.includes(source);
}

function ours(value: JsonValue, path: string, event: string, own?: string): Registration[] {
  return registrationsOf(value, path, false, own, event).ours;
}

/** What the new text shows by itself, read with the other files, when no baseline is kept. */
function withoutBaseline(input: ConfigChangeInput): string[] {
  const { filePath, ownCommand } = input;
  if (input.after === null || input.after.trim() === "") {
    const elsewhere = input.others.some((f) =>
      ours(f.value, f.path, CONFIG_CHANGE_FORMAT.event, ownCommand).length > 0
    );
    return elsewhere ? [] : [
      `${filePath} would be emptied or deleted, and with it GateGuard's own hook entries`,
    ];
  }
  const parsed = parseSettings(input.after);
  if (parsed.kind !== "parsed") {
    return [
      `${filePath} would no longer be valid settings, so Claude Code would drop every hook in it`,
    ];
  }
  const after = parsed.value;
  // The hook's answer reaches the model: say what the change does without
  // naming GateGuard's off switches (doctor's phrasing names them).
  const found = settingsProblems(filePath, after).length > 0
    ? [`${filePath} would switch every hook or GateGuard itself off`]
    : [];
  const files = [{ path: filePath, value: after }, ...input.others];
  const pre = files.flatMap((f) => ours(f.value, f.path, "PreToolUse", ownCommand));
  const missing = GATED_TOOLS.filter((tool) => !pre.some((r) => matcherCovers(r.matcher, tool)));
  if (missing.length > 0) {
    found.push(`GateGuard's hook entries would no longer reach ${missing.join(", ")}`);
  }
  const watchers = files.flatMap((f) =>
    ours(f.value, f.path, CONFIG_CHANGE_FORMAT.event, ownCommand)
  );
  if (watchers.length === 0) {
    found.push(`GateGuard's ConfigChange entry would be removed from ${filePath}`);
  }
  for (const r of [...ours(after, filePath, "PreToolUse", ownCommand), ...watchers]) {
    if (r.origin === filePath) found.push(...handlerProblems(r.handler, filePath));
  }
  return [...new Set(found)];
}

/**
 * What the change would switch off or weaken, one phrase each; empty when
 * GateGuard lets it apply. Sources other than the settings files pass.
 */
export function configChangeWeakenings(input: ConfigChangeInput): string[] {
  if (!judgedSource(input.source)) return [];
  if (input.before === undefined) return withoutBaseline(input);
  return settingsWeakenings(input.before, input.after ?? "", input.ownCommand);
}

/** The text shown when a change is blocked (stderr of the hook, exit 2). */
export function blockedChangeText(filePath: string, weakenings: readonly string[]): string {
  return [
    `GateGuard blocked this change to ${filePath} from applying to the session: ` +
    weakenings.join("; ") + ".",
    "This session keeps the settings it loaded, but the file on disk still holds the change " +
    "and the next session will load it: restore the file unless you made this change yourself.",
  ].join("\n");
}
