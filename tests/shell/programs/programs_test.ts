/**
 * Tests of getopt-style argument scanning and program-name normalisation.
 */

import {
  crontabCommands,
  exShellCommand,
  makeCommands,
  makeTexts,
  sedCommands,
  sedScripts,
  vimCommands,
} from "../../../src/shell/programs/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";
import {
  hasLong,
  hasShort,
  isDynamic,
  longsMatching,
  mayBeAnyOption,
  programName,
  scanArgs,
} from "../../../src/shell/programs/options.ts";

Deno.test("[flag-parsing] single-dash clusters are read letter by letter and a value letter ends the cluster", () => {
  const s = scanArgs(["-rne", "PAT", "-xvalue", "src"], { short: { e: "value", x: "value" } });
  assertEquals(s.shorts, [
    { letter: "r", value: null },
    { letter: "n", value: null },
    { letter: "e", value: "PAT" },
    { letter: "x", value: "value" },
  ]);
  assertEquals(s.operands, ["src"]);
  assertEquals(hasShort(s, "r"), true);
  assertEquals(hasShort(s, "f"), false);
});

Deno.test("[flag-parsing] long options take =value, or the next word when listed as value-taking", () => {
  const s = scanArgs(["--exec=a", "--repo", "origin", "--force", "main"], {
    long: { repo: "value" },
  });
  assertEquals(s.longs, [
    { name: "exec", value: "a" },
    { name: "repo", value: "origin" },
    { name: "force", value: null },
  ]);
  assertEquals(s.operands, ["main"]);
});

Deno.test("[flag-parsing] a long option matches any prefix of the full name", () => {
  const s = scanArgs(["--har", "--rec"]);
  assertEquals(hasLong(s, "hard"), true);
  assertEquals(hasLong(s, "recursive"), true);
  assertEquals(hasLong(s, "force"), false);
  assertEquals(longsMatching(s, "hardly").map((l) => l.name), ["har"]);
  // `--` alone is not a long option with an empty name.
  assertEquals(hasLong(scanArgs(["--"]), "force"), false);
});

Deno.test("[flag-parsing] -- ends options; GNU permutation reads options after operands unless disabled", () => {
  const s = scanArgs(["x", "-r", "--", "-f"]);
  assertEquals(s.operands, ["x", "-f"]);
  assertEquals(s.dashDash, true);
  assertEquals(hasShort(s, "r"), true);
  assertEquals(hasShort(s, "f"), false);
  const w = scanArgs(["-n", "5", "rm", "-rf", "x"], { short: { n: "value" }, permute: false });
  assertEquals(w.stop, 2);
  assertEquals(w.operands, []);
  // A lone dash is an operand.
  assertEquals(scanArgs(["-"]).operands, ["-"]);
});

Deno.test("[destructive-bash-gate] programName takes the last path component, lowercased, without .exe", () => {
  assertEquals(programName("/bin/rm"), "rm");
  assertEquals(programName("C:\\Program Files\\Git\\cmd\\git.exe"), "git");
  assertEquals(programName("RM"), "rm");
  assertEquals(programName(".exe"), ".exe");
  assertEquals(programName("tool.com"), "tool");
});

Deno.test("[ambiguous-shell-is-not-evidence] isDynamic spots $ and backticks", () => {
  assertEquals(isDynamic("$x"), true);
  assertEquals(isDynamic("`id`"), true);
  assertEquals(isDynamic("rm"), false);
});

Deno.test("[destructive-bash-gate] an argument made only of unresolved expansions may be any option", () => {
  const may = ["$o", "${o}", "${o:-x}", "$@", "${a[@]}", "$*", "$1", "$a$b", "$(tool)", "`tool`"];
  const dashed = ["-$o", "--$o", "-`tool`"];
  const found = (words: string[]) => words.filter((w) => mayBeAnyOption(w));
  assertEquals(found([...may, ...dashed]), [...may, ...dashed]);
  // Literal text before it, a number, or a command that only prints paths.
  const operands = [
    "./$f",
    "$HOME/x",
    "x$o",
    "$((1 + 2))",
    "$#",
    "$?",
    "${#x}",
    "$(find . -name '*.o')",
    "$(find -L src -type f)",
    "$(pwd)",
    "$(mktemp -d)",
    "-r",
    "",
  ];
  assertEquals(found(operands), []);
  // The same printers writing free text, or fed through another program, may print anything.
  assertEquals(
    found(["$(find . -printf '-rf')", "$(find -rf)", "$(find . | sed s/^/-/)", "$(mktemp -- -rX)"]),
    ["$(find . -printf '-rf')", "$(find -rf)", "$(find . | sed s/^/-/)", "$(mktemp -- -rX)"],
  );
  // A name of any length is read whole.
  assertEquals(mayBeAnyOption(`$${"a".repeat(500)}`), true);
});

Deno.test("[destructive-bash-gate] GNU sed's e command is read from its script; text it runs unseen is null", () => {
  assertEquals(sedCommands("1e rm -rf x"), ["rm -rf x"]);
  assertEquals(sedCommands(":a;N;$!ba;e touch y\ns/x/y/g"), ["touch y"]);
  assertEquals(sedCommands("/a/,/b/{s#x#y#gw out.txt\n}"), []);
  assertEquals(sedCommands("1i\\e not a command\n$a text; e neither"), []);
  assertEquals(sedCommands("y/e/f/;s/e/f/2"), []);
  // The pattern space, as the e flag or a bare e runs it, is no text of the line.
  assertEquals(sedCommands("s/.*/rm -rf x/e"), null);
  assertEquals(sedCommands("1e"), null);
  // A command this reader does not know: read as possibly anything.
  assertEquals(sedCommands("1k"), null);
  assertEquals(sedScripts(["-n", "-e", "p", "--expression=q", "f"]).scripts, ["p", "q"]);
  assertEquals(sedScripts(["-i.bak", "s/a/b/", "f"]).scripts, ["s/a/b/"]);
  assertEquals(sedScripts(["-ne", "p", "f"]).scripts, ["p"]);
  assertEquals(sedScripts(["-f", "s.sed", "f"]), { scripts: [], files: ["s.sed"] });
  assertEquals(sedScripts(["-nf", "-", "f"]).files, ["-"]);
  assertEquals(sedScripts(["--file=/dev/stdin", "f"]).files, ["/dev/stdin"]);
});

Deno.test("[destructive-bash-gate] vim's start-up ex commands, make's recipes and crontab's jobs are read as commands", () => {
  assertEquals(vimCommands(["-c", "!ls", "+10", "+/x", "+wq", "--cmd", "set nu", "f"]), [
    "!ls",
    "wq",
    "set nu",
  ]);
  assertEquals(exShellCommand(":silent !rm -rf x"), "rm -rf x");
  assertEquals(exShellCommand("1,$w !sh"), "sh");
  assertEquals(exShellCommand("r !date"), "date");
  assertEquals(exShellCommand("wq"), null);
  assertEquals(exShellCommand("terminal rm -rf x"), "rm -rf x");
  assertEquals(makeTexts(["--eval=x:", "-f", "-", "all"], ["y:"]), ["x:", "y:"]);
  assertEquals(makeTexts(["-f", "Makefile"], ["y:"]), []);
  assertEquals(
    makeCommands("a: b ; echo $$HOME\nb:\n\t@-rm -rf x \\\n  y\nV != id\nW := $(shell ls -a)"),
    ["echo $HOME", "rm -rf x    y", "id", "ls -a"],
  );
  assertEquals(
    crontabCommands("# c\nMAILTO=a\n*/5 * * * * rm -rf x\n@reboot ls\n\n"),
    ["rm -rf x", "ls"],
  );
});
