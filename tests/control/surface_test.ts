/**
 * The control-surface table: which paths are GateGuard's control files, for
 * every agent and level, where variables move them, how spelling, case and
 * symlinks are seen through, and what `doctor` lists.
 */

import { RECIPE } from "../../src/setup/bundle_state.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  CONTROL_SURFACE,
  controlSurfaceOf,
  controlSurfaceRows,
  presentSurfaceRows,
  type SurfaceContext,
  trustStorePath,
} from "../../src/control/surface.ts";
import type { EnvSnapshot } from "../../src/config/env.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { resolveTarget } from "../../src/file_facts/resolve.ts";
import { programPaths } from "../../src/setup/command.ts";
import { MemoryFs } from "../session_logs/builder.ts";
import type { StatResult } from "../../src/platform/fs_port.ts";

const ROOT = "/work/proj";
const HOME = "/home/u";

function ctx(env: EnvSnapshot = {}, extra: Partial<SurfaceContext> = {}): SurfaceContext {
  return {
    env: { HOME, ...env },
    projectRoot: ROOT,
    processCwd: ROOT,
    program: { binary: "/usr/local/bin/gateguard", runtime: null, checkout: null },
    ...extra,
  };
}

/** The id of the row a path belongs to, its relation, or null. */
function idOf(path: string, c: SurfaceContext = ctx()): string | null {
  const hit = controlSurfaceOf(path, c);
  if (hit === null) return null;
  if ("unresolved" in hit) return "unresolved";
  return hit.relation === "is" ? hit.row.id : `${hit.row.id} (holds)`;
}

Deno.test("[self-protection] every agent's hook file is in the table at project and user level", () => {
  const cases: [string, string][] = [
    [`${ROOT}/.claude/settings.json`, "claude-project-settings"],
    [`${ROOT}/.claude/settings.local.json`, "claude-local-settings"],
    [`${HOME}/.claude/settings.json`, "claude-user-settings"],
    [`${HOME}/.claude/settings.local.json`, "claude-user-local-settings"],
    ["/etc/claude-code/managed-settings.json", "claude-managed-settings"],
    ["C:/ProgramData/ClaudeCode/managed-settings.json", "claude-managed-settings"],
    [`${ROOT}/.gateguard.jsonc`, "project-config"],
    [`${ROOT}/.codex/hooks.json`, "codex-project-hooks"],
    [`${ROOT}/.codex/config.toml`, "codex-project-config"],
    [`${HOME}/.codex/hooks.json`, "codex-user-hooks"],
    [`${HOME}/.codex/config.toml`, "codex-user-config"],
    [`${ROOT}/.gemini/settings.json`, "gemini-project-settings"],
    [`${HOME}/.gemini/settings.json`, "gemini-user-settings"],
    [`${ROOT}/.github/hooks/gateguard.json`, "copilot-project-hooks"],
    [`${ROOT}/.github/hooks/other.json`, "copilot-project-hooks"],
    [`${HOME}/.copilot/hooks/gateguard.json`, "copilot-user-hooks"],
    [`${ROOT}/.cursor/hooks.json`, "cursor-project-hooks"],
    [`${HOME}/.cursor/hooks.json`, "cursor-user-hooks"],
  ];
  for (const [path, id] of cases) assertEquals(idOf(path), id, path);
});

Deno.test("[self-protection] on a known system only its own managed-settings folder is looked at", () => {
  const linux = ctx({}, { os: "linux" });
  assertEquals(idOf("/etc/claude-code/managed-settings.json", linux), "claude-managed-settings");
  assertEquals(idOf("/Library/Application Support/ClaudeCode/managed-settings.json", linux), null);
  const mac = ctx({}, { os: "darwin" });
  assertEquals(
    idOf("/Library/Application Support/ClaudeCode/managed-settings.json", mac),
    "claude-managed-settings",
  );
});

Deno.test("[self-protection] GateGuard's state, trust store, evidence and program are in the table", () => {
  const cases: [string, string | null][] = [
    [`${HOME}/.gateguard/trust.json`, "trust-store"],
    [`${HOME}/.gateguard/s1.json`, "state-dir"],
    [`${HOME}/.gateguard`, "state-dir"],
    [`${HOME}/.gateguard/metrics.jsonl`, "state-dir"],
    [`${HOME}/.claude/projects/-work-proj/s1.jsonl`, "claude-transcripts"],
    [`${HOME}/.claude/plugins/cache/gateguard/hooks/hooks.json`, "claude-plugins"],
    [`${HOME}/.codex/sessions/2026/12/05/rollout-1-s.jsonl`, "codex-sessions"],
    [`${HOME}/.gemini/tmp/proj/chats/session-1.jsonl`, "gemini-chats"],
    [`${HOME}/.copilot/session-state/s1/events.jsonl`, "copilot-sessions"],
    ["/usr/local/bin/gateguard", "program-binary"],
    // A from-source run's files appear only when GateGuard runs from source.
    [`${HOME}/.npmrc`, null],
  ];
  for (const [path, id] of cases) assertEquals(idOf(path), id, path);
  assertEquals(trustStorePath({ HOME }), `${HOME}/.gateguard/trust.json`);
  assertEquals(trustStorePath({ HOME, GATEGUARD_STATE_DIR: "/var/gg/" }), "/var/gg/trust.json");
});

Deno.test("[self-protection] a from-source registration puts Deno, the checkout and what Deno reads first in the table", () => {
  const program = programPaths("/opt/deno/bin/deno", "file:///src/gg/src/setup/command.ts", false);
  assertEquals(program, { binary: null, runtime: "/opt/deno/bin/deno", checkout: "/src/gg" });
  const c = ctx({}, { program });
  const cases: [string, string | null][] = [
    ["/opt/deno/bin/deno", "program-runtime"],
    ["/src/gg/deno.json", "program-checkout"],
    // The config every run names, with its permission set.
    ["/src/gg/deno.run.json", "program-checkout"],
    ["/src/gg/src/hook/file_rules.ts", "program-checkout"],
    [`${HOME}/.npmrc`, "program-npmrc"],
    [`${HOME}/.cache/deno/npm/registry.npmjs.org/x/index.js`, "program-deno-cache"],
    // The bundle the registration runs, the recipe that writes it, the cache its bundler runs from.
    ["/src/gg/.cache/bundle/main.js", "program-checkout"],
    ["/src/gg/.cache/bundle/chunk-ABC.js", "program-checkout"],
    ["/src/gg/.cache/bundle/SOURCES.sha256", "program-checkout"],
    ["/src/gg/.cache/bundle/core.js", "program-checkout"],
    // Every pass of the build recipe writes code the hook runs, and so does the parser one runs.
    ...RECIPE.map((file): [string, string] => [`/src/gg/${file}`, "program-checkout"]),
    ["/src/gg/.cache/deno/dl/esbuild-0.25.5-1/bin/esbuild", "program-checkout"],
    ["/src/gg/.cache/deno/npm/registry.npmjs.org/acorn/8.15.0/dist/acorn.mjs", "program-checkout"],
    ["/usr/local/bin/gateguard", null],
  ];
  for (const [path, id] of cases) assertEquals(idOf(path, c), id, path);
});

Deno.test("[self-protection] the variables that move an agent's home move its rows, and the home's own stay", () => {
  const c = ctx({
    CLAUDE_CONFIG_DIR: "/cfg/claude",
    CODEX_HOME: "/cfg/codex",
    COPILOT_HOME: "/cfg/copilot",
    GEMINI_CLI_HOME: "/cfg/gem",
    GATEGUARD_STATE_DIR: "/cfg/state",
  });
  const cases: [string, string | null][] = [
    ["/cfg/claude/settings.json", "claude-user-settings"],
    ["/cfg/claude/projects/p/s.jsonl", "claude-transcripts"],
    [`${HOME}/.claude/settings.json`, "claude-user-settings"],
    ["/cfg/codex/hooks.json", "codex-user-hooks"],
    ["/cfg/codex/sessions/x.jsonl", "codex-sessions"],
    ["/cfg/copilot/hooks/a.json", "copilot-user-hooks"],
    ["/cfg/gem/.gemini/settings.json", "gemini-user-settings"],
    ["/cfg/state/trust.json", "trust-store"],
    ["/cfg/state/anything", "state-dir"],
    [`${HOME}/.gateguard/s1.json`, null],
  ];
  for (const [path, id] of cases) assertEquals(idOf(path, c), id, path);
});

Deno.test("[self-protection] spelling does not hide a control file: case, dot segments, relative paths, Windows separators", () => {
  const cases: [string, string | null][] = [
    [`${ROOT}/.Claude/SETTINGS.json`, "claude-project-settings"],
    [`${ROOT}/src/../.claude/./settings.json`, "claude-project-settings"],
    [".claude/settings.local.json", "claude-local-settings"],
    ["./.codex//hooks.json", "codex-project-hooks"],
    [`${ROOT}/.GitHub/Hooks/X.JSON`, "copilot-project-hooks"],
  ];
  for (const [path, id] of cases) assertEquals(idOf(path), id, path);
  const win = ctx({ HOME: undefined, USERPROFILE: "C:\\Users\\u" }, {
    projectRoot: "C:\\proj",
    processCwd: "C:\\proj",
  });
  assertEquals(idOf("c:\\PROJ\\.claude\\settings.json", win), "claude-project-settings");
  assertEquals(idOf("C:/Users/U/.codex/hooks.json", win), "codex-user-hooks");
  // Other names Windows gives the same file: the long-path and device prefixes, a drive's
  // administrative share on this machine, trailing dots and spaces, the default data stream.
  for (
    const path of [
      "\\\\?\\C:\\Users\\u\\.claude\\settings.json",
      "\\\\.\\C:\\Users\\u\\.claude\\settings.json",
      "\\\\localhost\\C$\\Users\\u\\.claude\\settings.json",
      "\\\\127.0.0.1\\c$\\Users\\u\\.claude\\settings.json",
      "\\\\?\\UNC\\localhost\\C$\\Users\\u\\.claude\\settings.json",
      "C:\\Users\\u\\.claude.\\settings.json ",
      "C:\\Users\\u\\.claude\\settings.json::$DATA",
    ]
  ) {
    assertEquals(idOf(path, win), "claude-user-settings", path);
  }
  assertEquals(idOf("\\\\server\\share\\Users\\u\\.claude\\settings.json", win), null);
});

Deno.test("[self-protection] a folder that holds control files is reported as holding them; the project and the home are not", () => {
  const cases: [string, string | null][] = [
    [`${ROOT}/.claude`, "claude-project-settings (holds)"],
    [`${ROOT}/.github/hooks`, "copilot-project-hooks (holds)"],
    [`${ROOT}/.github`, "copilot-project-hooks (holds)"],
    [`${HOME}/.codex`, "codex-user-hooks (holds)"],
    [`${HOME}/.claude`, "claude-user-settings (holds)"],
    [ROOT, null],
    [HOME, null],
    ["/", null],
    ["/home", null],
  ];
  for (const [path, id] of cases) assertEquals(idOf(path), id, path);
});

Deno.test("[self-protection] Claude Code's skills, commands and subagents are in the table, in the project and the user's folder", () => {
  const cases: [string, string][] = [
    [`${ROOT}/.claude/skills/review/SKILL.md`, "claude-project-skills"],
    [`${ROOT}/.claude/skills/review/scripts/run.sh`, "claude-project-skills"],
    [`${ROOT}/.claude/commands/ship.md`, "claude-project-commands"],
    [`${ROOT}/.claude/agents/reviewer.md`, "claude-project-agents"],
    [`${HOME}/.claude/skills/x/SKILL.md`, "claude-user-skills"],
    [`${HOME}/.claude/commands/deep/ship.md`, "claude-user-commands"],
    [`${HOME}/.claude/agents/a.md`, "claude-user-agents"],
    // Claude Code's own config file, whose MCP servers start with every session.
    [`${HOME}/.claude.json`, "claude-user-config"],
    // The MCP and language server lists the agents keep outside their settings.
    [`${ROOT}/.mcp.json`, "project-mcp"],
    [`${ROOT}/.github/mcp.json`, "copilot-project-mcp"],
    [`${HOME}/.copilot/mcp-config.json`, "copilot-user-mcp"],
    [`${ROOT}/.github/lsp.json`, "copilot-project-lsp"],
    [`${HOME}/.copilot/lsp-config.json`, "copilot-user-lsp"],
    [`${ROOT}/.cursor/mcp.json`, "cursor-project-mcp"],
    [`${HOME}/.cursor/mcp.json`, "cursor-user-mcp"],
    // What sets the environment of the terminals an agent is started in.
    [`${HOME}/.local/share/claude/versions/2.1.332`, "claude-native-install"],
    [`${HOME}/.claude/local/claude`, "claude-local-install"],
    [`${HOME}/.tmux.conf`, "shell-tmux-conf"],
    [`${HOME}/.config/kitty/kitty.conf`, "shell-kitty-config"],
    [`${HOME}/.wezterm.lua`, "shell-wezterm-lua"],
    [`${ROOT}/.vscode/settings.json`, "vscode-workspace-settings"],
    [`${HOME}/.config/Code/User/settings.json`, "vscode-user-settings"],
  ];
  for (const [path, id] of cases) assertEquals(idOf(path), id, path);
});

Deno.test("[self-protection] the .env files agents load are rows while a loader lives here, and direnv's and mise's approvals always", () => {
  const gemini = new MemoryFs({}, ["/work", ROOT, "/home", HOME, `${HOME}/.gemini`]);
  const withLoader = ctx({}, { fs: gemini, processCwd: `${ROOT}/sub` });
  const cases: [string, string][] = [
    [`${ROOT}/.env`, "agent-env"],
    [`${ROOT}/sub/.env`, "agent-env"],
    ["/work/.env", "agent-env"],
    ["/.env", "agent-env"],
    [`${ROOT}/.gemini/.env`, "gemini-env"],
    [`${HOME}/.env`, "home-env"],
    [`${HOME}/.gemini/.env`, "gemini-user-env"],
  ];
  for (const [path, id] of cases) assertEquals(idOf(path, withLoader), id, path);
  // A .env below the folders the agent starts in, or no loader on the machine: no row.
  assertEquals(idOf(`${ROOT}/other/.env`, withLoader), null);
  const bare = ctx({}, { fs: new MemoryFs({}, ["/work", ROOT, "/home", HOME]) });
  assertEquals(idOf(`${ROOT}/.env`, bare), null);
  assertEquals(idOf(`${HOME}/.env`, bare), null);
  // direnv's data folder is a loader too. Codex CLI (0.171.0) loads only its own `.env`, under
  // CODEX_HOME when that moves its folder: a project's `.env` is no row for it.
  const direnv = new MemoryFs({}, ["/work", ROOT, "/home", HOME, `${HOME}/.local/share/direnv`]);
  assertEquals(idOf(`${ROOT}/.env`, ctx({}, { fs: direnv })), "agent-env");
  const codex = new MemoryFs({}, ["/work", ROOT, "/opt/codex"]);
  const moved = ctx({ CODEX_HOME: "/opt/codex" }, { fs: codex });
  assertEquals(idOf("/opt/codex/.env", moved), "codex-user-env");
  assertEquals(idOf(`${ROOT}/.env`, moved), null);
  assertEquals(idOf(`${HOME}/.local/share/direnv/allow/0a1b`, bare), "direnv-approvals");
  assertEquals(idOf(`${HOME}/.local/state/mise/trusted-configs/x`, bare), "mise-approvals");
  assertEquals(idOf(`${HOME}/.config/direnv/direnvrc`, bare), "shell-direnv-config");
  assertEquals(idOf(`${HOME}/.config/mise/config.toml`, bare), "shell-mise-config");
});

/** Two names of one file: `names` share an identity and a link count of two. */
class LinkedFs extends MemoryFs {
  constructor(files: Record<string, string>, dirs: string[], readonly names: readonly string[]) {
    super(files, dirs);
  }
  override stat(path: string): StatResult {
    const info = super.stat(path);
    if (!info.ok || !this.names.includes(path)) return info.ok ? { ...info, fileId: path } : info;
    return { ...info, nlink: 2, fileId: "shared" };
  }
}

Deno.test("[self-protection] a hard link is judged as the control file it is another name of", () => {
  const settings = `${HOME}/.claude/settings.json`;
  const other = `${ROOT}/dot/settings.json`;
  const dirs = ["/work", ROOT, `${ROOT}/dot`, "/home", HOME, `${HOME}/.claude`];
  const files = { [settings]: "{}", [other]: "{}", [`${ROOT}/dot/plain.json`]: "{}" };
  const linked = ctx({}, { fs: new LinkedFs(files, dirs, [settings, other]) });
  assertEquals(idOf(other, linked), "claude-user-settings");
  assertEquals(idOf(`${ROOT}/dot/plain.json`, linked), null);
  // Another file with two names, neither of them a control file.
  const apart = ctx({}, { fs: new LinkedFs(files, dirs, [other, `${ROOT}/dot/plain.json`]) });
  assertEquals(idOf(other, apart), null);
});

Deno.test("[self-protection] from source, a program named deno in a PATH folder searched before the runtime's own is a control file", () => {
  // The plugin's launcher starts GateGuard from source through `deno` found on PATH.
  const env = { PATH: `${HOME}/.local/bin:/usr/bin:/usr/local/bin` };
  const source = ctx(env, {
    program: { binary: null, runtime: "/usr/bin/deno", checkout: "/src/gg" },
  });
  assertEquals(idOf(`${HOME}/.local/bin/deno`, source), "runtime-on-path");
  assertEquals(idOf(`${HOME}/.local/bin/deno.exe`, source), "runtime-on-path-windows");
  assertEquals(idOf("/usr/bin/deno", source), "program-runtime");
  assertEquals(idOf("/usr/local/bin/deno", source), null);
  assertEquals(idOf(`${HOME}/.local/bin/denote`, source), null);
  // A runtime outside PATH (a link's target): every folder.
  const linked = ctx(env, {
    program: { binary: null, runtime: "/usr/lib/node_modules/deno/deno", checkout: "/src/gg" },
  });
  assertEquals(idOf("/usr/local/bin/deno", linked), "runtime-on-path");
  // A compiled binary runs no Deno: a deno on PATH is nobody's concern.
  const binary = ctx(env, {
    program: { binary: "/usr/bin/gateguard", runtime: null, checkout: null },
  });
  assertEquals(idOf(`${HOME}/.local/bin/deno`, binary), null);
});

Deno.test("[self-protection] a program named gateguard in a PATH folder searched before the binary's own is a control file", () => {
  const env = { PATH: `${HOME}/.local/bin:/usr/local/bin:/usr/bin:bin:` };
  const onPath = ctx(env, {
    program: { binary: "/usr/local/bin/gateguard", runtime: null, checkout: null },
  });
  assertEquals(idOf(`${HOME}/.local/bin/gateguard`, onPath), "program-on-path");
  assertEquals(idOf(`${HOME}/.local/bin/gateguard.cmd`, onPath), "program-on-path-windows");
  assertEquals(idOf("/usr/local/bin/gateguard", onPath), "program-binary");
  assertEquals(idOf("/usr/bin/gateguard", onPath), null);
  assertEquals(idOf(`${HOME}/.local/bin/gategrd`, onPath), null);
  // Not on PATH (or from source): every folder of PATH, relative ones from the process's folder.
  const elsewhere = ctx(env, {
    program: { binary: "/opt/gg/gateguard", runtime: null, checkout: null },
  });
  assertEquals(idOf("/usr/bin/gateguard", elsewhere), "program-on-path");
  assertEquals(idOf(`${ROOT}/bin/gateguard`, elsewhere), "program-on-path");
  assertEquals(idOf(`${ROOT}/gateguard`, elsewhere), "program-on-path");
  // Windows looks in the current folder first.
  const windows = ctx({ PATH: "C:\\Tools;C:\\Windows" }, {
    os: "windows",
    processCwd: "C:/work/proj",
    projectRoot: "C:/work/proj",
  });
  assertEquals(idOf("C:/work/proj/gateguard.cmd", windows), "program-on-path-windows");
  assertEquals(idOf("C:/Tools/gateguard.exe", windows), "program-on-path-windows");
  // No PATH: nothing.
  assertEquals(idOf(`${ROOT}/gateguard`), null);
  // The agents' own programs, in every folder of PATH.
  assertEquals(idOf(`${HOME}/.local/bin/claude`, onPath), "claude-on-path");
  assertEquals(idOf("/usr/bin/gemini", onPath), "gemini-on-path");
  assertEquals(idOf(`${HOME}/.local/bin/codex.cmd`, onPath), "codex-on-path-windows");
  assertEquals(idOf(`${HOME}/.local/bin/cursor-agent`, onPath), "cursor-on-path");
  assertEquals(idOf(`${HOME}/.local/bin/claudette`, onPath), null);
  assertEquals(idOf(`${HOME}/src/claude`, onPath), null);
});

Deno.test("[self-protection] ordinary files and look-alikes elsewhere are no part of the control surface", () => {
  const paths = [
    `${ROOT}/src/settings.json`,
    `${ROOT}/.claudex/agents/reviewer.md`,
    `${ROOT}/.claude/settings.json.bak`,
    `${ROOT}/sub/.claude/settings.json`,
    `${ROOT}/.github/workflows/ci.yml`,
    `${ROOT}/.github/hooks/readme.md`,
    `${ROOT}/docs/.codex-hooks.json`,
    `${HOME}/notes/settings.json`,
  ];
  for (const path of paths) assertEquals(idOf(path), null, path);
});

Deno.test("[self-protection] a symlink cannot launder a control file, dangling or not, and a loop is reported unresolved", () => {
  const dir = Deno.makeTempDirSync({ prefix: "gg-surface-" });
  try {
    const root = `${dir}/proj`;
    const home = `${dir}/home`;
    Deno.mkdirSync(`${root}/.claude`, { recursive: true });
    Deno.mkdirSync(`${home}/.codex`, { recursive: true });
    Deno.writeTextFileSync(`${root}/.claude/settings.json`, "{}");
    Deno.writeTextFileSync(`${home}/.codex/hooks.json`, "{}");
    Deno.symlinkSync(`${root}/.claude`, `${root}/conf`);
    Deno.symlinkSync(`${home}/.codex/hooks.json`, `${root}/innocent.json`);
    Deno.symlinkSync(`${root}/nowhere/x`, `${root}/dangling.json`);
    Deno.symlinkSync(`${home}/.cursor/hooks.json`, `${root}/planted.json`);
    Deno.symlinkSync("loop-b", `${root}/loop-a`);
    Deno.symlinkSync("loop-a", `${root}/loop-b`);
    Deno.symlinkSync(home, `${dir}/homelink`);
    const c: SurfaceContext = {
      env: { HOME: `${dir}/homelink` },
      projectRoot: root,
      processCwd: root,
      program: null,
      fs: denoFs,
    };
    assertEquals(idOf(`${root}/conf/settings.json`, c), "claude-project-settings");
    assertEquals(idOf(`${root}/innocent.json`, c), "codex-user-hooks");
    assertEquals(idOf(`${home}/.codex/hooks.json`, c), "codex-user-hooks");
    // A dangling link is judged where writing through it would create the file.
    assertEquals(idOf(`${root}/dangling.json`, c), null);
    assertEquals(idOf(`${root}/planted.json`, c), "cursor-user-hooks");
    assertEquals(idOf(`${root}/loop-a`, c), "unresolved");
    assertEquals(
      idOf(`${root}/loop-a`, { ...c, fs: { ...denoFs, readLink: undefined } }),
      "unresolved",
    );
    assertEquals(idOf(`${root}/plain.txt`, c), null);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("[self-protection] a `..` after a link is followed where the link leads: a file tool's path cannot climb out of it unseen", () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "gg-walk-" }));
  try {
    const root = `${dir}/proj`;
    const home = `${dir}/home`;
    Deno.mkdirSync(root, { recursive: true });
    Deno.mkdirSync(`${home}/.claude/todos`, { recursive: true });
    Deno.symlinkSync(`${home}/.claude/todos`, `${root}/t`);
    const c: SurfaceContext = {
      env: { HOME: home },
      projectRoot: root,
      processCwd: root,
      program: null,
      fs: denoFs,
    };
    const roots = {
      projectRoot: root,
      toolCwd: root,
      processCwd: root,
      projectDirEnv: null,
      hostWindows: false,
    };
    const climbing = resolveTarget("t/../settings.json", roots, denoFs);
    // The key folds the spelling; the filesystem would take the link first.
    assertEquals(climbing.absolute, `${root}/settings.json`);
    assertEquals(climbing.unfolded, `${root}/t/../settings.json`);
    const hit = controlSurfaceOf(climbing.absolute, c, climbing.unfolded);
    assertEquals(hit !== null && "row" in hit ? hit.row.id : null, "claude-user-settings");
    assertEquals(idOf(`${root}/settings.json`, c), null);
    const plain = resolveTarget("src/../a.ts", roots, denoFs);
    assertEquals(controlSurfaceOf(plain.absolute, c, plain.unfolded), null);
    assertEquals(resolveTarget("t/list.json", roots, denoFs).unfolded, undefined);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("[self-protection] the rows list each row's concrete paths, and each row has an id of its own and a phrase", () => {
  const rows = controlSurfaceRows(ctx({ CODEX_HOME: "/cfg/codex" }));
  const paths = (id: string) => rows.filter((r) => r.row.id === id).map((r) => r.path);
  assertEquals(paths("claude-project-settings"), [`${ROOT}/.claude/settings.json`]);
  assertEquals(paths("codex-user-hooks"), ["/cfg/codex/hooks.json", `${HOME}/.codex/hooks.json`]);
  assertEquals(paths("copilot-project-hooks"), [`${ROOT}/.github/hooks/*.json`]);
  assertEquals(paths("trust-store"), [`${HOME}/.gateguard/trust.json`]);
  assertEquals(paths("program-binary"), ["/usr/local/bin/gateguard"]);
  assertEquals(paths("program-checkout"), []);
  assertEquals(paths("shell-bashrc"), [`${HOME}/.bashrc`]);
  assertEquals(paths("shell-powershell-profiles"), [`${HOME}/Documents/PowerShell/**`]);
  const ids = CONTROL_SURFACE.map((r) => r.id);
  assertEquals(new Set(ids).size, ids.length);
  for (const row of CONTROL_SURFACE) {
    assert(row.controls.length > 20, row.id);
    // Claude Code answers its own prompt for .claude paths for the session: never askable.
    assertEquals(row.askable, row.agent !== "claude", row.id);
  }
});

Deno.test("[self-protection] doctor lists the rows present on disk, a wildcard row by the folder its files sit in", () => {
  const fs = new MemoryFs({
    [`${ROOT}/.claude/settings.json`]: "{}",
    [`${HOME}/.codex/hooks.json`]:
      '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"bash scripts/done.sh"}]}]}}',
    [`${ROOT}/scripts/done.sh`]: "echo done\n",
  }, [`${ROOT}/.github/hooks`, `${HOME}/.gateguard`, `${HOME}/.codex`]);
  const present = presentSurfaceRows(ctx({}, { fs }));
  assertEquals(present.map((p) => [p.row.id, p.path]), [
    ["claude-project-settings", `${ROOT}/.claude/settings.json`],
    ["state-dir", `${HOME}/.gateguard/**`],
    ["codex-user-hooks", `${HOME}/.codex/hooks.json`],
    ["copilot-project-hooks", `${ROOT}/.github/hooks/*.json`],
    // A script a registered hook runs, found by reading that hook file.
    ["agent-hook-script", `${ROOT}/scripts/done.sh`],
  ]);
  assertEquals(presentSurfaceRows(ctx()), []);
});
