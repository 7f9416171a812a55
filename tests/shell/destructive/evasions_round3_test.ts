/**
 * Evasions of the destructive gate from issue 25: programs an interpreter
 * reads on stdin, interpreter deletes through library calls and runners
 * the rules did not know, files written and run by other interpreters,
 * SQL handed to a database driver, and the same forms inside a line too
 * long for the parser; runners that run a command later (tmux, screen, at),
 * SQL clients' shell escapes, PowerShell listings reaching Remove-Item
 * another way, and programs no table knows that run their arguments. Each destructive form has a benign look-alike that
 * must pass.
 */

import { loadReadOnly, readOnlyKind } from "../../../src/shell/readonly/mod.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";
import {
  destructiveHit,
  isDestructive,
  newDetectBudget,
} from "../../../src/shell/destructive/destructive.ts";
import { MAX_LEX_CHARS } from "../../../src/shell/bash/mod.ts";
import { WorkBudget } from "../../../src/platform/budget.ts";
import { readFromNothing } from "../../helpers/destructive_cases.ts";
import { loadAllParts } from "../../../src/shell/destructive/mod.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();
// The Bash parser too: the read-only check reads a command that is not plain with it.
await loadReadOnly("bash");

const CASES: readonly { mechanism: string; destructive: string[]; benign: string[] }[] = [
  {
    mechanism: "an interpreter's program read on stdin is read like one given with -c or -e",
    destructive: [
      "python3 - <<'EOF'\nimport shutil\nshutil.rmtree('x')\nEOF",
      "python3 <<'EOF'\nimport os\nos.system('rm -rf x')\nEOF",
      "python3 -u - <<< 'import shutil; shutil.rmtree(\"x\")'",
      "python3 -W ignore - <<< 'import shutil; shutil.rmtree(\"x\")'",
      "echo 'import os; os.system(\"rm -rf x\")' | python3",
      "printf 'import shutil\\nshutil.rmtree(\"x\")\\n' | sudo python3 -",
      "node - <<'EOF'\nrequire('fs').rmSync('x', {recursive: true})\nEOF",
      "echo \"require('child_process').execSync('git reset --hard')\" | node",
      "bun - <<< \"require('fs').rmSync('x', {recursive: true})\"",
      "ruby - <<< 'FileUtils.rm_rf(\"x\")'",
      "perl - <<< 'system(\"rm -rf x\")'",
      "perl <<'EOF'\nuse File::Path qw(remove_tree);\nremove_tree('x');\nEOF",
      "php <<< '<?php system(\"rm -rf x\");'",
      "python3 /dev/stdin <<< 'import shutil; shutil.rmtree(\"x\")'",
      "echo 'import shutil; shutil.rmtree(\"x\")' > a.py; python3 < a.py",
      "docker exec -i app python3 - <<< 'import shutil; shutil.rmtree(\"x\")'",
      "echo \"Deno.removeSync('x', {recursive: true})\" | deno run -",
    ],
    benign: [
      "python3 - <<'EOF'\nprint(1)\nEOF",
      "python3 <<< 'print(\"rm -rf x\")'",
      "echo 'import shutil; shutil.rmtree(\"x\")' | python3 -m json.tool",
      "echo 'import shutil; shutil.rmtree(\"x\")' | python3 script.py",
      "echo 'shutil.rmtree(x)' | python3 -c 'import sys; print(sys.stdin.read())'",
      "node - <<'EOF'\nconsole.log(1)\nEOF",
      "echo \"require('fs').rmSync('x', {recursive: true})\" | node app.js",
      "ruby - <<< 'puts 1'",
      "echo 'print(1)' | python3 - rm -rf x",
      'echo "console.log(1)" | deno run -',
      "perl - <<< 'print \"hi\\n\"'",
    ],
  },
  {
    mechanism: "interpreter deletes through nested calls, fs-extra, rimraf, FileUtils:: and R",
    destructive: [
      "node -e \"fs.rmSync(path.join(a, 'b'), {recursive: true})\"",
      "node -e \"require('fs').rmSync(require('path').resolve(a, b), {force: true, recursive: true})\"",
      "node -e \"require('fs-extra').removeSync('x')\"",
      "node -e \"require('fs-extra').remove('x')\"",
      "node -e \"require('fs-extra').emptyDirSync('x')\"",
      "node -e \"const fse = require('fs-extra'); fse.emptyDir('x')\"",
      "node -e \"require('rimraf').sync('x')\"",
      "node -e \"require('rimraf')('x', () => {})\"",
      "node -e \"import('rimraf').then(m => m.rimraf('x'))\"",
      "ruby -e 'FileUtils::rm_rf(\"x\")'",
      "ruby -e 'FileUtils :: rm_r \"x\"'",
      "perl -e 'system \"rm -rf x\"'",
      'perl -e "system qq{rm -rf x}"',
      "perl -e 'exec \"git reset --hard\"'",
      "perl -MFile::Path=remove_tree -e 'remove_tree(\"x\")'",
      "Rscript -e 'unlink(\"x\", recursive = TRUE)'",
      "Rscript -e 'unlink(file.path(a, \"b\"), recursive=T)'",
      "R -e 'unlink(\"x\", recursive = TRUE)'",
      "perl -e 'system qw(rm -rf x)'",
      'python3 -c \'import pathlib; [p.unlink() for p in pathlib.Path("x").rglob("*")]\'',
      "python3 -c 'import os\nfor r, d, f in os.walk(\"x\"):\n    [os.remove(os.path.join(r, n)) for n in f]'",
      "node -e \"require('execa').execaSync('rm', ['-rf', 'x'])\"",
      "node -e \"require('shelljs').rm('-rf', 'x')\"",
    ],
    benign: [
      "node -e \"fs.rmSync(path.join(a, 'b'))\"",
      "node -e \"fs.rmSync(path.join(a, 'b'), {force: true}); console.log('recursive: true')\"",
      "node -e \"require('fs-extra').copySync('a', 'b')\"",
      "node -e \"console.log(require('rimraf/package.json').version)\"",
      "ruby -e 'FileUtils::mkdir_p(\"x\")'",
      "perl -e 'print \"rm -rf x\"'",
      "perl -e 'system \"ls -la\"'",
      "Rscript -e 'unlink(\"x.csv\")'",
      "Rscript -e 'print(\"recursive = TRUE\")'",
      "perl -e 'my @a = qw(a b); print @a'",
      'python3 -c \'import pathlib; print(list(pathlib.Path("x").rglob("*.py")))\'',
      "python3 -c 'import os; print([r for r, d, f in os.walk(\".\")])'",
      "node -e \"require('execa').execaSync('ls', ['-la'])\"",
      "node -e \"require('shelljs').rm('x.txt')\"",
    ],
  },
  {
    mechanism:
      "more runners of one-liners: py, tsx, ts-node, bun -e, deno eval, behind npx or pnpm dlx",
    destructive: [
      "py -c 'import shutil; shutil.rmtree(\"x\")'",
      "py -3 -c 'import shutil; shutil.rmtree(\"x\")'",
      "py -3.12 - <<< 'import shutil; shutil.rmtree(\"x\")'",
      "tsx -e \"require('fs').rmSync('x', {recursive: true})\"",
      "ts-node -e \"require('fs').rmSync('x', {recursive: true})\"",
      "bun -e \"require('fs').rmSync('x', {recursive: true})\"",
      "deno eval \"Deno.removeSync('x', {recursive: true})\"",
      "npx tsx -e \"require('fs').rmSync('x', {recursive: true})\"",
      "npx -y ts-node -e \"require('child_process').execSync('rm -rf x')\"",
      "pnpm dlx tsx -e \"require('fs').rmSync('x', {recursive: true})\"",
    ],
    benign: [
      "py -3 -c 'print(1)'",
      "py -m pip install requests",
      'tsx -e "console.log(1)"',
      "tsx watch src/index.ts",
      "ts-node src/index.ts",
      "npx tsx -e \"console.log('rm -rf x')\"",
      "pnpm dlx tsx src/main.ts",
    ],
  },
  {
    mechanism: "a file written by the same line and run by any interpreter the gate knows is read",
    destructive: [
      "echo \"Deno.removeSync('x', {recursive: true})\" > a.ts; deno run -A a.ts",
      "echo \"Deno.removeSync('x', {recursive: true})\" > a.ts && deno run --allow-write a.ts",
      "echo \"Deno.removeSync('x', {recursive: true})\" > a.ts; deno a.ts",
      "echo \"require('fs').rmSync('x', {recursive: true})\" > a.js; node a.js",
      "echo \"require('fs').rmSync('x', {recursive: true})\" > a.js; bun a.js",
      "echo \"require('fs').rmSync('x', {recursive: true})\" > a.ts; tsx a.ts",
      "echo \"require('fs').rmSync('x', {recursive: true})\" > a.ts; npx ts-node a.ts",
      "cat > a.rb <<'EOF'\nFileUtils.rm_rf('x')\nEOF\nruby a.rb",
      "echo 'system(\"rm -rf x\")' > a.pl; perl a.pl",
      "echo 'import shutil; shutil.rmtree(\"x\")' > a.py; py a.py",
    ],
    benign: [
      'echo "console.log(1)" > a.ts; deno run -A a.ts',
      "echo \"Deno.removeSync('x', {recursive: true})\" > a.ts; cat a.ts",
      "echo \"require('fs').rmSync('x', {recursive: true})\" > a.js; node other.js",
      "echo 'puts 1' > a.rb; ruby a.rb",
      "echo 'print 1' > a.pl; perl a.pl",
      "deno run -A main.ts",
    ],
  },
  {
    mechanism: "SQL handed to a database driver or an ORM in a one-liner is read as SQL",
    destructive: [
      'python3 -c \'import sqlite3; sqlite3.connect("d.db").execute("DROP TABLE t")\'',
      'python3 -c \'import psycopg; psycopg.connect("").cursor().execute("DELETE FROM users")\'',
      "python3 - <<'EOF'\nimport sqlite3\nc = sqlite3.connect('d.db')\nc.executescript('DROP TABLE t;')\nEOF",
      "node -e \"new (require('pg').Client)().query('TRUNCATE TABLE users')\"",
      "node -e \"require('better-sqlite3')('d.db').exec('DROP TABLE t')\"",
      "python3 manage.py shell -c 'from app.models import User; User.objects.all().delete()'",
      "rails runner 'User.delete_all'",
      "ruby -e 'User.destroy_all'",
      "php artisan tinker --execute='User::truncate()'",
      'node -e "prisma.user.deleteMany({})"',
    ],
    benign: [
      'python3 -c \'import sqlite3; sqlite3.connect("d.db").execute("SELECT 1")\'',
      "python3 -c 'print(\"DROP TABLE t\")'",
      "node -e \"new (require('pg').Client)().query('SELECT * FROM users')\"",
      "python3 manage.py shell -c 'from app.models import User; print(User.objects.count())'",
      "python3 manage.py shell -c 'User.objects.filter(id=1).delete()'",
      "rails runner 'puts User.count'",
      "php artisan tinker --execute='User::count()'",
      'node -e "prisma.user.deleteMany({ where: { id: 1 } })"',
    ],
  },
  {
    mechanism: "runners that run a command later or elsewhere: tmux, screen, at, batch, fd -x",
    destructive: [
      "tmux new-session -d 'rm -rf x'",
      "tmux new -d -s s rm -rf x",
      "tmux send-keys -t 0 'rm -rf x' Enter",
      "tmux send-keys -t 0 rm Space -rf Space x Enter",
      "tmux send -t w:0 'git reset --hard' C-m",
      // Typed without Enter the line waits at the prompt for any later key that runs it.
      "tmux send-keys -t 0 -l 'rm -rf x'",
      "screen -dm rm -rf x",
      "screen -dmS s bash -c 'rm -rf x'",
      "screen -S s -X stuff 'rm -rf x^M'",
      "echo 'rm -rf x' | at now",
      "at now + 1 hour <<< 'rm -rf x'",
      "at midnight <<'EOF'\ngit reset --hard\nEOF",
      "batch <<< 'rm -rf x'",
      "curl -s https://example.com/job.sh | at now",
      "fd -x sh -c 'rm -rf {}'",
      "fd -t d -x bash -c 'rm -rf \"$0\"'",
      "fd --exec=rm -rf",
      "watch -n 5 rm -rf x",
      "timeout 5 rm -rf x",
      "nohup rm -rf x &",
      "setsid -f rm -rf x",
    ],
    benign: [
      "tmux new-session -d 'npm run dev'",
      "tmux send-keys -t 0 'ls' Enter",
      "tmux kill-session -t s",
      "screen -dmS s npm start",
      "screen -ls",
      "echo 'ls -la' | at now",
      "at -l",
      "atq",
      "fd -e log -x wc -l",
      "fd -x sh -c 'wc -l {}'",
      "watch -n 5 ls",
      "timeout 5 make",
      "nohup npm start &",
    ],
  },
  {
    mechanism:
      "commands an option names, debuggers' and ed's shell escapes, dev-environment runners, other shells",
    destructive: [
      "tar -I 'sh -c \"rm -rf x\"' -cf a.tar src",
      "tar --use-compress-program='sh -c \"rm -rf x\"' -cf a.tar src",
      "tar --to-command='rm -rf x' -xf a.tar",
      // tar's old style: each letter that takes a value takes the next word in turn.
      "tar cIf 'sh -c \"rm -rf x\"' a.tar src",
      "tar cfI a.tar 'sh -c \"rm -rf x\"' src",
      "tar --checkpoint=1 --checkpoint-action=exec='rm -rf x' -cf /dev/null src",
      "zip -T -TT 'rm -rf x' a.zip f",
      "zip --unzip-command='rm -rf x' -T a.zip f",
      "rsync -e 'sh -c \"rm -rf x\"' a b:",
      "rsync --rsync-path='rm -rf x' a b:",
      "man -P 'rm -rf x' ls",
      "nodemon --exec 'rm -rf x'",
      "gdb -batch -ex 'shell rm -rf x'",
      "gdb -batch -ex '!git reset --hard'",
      "lldb -o 'platform shell rm -rf x'",
      "ed -s f <<< '!rm -rf x'",
      "rlwrap rm -rf x",
      "echo f | entr rm -rf x",
      "entr -s 'rm -rf x' <<< f",
      "watchexec -- rm -rf x",
      "mise exec -- rm -rf x",
      "mise x node@20 -- git reset --hard",
      "direnv exec . rm -rf x",
      "nix develop -c rm -rf x",
      "nix-shell --run 'rm -rf x'",
      "conda run rm -rf x",
      "xonsh -c 'rm -rf x'",
      "nu -c 'rm -rf x'",
      "elvish -c 'rm -rf x'",
      "tcsh -c 'rm -rf x'",
    ],
    benign: [
      "tar -czf x.tgz src",
      "tar -I zstd -cf a.tar.zst src",
      "tar czf a.tgz src",
      "tar cIf zstd a.tar src",
      "tar --use-compress-program='zstd -19' -cf a src",
      "zip -r a.zip src",
      "rsync -avz -e ssh src/ host:dst/",
      "rsync -e 'ssh -p 2222' a b:",
      "man -P cat ls",
      "nodemon --exec 'npm test'",
      "gdb -batch -ex run ./a.out",
      "direnv exec . npm test",
      "mise install",
      "mise run test",
      "nix build",
      "nix develop -c npm test",
      "conda install numpy",
      "entr -r npm test",
      "watchexec -e py pytest",
      "xonsh -c 'ls'",
    ],
  },
  {
    mechanism:
      "SQL clients' shell escapes, psql variables, SQL files written on the line, always-true WHERE",
    destructive: [
      "sqlite3 d.db '.shell rm -rf x'",
      "sqlite3 d.db '.system rm -rf x'",
      "sqlite3 d.db <<'EOF'\n.shell rm -rf x\nEOF",
      "mysql -e '\\! rm -rf x'",
      "mysql <<< 'system rm -rf x'",
      "psql -c '\\! rm -rf x'",
      "psql -c \"COPY t TO PROGRAM 'rm -rf x'\"",
      "psql -c \"COPY t FROM PROGRAM 'git reset --hard'\"",
      "psql -v x=DROP -c ':x TABLE t'",
      "psql --set=v=TRUNCATE -c ':v TABLE t'",
      "echo 'DROP TABLE t' > d.sql; psql -f d.sql",
      "echo 'DROP TABLE t' > d.sql && psql --file=d.sql",
      "echo 'DROP TABLE t' > d.sql; sqlite3 db '.read d.sql'",
      "echo 'DROP TABLE t' > d.sql; mysql -e 'source d.sql'",
      "echo 'DROP TABLE t' > d.sql; sqlite3 db < d.sql",
      "psql -c 'UPDATE t SET a = 1 WHERE 1=1'",
      "psql -c 'UPDATE t SET a = 1 WHERE true'",
      "psql -c 'UPDATE users SET admin = true WHERE id = 5 OR 1 = 1'",
      "valkey-cli flushall",
      "keydb-cli -n 2 flushdb",
    ],
    benign: [
      "sqlite3 d.db '.shell ls'",
      "sqlite3 d.db '.tables'",
      "mysql -e 'system ls'",
      "psql -c '\\dt'",
      "psql -c \"COPY t TO PROGRAM 'gzip > t.gz'\"",
      "psql -c \"COPY t TO '/tmp/t.csv'\"",
      "psql -v x=1 -c 'SELECT :x'",
      "echo 'SELECT 1' > q.sql; psql -f q.sql",
      "psql -f migrations/001.sql",
      "psql -c 'UPDATE t SET a = 1 WHERE id = 1'",
      "psql -c 'UPDATE t SET a = 1 WHERE 1=1 AND id = 5'",
      "valkey-cli get k",
    ],
  },
  {
    mechanism:
      "a program no table knows may run its arguments: every argument naming a program a rule or a wrapper reads starts a command",
    destructive: [
      "tini -- rm -rf x",
      "dumb-init rm -rf x",
      "chpst -u nobody rm -rf x",
      "catchsegv rm -rf x",
      "perf stat rm -rf x",
      "dotenv -- rm -rf x",
      "cross-env A=1 rm -rf x",
      "npx cross-env A=1 rm -rf x",
      "./with-env.sh rm -rf x",
      "op run -- rm -rf x",
      "aws-vault exec prod -- rm -rf x",
      "pueue add rm -rf x",
      "ts git reset --hard",
      "eatmydata sudo rm -rf x",
      "some-runner sh -c 'rm -rf x'",
      "sh -c 'some-runner rm -rf x'",
      "a b c d rm -rf x",
      // A command that only prints stops the scan, but its own options are still read.
      "tini -- man -P 'rm -rf x' ls",
      "hyperfine 'rm -rf x'",
      "scl enable devtoolset-9 'rm -rf x'",
      "vagrant ssh -c 'rm -rf x'",
    ],
    benign: [
      "echo rm -rf x",
      "man rm -rf",
      "tldr git reset --hard",
      "grep -n rm -rf x",
      "git commit -m 'rm -rf x'",
      "some-tool 'rm -rf x'",
      "cargo build --release",
      "./with-env.sh npm test",
      "dotenv -- rm x",
      "a b c d e f",
      "hyperfine 'ls -la'",
    ],
  },
  {
    mechanism:
      "a variable a program runs as code: prompts, PROMPT_COMMAND, exported functions, editors and pagers, PERL5OPT",
    destructive: [
      "PROMPT_COMMAND='rm -rf x' bash -i",
      "PS4='$(rm -rf x)' bash -xc true",
      "PS1='$(git reset --hard) $ ' bash -i",
      "env 'BASH_FUNC_ls%%=() { rm -rf x; }' bash -c ls",
      "EDITOR='rm -rf x' crontab -e",
      "VISUAL='rm -rf x;' git commit",
      "PAGER='rm -rf x' man ls",
      "export MANPAGER='rm -rf x'; man ls",
      "LESSOPEN='|rm -rf x %s' less notes.txt",
      "sudo SUDO_EDITOR='rm -rf x' sudoedit /etc/hosts",
      "BASH_ENV=<(echo rm -rf x) bash -c true",
      "PERL5OPT='-Mstrict;system(\"rm -rf x\")' perl -e 1",
    ],
    benign: [
      "PROMPT_COMMAND='history -a' bash -i",
      "PS1='\\u@\\h \\w $ ' bash -i",
      "PS1='$(git branch --show-current) $ ' bash -i",
      "env 'BASH_FUNC_ll%%=() { ls -l; }' bash -c ll",
      "EDITOR=vim crontab -e",
      "PAGER=less man ls",
      "LESSOPEN='| lesspipe %s' less notes.txt",
      "BASH_ENV=~/.bashrc bash -c true",
      "PERL5OPT=-Mstrict perl -e 1",
    ],
  },
  {
    mechanism:
      "an interpreter that runs the words or input handed to it runs them: they are read as its code and as a shell command",
    destructive: [
      `python3 -c "exec(input())" <<< 'import shutil; shutil.rmtree("x")'`,
      `node -e "eval(process.argv[1])" 'require("fs").rmSync("x", {recursive: true})'`,
      `python3 -c "import os, sys; os.system(sys.argv[1])" "rm -rf x"`,
      "perl -e 'system @ARGV' rm -rf x",
      "awk '{system($0)}' <<< 'rm -rf x'",
      "ruby -e 'system(ARGV[0])' 'git reset --hard'",
    ],
    benign: [
      `python3 -c "import os, sys; os.system(sys.argv[1])" ls`,
      `python3 -c "import sys; print(sys.argv[1])" "rm -rf x"`,
      `node -e "console.log(process.argv[1])" 'rm -rf x'`,
      "awk '{system($0)}' <<< 'ls -la'",
      "perl -e 'print @ARGV' rm -rf x",
    ],
  },
  {
    mechanism:
      "languages no other rule reads (Julia, Tcl, AppleScript, Groovy, Elixir, Erlang, Swift, Lisp, Clojure) and cmake's file commands",
    destructive: [
      `julia -e 'rm("x", recursive=true)'`,
      `julia -e 'run(\`rm -rf x\`)'`,
      "tclsh <<< 'file delete -force x'",
      "tclsh <<< 'exec rm -rf x'",
      `osascript -e 'do shell script "rm -rf x"'`,
      `groovy -e '"rm -rf x".execute()'`,
      `elixir -e 'File.rm_rf!("x")'`,
      `elixir -e 'System.cmd("rm", ["-rf", "x"])'`,
      `erl -noshell -eval 'os:cmd("rm -rf x"), halt().'`,
      `swift -e 'import Foundation; try FileManager.default.removeItem(atPath: "x")'`,
      `sbcl --eval '(uiop:delete-directory-tree #p"x/" :validate t)'`,
      `bb -e '(clojure.java.shell/sh "rm" "-rf" "x")'`,
      'bun run - <<< \'require("fs").rmSync("x", {recursive: true})\'',
      "cmake -E remove_directory x",
      "cmake -E rm -rf x",
    ],
    benign: [
      "julia -e 'println(1)'",
      "tclsh <<< 'puts hi'",
      `osascript -e 'display notification "rm -rf x"'`,
      `elixir -e 'IO.puts("rm -rf x")'`,
      `erl -noshell -eval 'io:format("hi"), halt().'`,
      "julia script.jl",
      "cmake -E make_directory x",
      "cmake -E rm x.log",
      "cmake --build build",
    ],
  },
];

/** PowerShell evasions: recursive listings reaching Remove-Item another way, Clear-Content and Clear-RecycleBin. */
const PS_CASES: readonly { mechanism: string; destructive: string[]; benign: string[] }[] = [
  {
    mechanism:
      "PowerShell: a recursive listing through other cmdlets or as -Path, the -s alias, Clear-Content, Clear-RecycleBin",
    destructive: [
      "Get-ChildItem -Recurse | Sort-Object Name | Remove-Item",
      "gci -r *.log | Where-Object { $_.Length -gt 0 } | Select-Object -First 10 | Remove-Item",
      "Get-ChildItem -s | Remove-Item",
      "gci -s x | Sort-Object | ri",
      "Remove-Item -Path (Get-ChildItem -Recurse x)",
      "Remove-Item (gci -Recurse x)",
      "Clear-Content x.txt",
      "clc *.log",
      "Clear-RecycleBin -Force",
      "Clear-RecycleBin -DriveLetter C -Force",
    ],
    benign: [
      "Get-ChildItem | Sort-Object Name | Remove-Item",
      "Get-ChildItem -Recurse | Sort-Object Name | Select-Object -First 5",
      "gci -s | Select-String foo",
      "Remove-Item -Path (Get-ChildItem x)",
      "Get-ChildItem -Recurse | Sort-Object | Remove-Item -WhatIf",
      "Clear-Content x.txt -WhatIf",
      "Clear-RecycleBin -WhatIf",
      "Get-Content x.txt",
    ],
  },
];

for (const c of PS_CASES) {
  Deno.test(`[destructive-bash-gate] ${c.mechanism}`, () => {
    const missed = c.destructive.filter((cmd) => !isDestructive("powershell", cmd, []));
    const flagged = c.benign.filter((cmd) => isDestructive("powershell", cmd, []));
    const readOnly = c.destructive.filter((cmd) => readOnlyKind("powershell", cmd) !== null);
    assertEquals({ missed, flagged, readOnly }, { missed: [], flagged: [], readOnly: [] });
  });
}

for (const c of CASES) {
  Deno.test(`[destructive-bash-gate] ${c.mechanism}`, () => {
    const missed = c.destructive.filter((cmd) => !isDestructive("bash", cmd, []));
    const flagged = c.benign.filter((cmd) => isDestructive("bash", cmd, []));
    const readOnly = c.destructive.filter((cmd) => readOnlyKind("bash", cmd) !== null);
    assertEquals({ missed, flagged, readOnly }, { missed: [], flagged: [], readOnly: [] });
  });
}

Deno.test("[fail-to-deny] every round-3 evasion and look-alike is read within a bound of its length", () => {
  for (const c of CASES) {
    for (const cmd of [...c.destructive, ...c.benign]) {
      const command = `${"echo a; ".repeat(200)}${cmd}`;
      const work = new WorkBudget();
      destructiveHit("bash", command, [], undefined, newDetectBudget(work));
      assert(work.spent <= 4 * command.length, `${cmd}: ${work.spent} units for ${command.length}`);
    }
  }
});

/** A comment line long enough that the parser cannot vouch for the command. */
const PAD = `# ${"x".repeat(MAX_LEX_CHARS)}\n`;

Deno.test("[fail-to-deny] a line too long to parse still shows a program on stdin, a written file and driver SQL", () => {
  const destructive = [
    `python3 - <<'EOF'\n${PAD}import shutil\nshutil.rmtree("x")\nEOF`,
    `node - <<'EOF'\n${PAD}require('fs').rmSync(path.join(a, 'b'), {recursive: true})\nEOF`,
    `echo 'import os; os.system("rm -rf x")' > a.py\n${PAD}python3 a.py`,
    `ruby - <<'EOF'\n${PAD}FileUtils::rm_rf("x")\nEOF`,
    `echo 'Deno.removeSync("x", {recursive: true})' > a.ts\n${PAD}deno run -A a.ts`,
    `echo 'DROP TABLE t' > d.sql\n${PAD}psql -f d.sql`,
    `python3 -c 'import sqlite3; sqlite3.connect("d").execute("DROP TABLE t")'\n${PAD}`,
  ];
  const benign = [
    `python3 - <<'EOF'\n${PAD}print(1)\nEOF`,
    `node - <<'EOF'\n${PAD}console.log(1)\nEOF`,
    `echo 'console.log(1)' > a.ts\n${PAD}deno run -A a.ts`,
    `python3 -c 'import sqlite3; sqlite3.connect("d").execute("SELECT 1")'\n${PAD}`,
  ];
  assertEquals(
    {
      missed: destructive.filter((cmd) => !isDestructive("bash", cmd, [])).map((c) => c.slice(-60)),
      flagged: benign.filter((cmd) => isDestructive("bash", cmd, [])).map((c) => c.slice(-60)),
    },
    { missed: [], flagged: [] },
  );
});

Deno.test("[lazy-loading] every evasion and look-alike read with no part of the engine loaded gets the fully loaded answer for the same work", async () => {
  const commands = CASES.flatMap((c) => [...c.destructive, ...c.benign]);
  assertEquals((await readFromNothing("bash", commands)).differ, []);
});
