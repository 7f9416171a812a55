/**
 * Tests of the read-only shell check: the earlier git allowlist and every
 * rule of the read-only first-command allowance, for Bash and PowerShell.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { inFreshProcess } from "../../helpers/fresh_process.ts";
import {
  loadReadOnly,
  MAX_READONLY_CHARS,
  plainWords,
  type ReadOnlyKind,
  readOnlyKind,
} from "../../../src/shell/readonly/readonly.ts";
import type { ShellDialect } from "../../../src/shell/dialect.ts";
import { parseBash } from "../../../src/shell/bash/mod.ts";
import { parsePowerShell } from "../../../src/shell/powershell/mod.ts";
import { joinPieces, mulberry32 } from "../../helpers/prng.ts";
import {
  assertStepsPerChar,
  BASH_STEPS_PER_CHAR,
  POWERSHELL_STEPS_PER_CHAR,
} from "../../helpers/work.ts";

// PowerShell's rules load on demand (a Bash call never reads its parser),
// and so does the Bash parser (a plain command needs none).
await loadReadOnly("powershell");
await loadReadOnly("bash");

Deno.test("[lazy-loading] PowerShell's read-only rules load on demand; until then no PowerShell command is read-only", async () => {
  const printed = await inFreshProcess(
    new URL("../../../src/shell/readonly/mod.ts", import.meta.url),
    `const before = [m.readOnlyKind("powershell", "Get-ChildItem"), m.readOnlyKind("bash", "ls")];
    await m.loadReadOnly("powershell");
    console.log(JSON.stringify([...before, m.readOnlyKind("powershell", "Get-ChildItem")]));`,
  );
  assertEquals(printed, '[null,"readonly","readonly"]');
});

Deno.test("[lazy-loading] a plain Bash command is judged without the Bash parser, and ls or cat without the option rules; any other waits for them", async () => {
  const printed = await inFreshProcess(
    new URL("../../../src/shell/readonly/mod.ts", import.meta.url),
    `const quoted = "ls 'my dir'";
    const kinds = () => [m.readOnlyKind("bash", "ls -la src"), m.readOnlyKind("bash", "git status"), m.readOnlyKind("bash", quoted)];
    const before = kinds();
    await m.loadReadOnly("bash", "git status");
    const rulesOnly = kinds();
    await m.loadReadOnly("bash", quoted);
    console.log(JSON.stringify([before, rulesOnly, kinds()]));`,
  );
  assertEquals(
    printed,
    JSON.stringify([
      ["readonly", null, null],
      ["readonly", "readonly-git", null],
      ["readonly", "readonly-git", "readonly"],
    ]),
  );
});

Deno.test("[read-only-first-shell-command] a plain command gets the verdict the parser gives it", () => {
  const args = [
    "",
    " -la src",
    " README.md",
    " -n 5 a.txt",
    " --oneline -5",
    " status",
    " log --format=%H",
    " push origin main",
    " branch -D old",
    " -delete",
    " . -name x.ts -delete",
    " . -exec rm",
    " -x rm",
    " --pre cat x",
    " -o out.txt",
    " config user.name",
    " diff HEAD~1",
    " show HEAD:src/a.ts",
    " -r TODO src/",
  ];
  const programs = [
    "ls",
    "pwd",
    "cat",
    "head",
    "tail",
    "wc",
    "grep",
    "rg",
    "find",
    "fd",
    "tree",
    "git",
    "rm",
    "echo",
  ];
  const differ: string[] = [];
  for (const program of programs) {
    for (const arg of args) {
      const command = `${program}${arg}`;
      const parsed = `${command} #parsed`;
      if (plainWords(command) === null || plainWords(parsed) !== null) {
        if (!command.includes("~")) differ.push(`not plain: ${command}`);
        continue;
      }
      if (readOnlyKind("bash", command) !== readOnlyKind("bash", parsed)) differ.push(command);
    }
  }
  assertEquals(differ, []);
  assertEquals(plainWords("FOO=1 ls"), null);
  assertEquals(plainWords("ls ~"), null);
  assertEquals(plainWords("ls *.ts"), null);
  assertEquals(plainWords("ls; rm x"), null);
  assertEquals(plainWords("  ls \t -la  "), ["ls", "-la"]);
});

/**
 * The exact verdict for a command listed as read-only: "readonly-git" when
 * each of its `;`, `|`, `&&`, `||` pieces runs git (the lists below never
 * quote a separator inside a git command).
 */
function readOnlyVerdict(command: string): ReadOnlyKind {
  const pieces = command.split(/&&|\|\||[;|]/).map((p) => p.trim()).filter((p) => p !== "");
  return pieces.every((p) => /^git(\s|$)/i.test(p)) ? "readonly-git" : "readonly";
}

/** Asserts the verdict of every command in `commands`. */
function expectAll(tool: ShellDialect, commands: readonly string[], kind: ReadOnlyKind): void {
  for (const command of commands) {
    const expected = kind === "readonly" ? readOnlyVerdict(command) : kind;
    assertEquals(readOnlyKind(tool, command), expected, `${tool}: ${JSON.stringify(command)}`);
  }
}

const bash = (commands: readonly string[], kind: ReadOnlyKind) => expectAll("bash", commands, kind);
const ps = (commands: readonly string[], kind: ReadOnlyKind) =>
  expectAll("powershell", commands, kind);

// ---------------------------------------------------------------------------
// All-git commands.

Deno.test("[read-only-first-shell-command] a command whose every segment is allowlisted git introspection is readonly-git", () => {
  const allGit = [
    "git status",
    "git status --porcelain",
    "git status --short --branch",
    "git status -s",
    "git diff",
    "git diff --name-only --cached",
    "git diff --stat",
    "git diff a b",
    "git log",
    "git log --oneline --max-count=20",
    "git log -5",
    "git log --max-count 5",
    "git show",
    "git show HEAD:src/main.ts",
    "git show -s HEAD",
    "git show 'HEAD'",
    "git branch",
    "git branch -a",
    "git branch --show-current",
    "git rev-parse HEAD",
    "git ls-files",
    "  git status  ",
    "git\tstatus",
    "git status && git diff --stat",
    "git status; git log -3",
    "git rev-parse --show-toplevel || git status",
  ];
  bash(allGit, "readonly-git");
  ps(allGit, "readonly-git");
});

Deno.test("[read-only-first-shell-command] git mixed with other read-only programs is readonly, anything else null", () => {
  bash(
    ["git status; ls", "git status | cat", "git log --oneline | head -5", "ls && git status"],
    "readonly",
  );
  ps(["git status; Get-ChildItem", "git log | Select-String fix"], "readonly");
  bash([
    "git STATUS",
    "git status > out",
    "git status && rm -rf x",
    "git show $(rm -rf x)",
    "git show `id`",
    "git show HEAD~1 --output=x",
    "git show --output=x",
    "git show -ox",
    "git branch -D main",
    "git -C repo status",
    "/usr/bin/git status",
    "GIT_DIR=x git status",
    "git status\nrm -rf x",
    "git status\u00a0",
  ], null);
});

// ---------------------------------------------------------------------------
// Allowlisted programs.

Deno.test("[read-only-first-shell-command] every allowlisted Bash program passes", () => {
  bash([
    "ls",
    "ls -la src",
    "pwd",
    "cat README.md",
    "head -n 20 src/main.ts",
    "tail -n 50 log.txt",
    "wc -l src/*.ts",
    "grep -rn 'widget' src",
    "rg -n widget src",
    "find . -name '*.ts' -type f",
    "fd -e ts widget",
    "tree -L 2 src",
    "git status -s",
    "git log -n 3 --stat",
  ], "readonly");
});

Deno.test("[read-only-first-shell-command] every allowlisted PowerShell command and alias passes, case-insensitively", () => {
  ps([
    "Get-ChildItem",
    "gci -Recurse -Filter *.ts",
    "ls src",
    "dir C:\\work",
    "Get-Content README.md",
    "gc -TotalCount 20 a.txt",
    "cat a.txt",
    "type a.txt",
    "Select-String -Pattern widget -Path src\\*.ts",
    "sls widget a.txt",
    "Get-Location",
    "gl",
    "pwd",
    "GET-CHILDITEM",
    "get-content a.txt",
    "Select-string x y",
    "rg -n widget src",
    "RG widget",
    "git status -s",
    "Git log -n 3",
  ], "readonly");
});

Deno.test("[read-only-first-shell-command] unknown programs, wrappers, paths, assignments and globs in the first word reject", () => {
  bash([
    "npm test",
    "echo hi",
    "sort a.txt",
    "env ls",
    "env -i ls",
    "sudo ls",
    "sh -c ls",
    "bash -c 'ls'",
    "xargs ls",
    "nohup ls",
    "command ls",
    "exec ls",
    "time ls",
    "/bin/ls",
    "./ls",
    "bin/ls",
    "FOO=1 ls",
    "ls=1",
    "l*",
    "l?",
    "[l]s",
    "'ls'",
    '"ls"',
    "LS",
    "Ls -la",
  ], null);
  ps([
    "Remove-Item x",
    "Set-Content a b",
    "Out-File x",
    "Invoke-Expression ls",
    "iex ls",
    "Start-Process ls",
    "Get-ChildItem.exe",
    "Microsoft.PowerShell.Management\\Get-ChildItem",
    ".\\ls",
    "C:\\tools\\rg.exe x",
    "grep x a",
    "find .",
    "tree",
    "'ls'",
    '"Get-ChildItem"',
    "g*",
    "Get-Item x",
  ], null);
});

// ---------------------------------------------------------------------------
// The character screen.

Deno.test("[read-only-first-shell-command] non-ASCII and control characters reject, tab does not", () => {
  const bad = [
    "ls café",
    "ls \u201cx\u201d",
    "ls \u2018x\u2019",
    "ls \u2013la",
    "ls\u00a0-la",
    "ls\r",
    "ls\npwd",
    "ls \x01",
    "ls \x1b[0m",
    "ls \x7f",
    "ls '\x00'",
    "grep 'é' a",
  ];
  bash(bad, null);
  ps(bad, null);
  bash(["ls\t-la", "ls -la\t"], "readonly");
  ps(["ls\t-Force"], "readonly");
});

Deno.test("[read-only-first-shell-command] an unterminated quote rejects", () => {
  const bad = ["ls 'src", 'ls "src', "grep 'a\"", "cat it's"];
  bash(bad, null);
  ps(bad, null);
});

Deno.test("[read-only-first-shell-command] a lone & rejects, && does not", () => {
  const bad = ["ls &", "ls & pwd", "ls &>x", "ls |& cat", "ls &&& pwd", "& ls"];
  bash(bad, null);
  ps(bad, null);
  bash(["ls && pwd", "grep 'a&b' f", 'grep "a & b" f'], "readonly");
  ps(["ls && pwd", "sls 'a&b' f"], "readonly");
});

Deno.test("[read-only-first-shell-command] Bash rejects a backslash anywhere", () => {
  bash(["\\ls", "ls a\\ b", "grep 'a\\b' f", 'grep "a\\b" f', "ls \\"], null);
});

Deno.test("[read-only-first-shell-command] Bash rejects $ and backticks outside single quotes", () => {
  bash([
    "ls $HOME",
    "ls ${HOME}",
    "cat $(echo x)",
    "cat `echo x`",
    'grep "$x" f',
    'grep "`id`" f',
    "ls $",
    "grep 'a'$x f",
  ], null);
  bash(["grep '$HOME' f", "grep 'a`b' f", "rg '^$' f"], "readonly");
});

Deno.test("[read-only-first-shell-command] Bash rejects unquoted < > ( ) { } but not quoted ones", () => {
  bash([
    "cat < a",
    "ls > a",
    "ls >> a",
    "ls 2>/dev/null",
    "cat <<EOF",
    "cat <<< x",
    "diff <(ls) <(ls)",
    "(ls)",
    "ls (x)",
    "{ ls; }",
    "ls {a,b}",
    "ls a{1..3}",
    "ls >",
  ], null);
  bash([
    "grep '<div>' index.html",
    'grep "a(b)" f',
    "grep '{x}' f",
    "rg 'fn(' src",
  ], "readonly");
});

Deno.test("[read-only-first-shell-command] PowerShell: backtick, unquoted-or-double-quoted $, and unquoted < > ( ) { } @ [ ] all reject", () => {
  ps([
    "ls $env:TEMP",
    "ls $HOME",
    "ls ${x}",
    "ls $(rm x)",
    "ls `$x",
    "ls `",
    'sls "$x" f',
    'sls "a`nb" f',
    "ls > out",
    "ls 2>&1",
    "ls *> x",
    "ls < x",
    "ls <# c #>",
    "ls (rm x)",
    "ls {rm x}",
    "ls @x",
    "ls @(1)",
    "ls @{a=1}",
    "ls [x]",
    "ls x]",
    "[IO.File]::Delete('x')",
  ], null);
  ps([
    "sls '$x' f",
    "sls 'a`b' f",
    "sls '(x)' f",
    'sls "(x)" f',
    "sls '@{}' f",
    "gci '[ab].txt'",
    'sls "<div>" f',
  ], "readonly");
});

Deno.test("[read-only-first-shell-command] PowerShell backslashes are literal and pass", () => {
  ps([
    "Get-ChildItem C:\\work\\src",
    "gc .\\README.md",
    "sls 'a\\b' x",
    'sls "\\d+" x',
    "ls C:\\",
  ], "readonly");
});

Deno.test("[read-only-first-shell-command] PowerShell --% rejects", () => {
  ps(["ls --% x", "git log --% --output=x", "--%", "rg x --%"], null);
  ps(["ls '--%'", 'sls "--%" f'], "readonly");
});

Deno.test("[read-only-first-shell-command] comments pass without hiding anything", () => {
  bash(["ls # list it", "ls # $(rm -rf /) ; rm -rf /", "ls;# x", "grep a#b f"], "readonly");
  ps(["ls # list it", "ls # $(rm x)"], "readonly");
  bash(["rm x # ls"], null);
});

// ---------------------------------------------------------------------------
// Segments.

Deno.test("[read-only-first-shell-command] ; | && || split the command and every segment must pass", () => {
  const good = ["ls; pwd", "ls;pwd", "git status -s && git diff", "ls x || pwd", "ls;"];
  bash(good, "readonly");
  ps(good, "readonly");
  bash(["git log | head -n 5", "git log --oneline | grep fix | wc -l"], "readonly");
  ps(["git log | sls fix", "gci -Recurse | Select-String x | gc"], "readonly");
  const bad = [
    "ls; npm test",
    "git status && rm x",
    "ls | xargs rm",
    "find . -name x | sh",
    "ls || make",
    "cat a | tee b",
    "ls | sort",
  ];
  bash(bad, null);
  ps(bad, null);
});

Deno.test("[read-only-first-shell-command] case separators, negation and compound commands reject in Bash", () => {
  bash([
    "ls ;; pwd",
    "ls ;& pwd",
    "! ls",
    "! grep x f",
    "if ls; then ls; fi",
    "for f in a b; do cat f; done",
    "while ls; do ls; done",
    "until ls; do ls; done",
    "case x in",
    "then ls",
    "ls; fi",
    "function ls",
    "coproc ls",
    "[[ -f x ]]",
  ], null);
});

// ---------------------------------------------------------------------------
// Options that run programs or write files.

Deno.test("[read-only-first-shell-command] find actions that run, delete or write reject", () => {
  bash([
    "find . -exec rm {} +",
    "find . -execdir cat {} +",
    "find . -ok rm {} +",
    "find . -okdir rm {} +",
    "find . -delete",
    "find . -name x -delete",
    "find . -fprint out",
    "find . -fprint0 out",
    "find . -fprintf out %p",
    "find . -fls out",
    "find . '-exec' rm {} +",
    'find . "-delete"',
  ], null);
  bash([
    "find . -name '*.ts'",
    "find src -type f -newer x -print",
    "find . -print0",
    "find . -maxdepth 2 -ls",
    "find . -printf %p",
    "find . -name delete",
  ], "readonly");
});

Deno.test("[read-only-first-shell-command] fd options that run programs reject, also inside a short cluster", () => {
  bash([
    "fd -x rm",
    "fd -X rm",
    "fd --exec rm",
    "fd --exec-batch rm",
    "fd --exec=rm",
    "fd -Hx rm",
    "fd -HIX rm",
    "fd -l",
    "fd -Hl",
    "fd --list-details",
  ], null);
  bash(["fd", "fd -H -I widget", "fd -e ts", "fd -t f -d 3 src", "fd --extension ts"], "readonly");
});

Deno.test("[read-only-first-shell-command] rg preprocessors, hostname helper and decompression reject", () => {
  const bad = [
    "rg --pre cat x",
    "rg --pre=cat x",
    "rg --pre-glob '*.gz' x",
    "rg --hostname-bin=x y",
    "rg --hostname-bin x y",
    "rg --search-zip x",
    "rg -z x",
    "rg -iz x",
    "rg -zi x",
    "rg '--pre=cat' x",
    "rg --pretty x",
  ];
  bash(bad, null);
  ps(bad, null);
  ps(["rg x,--pre=cat", "rg -n x,-z"], null);
  const good = [
    "rg -n widget",
    "rg -i -w x src",
    "rg --no-search-zip x",
    "rg -t ts x",
    "rg -g '*.ts' x",
    "rg -p x",
  ];
  bash(good, "readonly");
  ps(good, "readonly");
});

Deno.test("[read-only-first-shell-command] tree -o and -R reject, also inside a short cluster", () => {
  bash(["tree -o out.txt", "tree -R", "tree -aR", "tree -ao out", "tree -Ro"], null);
  bash(["tree", "tree -a -L 2", "tree -d src", "tree -I node_modules"], "readonly");
});

// ---------------------------------------------------------------------------
// git.

Deno.test("[read-only-first-shell-command] git takes no global options", () => {
  const bad = [
    "git -C repo log",
    "git -c core.pager=sh log",
    "git --git-dir=x log",
    "git --work-tree=x diff",
    "git --no-pager log",
    "git -p log",
    "git --exec-path=x status",
    "git",
  ];
  bash(bad, null);
  ps(bad, null);
});

Deno.test("[read-only-first-shell-command] only the read-only git subcommands pass", () => {
  const good = [
    "git status -s",
    "git log -1",
    "git diff --stat",
    "git show -s HEAD",
    "git ls-files -m",
    "git rev-parse --show-toplevel",
    "git branch -v",
  ];
  bash(good, "readonly");
  ps(good, "readonly");
  const bad = [
    "git push",
    "git commit -m x",
    "git checkout main",
    "git stash list",
    "git config user.name",
    "git remote -v",
    "git fetch",
    "git blame x",
    "git grep x",
    "git reset",
    "git tag",
    "git st",
    "git Log",
    "git difftool",
  ];
  bash(bad, null);
  ps(bad, null);
});

Deno.test("[read-only-first-shell-command] git --output and its abbreviations, --ext-diff and --textconv reject", () => {
  const bad = [
    "git diff --output=x",
    "git diff --output x",
    "git log -p --output=x",
    "git show --output=x HEAD",
    "git diff --out=x",
    "git diff --outp=x",
    "git diff --output-indicator-new=+",
    "git diff --ext-diff",
    "git log -p --ext-diff",
    "git show --ext-diff",
    "git diff --textconv",
    "git show --textconv HEAD:x",
    "git log --show-signature",
    "git log --format=%G?",
    "git log --pretty=format:%GS",
    "git log --format '%G?'",
    "git show --pretty=%GK",
    "git branch --format='%(signature)'",
  ];
  bash(bad, null);
  ps(bad, null);
  bash(
    ["git diff --no-ext-diff", "git show --no-textconv HEAD", "git log --format=%H%n%s"],
    "readonly",
  );
});

Deno.test("[read-only-first-shell-command] git options outside the subcommand's allowlist reject", () => {
  bash([
    "git status --foo",
    "git status -x",
    "git status --short=1",
    "git log --bogus",
    "git log -L1,2:x",
    "git log -O x",
    "git diff --no-index a b",
    "git diff -n 3",
    "git diff -5",
    "git ls-files --stat",
    "git rev-parse --parseopt",
    "git rev-parse -s",
    "git status --cached",
  ], null);
});

Deno.test("[read-only-first-shell-command] git option values: attached, separate, optional, and never a dash word", () => {
  bash([
    "git log -n 5",
    "git log -n5",
    "git log -5",
    "git log --max-count 5",
    "git log --max-count=5 --stat",
    "git log --author 'A B' --since=2.weeks",
    "git log --grep fix -i",
    "git log -S needle",
    "git log -Sneedle -p",
    "git diff -U3",
    "git diff -U 3",
    "git diff -M50% HEAD~1",
    "git diff --stat=80",
    "git diff --color=always",
    "git status -uno",
    "git status -sb",
    "git status --porcelain=v2",
    "git status --untracked-files=all",
    "git ls-files -x '*.o' -o",
    "git ls-files --exclude=*.o -o",
    "git rev-parse --abbrev-ref HEAD",
    "git rev-parse --short=8 HEAD",
    "git rev-parse --git-path hooks",
    "git log --",
  ], "readonly");
  bash(
    [
      "git log -n --output=x",
      "git log --author --output=x",
      "git log --grep -x",
      "git diff -U -x",
      "git diff --cached=x",
      "git log --oneline=1",
    ],
    null,
  );
});

Deno.test("[read-only-first-shell-command] options after -- are still checked", () => {
  const bad = ["git diff -- --output=x", "git log -- -p --ext-diff", "git status -- --x"];
  bash(bad, null);
  ps(bad, null);
  bash(["git diff -- src", "git log --oneline -- a b"], "readonly");
});

Deno.test("[read-only-first-shell-command] git branch takes no positional argument, so it only lists", () => {
  const bad = [
    "git branch x",
    "git branch -d x",
    "git branch -D x",
    "git branch --delete x",
    "git branch -m a b",
    "git branch -M a",
    "git branch -c a b",
    "git branch -f x HEAD",
    "git branch --set-upstream-to=origin/x",
    "git branch -u origin/x",
    "git branch --unset-upstream",
    "git branch --edit-description",
    "git branch --track x",
    "git branch --list x",
    "git branch -- x",
    "git branch -",
  ];
  bash(bad, null);
  ps(bad, null);
  bash([
    "git branch",
    "git branch -a",
    "git branch -vv",
    "git branch -avr",
    "git branch --list",
    "git branch --show-current -v",
    "git branch --contains HEAD",
    "git branch --contains",
    "git branch --merged main --no-color",
    "git branch --sort=-committerdate",
    "git branch --format='%(refname:short)'",
    "git branch --points-at=HEAD",
  ], "readonly");
  bash(["git branch --sort -committerdate"], null);
});

Deno.test("[read-only-first-shell-command] PowerShell comma lists reach a native program as separate arguments", () => {
  ps([
    "git log --oneline,--output=x",
    "git diff a,--ext-diff",
    "git branch -a,x",
    "rg x,-z",
  ], null);
  ps(["git log --oneline 'a,--output=x'", "gci a,b", "rg -g '*.ts,*.js' x"], "readonly");
});

// ---------------------------------------------------------------------------
// Limits.

Deno.test("[read-only-first-shell-command] over 4096 characters, or a non-string command, rejects", () => {
  const at = "ls " + "a".repeat(MAX_READONLY_CHARS - 3);
  assertEquals(at.length, 4096);
  assertEquals(readOnlyKind("bash", at), "readonly");
  assertEquals(readOnlyKind("bash", at + "a"), null);
  assertEquals(readOnlyKind("powershell", at + "a"), null);
  const gitAt = "git status" + " ".repeat(MAX_READONLY_CHARS - 10);
  assertEquals(readOnlyKind("bash", gitAt), "readonly-git");
  assertEquals(readOnlyKind("bash", gitAt + " "), null);
  for (const bad of [undefined, null, 42, {}, ["ls"]]) {
    assertEquals(readOnlyKind("bash", bad as unknown as string), null);
    assertEquals(readOnlyKind("powershell", bad as unknown as string), null);
  }
  assertEquals(readOnlyKind("bash", ""), null);
  assertEquals(readOnlyKind("bash", "   "), null);
  assertEquals(readOnlyKind("powershell", "# only a comment"), null);
});

const PIECES = [
  "ls",
  "git",
  "status",
  "log",
  "rg",
  "find",
  "fd",
  "tree",
  "Get-ChildItem",
  " ",
  " ",
  "-",
  "--",
  "-exec",
  "--pre",
  "-z",
  "-x",
  "-o",
  "--output=x",
  "'",
  '"',
  "`",
  "$",
  "(",
  ")",
  "{",
  "}",
  "@",
  "[",
  "]",
  "<",
  ">",
  "&",
  "&&",
  "|",
  "||",
  ";",
  "\n",
  "\\",
  "#",
  "<#",
  "#>",
  "--%",
  "=",
  ",",
  "é",
  "\u201c",
  "\t",
  "\r",
  "a",
  "x",
  "*",
];

Deno.test("[read-only-first-shell-command] random commands never throw, and extra commands never pass", () => {
  const rand = mulberry32(0x5eed);
  for (let n = 0; n < 3000; n++) {
    const command = joinPieces(rand, PIECES, 1 + Math.floor(rand() * 24));
    for (const tool of ["bash", "powershell"] as const) {
      const kind = readOnlyKind(tool, command);
      assert(kind === null || kind === "readonly" || kind === "readonly-git", command);
      if (kind !== null && !command.includes("#")) {
        assertEquals(readOnlyKind(tool, `${command} && touch x`), null, command);
        assertEquals(readOnlyKind(tool, `${command} ; npm test`), null, command);
      }
    }
  }
});

Deno.test("[read-only-first-shell-command] hostile near-limit input is lexed with bounded work, and past the limit not at all", () => {
  for (const unit of ["'", '"', "ls ", "; ", "(", "$(", "a,", "-x", "git log -n "]) {
    const command = unit.repeat(Math.floor(MAX_READONLY_CHARS / unit.length));
    for (const tool of ["bash", "powershell"] as const) {
      const kind = readOnlyKind(tool, command);
      assert(kind === null || kind === "readonly" || kind === "readonly-git", unit);
    }
    // The check reads its input through these lexers, and only this far.
    const label = JSON.stringify(unit);
    assertStepsPerChar(label, command, parseBash(command).steps, BASH_STEPS_PER_CHAR);
    assertStepsPerChar(label, command, parsePowerShell(command).steps, POWERSHELL_STEPS_PER_CHAR);
    assertEquals(readOnlyKind("bash", unit.repeat(200_000)), null, unit);
  }
});
