/**
 * Doctor's view of the Claude Code plugin, in process: the findings for an
 * installed GateGuard plugin (enabled or not, its version, its binary
 * present, verified, tampered, unrecorded or missing), and what
 * `gatherPlugins` reads from a home folder laid out as Claude Code lays it out.
 */

import { assertEquals } from "../helpers/assert.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { sha256Hex } from "../../src/platform/sha256.ts";
import { pluginHooksJson } from "../../src/setup/claude_settings.ts";
import {
  gatherPlugins,
  pluginDataName,
  pluginFindings,
  type PluginInstall,
  type PluginPorts,
} from "../../src/setup/plugin_doctor.ts";

const D = "a".repeat(64);
const BASE: PluginInstall = {
  id: "gateguard@gateguard",
  installPath: "/h/.claude/plugins/cache/gateguard/gateguard/0.1.0",
  version: "0.1.0",
  enabledBy: { path: "/h/.claude/settings.json", on: true },
  dataDir: "/h/.claude/plugins/data/gateguard-gateguard",
  binaryPath: "/h/.claude/plugins/data/gateguard-gateguard/bin/gateguard",
  binary: {
    kind: "present",
    digest: D,
    recorded: D,
    asset: "gateguard-linux-x64",
    version: "v0.1.0",
  },
  sourceCheckout: true,
};
const POSIX = { denoOnPath: false, windows: false };
const INSTALLED =
  "plugin gateguard@gateguard 0.1.0 is installed at /h/.claude/plugins/cache/gateguard/gateguard/0.1.0, " +
  "enabled by /h/.claude/settings.json; its data folder is /h/.claude/plugins/data/gateguard-gateguard";
const FIX =
  "fix: sh '/h/.claude/plugins/cache/gateguard/gateguard/0.1.0/hooks/install_binary.sh' " +
  "'/h/.claude/plugins/data/gateguard-gateguard'";
const BIN = "/h/.claude/plugins/data/gateguard-gateguard/bin/gateguard";

Deno.test("[doctor] [plugin] an enabled plugin with its verified binary: where it is, which version, verified", () => {
  assertEquals(pluginFindings([BASE], POSIX), [
    { level: "info", text: INSTALLED },
    {
      level: "ok",
      text: `plugin binary ${BIN} (gateguard-linux-x64 v0.1.0) matches its recorded SHA-256 ${D}`,
    },
  ]);
});

Deno.test("[doctor] [plugin] a binary that differs from its record, or has none, fails with the command that reinstalls it", () => {
  const other = "b".repeat(64);
  assertEquals(
    pluginFindings([{
      ...BASE,
      binary: { ...BASE.binary, digest: other } as PluginInstall["binary"],
    }], POSIX)[1],
    {
      level: "FAIL",
      text:
        `plugin binary ${BIN} does not match its recorded SHA-256 (recorded ${D}, found ${other}), ` +
        `so the plugin refuses to run it; ${FIX}`,
    },
  );
  assertEquals(pluginFindings([{ ...BASE, binary: { kind: "unrecorded" } }], POSIX)[1], {
    level: "FAIL",
    text:
      `plugin binary ${BIN} has no SHA-256 record beside it, so the plugin refuses to run it; ${FIX}`,
  });
  assertEquals(
    pluginFindings(
      [{ ...BASE, binary: { kind: "unreadable", why: "permission denied" } }],
      POSIX,
    )[1]
      .level,
    "FAIL",
  );
});

Deno.test("[doctor] [plugin] no binary: fine with Deno and the sources, a failure without", () => {
  const missing = { ...BASE, binary: { kind: "missing" } as const };
  assertEquals(pluginFindings([missing], { denoOnPath: true, windows: false })[1], {
    level: "info",
    text: `no plugin binary at ${BIN} yet: the plugin runs GateGuard from source with Deno ` +
      "until a Claude Code session start installs it",
  });
  assertEquals(pluginFindings([missing], POSIX)[1], {
    level: "FAIL",
    text: `no plugin binary at ${BIN}, and no Deno on PATH to run GateGuard from source instead, ` +
      `so the plugin blocks every gated call; ${FIX}`,
  });
  assertEquals(
    pluginFindings([{ ...missing, sourceCheckout: false }], {
      denoOnPath: true,
      windows: false,
    })[1],
    {
      level: "FAIL",
      text: `no plugin binary at ${BIN}, and the plugin at ${BASE.installPath} has no GateGuard ` +
        `sources to run GateGuard from source instead, so the plugin blocks every gated call; ${FIX}`,
    },
  );
  const windows = pluginFindings([missing], { denoOnPath: false, windows: true })[1].text;
  assertEquals(
    windows.slice(windows.indexOf("fix: ")),
    `fix: powershell -NoProfile -ExecutionPolicy Bypass -File '${BASE.installPath}\\hooks\\install_binary.ps1' '${BASE.dataDir}'`,
  );
});

Deno.test("[doctor] [plugin] an older binary is named, with the session start that updates it; a disabled plugin adds nothing", () => {
  const old = { ...BASE, binary: { ...BASE.binary, version: "v0.0.9" } as PluginInstall["binary"] };
  assertEquals(pluginFindings([old], POSIX)[2], {
    level: "info",
    text: "the plugin binary is v0.0.9 while the plugin is 0.1.0; " +
      "the next Claude Code session start installs v0.1.0",
  });
  // Disabled: the registration report already says so, and its binary does not matter.
  assertEquals(
    pluginFindings(
      [{ ...BASE, enabledBy: { path: "/p/.claude/settings.local.json", on: false } }],
      POSIX,
    ),
    [],
  );
  assertEquals(
    pluginFindings([{ ...BASE, enabledBy: null }], POSIX)[0].text,
    INSTALLED.replace("enabled by /h/.claude/settings.json", "enabled (no settings file names it)"),
  );
});

Deno.test("[doctor] [plugin] the data folder is named as Claude Code names it", () => {
  assertEquals(pluginDataName("gateguard@gateguard"), "gateguard-gateguard");
  assertEquals(pluginDataName("gate.guard@my market/x"), "gate-guard-my-market-x");
});

async function hashFile(path: string): ReturnType<PluginPorts["hashFile"]> {
  try {
    return { digest: await sha256Hex(await Deno.readTextFile(path)) };
  } catch (e) {
    return e instanceof Deno.errors.NotFound ? { missing: true } : { error: String(e) };
  }
}

Deno.test("[doctor] [plugin] gatherPlugins finds GateGuard plugins in installed_plugins.json, with their settings, data folder and binary", async () => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "gg-plugin-doctor-" }));
  try {
    const ours = `${home}/.claude/plugins/cache/gateguard/gateguard/0.1.0`;
    const theirs = `${home}/.claude/plugins/cache/other/tool/1.0.0`;
    await Deno.mkdir(`${ours}/hooks`, { recursive: true });
    await Deno.mkdir(`${ours}/src`, { recursive: true });
    await Deno.mkdir(`${theirs}/hooks`, { recursive: true });
    await Deno.writeTextFile(`${ours}/hooks/hooks.json`, pluginHooksJson());
    await Deno.writeTextFile(`${ours}/src/main.ts`, "");
    await Deno.writeTextFile(
      `${theirs}/hooks/hooks.json`,
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "lint" }] }] },
      }),
    );
    await Deno.writeTextFile(
      `${home}/.claude/plugins/installed_plugins.json`,
      JSON.stringify({
        version: 2,
        plugins: {
          "gateguard@gateguard": [{ scope: "user", installPath: ours, version: "0.1.0" }],
          "tool@other": [{ scope: "user", installPath: theirs, version: "1.0.0" }],
        },
      }),
    );
    const bin = `${home}/.claude/plugins/data/gateguard-gateguard/bin/gateguard`;
    const ports: PluginPorts = { fs: denoFs, hashFile, windows: false };
    const parsed: Array<[string, import("../../src/config/jsonc.ts").JsonValue]> = [
      ["/u/settings.json", { enabledPlugins: { "gateguard@gateguard": false } }],
      ["/p/settings.json", { enabledPlugins: { "gateguard@gateguard": true } }],
    ];
    const [missing, ...rest] = await gatherPlugins(ports, home, parsed);
    assertEquals(rest, []);
    assertEquals(missing, {
      id: "gateguard@gateguard",
      installPath: ours,
      version: "0.1.0",
      enabledBy: { path: "/p/settings.json", on: true },
      dataDir: `${home}/.claude/plugins/data/gateguard-gateguard`,
      binaryPath: bin,
      binary: { kind: "missing" },
      sourceCheckout: true,
    });
    await Deno.mkdir(`${home}/.claude/plugins/data/gateguard-gateguard/bin`, { recursive: true });
    await Deno.writeTextFile(bin, "binary bytes");
    assertEquals((await gatherPlugins(ports, home, parsed))[0].binary, { kind: "unrecorded" });
    await Deno.writeTextFile(`${bin}.sha256`, `${D}  gateguard-linux-x64  v0.1.0\n`);
    assertEquals((await gatherPlugins(ports, home, parsed))[0].binary, {
      kind: "present",
      digest: await sha256Hex("binary bytes"),
      recorded: D,
      asset: "gateguard-linux-x64",
      version: "v0.1.0",
    });
    assertEquals(await gatherPlugins(ports, null, parsed), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
