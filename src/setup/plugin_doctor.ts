/**
 * What `gateguard doctor` says about GateGuard installed as a Claude Code
 * plugin: each installed plugin whose hooks.json registers GateGuard, whether
 * settings enable it, its version, and the release binary its launcher runs
 * from the plugin's data folder (present, recorded, matching its SHA-256).
 * That a plugin and a settings registration both gating the same tools is a
 * problem is judged with every other registration, in `coverageFindings`.
 *
 * `pluginFindings` is pure; `gatherPlugins` reads what it needs through
 * ports, at the edge.
 *
 * @module
 */

import { sha256BytesHex } from "../platform/sha256.ts";
import type { JsonValue } from "../config/jsonc.ts";
import type { FsPort } from "../platform/fs_port.ts";
import { isRecord } from "../platform/json.ts";
import { joinPath } from "../platform/path.ts";
import { printable } from "../platform/terminal_text.ts";
import { registrationsOf } from "./claude_settings.ts";
import type { Finding } from "./claude_doctor.ts";
import { readSettingsFile } from "./settings_io.ts";

/** The binary the plugin's launcher would run, as found on disk. */
export type PluginBinary =
  | { kind: "missing" }
  | { kind: "unrecorded" }
  | { kind: "unreadable"; why: string }
  | { kind: "present"; digest: string; recorded: string; asset: string; version: string };

/** One installed GateGuard plugin, as doctor found it. */
export interface PluginInstall {
  /** `name@marketplace`. */
  id: string;
  installPath: string;
  /** The version installed_plugins.json records, or null. */
  version: string | null;
  /** The settings file whose `enabledPlugins` decides, or null when none names it. */
  enabledBy: { path: string; on: boolean } | null;
  /** The plugin's data folder (`CLAUDE_PLUGIN_DATA` of its hooks). */
  dataDir: string;
  /** Where the launcher looks for the binary. */
  binaryPath: string;
  binary: PluginBinary;
  /** The install holds GateGuard's sources (the launcher's fallback with Deno). */
  sourceCheckout: boolean;
}

/** What doctor needs besides the installs. */
export interface PluginContext {
  /** Deno is on the PATH the hooks would see. */
  denoOnPath: boolean;
  windows: boolean;
}

/** The folder name Claude Code gives a plugin's data: every character outside `[A-Za-z0-9_-]` becomes `-`. */
export function pluginDataName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "-");
}

/** The command that installs the binary by hand, for a fix. */
function installCommand(p: PluginInstall, windows: boolean): string {
  return windows
    ? `powershell -NoProfile -ExecutionPolicy Bypass -File '${p.installPath}\\hooks\\install_binary.ps1' '${p.dataDir}'`
    : `sh '${p.installPath}/hooks/install_binary.sh' '${p.dataDir}'`;
}

function binaryFindings(p: PluginInstall, context: PluginContext): Finding[] {
  const bin = printable(p.binaryPath);
  const fix = `fix: ${printable(installCommand(p, context.windows))}`;
  const b = p.binary;
  switch (b.kind) {
    case "missing": {
      if (context.denoOnPath && p.sourceCheckout) {
        return [{
          level: "info",
          text: `no plugin binary at ${bin} yet: the plugin runs GateGuard from source with Deno ` +
            "until a Claude Code session start installs it",
        }];
      }
      const lacking = context.denoOnPath
        ? `the plugin at ${printable(p.installPath)} has no GateGuard sources`
        : "no Deno on PATH";
      return [{
        level: "FAIL",
        text: `no plugin binary at ${bin}, and ${lacking} to run GateGuard from source instead, ` +
          `so the plugin blocks every gated call; ${fix}`,
      }];
    }
    case "unreadable":
      return [{
        level: "FAIL",
        text: `plugin binary ${bin} cannot be read (${b.why}), so it cannot be verified; ${fix}`,
      }];
    case "unrecorded":
      return [{
        level: "FAIL",
        text: `plugin binary ${bin} has no SHA-256 record beside it, so the plugin refuses to ` +
          `run it; ${fix}`,
      }];
    case "present": {
      if (b.digest !== b.recorded) {
        return [{
          level: "FAIL",
          text: `plugin binary ${bin} does not match its recorded SHA-256 (recorded ${
            printable(b.recorded)
          }, found ${b.digest}), so the plugin refuses to run it; ${fix}`,
        }];
      }
      const found: Finding[] = [{
        level: "ok",
        text: `plugin binary ${bin} (${printable(b.asset)} ${
          printable(b.version)
        }) matches its recorded SHA-256 ${b.digest}`,
      }];
      if (p.version !== null && b.version !== `v${p.version}`) {
        found.push({
          level: "info",
          text: `the plugin binary is ${printable(b.version)} while the plugin is ${
            printable(p.version)
          }; the next Claude Code session start installs v${printable(p.version)}`,
        });
      }
      return found;
    }
  }
}

/** For each enabled GateGuard plugin: where it is, what enables it, then what its binary is. */
export function pluginFindings(
  installs: readonly PluginInstall[],
  context: PluginContext,
): Finding[] {
  return installs.flatMap((p) => {
    const name = `plugin ${printable(p.id)}${p.version === null ? "" : ` ${printable(p.version)}`}`;
    // A disabled plugin is reported with the other registrations; its binary does not matter.
    if (p.enabledBy !== null && !p.enabledBy.on) return [];
    const by = p.enabledBy === null
      ? "enabled (no settings file names it)"
      : `enabled by ${printable(p.enabledBy.path)}`;
    return [
      {
        level: "info" as const,
        text: `${name} is installed at ${printable(p.installPath)}, ${by}; its data folder is ${
          printable(p.dataDir)
        }`,
      },
      ...binaryFindings(p, context),
    ];
  });
}

/** The most specific settings file naming each plugin in `enabledPlugins` (user, project, local order). */
function enabledState(
  parsed: ReadonlyArray<[string, JsonValue]>,
): Map<string, { path: string; on: boolean }> {
  const state = new Map<string, { path: string; on: boolean }>();
  for (const [path, value] of parsed) {
    const enabled = isRecord(value) ? value.enabledPlugins : undefined;
    if (!isRecord(enabled)) continue;
    for (const [id, on] of Object.entries(enabled)) {
      if (typeof on === "boolean") state.set(id, { path, on });
    }
  }
  return state;
}

/** How `gatherPlugins` reaches what is not a settings file. */
export interface PluginPorts {
  fs: FsPort;
  /** The SHA-256 (lowercase hex) of a file's bytes; null when absent, else the error text. */
  hashFile: (path: string) => Promise<{ digest: string } | { missing: true } | { error: string }>;
  windows: boolean;
}

/**
 * The SHA-256 of a file's bytes, for `PluginPorts.hashFile`. Doctor reads
 * the whole binary once (the hook's launcher remembers its check instead).
 */
export async function hashFileBytes(path: string): ReturnType<PluginPorts["hashFile"]> {
  try {
    return { digest: await sha256BytesHex(await Deno.readFile(path)) };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { missing: true };
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** Largest binary record read: one line. */
const MAX_RECORD_BYTES = 4096;

async function binaryAt(ports: PluginPorts, path: string): Promise<PluginBinary> {
  const hashed = await ports.hashFile(path);
  if ("missing" in hashed) return { kind: "missing" };
  if ("error" in hashed) return { kind: "unreadable", why: hashed.error };
  const record = await ports.fs.readTextBoundedAsync(`${path}.sha256`, MAX_RECORD_BYTES);
  const [recorded, asset, version] = (record ?? "").trim().split(/\s+/);
  if (!recorded) return { kind: "unrecorded" };
  return {
    kind: "present",
    digest: hashed.digest,
    recorded: recorded.toLowerCase(),
    asset: asset ?? "?",
    version: version ?? "?",
  };
}

/**
 * The installed plugins (from `<home>/.claude/plugins/installed_plugins.json`)
 * whose hooks.json registers GateGuard, with their enablement, data folder and binary.
 */
export async function gatherPlugins(
  ports: PluginPorts,
  home: string | null,
  parsed: ReadonlyArray<[string, JsonValue]>,
): Promise<PluginInstall[]> {
  if (home === null) return [];
  const pluginsDir = joinPath(home, ".claude/plugins");
  const index = await readSettingsFile(ports.fs, joinPath(pluginsDir, "installed_plugins.json"));
  if (index.kind !== "parsed" || !isRecord(index.value) || !isRecord(index.value.plugins)) {
    return [];
  }
  const enabled = enabledState(parsed);
  const installs: PluginInstall[] = [];
  for (const [id, entry] of Object.entries(index.value.plugins)) {
    for (const install of Array.isArray(entry) ? entry : [entry]) {
      if (!isRecord(install) || typeof install.installPath !== "string") continue;
      const installPath = install.installPath;
      const hooks = await readSettingsFile(ports.fs, joinPath(installPath, "hooks/hooks.json"));
      if (hooks.kind !== "parsed") continue;
      if (registrationsOf(hooks.value, id, true).ours.length === 0) continue;
      const dataDir = joinPath(pluginsDir, `data/${pluginDataName(id)}`);
      const binaryPath = joinPath(dataDir, ports.windows ? "bin/gateguard.exe" : "bin/gateguard");
      const main = ports.fs.stat(joinPath(installPath, "src/main.ts"));
      installs.push({
        id,
        installPath,
        version: typeof install.version === "string" ? install.version : null,
        enabledBy: enabled.get(id) ?? null,
        dataDir,
        binaryPath,
        binary: await binaryAt(ports, binaryPath),
        sourceCheckout: main.ok && main.isFile,
      });
    }
  }
  return installs;
}
