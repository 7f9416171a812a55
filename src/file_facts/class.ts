/**
 * Target classes: which kind of file a first touch is about, judged on the
 * lowercased, `/`-separated class path from `resolveTarget` (so the
 * directories above the project root never count). The rules are tried in
 * order and the first one that holds wins; code is the fallback.
 *
 * @module
 */

/** The kinds of file the first-touch gate asks different questions about. */
export type TargetClass = "instruction" | "test" | "prose" | "config" | "code";

/** File names agent harnesses load as instructions wherever they sit. */
const INSTRUCTION_NAMES: ReadonlySet<string> = new Set([
  "claude.md",
  "agents.md",
  "agent.md",
  "gemini.md",
  "skill.md",
  "copilot-instructions.md",
  ".cursorrules",
  ".windsurfrules",
]);

/** Directories whose text files agent harnesses load as instructions, skills or commands. */
const INSTRUCTION_DIRS: ReadonlySet<string> = new Set([
  ".claude",
  "agents",
  "commands",
  "skills",
  "rules",
  "hooks",
  ".cursor",
  ".codex",
  ".opencode",
]);

const INSTRUCTION_TEXT_EXTENSIONS = [".md", ".mdx", ".txt"];

const TEST_DIRS: ReadonlySet<string> = new Set(["tests", "test", "__tests__"]);

const PROSE_EXTENSIONS = [".md", ".mdx", ".txt", ".rst", ".adoc"];

const CONFIG_EXTENSIONS = [".json", ".jsonc", ".yaml", ".yml", ".toml", ".ini"];

/**
 * Source extensions the change profile reads; a `.env.*` name ending in one
 * is a program (`.env.example.ts`), not an environment file.
 */
export const CODE_EXTENSIONS: readonly string[] = [
  ".js",
  ".mjs",
  ".cjs",
  ".jsx",
  ".ts",
  ".tsx",
  ".mts",
  ".cts",
  ".py",
  ".pyi",
  ".go",
  ".rs",
  ".java",
  ".kt",
  ".kts",
  ".cs",
  ".c",
  ".h",
  ".cc",
  ".cpp",
  ".cxx",
  ".hpp",
  ".hh",
  ".hxx",
  ".sh",
  ".bash",
  ".zsh",
  ".ps1",
  ".psm1",
  ".bat",
  ".cmd",
];

const endsWithAny = (name: string, suffixes: readonly string[]): boolean =>
  suffixes.some((s) => name.endsWith(s));

function isInstruction(name: string, dirs: readonly string[]): boolean {
  if (INSTRUCTION_NAMES.has(name) || name.endsWith(".mdc")) return true;
  if (endsWithAny(name, INSTRUCTION_TEXT_EXTENSIONS) && dirs.some((d) => INSTRUCTION_DIRS.has(d))) {
    return true;
  }
  return name.endsWith(".md") && name.slice(0, -".md".length).includes("instructions") &&
    dirs.includes(".github");
}

function isTest(name: string, dirs: readonly string[]): boolean {
  return name.includes(".test.") || name.includes(".spec.") ||
    (name.startsWith("test_") && name.length >= "test_.py".length && name.endsWith(".py")) ||
    name.endsWith("_test.py") || name.endsWith("_test.go") ||
    dirs.some((d) => TEST_DIRS.has(d));
}

function isConfig(name: string): boolean {
  if (endsWithAny(name, CONFIG_EXTENSIONS)) return true;
  return (name === ".env" || name.startsWith(".env.")) && !endsWithAny(name, CODE_EXTENSIONS);
}

/** Classifies a lowercased, `/`-separated class path. */
export function classify(classPath: string): TargetClass {
  const segments = classPath.split("/").filter((s) => s !== "");
  const name = segments.at(-1) ?? "";
  const dirs = segments.slice(0, -1);
  if (isInstruction(name, dirs)) return "instruction";
  if (isTest(name, dirs)) return "test";
  if (endsWithAny(name, PROSE_EXTENSIONS)) return "prose";
  if (isConfig(name)) return "config";
  return "code";
}
