/**
 * The languages the change profile can read, keyed by file extension.
 *
 * A target whose extension is not listed here never gets a profile: the
 * caller falls back to the full questions.
 *
 * @module
 */

import { baseName } from "../platform/path.ts";

/** Short lowercase code of a language the change profile reads (also its metrics value). */
export type Language =
  | "js"
  | "ts"
  | "py"
  | "go"
  | "rs"
  | "java"
  | "kt"
  | "cs"
  | "c"
  | "cpp"
  | "sh"
  | "ps1"
  | "bat";

/** Every supported extension (lowercase, with its dot) and its language. */
export const EXTENSION_LANGUAGE: Readonly<Record<string, Language>> = Object.freeze({
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "js",
  ".ts": "ts",
  ".tsx": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".py": "py",
  ".pyi": "py",
  ".go": "go",
  ".rs": "rs",
  ".java": "java",
  ".kt": "kt",
  ".kts": "kt",
  ".cs": "cs",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".hh": "cpp",
  ".hxx": "cpp",
  ".sh": "sh",
  ".bash": "sh",
  ".zsh": "sh",
  ".ps1": "ps1",
  ".psm1": "ps1",
  ".bat": "bat",
  ".cmd": "bat",
});

/** The last segment of a `/` or `\` separated path, lowercased. */
export function lowerBaseName(filePath: string): string {
  return baseName(filePath).toLowerCase();
}

/**
 * The language of a path by its extension (case-insensitive), or null when
 * the extension is not supported. A dotfile such as `.bashrc` has no
 * extension.
 */
export function languageOf(filePath: string): Language | null {
  const base = lowerBaseName(filePath);
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return null;
  return Object.hasOwn(EXTENSION_LANGUAGE, base.slice(dot))
    ? EXTENSION_LANGUAGE[base.slice(dot)]
    : null;
}
