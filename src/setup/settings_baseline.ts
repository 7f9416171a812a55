/**
 * The baseline of a Claude Code settings file: the text GateGuard last saw
 * accepted for it, kept in GateGuard's state directory (outside the project,
 * in the control surface). Claude Code's ConfigChange payload names the
 * changed file but not the text the session loaded, so the ConfigChange
 * hook compares the new text with this one. `gateguard init` writes it for
 * the file it edits; the hook rewrites it whenever it lets a change apply.
 *
 * A baseline is one JSON file per settings path, named by the path's
 * SHA-256, holding the path and the text (null: the file did not exist).
 * One that is missing, unreadable, or names another path is no baseline.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import { sha256Hex } from "../platform/sha256.ts";
import { writeAtomic } from "../platform/atomic_write.ts";
import { joinPath } from "../platform/path.ts";
import { isRecord } from "../platform/json.ts";
import { MAX_SETTINGS_BYTES } from "./settings_io.ts";

/** The folder of the state directory that holds the baselines. */
export const BASELINE_DIR = "settings-baseline";

/** Where the baseline of `settingsPath` is kept. */
export async function baselinePath(stateDir: string, settingsPath: string): Promise<string> {
  return joinPath(stateDir, `${BASELINE_DIR}/${await sha256Hex(settingsPath)}.json`);
}

/**
 * The baseline text of `settingsPath`: a string, null (the file did not
 * exist), or undefined when none is kept or it cannot be read.
 */
export async function readBaseline(
  fs: FsPort,
  stateDir: string,
  settingsPath: string,
): Promise<string | null | undefined> {
  const path = await baselinePath(stateDir, settingsPath);
  const st = fs.stat(path);
  if (!st.ok || !st.isFile) return undefined;
  // The text, JSON-escaped, may take a few times the settings file's own bound.
  const raw = await fs.readTextBoundedAsync(path, 8 * MAX_SETTINGS_BYTES);
  if (raw === null) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    if (!isRecord(value) || value.path !== settingsPath) return undefined;
    return typeof value.text === "string" || value.text === null ? value.text : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `text` (null: no file) as the baseline of `settingsPath`; throws when it cannot. */
export async function writeBaseline(
  stateDir: string,
  settingsPath: string,
  text: string | null,
): Promise<void> {
  const path = await baselinePath(stateDir, settingsPath);
  await Deno.mkdir(joinPath(stateDir, BASELINE_DIR), { recursive: true });
  writeAtomic(path, JSON.stringify({ path: settingsPath, text }), {
    temp: `${path}.${crypto.randomUUID()}.tmp`,
    mode: 0o600,
  });
}
