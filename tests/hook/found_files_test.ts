/**
 * Programs that act on the files they find or list (`src/hook/found_files.ts`):
 * fd's `-x` and `-X`, and a lister piped into xargs or parallel, read
 * through the folder-write reader and through the self-protection reader
 * with its own command-word rules (which step past xargs to what it runs).
 */
import { assertEquals } from "../helpers/assert.ts";
import { folderWrites } from "../../src/hook/folder_writes.ts";
import { protectedTargetOf } from "../../src/hook/shell_protect.ts";
import { UNKNOWN } from "../../src/hook/path_match.ts";
import { parseBash, type Segment } from "../../src/shell/bash/mod.ts";
import { readOnlyKind } from "../../src/shell/readonly/mod.ts";
import { CTX, hitsOf } from "./shell_reader.ts";

function parse(code: string): readonly Segment[] | null {
  const p = parseBash(code);
  return p.ok ? p.segments : null;
}

/** What `command`, run in /p, may change below a folder, with the name patterns that narrow it. */
function writes(command: string): { path: string; names?: readonly string[] }[] {
  return folderWrites(parse(command)!, {
    cwd: "/p",
    commandAt: () => 0,
    readsOnly: (s) => readOnlyKind("bash", s.raw) !== null,
    parse,
  }).map((w) => ({
    path: w.path.replace(UNKNOWN, "?"),
    ...(w.names === undefined ? {} : { names: w.names }),
  }));
}

Deno.test("[self-protection] fd's -x and -X change what it finds below each search path, narrowed by extension or a plain pattern", () => {
  assertEquals(writes("fd -H -t f -x rm {}"), [{ path: "/p/?" }]);
  assertEquals(writes("fd -H . src ~/x -X rm -rf"), [{ path: "/p/src/?" }, { path: "~/x/?" }]);
  assertEquals(writes("fd -e pyc -e .PYO -x rm"), [{ path: "/p/?", names: ["*.pyc", "*.pyo"] }]);
  assertEquals(writes("fd settings -H --exec-batch rm"), [{ path: "/p/?", names: ["*settings*"] }]);
  assertEquals(writes("fd 'set.*' -x rm"), [{ path: "/p/?" }], "a wider expression: any name");
  assertEquals(writes("fd --base-directory sub -x sed -i d"), [{ path: "/p/sub/?" }]);
  assertEquals(writes("fd -e ts"), [], "no command: it only lists");
  assertEquals(writes("fd -e ts -x wc -l"), [], "a read-only command");
});

Deno.test("[self-protection] a lister piped into xargs that may write hands it every file below what it lists", () => {
  assertEquals(writes("ls -A | xargs rm -rf"), [{ path: "/p/?" }]);
  assertEquals(writes("ls -I x src build | xargs -0 rm"), [{ path: "/p/src/?" }, {
    path: "/p/build/?",
  }]);
  assertEquals(writes("git ls-files -o | xargs rm -f"), [{ path: "/p/?" }]);
  assertEquals(writes("git -C sub ls-files -x '*.o' | parallel rm"), [{ path: "/p/sub/?" }]);
  assertEquals(writes("fd -e json | xargs sed -i d"), [{ path: "/p/?", names: ["*.json"] }]);
  // A content searcher names the files that match, below its paths (its pattern is no path).
  assertEquals(writes("grep -rl gateguard . | xargs sed -i s/gateguard/x/"), [{ path: "/p/?" }]);
  assertEquals(writes("rg -l -e foo src lib | xargs sed -i s/a/b/"), [{ path: "/p/src/?" }, {
    path: "/p/lib/?",
  }]);
  assertEquals(writes("git grep -l hook | xargs sed -i d"), [{ path: "/p/?" }]);
  // Filters on the way keep the names the listing's (`sort`, `head`, `grep -v`).
  assertEquals(writes("ls -A | sort | xargs rm -rf"), [{ path: "/p/?" }]);
  assertEquals(writes("find . -type f | head -1000 | xargs rm -f"), [{ path: "/p/?" }]);
  assertEquals(writes("ls | sort | xargs wc -l"), [], "xargs only reads");
  assertEquals(writes("ls | xargs wc -l"), [], "xargs only reads");
  // Printed names piped on to a program that does not only read them are code again.
  assertEquals(writes("ls -A | xargs echo rm -rf | sh"), [{ path: "/p/?" }]);
  assertEquals(writes('ls -A | xargs printf "rm -rf %s\\n" | bash'), [{ path: "/p/?" }]);
  assertEquals(writes("ls -A | xargs echo | wc -l"), [], "printed into a reader");
  assertEquals(writes("git ls-files | xargs grep foo"), [], "xargs only reads");
  assertEquals(writes("ls -A | sort"), [], "not handed to a runner");
});

Deno.test("[self-protection] through the shell reader, whose command word lies past xargs, the names still reach the control files", () => {
  const reached = (command: string) =>
    hitsOf(command).map((h) => h.kind === "control" ? h.row.id : h.kind);
  for (
    const command of [
      "find . | xargs sed -i s/a/b/",
      "find . -type f | xargs rm -f",
      "sudo find . | sudo xargs -0 rm",
      "git ls-files -o | xargs rm -f",
      "ls -A | xargs rm -rf",
      "fd -H -x rm {} ;",
      "chmod -R 000 .",
      "grep -rl gateguard . | xargs sed -i s/gateguard/x/",
      "rg -l hooks | xargs sed -i s/hooks/x/",
      "chown -R nobody ~",
      "mv . ../elsewhere",
      "cd .. && mv proj old",
    ]
  ) {
    assertEquals(reached(command).includes("claude-project-settings"), true, command);
  }
  for (
    const command of [
      "ls | xargs wc -l",
      "find . -name '*.o' | xargs rm",
      "git ls-files | xargs grep foo",
      "fd -e pyc -x rm",
      "ls src | xargs rm -rf",
      "chmod -R u+w src",
      "mv build dist",
      "grep -rl foo src | xargs sed -i s/foo/bar/",
      "grep -rl foo . | xargs wc -l",
    ]
  ) {
    assertEquals(reached(command), [], command);
  }
});

Deno.test("[never-on-retry] deleting every file a lister names in the project is aimed at the project", () => {
  const target = (command: string) => protectedTargetOf("bash", command, CTX)?.target ?? null;
  assertEquals(target("ls -A | xargs rm -rf"), "project");
  assertEquals(target("fd -H -x rm -rf {} ;"), "project");
  assertEquals(target("cd ~ && ls -A | xargs rm -rf"), "home");
  assertEquals(target("fd -e pyc -x rm"), null);
  assertEquals(target("ls src | xargs rm -rf"), null);
});

Deno.test("[self-protection] a loop over a lister's names that writes with them is a runner too", () => {
  assertEquals(writes('ls -A | while read f; do rm -rf "$f"; done'), [{ path: "/p/?" }]);
  assertEquals(writes('find . | while IFS= read -r f; do sed -i d "$f"; done'), [{
    path: "/p/?",
  }]);
  assertEquals(writes("ls | while read -a names; do echo x > ${names}; done"), [{ path: "/p/?" }]);
  assertEquals(writes("for f in $(ls -A); do rm -rf ${f}; done"), [{ path: "/p/?" }]);
  assertEquals(writes('ls | sort | while read f; do rm -rf "$f"; done'), [{ path: "/p/?" }]);
  assertEquals(writes("select f in $(ls -A); do rm -rf $f; done"), [{ path: "/p/?" }]);
  // A name printed into another program is no longer only printed.
  assertEquals(writes('ls -A | while read f; do echo "rm -rf $f" | sh; done'), [{ path: "/p/?" }]);
  assertEquals(writes('for f in "$(git ls-files -o)"; do rm "$f"; done'), [{ path: "/p/?" }]);
  for (
    const quiet of [
      'ls | while read -r line; do echo "$line"; done',
      'ls | while read f; do wc -l "$f"; done',
      "for f in $(ls -A); do cat $f; done",
      "for x in a b; do rm -rf $x; done",
      'ls | while read f; do rm -rf "$g"; done',
      'ls | while read f; do echo "$f" | wc -c; done',
    ]
  ) {
    assertEquals(writes(quiet), [], quiet);
  }
});

Deno.test("[self-protection] a lister's names given as arguments through a command substitution reach what a writer changes", () => {
  assertEquals(writes("sed -i s/foo/bar/g $(grep -rl foo .)"), [{ path: "/p/?" }]);
  assertEquals(writes('rm -rf "$(ls -A)"'), [{ path: "/p/?" }]);
  assertEquals(writes("sed -i s/a/b/ `git ls-files`"), [{ path: "/p/?" }]);
  assertEquals(writes("sed -i s/a/b/ $(grep -rl a src)"), [{ path: "/p/src/?" }]);
  for (
    const quiet of [
      "wc -l $(git ls-files)",
      "echo $(ls -A)",
      "for f in $(ls); do cat $f; done",
    ]
  ) {
    assertEquals(writes(quiet), [], quiet);
  }
});
