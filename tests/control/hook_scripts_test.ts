/**
 * The scripts the agents' registered hooks run: read from the registration
 * files, made absolute, and matched as part of the control surface.
 */

import { assertEquals } from "../helpers/assert.ts";
import { claudeConfigScripts, hookScripts, scriptWords } from "../../src/control/hook_scripts.ts";
import { controlSurfaceOf, type SurfaceContext } from "../../src/control/surface.ts";
import { MemoryFs } from "../session_logs/builder.ts";

const ROOT = "/work/proj";
const HOME = "/home/u";

Deno.test("[self-protection] a hook command's path-like words are its scripts, from the project folder", () => {
  assertEquals(scriptWords('"$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh', ROOT, HOME), [
    `${ROOT}/.claude/hooks/fmt.sh`,
  ]);
  assertEquals(scriptWords("node ~/tools/hook.js --fast", ROOT, HOME), [`${HOME}/tools/hook.js`]);
  assertEquals(scriptWords("bash scripts/check.sh && ${HOME}/bin/x", ROOT, HOME), [
    `${ROOT}/scripts/check.sh`,
    `${HOME}/bin/x`,
  ]);
  assertEquals(scriptWords("python3 -m tool --out=build/x https://e.com/a", ROOT, HOME), []);
  assertEquals(scriptWords("$UNKNOWN/x.sh", ROOT, HOME), []);
  // PowerShell's and cmd.exe's spellings of the same folders.
  assertEquals(
    scriptWords('pwsh -File "$env:CLAUDE_PROJECT_DIR/.claude/hooks/fmt.ps1"', ROOT, HOME),
    [`${ROOT}/.claude/hooks/fmt.ps1`],
  );
  assertEquals(
    scriptWords("%CLAUDE_PROJECT_DIR%/hooks/x.cmd %USERPROFILE%/bin/y.cmd", ROOT, HOME),
    [
      `${ROOT}/hooks/x.cmd`,
      `${HOME}/bin/y.cmd`,
    ],
  );
  assertEquals(scriptWords("%OTHER%/x.cmd", ROOT, HOME), []);
});

/** The project's context, on `fs`. */
function projectContext(fs: MemoryFs): SurfaceContext {
  return { env: { HOME }, projectRoot: ROOT, processCwd: ROOT, program: null, fs };
}

/** The id of the control-surface row a path is a file of, in `ctx`; null for none. */
function rowIdIn(ctx: SurfaceContext): (path: string) => string | null {
  return (path) => {
    const hit = controlSurfaceOf(path, ctx);
    return hit !== null && "row" in hit ? hit.row.id : null;
  };
}

const CLAUDE_SETTINGS = JSON.stringify({
  hooks: {
    PostToolUse: [{
      matcher: "Edit",
      hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh' }],
    }],
  },
});

const CODEX_HOOKS = JSON.stringify({
  hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "node ~/.codex/lint.js" }] }] },
});

function world(): MemoryFs {
  return new MemoryFs({
    [`${ROOT}/.claude/settings.json`]: CLAUDE_SETTINGS,
    [`${HOME}/.codex/hooks.json`]: CODEX_HOOKS,
    [`${ROOT}/.claude/hooks/fmt.sh`]: "prettier --write .\n",
    [`${HOME}/.codex/lint.js`]: "process.exit(0);\n",
  }, [ROOT, `${ROOT}/.claude`, `${ROOT}/.claude/hooks`, HOME, `${HOME}/.codex`]);
}

Deno.test("[self-protection] the scripts every registration file's hooks run are found, each file read once", () => {
  const fs = world();
  assertEquals(
    hookScripts(
      [`${ROOT}/.claude/settings.json`, `${HOME}/.codex/hooks.json`, `${ROOT}/missing.json`],
      ROOT,
      HOME,
      fs,
    ),
    [`${ROOT}/.claude/hooks/fmt.sh`, `${HOME}/.codex/lint.js`],
  );
});

Deno.test("[self-protection] a script a registered hook runs is part of the control surface; its neighbours are not", () => {
  const ctx = projectContext(world());
  const id = rowIdIn(ctx);
  assertEquals(id(`${ROOT}/.claude/hooks/fmt.sh`), "agent-hook-script");
  assertEquals(id(`${HOME}/.codex/lint.js`), "agent-hook-script");
  assertEquals(id(`${ROOT}/.claude/hooks/other.sh`), null);
  // Only an existing file is looked for: the registration files are not read for a new one.
  const fs = ctx.fs as MemoryFs;
  fs.files.delete(`${HOME}/.codex/lint.js`);
  const fresh = { ...ctx, fs };
  const freshHit = controlSurfaceOf(`${HOME}/.codex/lint.js`, fresh);
  assertEquals(freshHit, null);
  assertEquals(id(`${ROOT}/src/app.ts`), null);
});

Deno.test("[self-protection] the scripts a server list's commands and args name, and Codex CLI's notifier, are found", () => {
  const mcp = JSON.stringify({
    mcpServers: {
      db: { command: "node", args: ["./tools/mcp.js", "--port", "3000"] },
      pkg: { command: "npx", args: ["-y", "@scope/server"] },
    },
  });
  const toml = [
    'notify = ["python3", "/home/u/bin/notify.py"]',
    "[mcp_servers.local]",
    "command = 'bin/serve.sh'",
    'args = ["scripts/boot.ts"]',
  ].join("\n");
  const fs = new MemoryFs({ [`${ROOT}/.mcp.json`]: mcp, [`${HOME}/.codex/config.toml`]: toml }, [
    ROOT,
    `${HOME}/.codex`,
  ]);
  assertEquals(hookScripts([`${ROOT}/.mcp.json`, `${HOME}/.codex/config.toml`], ROOT, HOME, fs), [
    `${ROOT}/tools/mcp.js`,
    `${ROOT}/@scope/server`,
    `${HOME}/bin/notify.py`,
    `${ROOT}/bin/serve.sh`,
    `${ROOT}/scripts/boot.ts`,
  ]);
});

/** The in-memory filesystem, with folders listed. */
class ListingFs extends MemoryFs {
  listNames(dir: string, max: number): string[] | null {
    const names = [...this.files.keys(), ...this.dirs].filter((p) => p.startsWith(`${dir}/`))
      .map((p) => p.slice(dir.length + 1)).filter((n) => !n.includes("/"));
    return this.dirs.has(dir) ? [...new Set(names)].slice(0, max) : null;
  }
}

Deno.test("[self-protection] a server's script, and one a hook file in a folder of them names, are part of the control surface", () => {
  const fs = new ListingFs({
    [`${ROOT}/.mcp.json`]: JSON.stringify({
      mcpServers: { db: { command: "node", args: ["tools/mcp.js"] } },
    }),
    [`${ROOT}/tools/mcp.js`]: "server\n",
    [`${ROOT}/.github/hooks/lint.json`]: JSON.stringify({
      version: 1,
      hooks: { preToolUse: [{ type: "command", bash: "./scripts/lint.sh" }] },
    }),
    [`${ROOT}/scripts/lint.sh`]: "exit 0\n",
    [`${ROOT}/scripts/other.sh`]: "exit 0\n",
  }, [
    "/work",
    ROOT,
    `${ROOT}/tools`,
    `${ROOT}/scripts`,
    `${ROOT}/.github`,
    `${ROOT}/.github/hooks`,
  ]);
  const id = rowIdIn(projectContext(fs));
  assertEquals(id(`${ROOT}/tools/mcp.js`), "agent-hook-script");
  assertEquals(id(`${ROOT}/scripts/lint.sh`), "agent-hook-script");
  assertEquals(id(`${ROOT}/scripts/other.sh`), null);
});

Deno.test("[self-protection] registration files are read only in folders that exist, each folder looked at once", () => {
  class Counting extends MemoryFs {
    looks = 0;
    reads = 0;
    override lstat(path: string) {
      this.looks++;
      return super.lstat(path);
    }
    override readTextBounded(path: string, max: number) {
      this.reads++;
      return super.readTextBounded(path, max);
    }
  }
  const fs = new Counting({ [`${ROOT}/.claude/settings.json`]: CLAUDE_SETTINGS }, [
    ROOT,
    `${ROOT}/.claude`,
  ]);
  const files = [
    `${HOME}/.copilot/mcp-config.json`,
    `${HOME}/.copilot/lsp-config.json`,
    `${HOME}/.copilot/settings.json`,
    `${ROOT}/.claude/settings.json`,
    `${ROOT}/.claude/settings.local.json`,
  ];
  assertEquals(hookScripts(files, ROOT, HOME, fs), [`${ROOT}/.claude/hooks/fmt.sh`]);
  assertEquals([fs.looks, fs.reads], [2, 2]);
});

Deno.test("[self-protection] Claude Code's own config file: its user servers' and this project's local servers' scripts are read, other projects' are not", () => {
  const config = JSON.stringify({
    numStartups: 12,
    mcpServers: { tools: { type: "stdio", command: "node", args: ["~/mcp/tools.js"] } },
    projects: {
      [ROOT]: { mcpServers: { db: { command: "python3", args: ["./mcp/db.py", "--ro"] } } },
      "/work/other": { mcpServers: { x: { command: "node", args: ["./server.js"] } } },
    },
  });
  assertEquals(claudeConfigScripts(config, ROOT, HOME), [
    `${HOME}/mcp/tools.js`,
    `${ROOT}/mcp/db.py`,
  ]);
  // The project folder as Windows writes it is the same folder.
  assertEquals(
    claudeConfigScripts(
      JSON.stringify({ projects: { "C:\\w\\p": { mcpServers: { a: { command: "x/s.cmd" } } } } }),
      "C:/w/p",
      null,
    ),
    ["C:/w/p/x/s.cmd"],
  );
  assertEquals(claudeConfigScripts("{ not json", ROOT, HOME), []);
  assertEquals(claudeConfigScripts("[1, 2]", ROOT, HOME), []);

  const fs = new MemoryFs({
    [`${HOME}/.claude.json`]: config,
    [`${ROOT}/mcp/db.py`]: "serve()\n",
    [`${ROOT}/server.js`]: "serve()\n",
  }, [ROOT, `${ROOT}/mcp`, HOME]);
  const id = rowIdIn(projectContext(fs));
  assertEquals(id(`${ROOT}/mcp/db.py`), "agent-hook-script");
  assertEquals(id(`${ROOT}/server.js`), null);
});

Deno.test("[self-protection] a Gemini CLI extension linked from a folder: its config, its hooks and what they run are control files", () => {
  const source = `${ROOT}/my-ext`;
  const fs = new ListingFs({
    [`${HOME}/.gemini/extensions/my-ext/.gemini-extension-install.json`]: JSON.stringify({
      source,
      type: "link",
    }),
    [`${HOME}/.gemini/extensions/other/.gemini-extension-install.json`]: JSON.stringify({
      source: "https://example.com/x.git",
      type: "git",
    }),
    [`${HOME}/.gemini/extensions/broken/.gemini-extension-install.json`]: "{ not json",
    [`${source}/gemini-extension.json`]: JSON.stringify({
      name: "my-ext",
      mcpServers: { s: { command: "node", args: [`${source}/dist/server.js`] } },
    }),
    [`${source}/hooks/hooks.json`]: JSON.stringify({
      hooks: {
        BeforeTool: [{
          hooks: [{ type: "command", command: "node ${extensionPath}${/}dist${/}hook.js" }],
        }],
      },
    }),
    [`${source}/dist/hook.js`]: "run()\n",
    [`${source}/hooks/check.sh`]: "exit 0\n",
    [`${source}/dist/server.js`]: "serve()\n",
    [`${source}/src/index.ts`]: "export {};\n",
  }, [
    ROOT,
    source,
    `${source}/hooks`,
    `${source}/dist`,
    `${source}/src`,
    HOME,
    `${HOME}/.gemini`,
    `${HOME}/.gemini/extensions`,
    `${HOME}/.gemini/extensions/my-ext`,
    `${HOME}/.gemini/extensions/other`,
    `${HOME}/.gemini/extensions/broken`,
  ]);
  const id = rowIdIn(projectContext(fs));
  assertEquals(id(`${source}/gemini-extension.json`), "gemini-linked-extension");
  assertEquals(id(`${source}/hooks/hooks.json`), "gemini-linked-extension");
  assertEquals(id(`${source}/hooks/new.sh`), "gemini-linked-extension");
  assertEquals(id(`${source}/dist/server.js`), "agent-hook-script");
  // A hook's command names its script through the variables Gemini CLI fills in.
  assertEquals(id(`${source}/dist/hook.js`), "agent-hook-script");
  assertEquals(id(`${source}/src/index.ts`), null);
  // Without Gemini CLI's extensions folder, the folder is the project's own.
  const bare = new ListingFs({ [`${source}/hooks/hooks.json`]: "{}" }, [
    ROOT,
    source,
    `${source}/hooks`,
  ]);
  assertEquals(rowIdIn(projectContext(bare))(`${source}/hooks/hooks.json`), null);
});
