/**
 * The hook's edge for Claude Code's ConfigChange event: reads the changed
 * settings file, the other settings files and GateGuard's baseline of the
 * changed one, asks `setup/config_change.ts` what the change would switch
 * off, and answers the way Claude Code reads a ConfigChange hook: exit 2
 * with the reason on stderr blocks the change from applying to the
 * session; exit 0 lets it apply (and the new text becomes the baseline).
 *
 * Loaded only for that event, so the PreToolUse path never pays for it.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import type { JsonValue } from "../config/jsonc.ts";
import { homeDir, settingsFrom, stateDirFrom } from "../config/settings.ts";
import { settingsFiles } from "../setup/claude_settings.ts";
import { registrationCommand } from "../setup/command.ts";
import { blockedChangeText, configChangeWeakenings, judgedSource } from "../setup/config_change.ts";
import { readBaseline, writeBaseline } from "../setup/settings_baseline.ts";
import { readSettingsFile, readSettingsText } from "../setup/settings_io.ts";
import { denoFs } from "../platform/fs_port.ts";
import { printable } from "../platform/terminal_text.ts";

/** Exit code with which a ConfigChange hook blocks the change. */
export const BLOCK_EXIT_CODE = 2;

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** Judges one ConfigChange payload; returns the exit code. Never throws. */
export async function configChangeHook(
  payload: Record<string, unknown>,
  env: EnvSnapshot,
): Promise<number> {
  const source = text(payload.source) ?? "";
  const filePath = text(payload.file_path);
  if (!judgedSource(source) || settingsFrom(env).disabled) return 0;
  if (filePath === null) {
    console.error("GateGuard blocked a settings change whose file it was not told.");
    return BLOCK_EXIT_CODE;
  }
  try {
    const read = await readSettingsText(denoFs, filePath);
    let weakenings: string[];
    if (read.kind === "unreadable") {
      weakenings = [
        `${filePath} cannot be read (${read.why}), so Claude Code cannot use it either`,
      ];
    } else {
      const after = read.kind === "text" ? read.text : null;
      const stateDir = stateDirFrom(env);
      const projectRoot = text(env.CLAUDE_PROJECT_DIR) ?? text(payload.cwd) ?? Deno.cwd();
      const others: Array<{ path: string; value: JsonValue }> = [];
      for (const f of settingsFiles(projectRoot, homeDir(env))) {
        if (f.path === filePath) continue;
        const outcome = await readSettingsFile(denoFs, f.path);
        if (outcome.kind === "parsed") others.push({ path: f.path, value: outcome.value });
      }
      weakenings = configChangeWeakenings({
        source,
        filePath,
        after,
        before: await readBaseline(denoFs, stateDir, filePath),
        others,
        ownCommand: registrationCommand(
          Deno.execPath(),
          import.meta.url,
          Deno.build.os === "windows",
        ),
      });
      if (weakenings.length === 0) {
        // A baseline that cannot be written only makes the next check compare with an older text.
        await writeBaseline(stateDir, filePath, after).catch(() => {});
        return 0;
      }
    }
    for (const line of blockedChangeText(filePath, weakenings).split("\n")) {
      console.error(printable(line));
    }
    return BLOCK_EXIT_CODE;
  } catch (err) {
    console.error(
      `GateGuard blocked this change to ${printable(filePath)}: checking it failed (${
        (err as Error)?.name ?? "Error"
      }).`,
    );
    return BLOCK_EXIT_CODE;
  }
}
