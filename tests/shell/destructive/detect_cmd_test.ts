/**
 * Tests of the cmd.exe reader of the destructive detector: `,` `;` `=` as
 * word separators, `call`, `start`, `if`, `for … do` and parentheses
 * running a later command, `for /r` and `forfiles /s` deleting in every
 * subdirectory, variables set on the line, a command named by an unknown
 * variable, and `format` of a drive. Each mechanism has destructive forms
 * and benign look-alikes, from the Bash and the PowerShell tool, run
 * through the property that a benign prefix never changes a verdict and
 * under a bound on the work counted.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { type EvasionCase, registerEvasionCases } from "../../helpers/destructive_cases.ts";
import { destructiveHit, newDetectBudget } from "../../../src/shell/destructive/destructive.ts";
import { loadAllParts } from "../../../src/shell/destructive/mod.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();

const CASES: readonly EvasionCase[] = [
  {
    mechanism: "`,` `;` and `=` separate words like blanks",
    destructive: [
      "cmd /c rd,/s,/q x",
      'cmd /c "rd;/s;/q x"',
      "cmd /c rd=/s=/q x",
      "cmd /c rd /s,/q x",
      "cmd /c git,reset,--hard",
    ],
    benign: ["cmd /c echo,rd /s /q x", "cmd /c rd,x", "cmd /c dir,/s"],
  },
  {
    mechanism: "call, start, if, for … do and parentheses run the command after them",
    destructive: [
      "cmd /c call rd /s /q x",
      "cmd /c call del /s /q x",
      "cmd /c call git reset --hard",
      "cmd /c start /b rd /s /q x",
      'cmd /c start "" rd /s /q x',
      'cmd /c "(rd /s /q x)"',
      'cmd /c "if exist x (rd /s /q x) else (echo no)"',
      'cmd /c "if exist x git reset --hard"',
      'cmd /c "if /i a==a rd /s /q x"',
      "cmd /c \"for /f %a in ('dir /b') do rd /s /q %a\"",
    ],
    benign: [
      "cmd /c call build.bat",
      "cmd /c start notepad",
      'cmd /c "(echo a)"',
      'cmd /c "if exist x echo rd /s"',
      'cmd /c "if a==b echo rd /s"',
      'cmd /c "for %f in (*.txt) do echo rm -rf %f"',
      'cmd /c "for %d in (*) do echo %d"',
    ],
  },
  {
    mechanism: "for /r and forfiles /s run a delete in every subdirectory",
    destructive: [
      'cmd /c "for /r %d in (*) do del %d"',
      'cmd /c "for /r . %f in (*.log) do @del %f"',
      "cmd /c 'forfiles /s /m *.log /c \"cmd /c del @path\"'",
      "cmd /c 'forfiles /c \"cmd /c rd /s /q @path\"'",
    ],
    benign: [
      'cmd /c "for /r %d in (*) do echo %d"',
      "cmd /c 'forfiles /s /m *.log /c \"cmd /c echo @path\"'",
      "cmd /c 'forfiles /m *.log /c \"cmd /c del @path\"'",
    ],
  },
  {
    mechanism: "variables set on the line are substituted and reach the programs it runs",
    destructive: [
      'cmd /c "set x=rd&& call %x% /s /q y"',
      'cmd /c "set x=rd&& call !x! /s /q y"',
      'cmd /c "set GIT_PAGER=rm -rf x&& git log"',
    ],
    benign: ['cmd /c "set x=echo&& call %x% /s /q y"', 'cmd /c "set GIT_PAGER=less&& git log"'],
  },
  {
    mechanism: "a command named by an unknown variable is read as a remover or as cmd itself",
    destructive: ['cmd /c "%COMSPEC% /c rd /s /q x"', 'cmd /c "%x% /s /q y"'],
    benign: ['cmd /c "%EDITOR% notes.txt"', 'cmd /c "%x% build"'],
  },
  {
    mechanism: "format of a drive",
    destructive: ["cmd /c format c: /q", "cmd /c format D: /fs:ntfs"],
    benign: ["cmd /c echo format c:", "cmd /c format /?"],
  },
  {
    mechanism: "the same forms from the PowerShell tool",
    tool: "powershell",
    destructive: [
      "cmd /c rd,/s,/q x",
      'cmd /c "rd;/s;/q x"',
      "cmd /c 'if exist x (rd /s /q x)'",
      'cmd /c "call rd /s /q x"',
      'cmd /c "set x=rd&& call %x% /s /q y"',
    ],
    benign: ["cmd /c dir /s", 'cmd /c "echo rd /s /q x"'],
  },
];

registerEvasionCases("cmd.exe", CASES);

Deno.test("[destructive-bash-gate] cmd.exe: a keyword's later words are tried as starts within the budget, then scanned", () => {
  const long = `cmd /c "if ${"a ".repeat(3000)}rd /s /q x"`;
  const budget = newDetectBudget();
  assertEquals(destructiveHit("bash", long, [], undefined, budget)?.rule, "cmd-remove-tree");
  assert(budget.chars >= 0 && budget.left >= 0, JSON.stringify(budget));
  assertEquals(destructiveHit("bash", `cmd /c "if ${"a ".repeat(3000)}echo x"`, []), null);
});

Deno.test("[destructive-bash-gate] cmd.exe: the fail-closed scan knows rd /s", () => {
  // Unbalanced quoting makes the line unreadable; the scan still finds the delete.
  assertEquals(destructiveHit("bash", "cmd /c 'rd /s /q x", [])?.rule, "cmd-remove-tree");
});
