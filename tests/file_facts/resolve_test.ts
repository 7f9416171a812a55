import { assertEquals } from "../helpers/assert.ts";
import { projectRoot, resolveTarget, type Roots } from "../../src/file_facts/resolve.ts";
import { FakeFs, POSIX_ROOTS } from "./fake_fs.ts";

const fs = (): FakeFs => new FakeFs();

Deno.test("[questions-by-target-class] the project root is CLAUDE_PROJECT_DIR, then the payload cwd, then the process cwd", () => {
  assertEquals(projectRoot("/tool", "/env", "/proc"), "/env");
  assertEquals(projectRoot("/tool", null, "/proc"), "/tool");
  assertEquals(projectRoot(null, null, "/proc"), "/proc");
  assertEquals(projectRoot("", "", "/proc"), "/proc");
});

Deno.test("[canonical-path-keys] a.py, ./a.py and the absolute path share one key", () => {
  const keys = ["a.py", "./a.py", "/p/a.py", "/p/src/../a.py", "/p//a.py", "src/./../a.py"]
    .map((raw) => resolveTarget(raw, POSIX_ROOTS, fs()).key);
  assertEquals(new Set(keys), new Set(["/p/a.py"]));
});

Deno.test("[target-resolution] relative targets resolve against the tool cwd, then CLAUDE_PROJECT_DIR, then the process cwd", () => {
  const roots: Roots = {
    ...POSIX_ROOTS,
    projectRoot: "/env",
    toolCwd: "/tool",
    projectDirEnv: "/env",
    processCwd: "/proc",
  };
  assertEquals(resolveTarget("a.py", roots, fs()).absolute, "/tool/a.py");
  assertEquals(resolveTarget("a.py", { ...roots, toolCwd: null }, fs()).absolute, "/env/a.py");
  assertEquals(
    resolveTarget("a.py", { ...roots, toolCwd: null, projectDirEnv: null }, fs()).absolute,
    "/proc/a.py",
  );
});

Deno.test("[target-resolution] a relative tool cwd is taken from the process cwd", () => {
  const roots: Roots = { ...POSIX_ROOTS, toolCwd: "sub", processCwd: "/proc" };
  assertEquals(resolveTarget("a.py", roots, fs()).absolute, "/proc/sub/a.py");
});

Deno.test("[canonical-path-keys] POSIX keys keep their case; .. never climbs above the root", () => {
  const t = resolveTarget("/p/Src/../../../X.py", POSIX_ROOTS, fs());
  assertEquals([t.absolute, t.key, t.windowsStyle, t.foreign], ["/X.py", "/X.py", false, false]);
});

Deno.test("[target-resolution] the class path is project-relative and lowercased; outside targets keep the absolute path", () => {
  const inside = resolveTarget("/p/Src/Tool.PY", POSIX_ROOTS, fs());
  assertEquals([inside.inProject, inside.classPath, inside.relPath, inside.basename], [
    true,
    "src/tool.py",
    "src/tool.py",
    "Tool.PY",
  ]);
  const outside = resolveTarget("/etc/Hosts", POSIX_ROOTS, fs());
  assertEquals([outside.inProject, outside.classPath, outside.relPath, outside.basename], [
    false,
    "/etc/hosts",
    null,
    "Hosts",
  ]);
  const sibling = resolveTarget("/pp/a.py", POSIX_ROOTS, fs());
  assertEquals([sibling.inProject, sibling.classPath], [false, "/pp/a.py"]);
});

Deno.test("[target-resolution] ancestors of the project root never reach the class path", () => {
  const roots: Roots = {
    ...POSIX_ROOTS,
    projectRoot: "/home/me/work/tests/proj",
    toolCwd: "/home/me/work/tests/proj",
  };
  assertEquals(resolveTarget("src/app.ts", roots, fs()).classPath, "src/app.ts");
});

Deno.test("[canonical-path-keys] Windows-style paths fold separators and case and have no file on a POSIX host", () => {
  const a = resolveTarget("C:\\Proj\\Src\\A.py", POSIX_ROOTS, fs());
  const b = resolveTarget("c:/proj/src/sub/../a.py", POSIX_ROOTS, fs());
  assertEquals([a.absolute, a.key, a.windowsStyle, a.foreign, a.inProject], [
    "C:/Proj/Src/A.py",
    "c:/proj/src/a.py",
    true,
    true,
    false,
  ]);
  assertEquals(b.key, a.key);
  assertEquals(a.classPath, "c:/proj/src/a.py");
});

Deno.test("[canonical-path-keys] UNC paths, long-path prefixes and backslash relatives are Windows-style", () => {
  assertEquals(
    resolveTarget("\\\\Server\\Share\\x\\..\\Y.txt", POSIX_ROOTS, fs()).key,
    "//server/share/y.txt",
  );
  assertEquals(resolveTarget("\\\\?\\C:\\Proj\\a.py", POSIX_ROOTS, fs()).key, "c:/proj/a.py");
  assertEquals(resolveTarget("\\\\?\\UNC\\srv\\sh\\a.py", POSIX_ROOTS, fs()).key, "//srv/sh/a.py");
  const rel = resolveTarget("Src\\A.py", POSIX_ROOTS, fs());
  assertEquals([rel.key, rel.foreign, rel.inProject, rel.classPath], [
    "/p/src/a.py",
    true,
    true,
    "src/a.py",
  ]);
});

Deno.test("[target-resolution] on a Windows host Windows paths are native and POSIX paths are foreign", () => {
  const roots: Roots = {
    projectRoot: "C:\\Proj",
    toolCwd: "C:\\Proj",
    processCwd: "C:\\Proj",
    projectDirEnv: "C:\\Proj",
    hostWindows: true,
  };
  const rel = resolveTarget("src/App.ts", roots, fs());
  assertEquals([rel.absolute, rel.key, rel.foreign, rel.inProject, rel.classPath], [
    "C:/Proj/src/App.ts",
    "c:/proj/src/app.ts",
    false,
    true,
    "src/app.ts",
  ]);
  const upper = resolveTarget("c:\\PROJ\\SRC\\app.ts", roots, fs());
  assertEquals([upper.key, upper.inProject, upper.classPath], [
    "c:/proj/src/app.ts",
    true,
    "src/app.ts",
  ]);
  const posix = resolveTarget("/tmp/x.ts", roots, fs());
  assertEquals([posix.windowsStyle, posix.foreign, posix.inProject], [false, true, false]);
});

Deno.test("[windows-name-normalization] trailing dots and spaces and :stream suffixes are dropped on Windows-style paths", () => {
  const roots: Roots = { ...POSIX_ROOTS, projectRoot: "C:\\p", toolCwd: "C:\\p" };
  for (
    const raw of [
      "C:\\p\\CLAUDE.md.",
      "C:\\p\\CLAUDE.md::$DATA",
      "C:\\p\\CLAUDE.md . ",
      "C:\\p\\CLAUDE.md:x:$DATA",
    ]
  ) {
    const t = resolveTarget(raw, roots, fs());
    assertEquals(
      [t.classPath, t.basename, t.key],
      ["claude.md", "CLAUDE.md", "c:/p/claude.md"],
      raw,
    );
  }
  assertEquals(resolveTarget("C:\\p\\auth.\\x.py", roots, fs()).classPath, "auth/x.py");
  assertEquals(resolveTarget("C:\\p\\a\\...\\x.py", roots, fs()).classPath, "a/x.py");
});

Deno.test("[windows-name-normalization] on POSIX paths only ::$ segments are normalized, and the key keeps the real name", () => {
  const stream = resolveTarget("/p/CLAUDE.md::$DATA", POSIX_ROOTS, fs());
  assertEquals([stream.classPath, stream.basename, stream.key], [
    "claude.md",
    "CLAUDE.md",
    "/p/CLAUDE.md::$DATA",
  ]);
  const dot = resolveTarget("/p/CLAUDE.md.", POSIX_ROOTS, fs());
  assertEquals([dot.classPath, dot.basename], ["claude.md.", "CLAUDE.md."]);
});

Deno.test("[worktree-prefix] .claude/worktrees/<name>/ is stripped only when its .git exists", () => {
  const withGit = new FakeFs().file("/p/.claude/worktrees/feat/.git");
  const stripped = resolveTarget("/p/.claude/worktrees/feat/src/a.py", POSIX_ROOTS, withGit);
  assertEquals([stripped.classPath, stripped.relPath], [
    "src/a.py",
    ".claude/worktrees/feat/src/a.py",
  ]);
  assertEquals(withGit.asked, ["/p/.claude/worktrees/feat/.git"]);
  const gitDir = new FakeFs().dir("/p/.claude/worktrees/feat/.git");
  assertEquals(
    resolveTarget("/p/.claude/worktrees/feat/src/a.py", POSIX_ROOTS, gitDir).classPath,
    "src/a.py",
  );
  const noGit = new FakeFs().dir("/p/.claude/worktrees/feat/src");
  assertEquals(
    resolveTarget("/p/.claude/worktrees/feat/src/a.py", POSIX_ROOTS, noGit).classPath,
    ".claude/worktrees/feat/src/a.py",
  );
  const otherName = new FakeFs().file("/p/.claude/worktrees/other/.git");
  assertEquals(
    resolveTarget("/p/.claude/worktrees/feat/src/a.py", POSIX_ROOTS, otherName).classPath,
    ".claude/worktrees/feat/src/a.py",
  );
});

Deno.test("[worktree-prefix] only a leading prefix is stripped, and only once", () => {
  const f = new FakeFs().file("/p/.claude/worktrees/a/.git").file(
    "/p/.claude/worktrees/a/.claude/worktrees/b/.git",
  ).file("/p/x/.claude/worktrees/c/.git");
  assertEquals(
    resolveTarget("/p/.claude/worktrees/a/.claude/worktrees/b/f.ts", POSIX_ROOTS, f).classPath,
    ".claude/worktrees/b/f.ts",
  );
  assertEquals(
    resolveTarget("/p/x/.claude/worktrees/c/f.ts", POSIX_ROOTS, f).classPath,
    "x/.claude/worktrees/c/f.ts",
  );
});

Deno.test("[worktree-prefix] a foreign path is never checked for a worktree", () => {
  const f = new FakeFs();
  const roots: Roots = { ...POSIX_ROOTS, projectRoot: "C:\\p", toolCwd: "C:\\p" };
  assertEquals(
    resolveTarget("C:\\p\\.claude\\worktrees\\w\\a.py", roots, f).classPath,
    ".claude/worktrees/w/a.py",
  );
  assertEquals(f.asked, []);
});
