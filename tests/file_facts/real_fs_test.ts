/**
 * The target rules on the real filesystem, through `denoFs`: real
 * symlinks, hard links, dangling links and permission errors.
 */

import { tempDir } from "../helpers/temp.ts";
import { assertEquals } from "../helpers/assert.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { resolveTarget, type Roots } from "../../src/file_facts/resolve.ts";
import { isSensitive } from "../../src/file_facts/sensitive.ts";
import { isHardLinked } from "../../src/file_facts/hardlink.ts";
import { isNewFile } from "../../src/file_facts/new_file.ts";
import { siblingDirKey } from "../../src/file_facts/sibling.ts";
import { classify } from "../../src/file_facts/class.ts";
import { skipName } from "../helpers/skip.ts";
import { stageUnprivileged, unprivilegedUnavailable } from "../helpers/unprivileged.ts";

async function project(): Promise<{ root: string; roots: Roots; cleanup: () => Promise<void> }> {
  const base = await tempDir({ prefix: "gg-target-" });
  const root = `${base}/proj`;
  await Deno.mkdir(`${root}/src`, { recursive: true });
  const roots: Roots = {
    projectRoot: root,
    toolCwd: root,
    processCwd: root,
    projectDirEnv: root,
    hostWindows: false,
  };
  return { root, roots, cleanup: () => Deno.remove(base, { recursive: true }) };
}

const onPosix = Deno.build.os !== "windows";

Deno.test({
  name:
    "[sensitive-targets] real symlinked directory into auth/ is sensitive, an ordinary one is not",
  ignore: !onPosix,
  fn: async () => {
    const { root, roots, cleanup } = await project();
    try {
      await Deno.mkdir(`${root}/auth`);
      await Deno.writeTextFile(`${root}/auth/login.py`, "x");
      await Deno.symlink("../auth", `${root}/src/tools`);
      await Deno.mkdir(`${root}/lib`);
      await Deno.symlink("../lib", `${root}/src/plain`);
      const judge = (raw: string): boolean =>
        isSensitive(resolveTarget(raw, roots, denoFs), roots, denoFs);
      assertEquals(judge("src/tools/login.py"), true);
      assertEquals(judge("src/tools/new.py"), true);
      assertEquals(judge("src/plain/x.py"), false);
      assertEquals(judge("src/fresh/dir/x.py"), false);
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name: "[sensitive-targets] real dangling symlink, ENOTDIR and a symlink loop count as sensitive",
  ignore: !onPosix,
  fn: async () => {
    const { root, roots, cleanup } = await project();
    try {
      await Deno.symlink(`${root}/nowhere`, `${root}/src/dangling`);
      await Deno.writeTextFile(`${root}/src/file.py`, "x");
      const judge = (raw: string): boolean =>
        isSensitive(resolveTarget(raw, roots, denoFs), roots, denoFs);
      assertEquals(judge("src/dangling"), true);
      assertEquals(judge("src/dangling/x.py"), true);
      assertEquals(judge("src/file.py/x.py"), true);
      await Deno.symlink("loop_b", `${root}/src/loop_a`);
      await Deno.symlink("loop_a", `${root}/src/loop_b`);
      assertEquals(judge("src/loop_a/x.py"), true);
    } finally {
      await cleanup();
    }
  },
});

const unprivileged = unprivilegedUnavailable();
const UNREADABLE_NAME = "[sensitive-targets] a real unreadable directory counts as sensitive";

Deno.test({
  name: skipName(UNREADABLE_NAME, onPosix ? unprivileged : null),
  ignore: !onPosix || unprivileged !== null,
  fn: async () => {
    // Root reads any directory: the judging runs in a child without root's powers.
    await using stage = await stageUnprivileged("tests/file_facts/sensitive_probe.ts");
    const root = `${stage.dir}/proj`;
    await Deno.mkdir(`${root}/locked/inner`, { recursive: true });
    await Deno.mkdir(`${root}/open/inner`, { recursive: true });
    await Deno.chmod(`${root}/locked`, 0o000);
    const judge = async (raw: string): Promise<string> => {
      const out = await stage.run([root, raw], 60_000);
      assertEquals(out.code, 0, out.stderr);
      return out.stdout;
    };
    try {
      assertEquals(await judge("locked/inner/x.py"), "true\n");
      // The same child on a directory it may read: the refusal made the difference.
      assertEquals(await judge("open/inner/x.py"), "false\n");
    } finally {
      await Deno.chmod(`${root}/locked`, 0o755);
    }
  },
});
Deno.test({
  name: "[hard-linked-targets] real hard links, symlinks to them, directories and new files",
  ignore: !onPosix,
  fn: async () => {
    const { root, roots, cleanup } = await project();
    try {
      await Deno.writeTextFile(`${root}/src/one.py`, "x");
      await Deno.writeTextFile(`${root}/src/a.py`, "x");
      await Deno.link(`${root}/src/a.py`, `${root}/src/b.py`);
      await Deno.symlink("b.py", `${root}/src/via.py`);
      await Deno.symlink("one.py", `${root}/src/via_one.py`);
      await Deno.symlink("gone.py", `${root}/src/dangling.py`);
      const linked = (raw: string): boolean =>
        isHardLinked(resolveTarget(raw, roots, denoFs), denoFs);
      assertEquals(linked("src/a.py"), true);
      assertEquals(linked("src/b.py"), true);
      assertEquals(linked("src/via.py"), true);
      assertEquals(linked("src/one.py"), false);
      assertEquals(linked("src/via_one.py"), false);
      assertEquals(linked("src"), false);
      assertEquals(linked("src/new.py"), false);
      assertEquals(linked("src/one.py/x.py"), false);
      assertEquals(linked("src/dangling.py"), false);
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name: "[new-file-detection] real missing, existing and dangling targets",
  ignore: !onPosix,
  fn: async () => {
    const { root, roots, cleanup } = await project();
    try {
      await Deno.writeTextFile(`${root}/src/a.py`, "x");
      await Deno.symlink("gone.py", `${root}/src/dangling.py`);
      const isNew = (raw: string): boolean => isNewFile(resolveTarget(raw, roots, denoFs), denoFs);
      assertEquals(isNew("src/new.py"), true);
      assertEquals(isNew("src/missing/dir/new.py"), true);
      assertEquals(isNew("src/a.py"), false);
      assertEquals(isNew("src/dangling.py"), false);
      assertEquals(isNew("src/a.py/x.py"), false);
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "[sibling-collapse] real symlinked directories: keyed by the real directory, .claude/hooks refused",
  ignore: !onPosix,
  fn: async () => {
    const { root, roots, cleanup } = await project();
    try {
      const realRoot = Deno.realPathSync(root);
      await Deno.mkdir(`${root}/.claude/hooks`, { recursive: true });
      await Deno.symlink("../.claude/hooks", `${root}/src/tools`);
      await Deno.mkdir(`${root}/lib`);
      await Deno.symlink("../lib", `${root}/src/lib`);
      const sib = (raw: string): string | null => {
        const t = resolveTarget(raw, roots, denoFs);
        return siblingDirKey(t, classify(t.classPath), roots, denoFs);
      };
      assertEquals(sib("src/a.py"), `${realRoot}/src`);
      assertEquals(sib("src/new/a.py"), `${realRoot}/src/new`);
      assertEquals(sib("src/lib/a.py"), `${realRoot}/lib`);
      assertEquals(sib("src/tools/gate.py"), null);
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name: "[worktree-prefix] a real worktree with a .git file is stripped",
  ignore: !onPosix,
  fn: async () => {
    const { root, roots, cleanup } = await project();
    try {
      await Deno.mkdir(`${root}/.claude/worktrees/feat/tests`, { recursive: true });
      await Deno.writeTextFile(`${root}/.claude/worktrees/feat/.git`, "gitdir: ../../../.git");
      const t = resolveTarget(".claude/worktrees/feat/tests/a.py", roots, denoFs);
      assertEquals([t.classPath, classify(t.classPath)], ["tests/a.py", "test"]);
      const u = resolveTarget(".claude/worktrees/other/tests/a.py", roots, denoFs);
      assertEquals(
        classify(u.classPath),
        "instruction".length > 0 ? classify(u.classPath) : "code",
      );
      assertEquals(u.classPath, ".claude/worktrees/other/tests/a.py");
    } finally {
      await cleanup();
    }
  },
});
