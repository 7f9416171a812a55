/**
 * Names handed to a writer from a source the line does not show
 * (`src/hook/unread_names.ts`): a file, or a program's output that is no
 * listing. Read through the folder-write reader and through the shell
 * reader, whose command word lies past xargs.
 */
import { assertEquals } from "../helpers/assert.ts";
import { folderWrites } from "../../src/hook/folder_writes.ts";
import { substitutionsIn, unreadNameWrites } from "../../src/hook/unread_names.ts";
import { parseBash, type Segment } from "../../src/shell/bash/mod.ts";
import { readOnlyKind } from "../../src/shell/readonly/mod.ts";
import { hitsOf } from "./shell_reader.ts";

function parse(code: string): readonly Segment[] | null {
  const p = parseBash(code);
  return p.ok ? p.segments : null;
}

/** The sources of the hidden names `command` hands to a writer, as a denial shows them. */
function hidden(command: string): string[] {
  const words = (s: Segment) => s.words.map((w) => w.text);
  return unreadNameWrites(parse(command)!, {
    cwd: "/p",
    // Past a runner and its options to the command it runs, as the shell reader finds it.
    commandAt: (s) => {
      const all = words(s);
      let at = 0;
      while (["sudo", "xargs", "parallel"].includes(all[at] ?? "")) {
        at++;
        while ((all[at] ?? "").startsWith("-")) at += ["-a", "-I", "-n"].includes(all[at]) ? 2 : 1;
      }
      return at;
    },
    readsOnly: (s) => readOnlyKind("bash", s.raw) !== null,
    parse,
  }).map((w) => {
    assertEquals(w.anywhere, true);
    return w.shown;
  });
}

Deno.test("[self-protection] a runner handed names from a file or a program's output may change any file", () => {
  assertEquals(hidden("xargs rm -rf < list"), ["<the names in list>"]);
  assertEquals(hidden("xargs -a list rm -rf"), ["<the names in list>"]);
  assertEquals(hidden("xargs -alist rm -rf"), ["<the names in list>"]);
  assertEquals(hidden("xargs --arg-file=list sed -i d"), ["<the names in list>"]);
  assertEquals(hidden("parallel rm -rf :::: list"), ["<the names in list>"]);
  assertEquals(hidden("cat list | xargs rm -f"), ["<the names in list>"]);
  assertEquals(hidden("sort -u list | xargs rm -f"), ["<the names in list>"]);
  assertEquals(hidden("cat list | sort | uniq | xargs -r rm -f"), ["<the names in list>"]);
  assertEquals(hidden("sudo xargs -a list rm"), ["<the names in list>"]);
  assertEquals(hidden("git diff --name-only | xargs sed -i s/a/b/"), [
    "<the names git diff prints>",
  ]);
  assertEquals(hidden("jq -r '.files[]' x.json | xargs rm -f"), ["<the names jq prints>"]);
  // A program that makes names from what it is given hides them too.
  assertEquals(hidden("echo x | sed s/x/y/ | xargs rm -rf"), ["<the names sed prints>"]);
  assertEquals(hidden('echo "$(cat list)" | xargs rm'), ["<the names in list>"]);
  assertEquals(hidden("xargs rm <<EOF\n$(cat list)\nEOF"), ["<the names in list>"]);
  assertEquals(hidden("xargs rm -rf < <(cat list)"), ["<the names in list>"]);
  assertEquals(hidden("exec 3< list; xargs rm -rf <&3"), ["<the names on descriptor 3>"]);
  // A content searcher without a names-only option prints lines of the files it reads.
  assertEquals(hidden("grep . list | xargs rm -rf"), ["<the names in list>"]);
  assertEquals(hidden("grep -f patterns -v list | xargs rm"), ["<the names in list>"]);
  assertEquals(hidden("rg . list | xargs rm"), ["<the names rg prints>"]);
  // Printed, the names are code for the program they are piped on to.
  assertEquals(hidden("cat list | xargs echo rm -rf | sh"), ["<the names in list>"]);
  // A runner on the way turns a lister's names into what its command prints.
  assertEquals(hidden("ls lists | xargs cat | xargs rm -rf"), ["<the names xargs cat prints>"]);
});

Deno.test("[self-protection] names the line spells, or that only a lister names, are not hidden", () => {
  for (
    const shown of [
      "echo a.txt b.txt | xargs rm -f",
      "printf '%s\\n' a b | sort | xargs -I{} touch {}",
      "seq 1 3 | xargs -I{} touch f{}",
      "xargs rm -rf <<< 'a b'",
      "xargs rm <<EOF\na\nEOF",
      "ls -A src | xargs rm -rf",
      "find src -name '*.o' | xargs rm -f",
      "cat list | xargs wc -l",
      "cat list | xargs grep foo",
      "cat list | xargs echo",
      "git diff --name-only | xargs wc -l",
      "cat list | xargs",
      "grep -l x list | xargs rm -rf",
      "ls | grep -v keep | xargs rm -f",
      'while read f; do rm -f "$f"; done < <(find . -name "*.o")',
    ]
  ) {
    assertEquals(hidden(shown), [], shown);
  }
});

Deno.test("[self-protection] variables filled from a hidden source carry it to the command that writes with them", () => {
  assertEquals(hidden('while read f; do rm -rf "$f"; done < list'), ["<the names in list>"]);
  assertEquals(hidden('cat list | while read -r f; do rm "$f"; done'), ["<the names in list>"]);
  assertEquals(hidden('read -t 5 x < list; rm -rf "$x"'), ["<the names in list>"]);
  assertEquals(hidden('mapfile -t names < list; rm -rf "${names[@]}"'), [
    "<the names in list>",
  ]);
  assertEquals(hidden("readarray < list; rm -f ${MAPFILE[0]}"), ["<the names in list>"]);
  assertEquals(hidden("X=$(cat list); rm -rf $X"), ["<the names in list>"]);
  assertEquals(hidden('export X="$(cat list)" && rm -rf "$X"'), ["<the names in list>"]);
  assertEquals(hidden("for f in $(cat list); do rm -rf $f; done"), ["<the names in list>"]);
  assertEquals(hidden('while read f; do echo x > "$f"; done < list'), ["<the names in list>"]);
  // Printed into a program that does not only read them, they are code or names again.
  assertEquals(hidden('while read f; do echo "rm -rf $f" | sh; done < list'), [
    "<the names in list>",
  ]);
  for (
    const shown of [
      'while read f; do echo "$f"; done < list',
      'while read f; do wc -c "$f"; done < list',
      'while read f; do rm -rf "$f"; done <<< "a b"',
      "X=$(cat list); echo $X",
      'read -p "name? " answer; echo "$answer"',
      "for f in a b; do rm -f $f; done",
      'ls | while read f; do rm -rf "$f"; done',
      "X=$(date +%F); mkdir -p $X",
    ]
  ) {
    assertEquals(hidden(shown), [], shown);
  }
});

Deno.test("[self-protection] a writer given a substitution of hidden names may change any file", () => {
  assertEquals(hidden("rm -rf $(cat list)"), ["<the names in list>"]);
  assertEquals(hidden("rm -rf $(<list)"), ["<the names in list>"]);
  assertEquals(hidden("rm -rf `cat list`"), ["<the names in list>"]);
  assertEquals(hidden("sed -i s/a/b/ $(git diff --name-only)"), ["<the names git diff prints>"]);
  assertEquals(hidden('rm -rf "$(head -1 list)"'), ["<the names in list>"]);
  assertEquals(hidden("rm -rf $(grep . list)"), ["<the names in list>"]);
  for (
    const shown of [
      'echo "$(cat list)"',
      "wc -l $(cat list)",
      'rm -rf "$(mktemp -d)"',
      'mkdir -p "$(date +%F)"',
      'touch "$(basename x/y.txt)"',
      "sed -i s/a/b/ $(grep -rl a src)",
      "echo $((1 + 2)) > n.txt",
    ]
  ) {
    assertEquals(hidden(shown), [], shown);
  }
});

Deno.test("[self-protection] command substitutions are found inside a word, arithmetic left out", () => {
  assertEquals(substitutionsIn("~/$(cat l)/x"), ["cat l"]);
  assertEquals(substitutionsIn("$(echo $(cat l))"), ["echo $(cat l)"]);
  assertEquals(substitutionsIn("`cat l`.bak"), ["cat l"]);
  assertEquals(substitutionsIn("$((1+2))"), []);
  assertEquals(substitutionsIn("$(unclosed"), ["unclosed"]);
});

Deno.test("[self-protection] through the shell reader, hidden names reach the control surface and are shown by their source", () => {
  const reached = (command: string) =>
    hitsOf(command).map((h) => h.kind === "control" ? h.piece : h.kind);
  assertEquals(reached("xargs rm -rf < list"), ["<the names in list>"]);
  assertEquals(reached("cat list | xargs rm -f"), ["<the names in list>"]);
  assertEquals(reached("rm -rf $(cat list)"), ["<the names in list>"]);
  assertEquals(reached("git diff --name-only | xargs sed -i s/x/y/"), [
    "<the names git diff prints>",
  ]);
  assertEquals(reached("cat list | xargs wc -l"), []);
  assertEquals(reached("ls src | xargs rm -rf"), []);
  // The folder-write reader gives the same write, shown by its source.
  const writes = folderWrites(parse("cat list | xargs rm")!, {
    cwd: "/p",
    commandAt: (s) => s.words[0]?.text === "xargs" ? 1 : 0,
    readsOnly: (s) => readOnlyKind("bash", s.raw) !== null,
    parse,
  });
  assertEquals(writes.map((w) => [w.shown, w.anywhere]), [["<the names in list>", true]]);
});

Deno.test("[self-protection] in PowerShell, a file's lines handed to a command that changes items may be any file", () => {
  const reached = (command: string) =>
    hitsOf(command, "powershell").map((h) => h.kind === "control" ? h.piece : h.kind);
  for (
    const command of [
      "Get-Content list | Remove-Item -Recurse -Force",
      "gc list | ri -r -fo",
      "Get-Content list | ForEach-Object { Remove-Item $_ -Recurse }",
      "Remove-Item (Get-Content list) -Recurse",
      "$names = gc list; ri $names -r",
    ]
  ) {
    assertEquals(reached(command), ["<the names in list>"], command);
  }
  for (
    const command of [
      "gc a.txt | Set-Content b.txt",
      "Get-Content list | Measure-Object",
      "$n = gc list; Write-Output $n",
    ]
  ) {
    assertEquals(reached(command), [], command);
  }
});

Deno.test("[self-protection] code handed to a shell reads the shell's stdin: a hidden one reaches its runners and loops", () => {
  assertEquals(hidden("cat list | sh -c 'xargs rm -rf'"), ["<the names in list>"]);
  assertEquals(hidden("sh -c 'xargs rm -rf' < list"), ["<the names in list>"]);
  assertEquals(hidden(`cat list | bash -c 'while read f; do rm -rf "$f"; done'`), [
    "<the names in list>",
  ]);
  assertEquals(hidden("cat list | bash -lc 'cat | xargs rm'"), ["<the names in list>"]);
  for (
    const shown of [
      "cat list | sh -c 'wc -l'",
      "echo a | sh -c 'xargs rm'",
      "sh -c 'xargs rm -rf'",
      "cat list | sh -c 'xargs wc -l'",
    ]
  ) {
    assertEquals(hidden(shown), [], shown);
  }
});

Deno.test("[self-protection] a program told to change the files a list names may change any file", () => {
  for (
    const command of [
      "tar -T list -cf /tmp/x.tar --remove-files",
      "tar --files-from=list -czf /tmp/x.tgz --remove-files",
      "tar -Tlist -cf /tmp/x.tar --remove-files",
      "zip -m -@ /tmp/x.zip < list",
      "cat list | zip -m -@ /tmp/x.zip",
      "7z a -sdel /tmp/x.7z @list",
      "rsync --files-from=list --remove-source-files . /tmp/x",
      "git rm -r --pathspec-from-file=list",
      "git checkout HEAD~3 --pathspec-from-file=list",
      "cat list | git restore --pathspec-from-file=-",
    ]
  ) {
    assertEquals(hidden(command), ["<the names in list>"], command);
  }
  for (
    const command of [
      "tar -cf /tmp/x.tar -T list",
      "zip -@ /tmp/x.zip < list",
      "7z a /tmp/x.7z @list",
      "rsync --files-from=list . /tmp/x",
      "git add --pathspec-from-file=list",
    ]
  ) {
    assertEquals(hidden(command), [], command);
  }
});
