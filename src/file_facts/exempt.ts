/**
 * Operator exemptions: `GATEGUARD_EXEMPT_GLOBS` and Claude Code's own
 * settings files. An exempt target skips every later rule, sensitive and
 * hard-linked ones included, because the operator asked for it.
 *
 * Relative globs describe the project, so they match the whole
 * project-relative path and never a target outside the root; absolute
 * globs match the whole absolute path and may reach outside on purpose.
 * Patterns and paths are compared lowercased with `/` separators.
 *
 * @module
 */

import { type CompiledGlob, compileGlob, matchGlob } from "../glob/glob.ts";
import type { WorkBudget } from "../platform/budget.ts";
import { absolutePath, formatPath, parsePath } from "./paths.ts";
import type { ResolvedTarget, Roots } from "./resolve.ts";

/** Why a target is exempt, as recorded in metrics. */
export type ExemptReason = "exempt-glob" | "claude-settings";

/** The settings files Claude Code reads from a `.claude` directory. */
const CLAUDE_SETTINGS_NAMES: ReadonlySet<string> = new Set([
  "settings.json",
  "settings.local.json",
]);

function compileExempt(pattern: string): CompiledGlob | null {
  return compileGlob(pattern, { foldCase: true });
}

/**
 * Splits the variable on commas into normalized patterns (trimmed,
 * lowercased, `\` read as `/`), dropping empty and malformed ones so they
 * grant nothing. Since the list is comma-separated, a brace group cannot
 * hold a comma here.
 */
export function parseExemptGlobs(raw: string | undefined): readonly string[] {
  if (!raw) return [];
  return raw.split(",")
    .map((p) => p.trim().toLowerCase().replaceAll("\\", "/"))
    .filter((p) => p !== "" && compileExempt(p) !== null);
}

function isAbsoluteGlob(pattern: string): boolean {
  return parsePath(pattern).root !== "";
}

function globExempt(
  target: ResolvedTarget,
  globs: readonly string[],
  budget: WorkBudget | undefined,
): boolean {
  const absolute = target.absolute.toLowerCase();
  // In a verified worktree the project-relative path is read both as written and as mirrored.
  const relatives = [target.relPath, target.inProject ? target.classPath : null];
  for (const pattern of globs) {
    const glob = compileExempt(pattern);
    if (!glob) continue;
    const texts = isAbsoluteGlob(pattern) ? [absolute] : relatives;
    if (texts.some((text) => text !== null && matchGlob(glob, text, budget) === "match")) {
      return true;
    }
  }
  return false;
}

function claudeSettings(target: ResolvedTarget, roots: Roots): boolean {
  const name = target.basename.toLowerCase();
  if (!CLAUDE_SETTINGS_NAMES.has(name)) return false;
  if (target.inProject && target.classPath === `.claude/${name}`) return true;
  if (!roots.homeDir) return false;
  const home = absolutePath(roots.homeDir, roots.processCwd, roots.processCwd);
  const homeClaude = formatPath({ ...home, segments: [...home.segments, ".claude"] });
  const parts = parsePath(target.absolute, target.windowsStyle);
  const parent = formatPath({ ...parts, segments: parts.segments.slice(0, -1) });
  return parent.toLowerCase() === homeClaude.toLowerCase();
}

/**
 * Why the target is exempt, or null: an exempt glob matches it, or it is a
 * Claude settings file (`settings.json` / `settings.local.json` directly
 * in the project's or the home directory's `.claude`). Never throws; an
 * error grants no exemption, and neither does a glob `budget` cannot pay for.
 */
export function exemptReason(
  target: ResolvedTarget,
  globs: readonly string[],
  roots: Roots,
  budget?: WorkBudget,
): ExemptReason | null {
  try {
    if (globExempt(target, globs, budget)) return "exempt-glob";
    return claudeSettings(target, roots) ? "claude-settings" : null;
  } catch {
    return null;
  }
}
