/**
 * The project root of `init` and `doctor`: `CLAUDE_PROJECT_DIR`, else the
 * git root above where the command was typed.
 */

import { assertEquals } from "../helpers/assert.ts";
import { cliProjectRoot, gitRoot } from "../../src/cli/project_root.ts";
import { FakeFs } from "../file_facts/fake_fs.ts";

Deno.test("[init] the project root is the nearest folder above holding .git, a folder or a worktree's file", () => {
  const fs = new FakeFs().dir("/home/me/app/.git").dir("/home/me/app/src/deep");
  assertEquals(gitRoot("/home/me/app/src/deep", fs), "/home/me/app");
  assertEquals(gitRoot("/home/me/app", fs), "/home/me/app");
  // A worktree or submodule inside keeps its own root.
  fs.file("/home/me/app/vendor/lib/.git").dir("/home/me/app/vendor/lib/src");
  assertEquals(gitRoot("/home/me/app/vendor/lib/src", fs), "/home/me/app/vendor/lib");
  // Outside any repository the folder itself, as before.
  assertEquals(gitRoot("/tmp/scratch", new FakeFs().dir("/tmp/scratch")), "/tmp/scratch");
  // A dangling .git symlink still marks the root: it is never followed.
  const linked = new FakeFs().dir("/w/p/src").symlink("/w/p/.git", "/nowhere");
  assertEquals(gitRoot("/w/p/src", linked), "/w/p");
});

Deno.test("[init] CLAUDE_PROJECT_DIR wins over the git root; INIT_CWD is where the search starts", () => {
  const fs = new FakeFs().dir("/repo/.git").dir("/repo/pkg/a").dir("/other");
  assertEquals(
    cliProjectRoot({ CLAUDE_PROJECT_DIR: "/other", INIT_CWD: "/repo/pkg/a" }, fs),
    "/other",
  );
  assertEquals(cliProjectRoot({ CLAUDE_PROJECT_DIR: " ", INIT_CWD: "/repo/pkg/a" }, fs), "/repo");
  assertEquals(cliProjectRoot({ INIT_CWD: "/repo/pkg" }, fs), "/repo");
});
