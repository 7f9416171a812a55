/**
 * Tests of the destructive-command detector: large tables of destructive
 * commands and look-alike benign ones for Bash and PowerShell, the
 * fail-closed reading of commands the lexer cannot vouch for, the extra
 * patterns, and seeded property tests.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import {
  compileExtraPatterns,
  destructiveHit,
  isDestructive,
  newDetectBudget,
} from "../../../src/shell/destructive/destructive.ts";
import { sqlDestructive } from "../../../src/shell/sql/mod.ts";
import { loadReadOnly, readOnlyKind } from "../../../src/shell/readonly/mod.ts";
import { joinPieces, mulberry32, pick } from "../../helpers/prng.ts";
import { assertStepsPerChar, CountingBudget } from "../../helpers/work.ts";
import { GIT_COMMANDS } from "../../../src/shell/programs/mod.ts";
import {
  destructiveHit as hitOf,
  findDestructive,
  forgetParts,
  loadAllParts,
  loadedParts,
} from "../../../src/shell/destructive/mod.ts";
import { readFromNothing } from "../../helpers/destructive_cases.ts";
import { MAX_READS } from "../../../src/shell/destructive/find.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();
// The Bash parser too: the read-only check reads a command that is not plain with it.
await loadReadOnly("bash");

/** Commands of `table` whose verdict under `tool` is not `expected`. */
function misjudged(
  tool: "bash" | "powershell",
  table: readonly string[],
  expected: boolean,
): string[] {
  return table.filter((c) => isDestructive(tool, c, []) !== expected);
}

const RM_FORMS = [
  "rm -rf /",
  "rm -rf build",
  "rm -fr build",
  "rm -Rf build",
  "rm -r -f build",
  "rm -f -r build",
  "rm --recursive --force build",
  "rm --force --recursive build",
  "rm --rec build",
  "rm -r build",
  "rm -R build",
  "rm build -rf",
  "rm -vrf build",
  "rm -rfv build",
  "rm -rf -- -odd-name",
  "/bin/rm -rf build",
  "/usr/bin/rm -rf build",
  "RM -rf build",
  "rm -{r,f} build",
];

const QUOTING_TRICKS = [
  "r''m -rf /",
  "\\rm -fr x",
  '"rm" -rf x',
  "'rm' -rf x",
  'r"m" -rf x',
  "$'rm' -rf x",
  "$'\\x72\\x6d' -rf x",
  "{rm,-rf,x}",
  "rm \\\n  -rf x",
  "rm '-rf' x",
  'rm "-r" x',
  "rm$IFS-rf$IFS/",
  "rm${IFS}-rf${IFS}x",
  "r$@m -rf x",
  "/???/r? -rf x",
  "/bin/r* -rf x",
];

const WRAPPED = [
  "sudo rm -rf /var/x",
  "sudo -u root rm -rf x",
  "sudo -E -u root -- rm -rf x",
  "sudo --user=root rm -rf x",
  "doas rm -rf x",
  "env rm -rf x",
  "env -i PATH=/bin rm -rf x",
  "env -u HOME rm -rf x",
  "env -S 'rm -rf' x",
  "FOO=1 rm -rf x",
  "FOO='a b' rm -rf x",
  'A="$(pwd)" git reset --hard',
  "command rm -rf x",
  "command -p rm -rf x",
  "builtin eval 'rm -rf x'",
  "exec rm -rf x",
  "exec -a name rm -rf x",
  "nohup rm -rf x &",
  "nice rm -rf x",
  "nice -n 10 rm -rf x",
  "time rm -rf x",
  "time -p rm -rf x",
  "timeout 10 rm -rf x",
  "timeout -s KILL 10s rm -rf x",
  "timeout --signal=TERM 5 rm -rf x",
  "stdbuf -oL rm -rf x",
  "stdbuf -o L rm -rf x",
  "xargs rm -rf",
  "find . -name '*.o' | xargs rm -rf",
  "xargs -0 -n 1 rm -rf < list",
  "xargs -I{} rm -rf {}",
  "sh -c 'rm -rf x'",
  'bash -c "rm -rf x"',
  "zsh -c 'rm -rf x'",
  "dash -c 'rm -rf x'",
  "ksh -c 'rm -rf x'",
  "bash -lc 'rm -rf x'",
  "bash -e -c 'rm -rf x'",
  "/bin/sh -c 'rm -rf x'",
  "eval 'rm -rf x'",
  "eval rm -rf x",
  "find . -exec rm -rf {} \\;",
  "find . -exec rm -rf {} +",
  "find . -execdir rm -rf {} \\;",
  "find . -ok rm -rf {} \\;",
  "find /tmp -type d -name cache -exec rm -r {} ';'",
  "sudo sh -c 'rm -rf /x'",
  "sudo env FOO=1 nice -n 5 timeout 60 rm -rf x",
  `bash -c "bash -c 'rm -rf x'"`,
  "echo 'rm -rf x' | bash",
  "echo 'rm -rf x' | sh -s",
  "bash <<'EOF'\nrm -rf x\nEOF",
  "sh <<< 'rm -rf x'",
  "ssh host 'rm -rf /srv/data'",
  "ssh -p 22 host rm -rf /srv",
  "watch rm -rf x",
  "su -c 'rm -rf /x' root",
  "setsid rm -rf x",
  `xargs sh -c 'rm -rf "$1"' _`,
  'eval "$(echo rm) -rf x"',
  '/???/?? -c "rm -rf x"',
  'source <(echo "rm -rf x")',
  ". <(printf 'rm -rf x')",
  'source /dev/stdin <<< "rm -rf x"',
  'flock /tmp/lock -c "rm -rf x"',
  'trap "rm -rf x" EXIT',
  "pwsh -Command 'Remove-Item -Recurse x'",
];

const SUBSTITUTED = [
  "$(echo rm) -rf x",
  "`echo rm` -rf x",
  "$(which rm) -rf x",
  "${RM:-rm} -rf x",
  "x=rm; $x -rf /",
  "f=-rf; rm $f x",
];

const SEPARATED = [
  "ls; rm -rf x",
  "ls && rm -rf x",
  "ls || rm -rf x",
  "ls | rm -rf x",
  "ls & rm -rf x",
  "ls\nrm -rf x",
  ";rm -rf x",
  "true |& rm -rf x",
  "ls;rm -rf x",
  "cd /tmp && rm -rf build # clean up",
];

const NESTED = [
  "if true; then rm -rf x; fi",
  "if false; then :; else rm -rf x; fi",
  'for d in a b; do rm -rf "$d"; done',
  "while true; do rm -rf x; break; done",
  "until false; do rm -rf x; done",
  "case $1 in a) rm -rf x;; esac",
  "(rm -rf x)",
  "{ rm -rf x; }",
  "f() { rm -rf x; }; f",
  "function f { rm -rf x; }",
  "echo $(rm -rf x)",
  "echo `rm -rf x`",
  "cat <(rm -rf x)",
  "! rm -rf x",
  "[[ -d x ]] && rm -rf x",
  "test -d x && rm -rf x",
  "cat <<EOF\n$(rm -rf x)\nEOF",
  "(cd x && (rm -rf y))",
];

const GIT = [
  "git reset --hard",
  "git reset --hard HEAD~1",
  "git reset --har HEAD",
  "git -C repo reset --hard",
  "git -c core.x=y reset --hard",
  "git --git-dir=.git --work-tree=. reset --hard",
  "git --no-pager reset --hard",
  "git checkout -- .",
  "git checkout -- src/file.ts",
  "git checkout .",
  "git checkout -f main",
  "git checkout --force main",
  "git checkout HEAD~1 -- file",
  "git clean -f",
  "git clean -fd",
  "git clean -xdf",
  "git clean --force -d",
  "git push --force",
  "git push -f origin main",
  "git push origin main -f",
  "git push -fu origin feature",
  "git push origin +main",
  "git push origin +feature:feature",
  "git push --force-with-lease origin main",
  "git push --force-with-lease=master origin HEAD:master",
  "git push --force-with-lease",
  "git push --force-with-lease origin HEAD:develop",
  "git push --force-with-lease origin trunk",
  "git push origin --delete feature",
  "git push origin :feature",
  "git push --mirror",
  "git -C repo push -f",
  "git branch -D feature",
  "git branch -d -f feature",
  "git branch --delete --force feature",
  "git branch -df feature",
  "git stash drop",
  "git stash drop stash@{0}",
  "git stash clear",
  "git reflog expire --expire=now --all",
  "git reflog delete HEAD@{1}",
  "git update-ref -d refs/heads/x",
  "git switch -f main",
  "git switch --discard-changes main",
  "git switch -C main",
  "git switch --force-create x",
  "git restore file.ts",
  "git restore .",
  "git restore --worktree file",
  "git restore -SW file",
  "git restore --staged --worktree file",
  "git rm -r dir",
  "git rm -rf dir",
  "git commit --amend",
  'git commit --amend -m "msg"',
  "git commit --am --no-edit",
  "git -c alias.nuke='reset --hard' nuke",
  "git -c alias.x='!rm -rf y' x",
  "git config --global alias.nuke 'reset --hard'",
  "git filter-branch --tree-filter 'rm -f secrets' HEAD",
  "sudo git reset --hard",
  "cd repo && git reset --hard origin/main",
  "/usr/bin/git push --force",
];

const SQL = [
  'psql -c "DROP TABLE users"',
  "psql -c 'drop table users;'",
  'psql -d app -c "TRUNCATE users"',
  'psql -c "delete from users where id = 1"',
  'mysql -e "DROP DATABASE app"',
  "mysql -u root -p -e 'delete from t'",
  'mariadb -e "truncate table t"',
  'sqlite3 app.db "DROP TABLE t"',
  "sqlite3 app.db 'DELETE FROM t'",
  'sqlcmd -Q "DROP TABLE dbo.t"',
  'duckdb db.duckdb -c "drop table t"',
  "bq query --nouse_legacy_sql 'DELETE FROM ds.t WHERE true'",
  "bq rm -f -t ds.t",
  'clickhouse-client --query "DROP TABLE t"',
  'echo "drop table x" | psql',
  "printf 'DROP TABLE x;\\n' | psql app",
  "psql <<EOF\nDROP TABLE x;\nEOF",
  'psql <<< "DROP TABLE x"',
  "cat <<'SQL' | mysql app\nDELETE FROM t;\nSQL",
  "echo 'DROP TABLE x' | sudo -u postgres psql",
  'psql -c "SELECT 1; DROP TABLE x"',
  'psql -c "ALTER TABLE t DROP COLUMN c"',
  "PGPASSWORD=x psql -h db -c 'drop schema s cascade'",
  'psql -c "DROP TABLE \\"users\\""',
  "psql -c \"SELECT 'x'; DELETE FROM t\"",
  "psql -cDROP\\ TABLE\\ x",
  'mysql -e"DROP TABLE x"',
  'SQL="drop table x"; psql -c "$SQL"',
  'psql --command="DROP TABLE x"',
  'psql -c "TRUNCATE \\"users\\""',
  'mysql -e "DELETE t1 FROM t1 JOIN t2 ON t1.id = t2.id"',
];

const OTHER = [
  "dd if=/dev/zero of=/dev/sda bs=1M",
  "dd of=disk.img if=/dev/sdb",
  "sudo dd if=x.iso of=/dev/sdb",
  "shred -u secret.txt",
  "mkfs.ext4 /dev/sdb1",
  "wipefs -a /dev/sdb",
  "dropdb app",
  "alias nuke='rm -rf /'",
  "redis-cli FLUSHALL",
  "redis-cli -n 2 flushdb",
  'mongosh --eval "db.users.drop()"',
  'mongosh app --eval "db.dropDatabase()"',
  // Issue 14 brought find's deleting action into the filesystem pack.
  "find . -delete",
];

/** Commands whose program or arguments come from variables set earlier in the same line. */
const VARIABLES = [
  "x=rm; $x -rf build",
  'declare -a a=(rm -rf x); "${a[@]}"',
  "x=(rm -rf x); ${x[@]}",
  'set -- rm -rf x; "$@"',
  "IFS=,; x=rm,-rf,x; $x",
  "read a <<< rm; $a -rf x",
  "echo rm | read -a b; ${b[0]} -rf x",
  "$(printf '\\x72\\x6d') -rf x",
  "`command -v nothing` push --force origin main",
  'psql -f <(echo "drop table x")',
  "git -c clean.requireForce=false clean -d",
  "git branch -f main HEAD~3",
  "git branch -M old main",
  "git filter-repo --path secrets --invert-paths",
];

const DESTRUCTIVE_BASH = [
  ...RM_FORMS,
  ...QUOTING_TRICKS,
  ...WRAPPED,
  ...SUBSTITUTED,
  ...SEPARATED,
  ...NESTED,
  ...GIT,
  ...SQL,
  ...OTHER,
  ...VARIABLES,
];

const BENIGN_BASH = [
  "x=ls; $x -la",
  "read a <<< hello; echo $a -rf",
  'set -- a b; echo "$@"',
  '"$(command -v python3)" -m pytest -rA',
  "$(npm bin)/jest -r x",
  "git branch -m old new",
  "git branch -c old copy",
  "git -c color.ui=always clean -n",
  "diff <(echo 'drop table x') expected.txt",
  "ls -la",
  "git status",
  "git log --oneline",
  "git diff",
  'git commit -m "drop table users"',
  'git commit -m "rm -rf build dir"',
  'git commit -m "fix: git reset --hard handling"',
  'git commit -m "--amend docs"',
  'git commit -m"--amend"',
  'echo "rm -rf /"',
  "echo 'git push --force'",
  "printf '%s\\n' \"drop table x\"",
  'grep -rn "rm -rf" .',
  'grep -r "DROP TABLE" migrations/',
  'rg "git reset --hard" docs',
  "cat <<'EOF'\nrm -rf /\nEOF",
  "cat <<EOF > notes.md\ngit push --force\nEOF",
  "git reset --soft HEAD~1",
  "git reset HEAD file",
  "git reset --mixed",
  "rm -f file",
  "rm file",
  "rm -f *.o",
  "rm -i file",
  "rmdir empty",
  "git push --force-with-lease origin feature/x",
  "git push origin feature/x",
  "git push -u origin feature/x",
  "git push --dry-run --force",
  "git push -n -f",
  "git clean -n",
  "git clean -nd",
  "git clean --dry-run -fd",
  "git checkout -b x",
  "git checkout main",
  "git checkout feature/rm-rf-fix",
  "git branch -d x",
  "git branch --delete x",
  "git branch -a",
  "git branch -m old new",
  "git stash",
  "git stash pop",
  "git stash list",
  'git stash push -m "drop table fix"',
  "git reflog",
  "git reflog show",
  "git switch main",
  "git switch -c new",
  "git restore --staged file",
  "git restore -S file",
  "git rm file",
  "git rm --cached -r dir",
  "git rm -r -n dir",
  'git commit -m "amend"',
  'git commit --author="X <x@y>" -m msg',
  "git update-ref refs/heads/x HEAD",
  "git log --grep='reset --hard'",
  "git log -S'drop table'",
  "git show HEAD:rm.sh",
  "git config --global alias.st status",
  "git -c alias.st=status st",
  "git --version",
  "git help reset",
  "git diff -- .",
  "git add -- .",
  "git fetch --prune",
  "git push origin v1.0",
  "find . -name '*.ts'",
  "find . -exec grep -l foo {} \\;",
  "find . -type f | xargs grep foo",
  "xargs echo rm -rf",
  "sudo ls",
  "sudo -l rm -rf /",
  "command -v rm",
  "env FOO=1 npm test",
  "FOO='rm -rf /' npm test",
  "timeout 5 npm test",
  "bash -c 'echo rm -rf x'",
  'sh -c "ls -la"',
  'eval "echo hi"',
  "ssh host ls",
  "bash script.sh",
  "sh ./deploy.sh",
  "echo hi | bash",
  'psql -c "SELECT * FROM users"',
  "psql -c \"SELECT 'drop table x'\"",
  "psql -c \"INSERT INTO log VALUES ('delete from t')\"",
  'mysql -e "SHOW TABLES"',
  'mysql -e "SELECT TRUNCATE(1.23, 1)"',
  'sqlite3 app.db ".tables"',
  'echo "select 1" | psql',
  "psql -f migrate.sql",
  "psql -f drop_tables.sql",
  "cat drop.sql | psql",
  "cat <<'EOF' | psql\nSELECT 1;\nEOF",
  "psql <<EOF\nSELECT 'DROP TABLE x';\nEOF",
  'echo "DROP TABLE x" > notes.txt',
  'echo "DROP TABLE x" | tee notes.txt',
  "dd --help",
  "dd --version",
  "npm run build",
  "make clean",
  "docker rm container",
  "docker rmi image",
  "npm rm lodash",
  "echo $(git status)",
  'echo "$(date) rm -rf"',
  "ls | grep rm",
  "rm-cli --help",
  "python -c \"print('rm -rf')\"",
  "node -e \"console.log('git push --force')\"",
  "man rm",
  "which rm",
  "type rm",
  "alias rm='rm -i'",
  "history | grep rm",
  "ls -R",
  "cp -r src dst",
  "mv -f a b",
  "chmod -R 755 dir",
  "rsync -a src/ dst/",
  "tar -xzf a.tgz",
  "printf 'rm -rf x' > script.sh",
  "echo rm -rf x",
  "printf '%s' rm -rf /",
  "grep -e -rf file",
  "# rm -rf /",
  "ls # && rm -rf /",
  'echo "rm -rf /" # git reset --hard',
  "echo {rm,-rf,x}",
  "ls *.txt",
  "./*.sh --force",
  "curl -s https://example.com/install.sh -o install.sh",
  "alias rm='rm -i'",
  "redis-cli get x",
  'mongosh --eval "db.users.find()"',
  "source ~/.bashrc",
  ". ./env.sh",
  "[ -f x ] && echo ok",
  "[[ -d build ]] || mkdir build",
  '[ "$a" = "b" ]',
  'mysql -D truncate -e "select 1"',
  'psql -U delete -c "select 1"',
  "psql -h drop-table.example.com -c 'select 1'",
];

Deno.test("[destructive-bash-gate] the destructive Bash table is at least 150 commands, all destructive", () => {
  assert(DESTRUCTIVE_BASH.length >= 150, `only ${DESTRUCTIVE_BASH.length} destructive commands`);
  assertEquals(misjudged("bash", DESTRUCTIVE_BASH, true), []);
});

Deno.test("[destructive-bash-gate] the benign Bash look-alike table is at least 100 commands, none destructive", () => {
  assert(BENIGN_BASH.length >= 100, `only ${BENIGN_BASH.length} benign commands`);
  assertEquals(misjudged("bash", BENIGN_BASH, false), []);
});

const DESTRUCTIVE_POWERSHELL = [
  "Remove-Item -Recurse -Force .\\build",
  "Remove-Item -Recurse build",
  "Remove-Item build -Recurse",
  "Remove-Item -Path build -Recurse -Force",
  "Remove-Item -LiteralPath 'C:\\data' -Recurse",
  "remove-item -recurse build",
  "REMOVE-ITEM -RECURSE build",
  "ri -r -fo build",
  "ri -Recurse build",
  "rm -r build",
  "rm -Recurse build",
  "rm -rf build",
  "del -Recurse build",
  "erase -Recurse build",
  "rd -Recurse build",
  "rmdir -Recurse build",
  "Remove-Item -Re build",
  "Remove-Item -Recurse:$true build",
  "Remove-Item build -Recurse -WhatIf:$false",
  "Microsoft.PowerShell.Management\\Remove-Item -Recurse build",
  "& Remove-Item -Recurse build",
  "& { Remove-Item build -Recurse }",
  "Get-Location; Remove-Item -Recurse build",
  "Test-Path build && Remove-Item -Recurse build",
  "Get-ChildItem -Recurse | Remove-Item -Force",
  "gci -r build | ri",
  "if (Test-Path build) { Remove-Item -Recurse build }",
  "foreach ($d in 'a','b') { Remove-Item -Recurse $d }",
  "Invoke-Expression 'Remove-Item -Recurse build'",
  'iex "Remove-Item -Recurse build"',
  "pwsh -Command 'Remove-Item -Recurse build'",
  'powershell -NoProfile -Command "Remove-Item -Recurse build"',
  "cmd /c rd /s /q build",
  "cmd /c del /s /q *.tmp",
  "cmd /c rd /s/q build",
  'cmd /c "rmdir /S /Q build"',
  'cmd /c "cd build & rd /s /q ."',
  "bash -c 'rm -rf build'",
  "wsl rm -rf build",
  "git push --force",
  "git reset --hard HEAD~1",
  "git -C repo push -f origin main",
  "git clean -fdx",
  "git branch -D feature",
  "git.exe checkout -- .",
  'psql -c "DROP TABLE users"',
  'sqlcmd -Q "DELETE FROM dbo.users"',
  "'DROP TABLE x' | psql",
  "Format-Volume -DriveLetter D",
  "Remove-Item -Recurse build; 'unterminated",
  '$x = "Remove-Item -Recurse build"; iex $x',
  '$c = "rm"; & $c -Recurse build',
  "$r = Remove-Item -Recurse build",
  '"DROP TABLE x" | sqlcmd',
  "gci -r | rm",
  "gci -r | % { Remove-Item $_ }",
  "Get-ChildItem -Recurse | ForEach-Object { Remove-Item $_.FullName }",
  "Start-Process git -ArgumentList 'reset','--hard'",
  "Start-Process -FilePath git -ArgumentList 'push -f'",
  "[IO.Directory]::Delete('build', $true)",
  "[System.IO.Directory]::Delete( 'build' , $true )",
  "(Get-Item build).Delete($true)",
  "Get-ChildItem build -Recurse -File | ForEach-Object { $_.Delete() }",
  '(New-Object -ComObject Scripting.FileSystemObject).DeleteFolder("build")',
  "$fso = New-Object -ComObject Scripting.FileSystemObject; $fso.DeleteFolder('build', $true)",
  "[Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory('build', 'DeleteAllContents')",
  "gsudo Remove-Item -Recurse -Force build",
  "sudo pwsh -c 'Remove-Item -Recurse -Force build'",
  "gsudo -n cmd /c rd /s /q build",
];

const BENIGN_POWERSHELL = [
  "Get-ChildItem",
  "Get-ChildItem -Recurse -Filter *.ts",
  "Remove-Item build",
  "Remove-Item build -Force",
  "Remove-Item *.log",
  "ri file.txt",
  "del file.txt",
  "Remove-Item -Recurse build -WhatIf",
  "Remove-Item -Recurse:$false build",
  "Remove-Item -Recurse build -wi",
  "gci *.tmp | ri",
  "Get-ChildItem -Recurse | Select-String 'Remove-Item -Recurse'",
  "Get-ChildItem -Recurse | Remove-Item -WhatIf",
  "Write-Output 'Remove-Item -Recurse build'",
  'Write-Host "git push --force"',
  "Select-String -Pattern 'drop table' -Path *.sql",
  'git commit -m "rm -rf build"',
  "git status",
  "git push origin feature/x",
  "git push --force-with-lease origin feature/x",
  "git reset --soft HEAD~1",
  "git clean -n",
  "git branch -d feature",
  'psql -c "SELECT 1"',
  "cmd /c dir",
  "cmd /c rd build",
  "bash -c 'echo rm -rf x'",
  "iex 'Get-ChildItem'",
  "npm test",
  "# Remove-Item -Recurse build",
  "$x = 'Remove-Item -Recurse build'",
  "gci | % { Remove-Item $_ }",
  "Get-ChildItem -Recurse | ForEach-Object { Remove-Item $_.FullName -WhatIf }",
  "[IO.Directory]::Delete('empty-dir')",
  "[IO.File]::Delete('a.txt')",
  "(Get-Item a.txt).Delete()",
  "Start-Process git -ArgumentList 'status'",
  "gsudo notepad C:\\Windows\\System32\\drivers\\etc\\hosts",
  "sudo Get-ChildItem",
  "$fso = New-Object -ComObject Scripting.FileSystemObject; $fso.GetFolder('build')",
];

Deno.test("[destructive-bash-gate] PowerShell destructive table: Remove-Item -Recurse by any spelling, git, SQL, nested shells", () => {
  assertEquals(misjudged("powershell", DESTRUCTIVE_POWERSHELL, true), []);
});

Deno.test("[destructive-bash-gate] PowerShell benign table: no recursion, dry runs and quoted data pass", () => {
  assertEquals(misjudged("powershell", BENIGN_POWERSHELL, false), []);
});

Deno.test("[lazy-loading] the Bash and PowerShell tables read with no part of the engine loaded get the fully loaded answers for the same work", async () => {
  const bash = await readFromNothing("bash", [...DESTRUCTIVE_BASH, ...BENIGN_BASH]);
  const ps = await readFromNothing("powershell", [...DESTRUCTIVE_POWERSHELL, ...BENIGN_POWERSHELL]);
  assertEquals([...bash.differ, ...ps.differ], []);
  // Every PowerShell command loads its reader, whatever else it reaches.
  assert([...ps.loads.values()].every((parts) => parts.includes("powershell")));
});

Deno.test("[lazy-loading] a command loads the engine parts it reaches, however it names them, and no other", async () => {
  const cases: [string, string[]][] = [
    ["rm -rf build", []],
    ["git reset --hard", ["git", "pack:git-history"]],
    ["ls -la && rm -r dist", []],
    ["kubectl delete namespace prod", ["pack:kubernetes"]],
    ["x=kube; $" + "{x}ctl delete namespace prod", ["pack:kubernetes"]],
    ["pwsh -c 'Remove-Item -Recurse -Force x'", ["powershell"]],
    ["x=pw; y=sh; $x$y -c 'Remove-Item -Recurse x'", ["powershell"]],
    ["powershell -EncodedCommand UgBlAG0AbwB2AGUALQBJAHQAZQBtACAALQBSAGUAYwB1AHIAcwBlACAAeAA=", [
      "powershell",
    ]],
    ["cmd /c rd /s /q build", ["cmd"]],
    // A pattern no other test reads: the glob candidates are remembered per process.
    ["/bin/[q-s]m -rf x", ["glob"]],
  ];
  const loaded: Record<string, string[]> = {};
  const hits: Record<string, string | null> = {};
  for (const [command] of cases) {
    forgetParts();
    const hit = await findDestructive("bash", command, []);
    loaded[command] = loadedParts();
    hits[command] = hit && `${hit.pack}/${hit.rule}`;
  }
  await loadAllParts();
  assertEquals(loaded, Object.fromEntries(cases));
  assertEquals(
    Object.entries(hits).filter(([, hit]) => hit === null || hit === "core/unreadable"),
    [],
  );
});

Deno.test("[fail-to-deny] a command reaching many parts of the engine is read at most three times, each within its budget", async () => {
  // Benign calls of many packs' programs, then the destructive one: every pack is asked for.
  const command = [
    "kubectl get pods",
    "aws s3 ls",
    "docker ps",
    "terraform plan",
    "heroku apps",
    "pwsh -c 'Get-ChildItem'",
    "cmd /c dir",
    "rm -rf build",
  ].join("; ");
  await loadAllParts();
  const loadedHit = hitOf("bash", command, []);
  forgetParts();
  const work = new CountingBudget();
  const hit = await findDestructive("bash", command, [], undefined, newDetectBudget(work));
  assertEquals(hit, loadedHit);
  assert(work.restores + 1 <= MAX_READS, `${work.restores + 1} readings`);
  assertEquals(MAX_READS, 3);
  // The second part it asked for loaded every part.
  assertEquals(loadedParts().length, (await loadedAfterAll()).length);
});

/** Every part there is, as `loadAllParts` leaves them. */
async function loadedAfterAll(): Promise<string[]> {
  await loadAllParts();
  return loadedParts();
}

Deno.test("[lazy-loading] read without the part it needs, the synchronous check fails closed", async () => {
  forgetParts();
  const hit = hitOf("bash", "pwsh -c 'Get-ChildItem'", []);
  await loadAllParts();
  assertEquals(hit && `${hit.pack}/${hit.rule}`, "core/unreadable");
  assertEquals(hitOf("bash", "pwsh -c 'Get-ChildItem'", []), null);
});

Deno.test("[destructive-bash-gate] a huge command with a destructive tail is destructive, a huge benign one is not", () => {
  const filler = "a".repeat(200_000);
  assertEquals(isDestructive("bash", `echo ${filler} && rm -rf /`, []), true);
  assertEquals(isDestructive("bash", `echo ${filler.repeat(2)} && rm -rf /`, []), true);
  assertEquals(isDestructive("bash", `echo ${filler} && ls`, []), false);
  assertEquals(
    isDestructive("powershell", `Write-Output ${filler}; Remove-Item -Recurse x`, []),
    true,
  );
});

Deno.test("[destructive-bash-gate] a command the lexer cannot vouch for fails closed on any destructive form", () => {
  const unparseable = [
    'echo "oops && rm -rf /',
    "rm -rf / ; echo 'x",
    "bash -c 'rm -rf \"x'",
    `${"$(".repeat(40)}rm -rf x${")".repeat(40)}`,
    'git commit -m "unterminated && git push --force',
    "psql -c 'DROP TABLE x",
    "if true; then git reset --hard",
  ];
  assertEquals(misjudged("bash", unparseable, true), []);
  // Without any destructive form, an unbalanced command is not destructive.
  assertEquals(isDestructive("bash", 'echo "unterminated', []), false);
});

Deno.test("[destructive-bash-gate] well-formed quoted data stays benign even when it spells destructive commands", () => {
  assertEquals(isDestructive("bash", 'git commit -m "rm -rf / && git reset --hard"', []), false);
  assertEquals(isDestructive("bash", "cat <<'EOF'\npsql -c 'DROP TABLE x'\nEOF", []), false);
});

Deno.test("[destructive-bash-gate] SQL string literals are data; statements are not", () => {
  assertEquals(sqlDestructive("SELECT 'drop table x'"), false);
  assertEquals(sqlDestructive("SELECT 'it''s; drop table x'"), false);
  assertEquals(sqlDestructive("select truncate(1.5, 0)"), false);
  assertEquals(sqlDestructive("SELECT deleted_at FROM t"), false);
  assertEquals(sqlDestructive("drop table x"), true);
  assertEquals(sqlDestructive("WITH a AS (SELECT 1) DELETE FROM t"), true);
  assertEquals(sqlDestructive("TRUNCATE t"), true);
  assertEquals(sqlDestructive("DO $$ BEGIN DROP TABLE x; END $$"), true);
  assertEquals(sqlDestructive('TRUNCATE "users"'), true);
  assertEquals(sqlDestructive("truncate"), false);
  assertEquals(sqlDestructive("delete"), false);
  assertEquals(sqlDestructive("DELETE t1 FROM t1"), true);
  assertEquals(sqlDestructive("INSERT INTO log VALUES ('delete from t')"), false);
});

Deno.test("[graduated-controls] extra patterns match the raw command text", () => {
  const { patterns, warning } = compileExtraPatterns("terraform\\s+destroy");
  assertEquals(warning, null);
  assertEquals(isDestructive("bash", "terraform destroy -auto-approve", patterns), true);
  assertEquals(isDestructive("bash", "echo 'terraform  destroy'", patterns), true);
  assertEquals(isDestructive("bash", "terraform plan", patterns), false);
  assertEquals(isDestructive("powershell", "terraform destroy", patterns), true);
});

Deno.test("[graduated-controls] a malformed extra pattern gives no patterns and one warning naming the variable", () => {
  const bad = compileExtraPatterns("(unclosed");
  assertEquals(bad.patterns, []);
  assertEquals(
    bad.warning,
    "ignoring malformed GATEGUARD_BASH_EXTRA_DESTRUCTIVE (not a valid regular expression); the built-in destructive checks still apply.",
  );
  assertEquals(bad.warning!.includes("\n"), false);
  assertEquals(compileExtraPatterns(undefined), { patterns: [], warning: null });
  assertEquals(compileExtraPatterns("  "), { patterns: [], warning: null });
  assertEquals(isDestructive("bash", "rm -rf x", bad.patterns), true);
});

Deno.test("[destructive-bash-gate] a non-string command is not destructive and does not throw", () => {
  assertEquals(isDestructive("bash", undefined as unknown as string, []), false);
  assertEquals(isDestructive("powershell", 42 as unknown as string, []), false);
});

// ---------------------------------------------------------------------------
// Property tests.

const PIECES = [
  "rm",
  "-rf",
  "git",
  "push",
  "-f",
  "reset",
  "--hard",
  " ",
  " ",
  " ",
  "'",
  '"',
  "\\",
  "`",
  "$(",
  ")",
  "(",
  "{",
  "}",
  ";",
  "&&",
  "||",
  "|",
  "&",
  "\n",
  "<<EOF\n",
  "EOF",
  "<<<",
  ">",
  "<",
  "$x",
  "${",
  "#",
  "psql",
  "-c",
  "DROP TABLE x",
  "sudo",
  "bash",
  "-c",
  "find",
  "-exec",
  "\\;",
  "xargs",
  "eval",
  "Remove-Item",
  "-Recurse",
  "@(",
  "$(",
  "`n",
  "=",
  "x",
  "*",
  "[",
  "]",
  "!",
  "if",
  "then",
  "fi",
  "case",
  "in",
  "esac",
  ";;",
  "for",
  "do",
  "done",
  "function",
  "{a,b}",
  "$'\\x72'",
  "\t",
  "é",
  "\u0000",
];

/**
 * Most characters the detector reads per character of a command: every
 * analysis (a script unwrapped from `bash -c`, `eval`, a wrapper) and the
 * fail-closed scan count what they read, and each reading is linear in
 * what it reads (the lexers' step counts are bounded in words_test.ts and
 * powershell_test.ts). The largest share is git's autocorrect: an unknown
 * subcommand is compared with each of git's commands.
 */
const READS_PER_CHAR = 40 + GIT_COMMANDS.size;

/** The verdict on `command` and the characters the detector read for it, counted by its budget. */
function detectorWork(
  tool: "bash" | "powershell",
  command: string,
): { destructive: boolean; chars: number } {
  const budget = newDetectBudget();
  const before = budget.chars;
  const destructive = destructiveHit(tool, command, [], undefined, budget) !== null;
  return { destructive, chars: before - budget.chars + budget.scanned };
}

function mutate(rand: () => number, text: string): string {
  const chars = [...text];
  const edits = 1 + Math.floor(rand() * 4);
  for (let n = 0; n < edits; n++) {
    const at = Math.floor(rand() * (chars.length + 1));
    const op = rand();
    if (op < 0.4) chars.splice(at, 1);
    else if (op < 0.8) chars.splice(at, 0, pick(rand, PIECES));
    else chars.splice(at, 1, "'");
  }
  return chars.join("");
}

Deno.test("[destructive-bash-gate] random and mutated commands always give a boolean with bounded reading", () => {
  const rand = mulberry32(0x5eed);
  const samples: string[] = [];
  for (let i = 0; i < 400; i++) samples.push(joinPieces(rand, PIECES, 1 + Math.floor(rand() * 60)));
  for (const base of [...DESTRUCTIVE_BASH, ...BENIGN_BASH]) samples.push(mutate(rand, base));
  for (const base of [...DESTRUCTIVE_POWERSHELL, ...BENIGN_POWERSHELL]) {
    samples.push(mutate(rand, base));
  }
  samples.push(joinPieces(rand, PIECES, 4000));
  for (const tool of ["bash", "powershell"] as const) {
    for (const command of samples) {
      const work = detectorWork(tool, command);
      assertEquals(typeof work.destructive, "boolean");
      assertStepsPerChar(`${tool} ${command.slice(0, 80)}`, command, work.chars, READS_PER_CHAR);
    }
  }
});

Deno.test("[fail-to-deny] PowerShell statements that are a lone variable run nothing and cost no scan of the line", () => {
  const nulls = "$null; ".repeat(1000);
  for (const tail of ["gci C:\\x -Recurse | Remove-Item", "Remove-Item -Recurse x"]) {
    const budget = newDetectBudget();
    const hit = destructiveHit("powershell", nulls + "$x; ${y}; " + tail, [], undefined, budget);
    assertEquals(hit?.rule, "remove-item-recurse");
    assertEquals(budget.scanned, 0);
  }
  // Anything more than the variable is still read: a call through it, or a method on it.
  for (const command of ["$c = 'Remove-Item'; & $c -Recurse x", "$d.Delete($true)"]) {
    assertEquals(destructiveHit("powershell", nulls + command, []) !== null, true, command);
  }
});

Deno.test("[destructive-bash-gate] hostile nesting and repetition stay bounded", () => {
  const hostile = [
    "$(".repeat(5000) + "rm -rf x" + ")".repeat(5000),
    "{".repeat(5000),
    "'".repeat(5001),
    "rm ".repeat(60_000) + "-rf",
    "sudo ".repeat(10_000) + "rm -rf x",
    "bash -c '".repeat(201) + "rm -rf x",
    "eval ".repeat(5000) + "rm -rf x",
    "x{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}{s,t}",
    "Remove-Item ".repeat(30_000) + "-Recurse",
    "psql -c " + "'DROP TABLE x' ".repeat(20_000),
    "bash -c 'ls'; ".repeat(700),
    `* -c '* -c "* -c \\"* -c x\\""'`,
  ];
  for (const tool of ["bash", "powershell"] as const) {
    for (const command of hostile) {
      const { chars } = detectorWork(tool, command);
      assertStepsPerChar(`${tool} ${command.slice(0, 60)}`, command, chars, READS_PER_CHAR);
    }
  }
  assertEquals(isDestructive("bash", "sudo ".repeat(10_000) + "rm -rf x", []), true);
  assertEquals(isDestructive("bash", "bash -c '".repeat(201) + "rm -rf x", []), true);
  assertEquals(isDestructive("bash", "eval ".repeat(5000) + "rm -rf x", []), true);
});

Deno.test("[destructive-bash-gate] a benign prefix never changes a verdict", () => {
  const changed: string[] = [];
  for (const prefix of ["true && ", "ls; ", "echo hi\n", "cd /tmp && ", "FOO=1 true; "]) {
    for (const command of DESTRUCTIVE_BASH) {
      if (!isDestructive("bash", prefix + command, [])) changed.push(prefix + command);
    }
  }
  // `&&` before a comment-only command is a syntax error, so benign commands get list prefixes.
  for (const prefix of ["ls; ", "echo hi\n", "FOO=1 true; "]) {
    for (const command of BENIGN_BASH) {
      if (isDestructive("bash", prefix + command, [])) changed.push(prefix + command);
    }
  }
  for (const command of DESTRUCTIVE_POWERSHELL) {
    if (!isDestructive("powershell", "Get-Location; " + command, [])) changed.push(command);
  }
  assertEquals(changed, []);
});

Deno.test("[destructive-bash-gate] commands run inside containers, clusters and job runners are read", () => {
  const destructive = [
    "docker exec db psql -c 'DROP TABLE users'",
    "docker exec -i db psql <<< 'DROP TABLE users'",
    "docker compose exec db psql -c 'drop table x'",
    "kubectl exec pod -- rm -rf /data",
    "kubectl exec -it pod -c app -- sh -c 'rm -rf /data'",
    "docker run --rm alpine rm -rf /x",
    "podman exec -e X=1 box git reset --hard",
    "coproc rm -rf x",
    "parallel rm -rf ::: x",
    "script -c 'rm -rf x' /dev/null",
    "runuser -u x -- rm -rf y",
    "runuser root -c 'rm -rf y'",
    "a=r b=m; $a$b -rf x",
  ];
  const benign = [
    "docker exec db ls",
    "docker run --rm alpine echo rm -rf",
    "kubectl exec pod -- ls /data",
    "docker ps -a",
    "kubectl get pods",
    "watch ls",
    "script -q out.log",
    "a=l b=s; $a$b -la",
  ];
  assertEquals(destructive.filter((c) => !isDestructive("bash", c, [])), []);
  assertEquals(benign.filter((c) => isDestructive("bash", c, [])), []);
});

Deno.test("[destructive-bash-gate] SQL comments never split a destructive statement", () => {
  const destructive = [
    "psql -c 'DROP/* c */TABLE x'",
    "psql -c 'DROP -- c\nTABLE x'",
    "mysql -e 'DROP/*!*/TABLE x'",
    "mysql -e '/*!50000 DROP TABLE x */'",
    'psql --command="DROP TABLE x"',
  ];
  const benign = ["psql -c 'select 1 -- drop table x'", `psql -c "select '/* drop table x */'"`];
  assertEquals(destructive.filter((c) => !isDestructive("bash", c, [])), []);
  assertEquals(benign.filter((c) => isDestructive("bash", c, [])), []);
});

Deno.test("[destructive-bash-gate] PowerShell removers named by an expression or splatted fail closed", () => {
  const destructive = [
    "&('ri') -r x",
    ".('Remove-Item') -Recurse x",
    "& (Get-Command Remove-Item) -Recurse x",
    "$p=@{Recurse=$true}; Remove-Item x @p",
    "Invoke-Sqlcmd -Query 'DROP TABLE x'",
  ];
  const benign = ["& git status", "Get-ChildItem x", "Remove-Item x @p -WhatIf"];
  assertEquals(destructive.filter((c) => !isDestructive("powershell", c, [])), []);
  assertEquals(benign.filter((c) => isDestructive("powershell", c, [])), []);
});

Deno.test("[destructive-bash-gate] substitutions inside quotes that bash does not honour are read", () => {
  const destructive = [
    `echo $(( '$(rm -rf x)' ))`,
    `echo $(( "$(git reset --hard)" + 1 ))`,
    `echo "\${x:-'$(rm -rf x)'}"`,
    "cat <<EOF\n${x:-'$(git push --force)'}\nEOF",
  ];
  const benign = [`echo \${x:-'$(rm -rf x)'}`, "echo $(( ')' + 1 ))", `echo "\${x:-'a'}"`];
  assertEquals(misjudged("bash", destructive, true), []);
  assertEquals(misjudged("bash", benign, false), []);
});

Deno.test("[fail-to-deny] nested $(( retries cannot stall the detector past the hook timeout", () => {
  const command = `echo ${"$((".repeat(30)}${"1) x)".repeat(30)}; rm -rf /`;
  const work = detectorWork("bash", command);
  assertEquals(work.destructive, true);
  assertStepsPerChar(command, command, work.chars, READS_PER_CHAR);
});

Deno.test("[fail-to-deny] a long pipeline is read with bounded work and its piped SQL still counts", () => {
  const cases: [string, boolean][] = [
    [`echo "drop table x" | ${"cat | ".repeat(8000)}psql`, true],
    [`${"(echo a) | ".repeat(4000)}cat`, false],
    [`${"echo a | ".repeat(8000)}cat`, false],
  ];
  for (const [command, expected] of cases) {
    const work = detectorWork("bash", command);
    assertEquals(work.destructive, expected, command.slice(0, 40));
    assertStepsPerChar(command.slice(0, 40), command, work.chars, READS_PER_CHAR);
  }
});

Deno.test("[destructive-bash-gate] no destructive form is read-only introspection, which the shell gate checks no pack for", () => {
  assertEquals(DESTRUCTIVE_BASH.filter((c) => readOnlyKind("bash", c) !== null), []);
  assertEquals(DESTRUCTIVE_POWERSHELL.filter((c) => readOnlyKind("powershell", c) !== null), []);
});
