/**
 * Tests of the git reader of the destructive detector: configuration from
 * the line and the environment (aliases, commands git runs, push
 * settings), subcommands git would autocorrect to, commands git runs for a
 * subcommand, settings stored by `git config`, and checkouts through a
 * pathspec. Each mechanism has destructive forms and benign look-alikes,
 * run through the property that a benign prefix never changes a verdict
 * and under a bound on the work counted.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { type EvasionCase, registerEvasionCases } from "../../helpers/destructive_cases.ts";
import { destructiveHit, newDetectBudget } from "../../../src/shell/destructive/destructive.ts";
import { parseConfigParameters } from "../../../src/shell/destructive/detect_git.ts";
import { autocorrectScore } from "../../../src/shell/programs/mod.ts";
import { loadAllParts } from "../../../src/shell/destructive/mod.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();

const CASES: readonly EvasionCase[] = [
  {
    mechanism: "aliases defined with -c or --config-env are expanded, names without case",
    destructive: [
      "git -c alias.nuke='reset --hard' nuke",
      "git -c alias.NUKE='reset --hard' nuke",
      "git -c Alias.Nuke='reset --hard' NUKE",
      "git -c 'alias.nuke=reset --hard' -C repo nuke",
      "git -c alias.nuke='!rm -rf x' nuke",
      "git -c alias.a=b -c alias.b='reset --hard' a",
      "git -c alias.nuke='push -f' nuke",
      "git -c alias.co=checkout co -- .",
      "NUKE='reset --hard' git --config-env=alias.nuke=NUKE nuke",
      "export NUKE='reset --hard'; git --config-env alias.nuke=NUKE nuke",
      "git --config-env=alias.nuke=NUKE nuke",
      `a='reset --hard'; git -c alias.x="$a" x`,
      `git -c alias.x="$(echo reset --hard)" x`,
    ],
    benign: [
      "git -c alias.st=status st",
      "git -c alias.nuke='!echo hi' nuke",
      "git -c alias.nuke='reset --hard' status",
      "git --config-env=user.name=NAME commit -m x",
      "git -c alias.co=checkout co main",
      `git -c alias.x="$(echo log)" status`,
    ],
  },
  {
    mechanism: "configuration from GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT/KEY_n/VALUE_n",
    destructive: [
      `GIT_CONFIG_PARAMETERS="'alias.nuke'='reset --hard'" git nuke`,
      `export GIT_CONFIG_PARAMETERS="'alias.nuke=reset --hard'"; git nuke`,
      `GIT_CONFIG_PARAMETERS="'core.pager'='rm -rf x'" git log`,
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.nuke GIT_CONFIG_VALUE_0='reset --hard' git nuke",
      "env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.nuke GIT_CONFIG_VALUE_0='reset --hard' git nuke",
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.nuke git nuke",
    ],
    benign: [
      `GIT_CONFIG_PARAMETERS="'alias.st'='status'" git st`,
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=x git commit -m y",
    ],
  },
  {
    mechanism: "a subcommand git does not know is read as the commands autocorrect would run",
    destructive: [
      "git -c help.autocorrect=1 rest --hard",
      "git -c help.autocorrect=immediate rest --hard",
      "git -c help.autocorrect=prompt psuh --force",
      "git -c help.autocorrect=immediate cleam -fdx",
      "git rest --hard",
      "git RESET --hard",
    ],
    benign: [
      "git -c help.autocorrect=1 stauts",
      "git -c help.autocorrect=1 rest --soft",
      "git st",
      "git co main",
      "git absorb --and-rebase",
      "git town sync",
    ],
  },
  {
    mechanism: "git config storing a destructive alias, command or push setting",
    destructive: [
      "git config alias.nuke 'reset --hard' && git nuke",
      "git config --global alias.nuke 'reset --hard'; git nuke",
      "git config set alias.nuke 'reset --hard'",
      "git config --add alias.nuke '!rm -rf x'",
      "git config core.pager 'rm -rf x' && git log",
      "git config remote.origin.mirror true",
      "git config remote.origin.push '+refs/heads/*:refs/heads/*'",
      "git config clean.requireForce false && git clean -dx",
    ],
    benign: [
      "git config alias.lg 'log --oneline --graph'",
      "git config --get alias.nuke",
      "git config core.pager less",
      "git config remote.origin.mirror false",
      "git config user.name 'x'",
      "git config clean.requireForce false",
    ],
  },
  {
    mechanism:
      "git clean deletes unless it is a dry run: clean.requireForce may be off anywhere; help is no run",
    destructive: [
      "git clean -d",
      "git clean -x",
      "git -c clean.requireForce=false clean -dx",
      "git commit --amend -m --help",
    ],
    benign: [
      "git clean -n",
      "git clean -nd",
      "git clean --dry-run -x",
      "git clean --help",
      "git clean -h",
      "git restore --help",
    ],
  },
  {
    mechanism: "configuration and environment values git runs as commands are read",
    destructive: [
      "git -c core.pager='rm -rf x' log",
      "git -c core.sshCommand='rm -rf x' fetch",
      "git -c core.fsmonitor='rm -rf x' status",
      "git -c core.editor='rm -rf x' commit",
      "git -c pager.log='rm -rf x' log",
      "git -c credential.helper='!rm -rf x' fetch",
      "git -c diff.external='rm -rf x' diff",
      "git -c filter.x.smudge='rm -rf y' checkout main",
      "git -c sequence.editor='rm -rf x' rebase -i HEAD~3",
      "git -c core.pager='sh -c \"git reset --hard\"' log",
      "GIT_SSH_COMMAND='rm -rf x' git fetch",
      "GIT_PAGER='rm -rf x' git log",
      "GIT_EDITOR='rm -rf x' git commit",
      "GIT_SEQUENCE_EDITOR='rm -rf x' git rebase -i HEAD~3",
      "sudo GIT_PAGER='rm -rf x' git log",
      `git -c core.pager="$(echo rm -rf x)" log`,
    ],
    benign: [
      "git -c core.pager='less -R' log",
      "GIT_PAGER=cat git log",
      "GIT_SSH_COMMAND='ssh -i key' git fetch",
      "EDITOR=vim git commit",
      "git -c core.editor=vim commit",
      "git -c credential.helper=store fetch",
      "git -c core.fsmonitor=true status",
      `git -c core.pager="$PAGER" log`,
    ],
  },
  {
    mechanism: "commands git runs for submodule foreach, rebase --exec, bisect run and remotes",
    destructive: [
      "git submodule foreach 'rm -rf x'",
      "git submodule foreach --recursive 'git reset --hard'",
      "git submodule --quiet foreach rm -rf x",
      "git rebase -x 'rm -rf x' main",
      "git rebase --exec 'rm -rf x' main",
      "git rebase --exec='rm -rf x' main",
      "git rebase -x'rm -rf x' main",
      "git bisect run rm -rf x",
      "git bisect run sh -c 'rm -rf x'",
      "git difftool -x 'rm -rf x'",
      "git fetch --upload-pack='rm -rf x' .",
      "git clone -u 'rm -rf x' . y",
    ],
    benign: [
      "git submodule foreach 'git pull'",
      "git submodule update --init",
      "git rebase -x 'npm test' main",
      "git bisect run npm test",
      "git fetch --upload-pack=git-upload-pack origin",
    ],
  },
  {
    mechanism: "remote.<name>.mirror or a forced remote.<name>.push turns a push into a rewrite",
    destructive: [
      "git -c remote.origin.mirror=true push",
      "git -c remote.origin.mirror push",
      "git -c remote.origin.push=+main push",
      "git push --mirror",
    ],
    benign: ["git -c remote.origin.mirror=false push", "git push origin main"],
  },
  {
    mechanism: "commands that move a branch off its commits without --force",
    destructive: [
      "git checkout -B main",
      "git checkout -B main origin/main",
      "git checkout -fB main",
      "git reset --keep HEAD~3",
      "git reset --merge ORIG_HEAD",
      "git switch -C main",
      "git switch --force-create main origin/main",
      "git fetch origin +main:main",
      "git fetch . +HEAD:refs/heads/main",
    ],
    benign: [
      "git checkout -b new",
      "git reset --soft HEAD~1",
      "git reset HEAD file.txt",
      "git switch -c new",
      "git fetch origin main",
      "git fetch origin main:main",
      "git fetch origin +refs/heads/*:refs/remotes/origin/*",
      "git fetch --tags origin +refs/tags/*:refs/tags/*",
    ],
  },
  {
    mechanism: "checkouts that overwrite work through a pathspec",
    destructive: [
      "git checkout ./",
      "git checkout :/",
      "git checkout '*'",
      "git checkout '*.ts'",
      "git checkout HEAD src",
      "git checkout HEAD~1 file.txt",
      "git checkout -- .",
      "git checkout src/",
      "git checkout README.md",
      "git checkout --ours src/a.ts",
      "git checkout ':(top)src'",
      "git restore .",
    ],
    benign: [
      "git checkout main",
      "git checkout -b x",
      "git checkout -b feature origin/feature",
      "git checkout -b y origin/x",
      "git checkout v1.2",
      "git checkout 3.x",
      "git checkout release/v1.2.3",
      "git checkout feature/login",
      "git checkout -",
      "git checkout HEAD~3",
      "git checkout @{-1}",
      "git checkout --detach HEAD~1",
      "git checkout -t origin/feature",
      "git restore --staged .",
    ],
  },
];

registerEvasionCases("git", CASES);

Deno.test("[destructive-bash-gate] git: a chain of aliases and a long unknown word stay bounded", () => {
  const chain = Array.from({ length: 50 }, (_, i) => `-c alias.a${i}=a${i + 1}`).join(" ");
  const budget = newDetectBudget();
  const hit = destructiveHit("bash", `git ${chain} -c alias.a50=status a0`, [], undefined, budget);
  // Past the aliases it follows, the end of the chain is unknown.
  assertEquals(hit?.rule, "git-alias-unknown");
  assert(budget.left >= 0 && budget.chars >= 0);
  assertEquals(destructiveHit("bash", `git ${"x".repeat(5000)} --hard`, []), null);
});

Deno.test("[destructive-bash-gate] git: the hit names the rule the alias or command reaches", () => {
  assertEquals(
    destructiveHit("bash", "git -c alias.nuke='reset --hard' nuke", [])?.rule,
    "git-reset",
  );
  assertEquals(destructiveHit("bash", "git --config-env=alias.x=V x", []), {
    pack: "core",
    rule: "git-alias-unknown",
    destroys: "may discard work: runs a git alias whose definition is only known at run time",
  });
  assertEquals(destructiveHit("bash", "GIT_PAGER='rm -rf x' git log", [])?.rule, "rm-recursive");
});

Deno.test("[destructive-bash-gate] git: GIT_CONFIG_PARAMETERS is read in both quoting styles", () => {
  assertEquals(parseConfigParameters(`'alias.x'='reset --hard' 'core.pager=less'`), [
    { key: "alias.x", value: "reset --hard" },
    { key: "core.pager", value: "less" },
  ]);
  assertEquals(parseConfigParameters(`'a.b'='it'\\''s'`), [{ key: "a.b", value: "it's" }]);
});

Deno.test("[destructive-bash-gate] git: autocorrect scores as git does (free swaps, costly deletions)", () => {
  assertEquals(autocorrectScore("psuh", "push"), 1);
  assertEquals(autocorrectScore("rest", "reset"), 2);
  assertEquals(autocorrectScore("cleam", "clean"), 3);
  assertEquals(autocorrectScore("resett", "reset"), 4);
});
