import { assertEquals } from "../helpers/assert.ts";
import { passesSiblingScreen, siblingDirKey } from "../../src/file_facts/sibling.ts";
import { classify, type TargetClass } from "../../src/file_facts/class.ts";
import { resolveTarget, type Roots } from "../../src/file_facts/resolve.ts";
import { FakeFs, POSIX_ROOTS } from "./fake_fs.ts";

function key(
  raw: string,
  fs: FakeFs,
  roots: Roots = POSIX_ROOTS,
  cls?: TargetClass,
): string | null {
  const t = resolveTarget(raw, roots, fs);
  return siblingDirKey(t, cls ?? classify(t.classPath), roots, fs);
}

Deno.test("[same-turn-sibling-creation-collapse] code, test and prose files in an ordinary directory are keyed by their directory", () => {
  const fs = new FakeFs().dir("/p/src").dir("/p/tests").dir("/p/docs");
  assertEquals(key("src/a.py", fs), "/p/src");
  assertEquals(key("tests/test_a.py", fs), "/p/tests");
  assertEquals(key("docs/guide.md", fs), "/p/docs");
});

Deno.test("[same-turn-sibling-creation-collapse] config and instruction files never collapse", () => {
  const fs = new FakeFs().dir("/p/src");
  assertEquals(key("src/a.json", fs), null);
  assertEquals(key("src/CLAUDE.md", fs), null);
  assertEquals(key("src/a.py", fs, POSIX_ROOTS, "config"), null);
  assertEquals(key("src/a.py", fs, POSIX_ROOTS, "instruction"), null);
});

Deno.test("[sibling-collapse] any dot segment or 8.3 short name blocks collapse", () => {
  const fs = new FakeFs();
  for (
    const raw of [
      ".husky/x.sh",
      ".github/x.py",
      "src/.hidden/a.py",
      ".a.py",
      "CLAUDE~1/a.py",
      "src/LONGNA~12.PY",
    ]
  ) {
    assertEquals(key(raw, fs, POSIX_ROOTS, "code"), null, raw);
  }
  assertEquals(passesSiblingScreen("src/a~b/x.py"), true);
  assertEquals(passesSiblingScreen("src/a~/x.py"), true);
  assertEquals(passesSiblingScreen("src/a~1/x.py"), false);
});

Deno.test("[sibling-collapse] missing directories are resolved from the nearest existing parent", () => {
  const fs = new FakeFs().dir("/p/src");
  assertEquals(key("src/new/deeper/a.py", fs), "/p/src/new/deeper");
  const linked = new FakeFs().dir("/p/real").symlink("/p/src", "real");
  assertEquals(key("src/new/a.py", linked), "/p/real/new");
});

Deno.test("[sibling-collapse] gates are keyed by the real directory", () => {
  const fs = new FakeFs().dir("/p/lib/impl").symlink("/p/src", "lib/impl");
  assertEquals(key("src/a.py", fs), "/p/lib/impl");
  assertEquals(key("lib/impl/b.py", fs), "/p/lib/impl");
});

Deno.test("[sibling-collapse] src/tools -> .claude/hooks never collapses", () => {
  const fs = new FakeFs().dir("/p/.claude/hooks").symlink("/p/src/tools", "../.claude/hooks");
  assertEquals(key("src/tools/gate.py", fs), null);
});

Deno.test("[sibling-collapse] a symlinked directory must keep the class, stay in the project and not be sensitive", () => {
  const toTests = new FakeFs().dir("/p/tests/unit").symlink("/p/src/x", "../tests/unit");
  assertEquals(key("src/x/a.py", toTests), null);
  const outside = new FakeFs().dir("/srv/lib").symlink("/p/src/x", "/srv/lib");
  assertEquals(key("src/x/a.py", outside), null);
  const toAuth = new FakeFs().dir("/p/auth").symlink("/p/src/x", "../auth");
  assertEquals(key("src/x/a.py", toAuth), null);
  const toShort = new FakeFs().dir("/p/PROGRA~1").symlink("/p/src/x", "../PROGRA~1");
  assertEquals(key("src/x/a.py", toShort), null);
});

Deno.test("[sibling-collapse] a project root reached through a symlink still collapses", () => {
  const fs = new FakeFs().dir("/private/p/src").symlink("/p", "/private/p");
  assertEquals(key("src/a.py", fs), "/private/p/src");
});

Deno.test("[sibling-collapse] a target outside the project without symlinks is keyed by its directory", () => {
  const fs = new FakeFs().dir("/elsewhere/src");
  assertEquals(key("/elsewhere/src/a.py", fs), "/elsewhere/src");
  assertEquals(key("/elsewhere/.cache/a.py", fs), null);
});

Deno.test("[same-turn-sibling-creation-collapse] any filesystem error means no collapse", () => {
  assertEquals(key("src/a.py", new FakeFs().dir("/p").fail("/p/src", "EACCES")), null);
  assertEquals(key("src/x/a.py", new FakeFs().dir("/p/src").symlink("/p/src/x", "/gone")), null);
  assertEquals(key("src/file.py/a.py", new FakeFs().file("/p/src/file.py")), null);
  assertEquals(
    key("src/a.py", new FakeFs().symlink("/p/src", "/p/loop").symlink("/p/loop", "/p/src")),
    null,
  );
  const throwing = new FakeFs();
  throwing.stat = () => {
    throw new Error("boom");
  };
  assertEquals(key("src/a.py", throwing), null);
});

Deno.test("[same-turn-sibling-creation-collapse] a symlinked directory under a project root with no location on this host does not collapse", () => {
  const roots: Roots = { ...POSIX_ROOTS, projectRoot: "C:\\p", projectDirEnv: "C:\\p" };
  assertEquals(key("/p/src/a.py", new FakeFs().dir("/p/src"), roots), "/p/src");
  assertEquals(
    key("/p/src/a.py", new FakeFs().dir("/p/real").symlink("/p/src", "real"), roots),
    null,
  );
});

Deno.test("[target-resolution] a foreign path never collapses", () => {
  const fs = new FakeFs();
  assertEquals(key("C:\\p\\src\\a.py", fs), null);
  assertEquals(fs.asked, []);
});

Deno.test("[worktree-prefix] files of a verified worktree collapse under the worktree directory", () => {
  const fs = new FakeFs().file("/p/.claude/worktrees/w/.git").dir("/p/.claude/worktrees/w/src");
  assertEquals(key(".claude/worktrees/w/src/a.py", fs), "/p/.claude/worktrees/w/src");
  assertEquals(
    key(".claude/worktrees/v/src/a.py", new FakeFs().dir("/p/.claude/worktrees/v/src")),
    null,
  );
});
