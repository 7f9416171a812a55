import { assertEquals } from "../helpers/assert.ts";
import { exemptReason, parseExemptGlobs } from "../../src/file_facts/exempt.ts";
import { resolveTarget, type Roots } from "../../src/file_facts/resolve.ts";
import { isSensitive } from "../../src/file_facts/sensitive.ts";
import { FakeFs, POSIX_ROOTS } from "./fake_fs.ts";

function reason(
  raw: string,
  env: string,
  roots: Roots = POSIX_ROOTS,
  fs = new FakeFs(),
): string | null {
  return exemptReason(resolveTarget(raw, roots, fs), parseExemptGlobs(env), roots, fs);
}

Deno.test("[glob-semantics-for-gateguard_exempt_globs] the variable is split on commas, trimmed and lowercased", () => {
  assertEquals(parseExemptGlobs(undefined), []);
  assertEquals(parseExemptGlobs(""), []);
  assertEquals(parseExemptGlobs(" Docs/** , ,**/*.MD,src\\gen\\**"), [
    "docs/**",
    "**/*.md",
    "src/gen/**",
  ]);
});

Deno.test("[glob-semantics-for-gateguard_exempt_globs] malformed and over-long patterns are dropped and grant nothing", () => {
  assertEquals(parseExemptGlobs("[abc,src/**,x".padEnd(300, "x")), ["src/**"]);
  assertEquals(reason("[abc", "[abc"), null);
  assertEquals(reason("[abc/x.py", "[abc/**"), null);
});

Deno.test("[glob-semantics-for-gateguard_exempt_globs] **/tests/** also matches tests/foo.js", () => {
  assertEquals(reason("tests/foo.js", "**/tests/**"), "exempt-glob");
  assertEquals(reason("a/b/tests/c/foo.js", "**/tests/**"), "exempt-glob");
  assertEquals(reason("src/foo.js", "**/tests/**"), null);
});

Deno.test("[glob-semantics-for-gateguard_exempt_globs] services/** and *.md cover only the project root", () => {
  assertEquals(reason("services/api/x.ts", "services/**"), "exempt-glob");
  assertEquals(reason("apps/services/x.ts", "services/**"), null);
  assertEquals(reason("README.md", "*.md"), "exempt-glob");
  assertEquals(reason("docs/guide.md", "*.md"), null);
  assertEquals(reason("docs/guide.md", "**/*.md"), "exempt-glob");
});

Deno.test("[glob-semantics-for-gateguard_exempt_globs] matching is case-insensitive on the whole path", () => {
  assertEquals(reason("Docs/API.MD", "docs/*.md"), "exempt-glob");
  assertEquals(reason("docs/api.md", "docs/"), null);
  assertEquals(reason("docs/api.md", "docs"), null);
  assertEquals(reason("docs/api.md", "?ocs/a?i.md"), "exempt-glob");
  assertEquals(reason("docs/a/b.md", "docs/*.md"), null);
});

Deno.test("[glob-semantics-for-gateguard_exempt_globs] relative globs never exempt targets outside the root", () => {
  assertEquals(reason("/elsewhere/x.md", "**"), null);
  assertEquals(reason("/elsewhere/x.md", "**/*.md"), null);
  assertEquals(reason("../x.md", "**"), null);
});

Deno.test("[glob-semantics-for-gateguard_exempt_globs] absolute globs match the whole absolute path, also outside the project", () => {
  assertEquals(reason("/elsewhere/gen/x.ts", "/elsewhere/**"), "exempt-glob");
  assertEquals(reason("/p/src/x.ts", "/p/src/*.ts"), "exempt-glob");
  assertEquals(reason("/p/src/x.ts", "/src/*.ts"), null);
  const win: Roots = { ...POSIX_ROOTS, projectRoot: "C:\\p", toolCwd: "C:\\p" };
  assertEquals(reason("C:\\Shared\\Gen\\x.ts", "c:/shared/**", win), "exempt-glob");
  assertEquals(reason("C:\\Shared\\Gen\\x.ts", "C:\\Shared\\**", win), "exempt-glob");
});

Deno.test("[exempt-globs] an exemption covers sensitive targets too", () => {
  const fs = new FakeFs();
  const t = resolveTarget("src/auth/login.py", POSIX_ROOTS, fs);
  assertEquals(isSensitive(t, POSIX_ROOTS, fs), true);
  assertEquals(exemptReason(t, parseExemptGlobs("src/auth/**"), POSIX_ROOTS, fs), "exempt-glob");
});

Deno.test("[exempt-globs] in a verified worktree both the written and the mirrored path are matched", () => {
  const fs = new FakeFs().file("/p/.claude/worktrees/w/.git");
  assertEquals(reason(".claude/worktrees/w/docs/a.md", "docs/**", POSIX_ROOTS, fs), "exempt-glob");
  assertEquals(
    reason(".claude/worktrees/w/docs/a.md", ".claude/worktrees/**", POSIX_ROOTS, fs),
    "exempt-glob",
  );
  assertEquals(reason(".claude/worktrees/w/docs/a.md", "docs/**", POSIX_ROOTS, new FakeFs()), null);
});

Deno.test("[order-of-checks] Claude settings files in the project's or the home .claude are exempt", () => {
  assertEquals(reason(".claude/settings.json", ""), "claude-settings");
  assertEquals(reason(".claude/settings.local.json", ""), "claude-settings");
  assertEquals(reason("/home/me/.claude/settings.json", ""), "claude-settings");
  assertEquals(reason("/p/.claude/Settings.JSON", ""), "claude-settings");
});

Deno.test("[order-of-checks] other settings files are not exempt", () => {
  assertEquals(reason(".claude/other.json", ""), null);
  assertEquals(reason("settings.json", ""), null);
  assertEquals(reason("sub/.claude/settings.json", ""), null);
  assertEquals(reason(".claude/hooks/settings.json", ""), null);
  assertEquals(reason("/home/me/settings.json", ""), null);
  assertEquals(
    reason("/home/me/.claude/settings.json", "", { ...POSIX_ROOTS, homeDir: null }),
    null,
  );
});

Deno.test("[order-of-checks] a glob match is reported before the settings exemption", () => {
  assertEquals(reason(".claude/settings.json", ".claude/*"), "exempt-glob");
});

Deno.test("[exempt-globs] a glob exempts a target only where it really is: a symlinked directory does not carry the exemption", () => {
  const fs = new FakeFs().file("/p/src/auth/login.py").file("/p/src/lib/util.py")
    .symlink("/p/tests/authlink", "../src/auth").symlink("/p/tests/liblink", "/p/src/lib")
    .file("/p/tests/test_a.py");
  assertEquals(reason("tests/authlink/login.py", "tests/**", POSIX_ROOTS, fs), null);
  assertEquals(reason("tests/liblink/util.py", "tests/**", POSIX_ROOTS, fs), null);
  // A new file below the link lands below the link's target too.
  assertEquals(reason("tests/authlink/new.py", "tests/**", POSIX_ROOTS, fs), null);
  assertEquals(reason("/p/tests/authlink/login.py", "/p/tests/**", POSIX_ROOTS, fs), null);
  // Benign: the file really is in tests/, or the real place is exempt as well.
  assertEquals(reason("tests/test_a.py", "tests/**", POSIX_ROOTS, fs), "exempt-glob");
  assertEquals(reason("tests/new_test.py", "tests/**", POSIX_ROOTS, fs), "exempt-glob");
  assertEquals(
    reason("tests/liblink/util.py", "tests/**,src/lib/**", POSIX_ROOTS, fs),
    "exempt-glob",
  );
  // A project root reached through a link is no disguise.
  const linkedRoot = new FakeFs().file("/real/p/tests/test_a.py").symlink("/p", "/real/p");
  assertEquals(reason("tests/test_a.py", "tests/**", POSIX_ROOTS, linkedRoot), "exempt-glob");
  // A link that cannot be resolved grants nothing.
  const dangling = new FakeFs().symlink("/p/tests/gone", "/nowhere/x");
  assertEquals(reason("tests/gone/a.py", "tests/**", POSIX_ROOTS, dangling), null);
});

Deno.test("[exempt-globs] the Claude settings exemption holds only when .claude really is that directory", () => {
  const linked = new FakeFs().file("/p/src/payments/settings.json").symlink(
    "/p/.claude",
    "src/payments",
  );
  assertEquals(reason(".claude/settings.json", "", POSIX_ROOTS, linked), null);
  const home = new FakeFs().dir("/elsewhere").symlink("/home/me/.claude", "/p/src/auth");
  assertEquals(reason("/home/me/.claude/settings.json", "", POSIX_ROOTS, home), null);
  // Benign: a real .claude directory, with or without the file yet, and a linked root.
  const plain = new FakeFs().file("/p/.claude/settings.json").dir("/home/me/.claude");
  assertEquals(reason(".claude/settings.json", "", POSIX_ROOTS, plain), "claude-settings");
  assertEquals(reason(".claude/settings.local.json", "", POSIX_ROOTS, plain), "claude-settings");
  assertEquals(reason("/home/me/.claude/settings.json", "", POSIX_ROOTS, plain), "claude-settings");
  const linkedRoot = new FakeFs().file("/real/p/.claude/settings.json").symlink("/p", "/real/p");
  assertEquals(reason(".claude/settings.json", "", POSIX_ROOTS, linkedRoot), "claude-settings");
});
