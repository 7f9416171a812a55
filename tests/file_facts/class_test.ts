import { assertEquals } from "../helpers/assert.ts";
import { classify, type TargetClass } from "../../src/file_facts/class.ts";
import { resolveTarget, type Roots } from "../../src/file_facts/resolve.ts";
import { FakeFs, POSIX_ROOTS } from "./fake_fs.ts";

function expectClasses(cls: TargetClass, paths: string[]): void {
  for (const p of paths) assertEquals(classify(p), cls, p);
}

Deno.test("[questions-by-target-class] instruction: harness file names anywhere", () => {
  expectClasses("instruction", [
    "claude.md",
    "src/claude.md",
    "agents.md",
    "agent.md",
    "gemini.md",
    "docs/skill.md",
    "copilot-instructions.md",
    ".cursorrules",
    "sub/.windsurfrules",
  ]);
});

Deno.test("[target-classes] .mdc files are instructions wherever they live", () => {
  expectClasses("instruction", ["a.mdc", "src/deep/rule.mdc", "tests/x.mdc"]);
});

Deno.test("[questions-by-target-class] instruction: .md/.mdx/.txt under a harness directory", () => {
  const dirs = [
    ".claude",
    "agents",
    "commands",
    "skills",
    "rules",
    "hooks",
    ".cursor",
    ".codex",
    ".opencode",
  ];
  for (const d of dirs) {
    expectClasses("instruction", [`${d}/x.md`, `a/${d}/b/x.mdx`, `${d}/notes.txt`]);
  }
  expectClasses("instruction", ["skills/tokenizer.test.md"]);
});

Deno.test("[questions-by-target-class] a .js under hooks/ or skills/ is code, settings under .claude are config", () => {
  expectClasses("code", ["hooks/pre.js", "skills/x/run.py", ".claude/hooks/gate.sh"]);
  expectClasses("config", [".claude/settings.json"]);
});

Deno.test("[questions-by-target-class] instruction: *instructions*.md under .github/", () => {
  expectClasses("instruction", [
    ".github/instructions.md",
    ".github/x/review-instructions-v2.md",
    "a/.github/my-instructions.md",
  ]);
  expectClasses("prose", ["docs/instructions.md", ".github/readme.md"]);
  expectClasses("config", [".github/instructions.yml"]);
});

Deno.test("[questions-by-target-class] test: name patterns and test directories", () => {
  expectClasses("test", [
    "src/a.test.ts",
    "src/a.spec.js",
    ".test.js",
    "test_app.py",
    "pkg/app_test.py",
    "pkg/app_test.go",
    "tests/helpers.py",
    "a/test/fixture.json",
    "x/__tests__/b.js",
    "tests/readme.md",
  ]);
  expectClasses("code", [
    "src/test_app.js",
    "src/app_test.js",
    "src/testing/a.py",
    "src/contest.py",
    "test_.pyx",
    "mytests/a.py",
  ]);
});

Deno.test("[questions-by-target-class] prose: .md .mdx .txt .rst .adoc outside harness directories", () => {
  expectClasses("prose", ["readme.md", "docs/a.mdx", "notes.txt", "doc/index.rst", "manual.adoc"]);
});

Deno.test("[questions-by-target-class] config: data formats and .env files without a code extension", () => {
  expectClasses("config", [
    "package.json",
    "tsconfig.jsonc",
    "a.yaml",
    "b.yml",
    "pyproject.toml",
    "setup.ini",
    ".env",
    ".env.local",
    "app/.env.production",
  ]);
  expectClasses("code", [
    ".env.example.ts",
    ".envrc",
    ".env.d.sh",
    "env.local",
    "main.go",
    "notebook.ipynb",
    "Makefile".toLowerCase(),
    "",
  ]);
});

Deno.test("[questions-by-target-class] the first matching class wins", () => {
  // instruction before test, test before prose and config.
  expectClasses("instruction", ["tests/claude.md", "tests/rules.mdc"]);
  expectClasses("test", ["tests/data.json", "tests/.env", "a.test.md"]);
});

Deno.test("[questions-by-target-class] a project under ~/work/tests/ does not make every file a test", () => {
  const roots: Roots = {
    ...POSIX_ROOTS,
    projectRoot: "/home/me/work/tests/proj",
    toolCwd: "/home/me/work/tests/proj",
  };
  const fs = new FakeFs();
  assertEquals(classify(resolveTarget("src/app.py", roots, fs).classPath), "code");
  assertEquals(classify(resolveTarget("tests/app.py", roots, fs).classPath), "test");
  // Outside the root the absolute path is judged, ancestors included.
  assertEquals(
    classify(resolveTarget("/home/me/work/tests/other/app.py", roots, fs).classPath),
    "test",
  );
});

Deno.test("[windows-name-normalization] CLAUDE.md. and CLAUDE.md::$DATA classify as CLAUDE.md", () => {
  const roots: Roots = { ...POSIX_ROOTS, projectRoot: "C:\\p", toolCwd: "C:\\p" };
  const fs = new FakeFs();
  assertEquals(classify(resolveTarget("C:\\p\\CLAUDE.md.", roots, fs).classPath), "instruction");
  assertEquals(
    classify(resolveTarget("C:\\p\\CLAUDE.md::$DATA", roots, fs).classPath),
    "instruction",
  );
  assertEquals(
    classify(resolveTarget("/p/CLAUDE.md::$DATA", POSIX_ROOTS, fs).classPath),
    "instruction",
  );
});

Deno.test("[worktree-prefix] an unverified worktree stays under .claude and its docs are instructions", () => {
  const noGit = new FakeFs();
  assertEquals(
    classify(resolveTarget("/p/.claude/worktrees/w/docs/a.md", POSIX_ROOTS, noGit).classPath),
    "instruction",
  );
  const git = new FakeFs().file("/p/.claude/worktrees/w/.git");
  assertEquals(
    classify(resolveTarget("/p/.claude/worktrees/w/docs/a.md", POSIX_ROOTS, git).classPath),
    "prose",
  );
});
