/**
 * Evasions of the destructive gate from issue 13 whose mechanisms are
 * closed: wrappers not known before (read as command runners), a program
 * named by a variable handed a script, `xargs` completing a wrapper from
 * stdin, every spelling of the PowerShell CLI's `-Command`, and cmd.exe's
 * `/r`, glued switches, `@` and `if`/`for` bodies. Each destructive form
 * has a benign look-alike that must pass.
 */

import { assertEquals } from "../helpers/assert.ts";
import { isDestructive } from "../../src/shell/destructive.ts";

const CASES: readonly { mechanism: string; destructive: string[]; benign: string[] }[] = [
  {
    mechanism: "wrappers run the command after their own options and operands",
    destructive: [
      "chrt 1 rm -rf x",
      "chrt -f 10 rm -rf x",
      "taskset 1 rm -rf x",
      "taskset -c 0 git reset --hard",
      "strace -o log rm -rf x",
      "ltrace rm -rf x",
      "fakeroot rm -rf x",
      "run0 rm -rf x",
      "gosu root rm -rf x",
      "setpriv --reuid=1000 rm -rf x",
      "prlimit --nofile=10 rm -rf x",
      "numactl --cpunodebind=0 rm -rf x",
      "xvfb-run rm -rf x",
      "bwrap --bind / / rm -rf x",
      "sg wheel -c 'rm -rf x'",
      "capsh -- -c 'rm -rf x'",
    ],
    benign: [
      "chrt 1 ls -la",
      "taskset -c 0 make",
      "strace -o log ls",
      "fakeroot dpkg-deb --build pkg",
      "gosu app node server.js",
      "xvfb-run npm test",
      "sg wheel -c 'echo hi'",
    ],
  },
  {
    mechanism: "a program named by a variable may be a shell: its script arguments are read",
    destructive: ["$SHELL -c 'rm -rf x'", '$BASH -c "git reset --hard"', "${SH:-sh} -c 'rm -rf x'"],
    benign: ["$SHELL -c 'echo hi'", "$EDITOR notes.txt", '$PAGER "README.md"'],
  },
  {
    mechanism: "xargs completes a wrapper with the words it reads",
    destructive: [
      "echo rm -rf x | xargs env",
      "echo rm -rf x | xargs nice",
      "echo rm -rf x | xargs sudo",
      "printf 'git reset --hard' | xargs nohup",
    ],
    benign: ["echo hello | xargs env", "echo ls | xargs sudo", "find . -name '*.o' | xargs ls -l"],
  },
  {
    mechanism: "every spelling of the PowerShell CLI's -Command is read",
    destructive: [
      'pwsh -Comm "Remove-Item -Recurse x"',
      'pwsh -COMMA "Remove-Item -Recurse x"',
      'pwsh --command "Remove-Item -Recurse x"',
      'powershell /c "Remove-Item -Recurse x"',
      'powershell /command "Remove-Item -Recurse x"',
      "powershell /ec cgBtACAALQByACAAeAA=",
    ],
    benign: [
      'pwsh -Comm "Get-ChildItem"',
      'pwsh --command "Write-Output hi"',
      'powershell /c "Get-Location"',
    ],
  },
  {
    mechanism: "cmd.exe: /r, switches glued to the command, @, if and for bodies",
    destructive: [
      "cmd /r rd /s /q x",
      "cmd /c rd/s/q x",
      "cmd /c del/s/q *.log",
      'cmd /c "@rd /s /q x"',
      "cmd /c if exist x rd /s /q x",
      'cmd /c "for %d in (a b) do rd /s /q %d"',
    ],
    benign: [
      "cmd /r dir /s",
      "cmd /c echo rd /s",
      "cmd /c if exist x echo rd",
      "cmd /c rd x",
      'cmd /c "@echo off"',
    ],
  },
];

for (const c of CASES) {
  Deno.test(`[destructive-bash-gate] ${c.mechanism}`, () => {
    const missed = c.destructive.filter((cmd) => !isDestructive("Bash", cmd, []));
    const flagged = c.benign.filter((cmd) => isDestructive("Bash", cmd, []));
    assertEquals({ missed, flagged }, { missed: [], flagged: [] });
  });
}
