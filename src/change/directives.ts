/**
 * Directive comments: comments that a compiler, interpreter, loader, linter
 * or bundler reads, so changing one can change what the code does or how it
 * is checked. The lexer keeps them as code.
 *
 * The tables err on the side of calling a comment a directive: a plain
 * comment mistaken for one only costs a trivial-edit pass, never a wrong one.
 *
 * @module
 */

import type { Language } from "./language.ts";

/**
 * Markers that make a comment a directive wherever they appear in it
 * (matched on the lowercased comment text).
 */
const ANYWHERE_MARKERS: readonly string[] = [
  // Python: encoding cookies (also vim's fileencoding=), type comments, tool pragmas.
  "coding:",
  "coding=",
  "type:",
  "noqa",
  "nosec",
  "nosemgrep",
  "pragma",
  "pylint:",
  "mypy:",
  "pyright:",
  "pyre-",
  "pytype:",
  "ruff:",
  "flake8:",
  "isort:",
  "fmt:",
  "yapf:",
  "no cover",
  // JavaScript and TypeScript: checker, linter, bundler and test-runner comments.
  "@ts-",
  "eslint",
  "tslint:",
  "jshint",
  "jslint",
  "prettier-ignore",
  "biome-ignore",
  "deno-lint-ignore",
  "deno-fmt-ignore",
  "@deno-types",
  "istanbul ignore",
  "c8 ignore",
  "v8 ignore",
  "@jsx",
  "@flow",
  "@license",
  "@preserve",
  "__pure__",
  "__no_side_effects__",
  "webpack",
  "@vite-ignore",
  "sourcemappingurl",
  "sourceurl",
  "<reference",
  "<amd-",
  "@jest-environment",
  "@vitest-environment",
  "@type",
  "@template",
  "@satisfies",
  "@import",
  "@callback",
  "@overload",
  // Go: build constraints, embeds, cgo exports and other compiler directives.
  "go:",
  "+build",
  "nolint",
  // C family and JVM: analyser suppressions, formatter switches, fallthrough markers.
  "nosonar",
  "nopmd",
  "noinspection",
  "suppress",
  "clang-format",
  "clang-tidy",
  "cppcheck-suppress",
  "coverity",
  "@formatter:",
  "checkstyle:",
  "resharper ",
  "$non-nls",
  "fallthrough",
  "fall through",
  "falls through",
  "fall-through",
  "fallthru",
  "fall thru",
  "falls thru",
  "lgtm",
  // Shell and PowerShell: linters, zsh autoload markers, help that redirects elsewhere.
  "shellcheck",
  "compdef",
  "autoload",
  "#requires",
  ".externalhelp",
  ".forwardhelptargetname",
  ".forwardhelpcategory",
  ".remotehelprunspace",
];

/**
 * Markers that make a comment a directive only when its text, after the
 * comment opener, starts with them (they are too common as words elsewhere).
 */
const LEADING_MARKERS: readonly string[] = [
  "global ",
  "globals ",
  "lint",
  "notreached",
  "argsused",
  "varargs",
  "printflike",
  "scanflike",
  "export ",
  "line ",
  "#cgo",
];

/** Characters a comment opener is made of, skipped before the leading markers. */
const OPENER_CHARS = "/*#<!-; \t";

function isRustDocComment(comment: string): boolean {
  if (comment.startsWith("//!") || comment.startsWith("/*!")) return true;
  if (comment.startsWith("///")) return !comment.startsWith("////");
  return comment.startsWith("/**") && !comment.startsWith("/***") && !comment.startsWith("/**/");
}

/**
 * True when a comment (its full text, opener included) is a directive for
 * `language`: a shebang, a Rust doc comment, or a comment carrying one of
 * the markers above.
 */
export function isDirectiveComment(language: Language, comment: string): boolean {
  if (comment.startsWith("#!")) return true;
  if (language === "rs" && isRustDocComment(comment)) return true;
  const lower = comment.toLowerCase();
  let start = 0;
  while (start < lower.length && OPENER_CHARS.includes(lower[start])) start++;
  for (const marker of LEADING_MARKERS) {
    if (lower.startsWith(marker, start)) return true;
  }
  for (const marker of ANYWHERE_MARKERS) {
    if (lower.includes(marker)) return true;
  }
  return false;
}
