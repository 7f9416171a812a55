/**
 * The shell side of self-protection, in process: which control files a
 * command reaches, by every route the reader follows, beside look-alikes
 * that must stay out of it.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  protectedTargetOf,
  type ShellProtectContext,
  shellProtectHits,
} from "../../src/hook/shell_protect.ts";
import { wildcardMatch } from "../../src/hook/path_match.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import type { ShellDialect } from "../../src/shell/dialect.ts";
import { CTX, hitsOf } from "./shell_reader.ts";
import { denoFs } from "../../src/platform/fs_port.ts";

function rows(command: string, dialect: ShellDialect = "bash"): string[] {
  return hitsOf(command, dialect).map((h) => h.kind === "control" ? h.row.id : h.kind);
}

const WRITES: readonly [string, string][] = [
  [`sed -i 's/gateguard//' .claude/settings.json`, "claude-project-settings"],
  [`echo '{}' > .claude/settings.json`, "claude-project-settings"],
  [`printf '{}' >| .claude/settings.local.json`, "claude-local-settings"],
  [`mv .claude/settings.json /tmp/x`, "claude-project-settings"],
  [`cp /tmp/evil.json .claude/settings.json`, "claude-project-settings"],
  [`ln -sf /dev/null .gateguard.jsonc`, "project-config"],
  [`rm .codex/hooks.json`, "codex-project-hooks"],
  [`tee .github/hooks/gateguard.json < /dev/null`, "copilot-project-hooks"],
  [`truncate -s0 .cursor/hooks.json`, "cursor-project-hooks"],
  [`dd if=/dev/zero of=.gemini/settings.json`, "gemini-project-settings"],
  [`python3 -c "open('.claude/settings.json','w').write('{}')"`, "claude-project-settings"],
  [`node -e "require('fs').rmSync('.gateguard.jsonc')"`, "project-config"],
  [`python3 - <<'EOF'\nopen('.gateguard.jsonc','w')\nEOF`, "project-config"],
  [`echo 'rm .claude/settings.json' | sh`, "claude-project-settings"],
  [`cd .claude && rm settings.json`, "claude-project-settings"],
  [`rm -f "$dir"/settings.json`, "claude-project-settings"],
  [`sed -i d .c*e/settings.json`, "claude-project-settings"],
  [`sed -i d .claude/set*`, "claude-project-settings"],
  [`git checkout -- .claude/settings.json`, "claude-project-settings"],
  [`rm -rf ~/.claude`, "claude-user-settings"],
  [`echo '{}' >> ~/.claude/projects/-home-u-proj/abc.jsonl`, "claude-transcripts"],
  [`rm -rf $HOME/.gateguard`, "trust-store"],
  [`touch /home/u/.gateguard/trust.json`, "trust-store"],
  [`cp /tmp/fake /home/u/.local/bin/gateguard`, "program-binary"],
  [`shopt -s dotglob; rm -rf ./*`, "claude-project-settings"],
  [`git diff --output=.claude/settings.json`, "claude-project-settings"],
  [`git log -1 --output .gateguard.jsonc`, "project-config"],
  [`cp -r helper ~/.gemini/extensions/helper`, "gemini-extensions"],
  [`echo '{}' > ~/.gemini/trustedFolders.json`, "gemini-trusted-folders"],
];

Deno.test("[self-protection] a shell write into the control surface names the file it reaches", () => {
  for (const [command, row] of WRITES) {
    assert(rows(command).includes(row), `${command} should reach ${row}: ${rows(command)}`);
  }
});

Deno.test("[self-protection] PowerShell writes and moves are read like Bash ones", () => {
  assertEquals(rows(`Set-Content .claude\\settings.json '{}'`, "powershell"), [
    "claude-project-settings",
  ]);
  assertEquals(rows(`Remove-Item -Recurse $env:USERPROFILE\\.claude`, "powershell"), [
    "claude-user-settings",
  ]);
  assertEquals(rows(`Move-Item .gateguard.jsonc x.bak`, "powershell"), ["project-config"]);
  assertEquals(rows(`Get-Content .claude\\settings.json`, "powershell"), []);
});

Deno.test("[self-protection] a shell write into a skill, command or subagent is caught; deleting one or making its folder is not", () => {
  assertEquals(rows("echo x >> .claude/agents/reviewer.md"), ["claude-project-agents"]);
  assertEquals(rows("cp /tmp/evil.md ~/.claude/skills/s/SKILL.md"), ["claude-user-skills"]);
  assertEquals(rows("mv new.md .claude/commands/ship.md"), ["claude-project-commands"]);
  assertEquals(rows(`jq '.mcpServers.x={"command":"sh"}' x > ~/.claude.json`), [
    "claude-user-config",
  ]);
  assertEquals(rows("tar -xf skills.tar -C .claude/skills"), ["claude-project-skills"]);
  assertEquals(rows("rm -rf .claude/skills/old .claude/agents/a.md"), []);
  assertEquals(rows("mkdir -p .claude/skills/new"), []);
  // A program that writes what its name tests find can write a definition.
  assertEquals(rows("find . -name SKILL.md -exec sed -i 's/^name/hooks: {}\\nname/' {} +"), [
    "claude-project-skills",
  ]);
  assertEquals(rows("find . -name '*.o' -exec rm {} +"), []);
  assertEquals(rows("rmdir .claude/skills/empty && unlink .claude/agents/b.md"), []);
  // A deletion of a folder that also holds settings is still the settings' business.
  assertEquals(rows("rm -rf .claude"), ["claude-project-settings"]);
});

Deno.test("[self-protection] running GateGuard's hook by hand is caught, its reports are not", () => {
  assertEquals(rows(`echo '{"tool_name":"Bash"}' | gateguard hook`), ["own-hook"]);
  assertEquals(rows(`gateguard < payload.json`), ["own-hook"]);
  assertEquals(rows(`sh -c 'gateguard --agent codex < p.json'`), ["own-hook"]);
  assertEquals(rows(`gateguard report --since 1d`), []);
  assertEquals(rows(`gateguard doctor`), []);
  assertEquals(rows(`which gateguard`), []);
});

Deno.test("[self-protection] reading, printing and look-alikes are left alone", () => {
  for (
    const command of [
      "cat .claude/settings.json",
      "ls -la ~/.claude",
      "grep -n gateguard .claude/settings.json",
      "git add .claude/settings.json",
      "git commit -m 'update .claude/settings.json'",
      "git diff .claude/settings.json",
      "git log -p -- .gateguard.jsonc",
      "echo 'see .claude/settings.json' > notes.md",
      "cat > README.md <<'EOF'\nEdit .claude/settings.json by hand.\nEOF",
      "sed -i d .vscode/launch.json",
      "rm -rf $X/dist",
      "rm -rf .claude/agents/old.md",
      "mkdir -p .claude/commands",
      "npm test",
      "rm -rf node_modules",
      "rm -rf ./*",
    ]
  ) {
    assertEquals(rows(command), [], command);
  }
});

Deno.test("[self-protection] a shell write to a shell's start-up file is caught; sourcing or reading one is not", () => {
  const writes: [string, ShellDialect, string][] = [
    [`echo 'export A=1' >> ~/.bashrc`, "bash", "shell-bashrc"],
    [`sed -i 's/^#//' $HOME/.zshenv`, "bash", "shell-zshenv"],
    [`cat >> /home/u/.profile <<'EOF'\nexport A=1\nEOF`, "bash", "shell-profile"],
    [`printf 'set -x A 1' > ~/.config/fish/conf.d/a.fish`, "bash", "shell-fish-conf-d"],
    [`cd ~ && echo x >> .zprofile`, "bash", "shell-zprofile"],
    [`python3 -c "open('/home/u/.bash_profile','a')"`, "bash", "shell-bash-profile"],
    [`rm -rf ~/.config/environment.d`, "bash", "shell-environment-d"],
    [`echo 'export A=1' > ~/.bashrc.d/a.sh`, "bash", "shell-bashrc-d"],
    [`cp a.zsh ~/.oh-my-zsh/custom/`, "bash", "shell-oh-my-zsh-custom"],
    [`echo x >> ~/.config/zsh/.zshrc`, "bash", "shell-zsh-config"],
    [
      `echo 'function claude; end' > ~/.config/fish/functions/claude.fish`,
      "bash",
      "shell-fish-functions",
    ],
    [`Add-Content -Path $PROFILE -Value 'x'`, "powershell", "shell-powershell-profiles"],
    [`Set-Content $Profile.CurrentUserAllHosts ''`, "powershell", "shell-powershell-profiles"],
  ];
  for (const [command, dialect, row] of writes) {
    assertEquals(rows(command, dialect), [row], command);
  }
  for (
    const [command, dialect] of [
      ["source ~/.bashrc", "bash"],
      [". ~/.profile && npm test", "bash"],
      ["cat ~/.zshrc", "bash"],
      ["grep PATH ~/.bashrc ~/.zshrc", "bash"],
      ["echo notes > ~/.bashrc_notes", "bash"],
      [". $PROFILE", "powershell"],
    ] as const
  ) {
    assertEquals(rows(command, dialect), [], command);
  }
});

Deno.test("[self-protection] the reading is charged to the call's work budget", () => {
  const budget = new WorkBudget(1000);
  const long = "touch " + Array.from({ length: 200 }, (_, i) => `f${i}`).join(" ");
  assertEquals(shellProtectHits("bash", long, CTX, budget), null);
  assert(budget.exhausted() !== null);
});

Deno.test("[self-protection] wildcards, classes and unknown parts match what they could name", () => {
  assert(wildcardMatch(".c*e", ".claude"));
  assert(wildcardMatch("[s]ettings.json", "settings.json"));
  assert(wildcardMatch("s?ttings.*", "settings.json"));
  assert(!wildcardMatch(".v*", ".claude"));
});

Deno.test("[self-protection] a path glued to a prefix the line computes is matched by GateGuard's names, wherever it lies", () => {
  // The folder before the piece is code (`homedir()`, `$ENV{HOME}`) or a substitution.
  const glued: readonly [string, string][] = [
    [
      `node -e "require('fs').writeFileSync(require('os').homedir() + '/.claude/settings.json', '{}')"`,
      "claude-user-settings",
    ],
    [`perl -e 'open(F, ">$ENV{HOME}/.claude/settings.json")'`, "claude-user-settings"],
    [
      `python3 -c "import os; open(os.environ['HOME'] + '/.gateguard/config.jsonc', 'w')"`,
      "user-config",
    ],
    ["cp /tmp/x `printf %s ~/.cla`ude/settings.json", "claude-user-settings"],
    ["cp /tmp/x `id -un`/.codex/hooks.json", "codex-user-hooks"],
  ];
  // The folder is unknown, so the project's file of the same name is as likely as the home's.
  const alike = (row: string) => [row, row.replace("-user-", "-project-")];
  for (const [command, row] of glued) {
    const hit = rows(command);
    assert(alike(row).some((r) => hit.includes(r)), `${command}: ${hit}`);
  }
  // An absolute path in code is still where it says, and names only what it names.
  for (
    const command of [
      `python3 -c "print(open('/etc/hosts').read())"`,
      "docker run -v /tmp/data:/data img ls",
      `node -e "require('fs').writeFileSync(process.cwd() + '/out/report.json', '{}')"`,
    ]
  ) {
    assertEquals(rows(command), [], command);
  }
});

Deno.test("[never-on-retry] destructive commands aimed at home, a root, the project or .git are told apart", () => {
  const cases: [string, string | null][] = [
    ["rm -rf ~", "home"],
    ["rm -rf $HOME", "home"],
    ['rm -rf "$HOME"/', "home"],
    ["rm -rf /home", "home"],
    ["rm -rf /", "root"],
    ["sudo rm -rf / --no-preserve-root", "root"],
    ["rm -rf /*", "root"],
    ["rm -rf .", "project"],
    ["rm -rf ./*", "project"],
    ["rm -rf ../proj", "project"],
    ["rm -rf .git", "git"],
    ["cd ~ && rm -rf *", "home"],
    ["rm -rf dist", null],
    ["rm -rf ~/x", null],
    ["cd build && rm -rf *", null],
    ["rm -rf .git/hooks/pre-commit.sample", null],
    // A deletion of everything below a folder that names no path is aimed at the folder.
    ["find -delete", "project"],
    ["find -type f -exec rm {} +", "project"],
    ["git clean -fdx", "project"],
    ["cd ~ && git clean -fdx", "home"],
    ["git clean -fd build", null],
    ["cd build && find -delete", null],
    ["find -name '*.o' -delete", null],
    ["rm -rf build && tar -xf /tmp/e.tar", null],
    // The working folder and the worktree's top, as the line spells them.
    ["rm -rf $(pwd)", "project"],
    ['rm -rf "$PWD"', "project"],
    ["rm -rf ${PWD}/*", "project"],
    ["rm -rf `pwd -P`", "project"],
    ['rm -rf "$(git rev-parse --show-toplevel)"', "project"],
    ["rm -rf `git rev-parse --show-toplevel`", "project"],
    // The worktree's git folder, as git tells it (`--git-dir` there asks; it moves nowhere).
    ['rm -rf "$(git rev-parse --git-dir)"', "git"],
    ["rm -rf $(git rev-parse --absolute-git-dir)", "git"],
    ["rm -rf `git rev-parse --git-common-dir`", "git"],
    ['rm -rf "$(git rev-parse --git-dir)"/hooks', null],
    ['cd build && rm -rf "$(git rev-parse --git-dir)"', null],
    ['rm -rf "$PWD/build"', null],
    ["cd build && rm -rf $PWD", null],
    // git's pathspec magic for the whole worktree, from its top.
    ["git checkout HEAD~3 -- :/", "project"],
    ["git restore --source=HEAD~2 -- ':(top)'", "project"],
    ["git checkout HEAD~3 -- ':(top,glob)*'", "project"],
    ["git checkout HEAD~3 -- :/src", null],
  ];
  for (const [command, target] of cases) {
    assertEquals(protectedTargetOf("bash", command, CTX)?.target ?? null, target, command);
  }
  // A listing of the project piped to a remover, in PowerShell as `ls -A | xargs rm -rf` in Bash.
  assertEquals(protectedTargetOf("powershell", "gci -r -fo | ri -fo", CTX)?.target, "project");
  assertEquals(protectedTargetOf("powershell", "gci -r -Filter *.log | ri", CTX), null);
  // PowerShell's variables ignore case: `$pwd` is the working folder too.
  for (const command of ["Remove-Item -Recurse -Force $pwd", "ri -r -fo $PWD.Path"]) {
    assertEquals(protectedTargetOf("powershell", command, CTX)?.target, "project", command);
  }
  assertEquals(protectedTargetOf("powershell", 'ri -r -fo "$pwd/build"', CTX), null);
  assertEquals(
    protectedTargetOf("powershell", "Remove-Item -Recurse -Force C:\\", {
      ...CTX,
      cwd: "C:\\work\\proj",
    })?.target,
    "root",
  );
});

/** What a command reaches on the real filesystem, with `home` and the project `proj` (the cwd). */
function onDisk(home: string, proj: string): (command: string) => string[] | undefined {
  const ctx: ShellProtectContext = {
    surface: {
      env: { HOME: home },
      projectRoot: proj,
      processCwd: proj,
      program: null,
      fs: denoFs,
    },
    cwd: proj,
  };
  return (command) =>
    shellProtectHits("bash", command, ctx, new WorkBudget())?.map((h) =>
      h.kind === "control" ? h.row.id : h.kind
    );
}

Deno.test("[self-protection] a link carries a control file under another name; a linked ~/.claude is followed", async () => {
  const home = await Deno.makeTempDir({ prefix: "gg-protect-" });
  try {
    const proj = `${home}/proj`;
    await Deno.mkdir(`${proj}/.claude`, { recursive: true });
    await Deno.writeTextFile(`${proj}/.claude/settings.json`, "{}");
    await Deno.symlink(`${proj}/.claude`, `${proj}/cfg`);
    await Deno.symlink(`${proj}/.claude/settings.json`, `${proj}/s.json`);
    await Deno.mkdir(`${home}/dotfiles/claude`, { recursive: true });
    await Deno.symlink(`${home}/dotfiles/claude`, `${home}/.claude`);
    const ids = onDisk(home, proj);
    assertEquals(ids("sed -i d cfg/settings.json"), ["claude-project-settings"]);
    assertEquals(ids("echo '{}' > s.json"), ["claude-project-settings"]);
    assertEquals(ids(`sed -i d ${home}/dotfiles/claude/settings.json`), ["claude-user-settings"]);
    assertEquals(ids("sed -i d other.json"), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("[self-protection] a `..` after a link, a dangling link and a link that never resolves are followed or refused", async () => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "gg-walk-" }));
  try {
    const proj = `${home}/proj`;
    await Deno.mkdir(`${proj}/.claude`, { recursive: true });
    await Deno.mkdir(`${home}/.claude/todos`, { recursive: true });
    // An ordinary-looking link into a folder of no concern, made in an earlier call.
    await Deno.symlink(`${home}/.claude/todos`, `${proj}/t`);
    // A link to a control file that does not exist yet: writing through it creates the file.
    await Deno.symlink(`${proj}/.claude/settings.local.json`, `${proj}/later.json`);
    await Deno.symlink(`${proj}/loop-b`, `${proj}/loop-a`);
    await Deno.symlink(`${proj}/loop-a`, `${proj}/loop-b`);
    const ids = onDisk(home, proj);
    assertEquals(ids("echo '{}' > t/../settings.json"), ["claude-user-settings"]);
    assertEquals(ids("cp /tmp/x t/../settings.json"), ["claude-user-settings"]);
    assertEquals(ids("echo '{}' > later.json"), ["claude-local-settings"]);
    assertEquals(ids("echo '{}' > loop-a"), ["unresolved"]);
    // A walk of `..` too long to follow stands for any control file.
    assertEquals(ids(`echo '{}' > ${"x/../".repeat(300)}t/../settings.json`), ["unresolved"]);
    assertEquals(ids("echo x > t/list.json"), []);
    assertEquals(ids("echo x > build/../out.txt"), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("[self-protection] a shell write to a script a registered hook runs is caught, on disk", async () => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "gg-hookscript-" }));
  try {
    const proj = `${home}/proj`;
    await Deno.mkdir(`${proj}/.claude`, { recursive: true });
    await Deno.mkdir(`${proj}/scripts`);
    await Deno.writeTextFile(
      `${proj}/.claude/settings.json`,
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: "bash scripts/hook.sh" }] }] },
      }),
    );
    await Deno.writeTextFile(`${proj}/scripts/hook.sh`, "echo done\n");
    const ids = onDisk(home, proj);
    assertEquals(ids("echo 'rm -rf ~' >> scripts/hook.sh"), ["agent-hook-script"]);
    assertEquals(ids("cp /tmp/x ./scripts/hook.sh"), ["agent-hook-script"]);
    assertEquals(ids("echo x >> scripts/other.sh"), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("[self-protection] the kernel's names for a place are that place: /proc/self/cwd, a process's root, a descriptor's folder", () => {
  const cases: [string, string[]][] = [
    ["echo {} > /proc/self/cwd/.claude/settings.json", ["claude-project-settings"]],
    ["echo {} > /proc/thread-self/cwd/.claude/settings.json", ["claude-project-settings"]],
    ["echo {} > /proc/self/root/home/u/.claude/settings.json", ["claude-user-settings"]],
    ["echo {} > /proc/1/root/home/u/.claude/settings.json", ["claude-user-settings"]],
    // Another process's working folder is any folder.
    ["echo {} > /proc/$$/cwd/.claude/settings.json", ["claude-project-settings"]],
    ["echo {} > /proc/1/task/1/cwd/.claude/settings.json", ["claude-project-settings"]],
    ["exec 3<~/.claude; echo {} > /dev/fd/3/settings.json", ["claude-project-settings"]],
    ["echo {} > /proc/self/fd/3/settings.json", ["claude-project-settings"]],
    // Walked as the kernel walks them: `/dev/fd` is `/proc/self/fd`, and `..` climbs from there.
    ["echo {} > /dev/fd/../cwd/.claude/settings.json", ["claude-project-settings"]],
    ["echo {} > /proc/self/fd/../cwd/.claude/settings.json", ["claude-project-settings"]],
    ["echo {} > /proc/self/cwd/../proj/.claude/settings.json", ["claude-project-settings"]],
    ["echo {} > /proc/self/../self/root/home/u/.claude/settings.json", ["claude-user-settings"]],
    ["echo {} > /proc/self/root/../home/u/.claude/settings.json", ["claude-user-settings"]],
    ["echo {} > /proc/self/fd/3/../proj/.claude/settings.json", ["claude-project-settings"]],
    ["echo {} > /proc/self/cwd/build/out.txt", []],
    ["echo {} > /dev/fd/../cwd/build/out.txt", []],
    ["echo hi > /dev/fd/2", []],
    ["echo hi > /proc/self/fd/2", []],
    ["cat /proc/self/status > status.txt", []],
  ];
  for (const [command, rows] of cases) {
    assertEquals(
      shellProtectHits("bash", command, CTX, new WorkBudget())?.map((h) =>
        h.kind === "control" ? h.row.id : h.kind
      ),
      rows,
      command,
    );
  }
});

Deno.test("[self-protection] a file a start-up file loads is start-up code too, and a link to it is followed", async () => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "gg-sourced-" }));
  try {
    const proj = `${home}/proj`;
    await Deno.mkdir(proj);
    await Deno.mkdir(`${home}/.cargo`);
    await Deno.writeTextFile(`${home}/.cargo/env`, "export PATH=$HOME/.cargo/bin:$PATH\n");
    await Deno.writeTextFile(`${home}/.aliases`, ". ~/.more\n");
    await Deno.writeTextFile(`${home}/.more`, "alias ll='ls -l'\n");
    await Deno.writeTextFile(
      `${home}/.profile`,
      '# . ~/.commented\n. "$HOME/.cargo/env"\n[ -f ~/.aliases ] && source ~/.aliases\n',
    );
    await Deno.symlink(`${home}/.cargo/env`, `${proj}/env-link`);
    const ids = onDisk(home, proj);
    for (
      const command of [
        `echo 'export ECC_GATEGUARD=off' >> ~/.cargo/env`,
        `sed -i d ${home}/.aliases`,
        `cp /tmp/x ~/.more`,
        `echo x >> env-link`,
      ]
    ) {
      assertEquals(ids(command), ["shell-startup-sourced"], command);
    }
    assertEquals(ids(`echo x >> ~/.commented`), []);
    assertEquals(ids(`echo x >> ~/notes.txt`), []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("[self-protection] from source, a command that writes the bundle the registration runs reaches the checkout's row", () => {
  const fromSource: ShellProtectContext = {
    ...CTX,
    surface: {
      ...CTX.surface,
      program: { binary: null, runtime: "/usr/bin/deno", checkout: "/home/u/gg" },
    },
  };
  const bundleRows = (command: string) => {
    const hits = shellProtectHits("bash", command, fromSource, new WorkBudget());
    assert(hits !== null, `budget ran out on ${command}`);
    return [...new Set(hits.map((h) => h.kind === "control" ? h.row.id : "own-hook"))];
  };
  for (
    const command of [
      "cp /tmp/evil.js /home/u/gg/.cache/bundle/main.js",
      "rm -rf /home/u/gg/.cache/bundle",
      "deno bundle -o /home/u/gg/.cache/bundle/main.js /tmp/evil.ts",
      "sed -i 's/deny/pass/' /home/u/gg/.cache/bundle/chunk-ABC.js",
      "echo x > /home/u/gg/.cache/bundle/SOURCES.sha256",
      "cd /home/u/gg && sed -i d scripts/bundle.ts",
    ]
  ) assertEquals(bundleRows(command), ["program-checkout"], command);
  // Reading it stays free.
  assertEquals(bundleRows("cat /home/u/gg/.cache/bundle/main.js"), []);
});

Deno.test("[self-protection] a variable naming one of the agents' or GateGuard's folders is read as the folder the hook knows it names", () => {
  const ctx: ShellProtectContext = {
    ...CTX,
    surface: {
      ...CTX.surface,
      env: {
        ...CTX.surface.env,
        CLAUDE_CONFIG_DIR: "/home/u/.claude-work",
        CODEX_HOME: "/srv/codex",
      },
    },
  };
  const rows = (command: string) =>
    (shellProtectHits("bash", command, ctx, new WorkBudget()) ?? []).map((h) =>
      h.kind === "control" ? h.row.id : h.kind
    );
  assertEquals(rows('rm -rf "$CLAUDE_CONFIG_DIR"'), ["claude-user-settings"]);
  assertEquals(rows("sed -i s/a/b/ ${CLAUDE_CONFIG_DIR}/settings.json"), ["claude-user-settings"]);
  assertEquals(rows('echo x > "$GATEGUARD_STATE_DIR/state-x.json"').length, 1);
  assertEquals(rows('rm -rf "$CODEX_HOME"').length > 0, true);
  assertEquals(rows('rm -rf "$TMPDIR/x"'), []);
  assertEquals(rows('rm -rf "$CLAUDE_CONFIG_DIR-old"'), [], "another folder beside it");
  // Unset here, the variable is no place the hook knows.
  assertEquals(rows('rm -rf "$GEMINI_CLI_HOME/x"'), []);
});

Deno.test("[fail-to-deny] a Bash line past the reader's limits that may write into folders unseen is too large to check", () => {
  const padding = ": ; ".repeat(3000);
  const read = (command: string) => shellProtectHits("bash", command, CTX, new WorkBudget());
  for (
    const tail of ["tar -xf x.tar", "ls -A | xargs rm -rf", "cat list | xargs rm", "rm $(cat l)"]
  ) {
    assertEquals(read(padding + tail), null, tail);
  }
  // One that runs none of those programs is read as before, its spelled names still matched.
  assertEquals(read(padding + "echo done"), []);
  assertEquals(read(padding + "rm -f .claude/settings.json")?.length, 1);
  // A here-document's body is data, whatever words it holds.
  const body = "x = find(a); git = 1; cp = 2\n".repeat(400);
  assertEquals(read(`cat > big.py <<'EOF'\n${body}EOF`), []);
  assertEquals(read(`cat > big.sh <<'EOF'\n${"x=$(find . -name y)\n".repeat(600)}EOF`), []);
  // A here-document is the shell's, not a spelling: `<<X` inside quotes starts none.
  assertEquals(read(padding + 'echo "<<X"\ntar -xf x.tar\nX'), null);
  // A line the shell reader cannot balance is read crudely, every word counted.
  assertEquals(read(padding + "tar -xf x.tar; echo 'open"), null);
});

Deno.test("[self-protection] a destructive command resolves each folder of the table once: its lookups are counted", async () => {
  const { MemoryFs } = await import("./context.ts");
  class Counting extends MemoryFs {
    calls = 0;
    override lstat(path: string) {
      this.calls++;
      return super.lstat(path);
    }
    override stat(path: string) {
      this.calls++;
      return super.stat(path);
    }
    override realPath(path: string) {
      this.calls++;
      return super.realPath(path);
    }
  }
  const fs = new Counting({}, ["/home", "/home/u", "/home/u/proj", "/home/u/.claude", "/usr"]);
  const path = ["/home/u/.local/bin", "/usr/local/bin", "/usr/bin", "/bin", "/opt/x/bin"].join(":");
  const ctx: ShellProtectContext = {
    surface: { ...CTX.surface, env: { ...CTX.surface.env, PATH: path }, fs },
    cwd: "/home/u/proj",
  };
  assertEquals(shellProtectHits("bash", "rm -rf build", ctx, new WorkBudget()), []);
  // Each folder of the table (above its first wildcard) is resolved once, and the PATH folders
  // only for a program's name: at most two lookups a folder (its name, then where it really is),
  // a few for the command's own names, and none below a name already found missing. Resolving
  // every folder's parents again for each child, as the reader once did, took 133 lookups for a
  // smaller table; remembering found folders brought it to 98, and missing names to 86 for 60.
  const { controlSurfaceRows } = await import("../../src/control/surface.ts");
  const folders = new Set(
    controlSurfaceRows(ctx.surface).filter(({ row }) => !/^path-/.test(row.base))
      .map(({ path }) =>
        path.slice(0, path.lastIndexOf("/", path.includes("*") ? path.indexOf("*") : path.length))
      ),
  );
  assert(fs.calls <= 1.6 * folders.size, `${fs.calls} lookups for ${folders.size} folders`);
});
