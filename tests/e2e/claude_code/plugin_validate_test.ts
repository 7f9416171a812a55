/**
 * The repository is a Claude Code plugin and its own marketplace: the pinned
 * client's `claude plugin validate --strict` accepts both manifests, with no
 * error and no warning, and sees GateGuard's hooks in them.
 *
 * The validator exits 0 on some failures, so the test reads its JSON report
 * rather than trusting the exit status. Only the cached client is used (no
 * install, so no network); without it the test is skipped with the reason.
 *
 * @module
 */

import { assertEquals } from "../../helpers/assert.ts";
import { REPO_ROOT } from "../../helpers/cli.ts";
import { MCP_CHANGE_MATCHER } from "../../../src/tools/gated.ts";
import { claudeCodeCacheDir, findClaudeBinary } from "../../../scripts/install_claude_code.ts";

const BINARY = await findClaudeBinary(claudeCodeCacheDir());
if (BINARY === null) {
  console.log(
    `[plugin-manifest] SKIPPED: the pinned Claude Code is not in ${claudeCodeCacheDir()} (run scripts/install_claude_code.ts).`,
  );
}

interface Report {
  success: boolean;
  target: string;
  manifest: { type: string; errors: unknown[]; warnings: unknown[] };
  provides: { hooks: { event: string; matcher?: string; command: string }[] };
}

/** Runs the validator on `target` in a fresh home and parses its JSON report. */
async function validate(target: string): Promise<{ code: number; report: Report; raw: string }> {
  const home = await Deno.makeTempDir({ prefix: "gg-plugin-validate-" });
  try {
    const out = await new Deno.Command(BINARY!, {
      args: ["plugin", "validate", "--strict", "--json", target],
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: home,
        CLAUDE_CODE_TMPDIR: home,
        DISABLE_TELEMETRY: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const raw = new TextDecoder().decode(out.stdout);
    return { code: out.code, report: JSON.parse(raw), raw };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** The hooks the report lists, as `event matcher` pairs. */
function hookKeys(report: Report): string[] {
  return report.provides.hooks.map((h) => `${h.event} ${h.matcher ?? ""}`.trim());
}

const EXPECTED_HOOKS = [
  "SessionStart startup|resume|clear|compact",
  "PreToolUse Edit|Write|MultiEdit|NotebookEdit",
  "PreToolUse Bash|PowerShell",
  `PreToolUse ${MCP_CHANGE_MATCHER}`,
];

for (
  const [what, target, type] of [
    ["the repository (its marketplace)", REPO_ROOT, "marketplace"],
    ["the plugin manifest", `${REPO_ROOT}/.claude-plugin/plugin.json`, "plugin"],
  ] as const
) {
  Deno.test({
    name:
      `[plugin-manifest] claude plugin validate --strict passes on ${what}, with GateGuard's hooks`,
    ignore: BINARY === null,
    fn: async () => {
      const { code, report, raw } = await validate(target);
      assertEquals(report.success, true, raw);
      assertEquals(report.manifest.type, type, raw);
      assertEquals(report.manifest.errors, [], raw);
      assertEquals(report.manifest.warnings, [], raw);
      assertEquals(code, 0, raw);
      assertEquals(hookKeys(report), EXPECTED_HOOKS, raw);
    },
  });
}
