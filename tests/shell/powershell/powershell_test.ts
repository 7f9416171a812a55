/**
 * Tests of the PowerShell lexer and the parameter binding helpers.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { parsePowerShell } from "../../../src/shell/powershell/lexer.ts";
import {
  bindParameter,
  psCommandName,
  splitColonArg,
} from "../../../src/shell/powershell/params.ts";
import type { PsParse, PsSegment } from "../../../src/shell/powershell/words.ts";
import { MAX_COMMAND_CHARS, MAX_LEX_CHARS, MAX_NESTING } from "../../../src/shell/bash/mod.ts";
import { joinPieces, mulberry32 } from "../../helpers/prng.ts";
import {
  assertLinearWork,
  assertStepsPerChar,
  POWERSHELL_STEPS_PER_CHAR,
} from "../../helpers/work.ts";

/** The word texts of every segment, in order. */
function texts(p: PsParse): string[][] {
  return p.segments.map((s) => s.words.map((w) => w.text));
}

/** Parses and asserts `ok`. */
function ok(command: string): PsParse {
  const p = parsePowerShell(command);
  assertEquals(p.problem, null, command);
  assertEquals(p.ok, true, command);
  return p;
}

/** The one segment of a command that has exactly one. */
function only(command: string): PsSegment {
  const p = ok(command);
  assertEquals(p.segments.length, 1, command);
  return p.segments[0];
}

// ---------------------------------------------------------------------------
// Words, quotes and escapes.

Deno.test("[destructive-bash-gate] PowerShell words split at blanks; quotes are removed", () => {
  assertEquals(texts(ok("Remove-Item -Recurse -Force .\\build")), [[
    "Remove-Item",
    "-Recurse",
    "-Force",
    ".\\build",
  ]]);
  const seg = only(`Write-Output 'a b' "c d" e'f'g 'it''s' "say ""hi"""`);
  assertEquals(seg.words.map((w) => w.text), [
    "Write-Output",
    "a b",
    "c d",
    "efg",
    "it's",
    'say "hi"',
  ]);
  assertEquals(seg.words.map((w) => w.quoted), [false, true, true, true, true, true]);
  assertEquals(seg.words[1].raw, "'a b'");
});

Deno.test("[destructive-bash-gate] PowerShell typographic quotes are quotes", () => {
  const seg = only("rm \u2018a b\u2019 \u201cc d\u201d \u201ae\u201b \u201ef\u201d");
  assertEquals(seg.words.map((w) => w.text), ["rm", "a b", "c d", "e", "f"]);
  assert(seg.words.slice(1).every((w) => w.quoted));
});

Deno.test("[ambiguous-shell-is-not-evidence] PowerShell backtick escapes are decoded and flagged", () => {
  const bare = ok("r`m `-Recurse a`$b");
  assertEquals(texts(bare), [["rm", "-Recurse", "a$b"]]);
  assertEquals(bare.backtickEscape, true);
  assertEquals(bare.segments[0].words[1].parameter, false);
  const quoted = ok('Write-Output "a`tb`nc`"d`$e"');
  assertEquals(texts(quoted), [["Write-Output", 'a\tb\nc"d$e']]);
  assertEquals(quoted.backtickEscape, true);
  assertEquals(quoted.variables, false);
  const single = ok("Write-Output 'a`tb'");
  assertEquals(texts(single), [["Write-Output", "a`tb"]]);
  assertEquals(single.backtickEscape, false);
  assertEquals(ok("ls").backtickEscape, false);
});

Deno.test("[ambiguous-shell-is-not-evidence] a PowerShell line continuation joins lines", () => {
  const p = ok("Remove-Item x `\n  -Recurse `\r\n  -Force");
  assertEquals(texts(p), [["Remove-Item", "x", "-Recurse", "-Force"]]);
  assertEquals(p.backtickEscape, true);
});

Deno.test("[destructive-bash-gate] PowerShell backslashes are literal", () => {
  assertEquals(texts(ok("Remove-Item C:\\a\\b 'c\\d' \"e\\f\"")), [[
    "Remove-Item",
    "C:\\a\\b",
    "c\\d",
    "e\\f",
  ]]);
});

// ---------------------------------------------------------------------------
// Separators.

Deno.test("[stdin-is-not-a-tree-search] PowerShell separators and piped segments", () => {
  const p = ok("a; b | c && d || e\nf & g");
  assertEquals(texts(p), [["a"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"]]);
  assertEquals(p.segments.map((s) => s.sepBefore), ["start", ";", "|", "&&", "||", "\n", "&"]);
  assertEquals(p.segments.map((s) => s.piped), [false, false, true, false, true, false, false]);
});

Deno.test("[stdin-is-not-a-tree-search] a PowerShell pipe at the end of a line continues on the next", () => {
  const p = ok("Get-ChildItem |\n  Select-String x &&\n ls");
  assertEquals(p.segments.map((s) => s.sepBefore), ["start", "|", "&&"]);
  assertEquals(p.segments[1].piped, true);
});

Deno.test("[destructive-bash-gate] PowerShell separators inside quotes are data", () => {
  assertEquals(texts(ok("echo 'a; rm -r x | y && z'")), [["echo", "a; rm -r x | y && z"]]);
  assertEquals(texts(ok('echo "a; b"')), [["echo", "a; b"]]);
});

Deno.test("[destructive-bash-gate] PowerShell call operator and dot-sourcing", () => {
  const call = only("& 'Remove-Item' x -Recurse");
  assertEquals(call.invocation, "&");
  assertEquals(call.words.map((w) => w.text), ["Remove-Item", "x", "-Recurse"]);
  const dot = only(". .\\script.ps1 -Force");
  assertEquals(dot.invocation, ".");
  assertEquals(dot.words.map((w) => w.text), [".\\script.ps1", "-Force"]);
  assertEquals(only(".\\script.ps1").invocation, null);
  const bg = ok("Start-Sleep 5 & ls");
  assertEquals(bg.segments.map((s) => [s.sepBefore, s.invocation]), [["start", null], ["&", null]]);
  const both = ok("ls & & rm x");
  assertEquals(both.segments.map((s) => [s.sepBefore, s.invocation]), [["start", null], [
    "&",
    "&",
  ]]);
});

// ---------------------------------------------------------------------------
// Comments, redirections, stop-parsing.

Deno.test("[destructive-bash-gate] PowerShell comments are not commands", () => {
  assertEquals(texts(ok("ls # ; rm -r x")), [["ls"]]);
  assertEquals(texts(ok("ls <# rm -r x #> -Force")), [["ls", "-Force"]]);
  assertEquals(texts(ok("<# multi\nline #>\nrm x")), [["rm", "x"]]);
  assertEquals(texts(ok("echo a#b")), [["echo", "a#b"]]);
  assertEquals(parsePowerShell("ls <# open").problem, "unbalanced");
});

Deno.test("[stdin-is-not-a-tree-search] PowerShell redirections are set aside", () => {
  const seg = only("Get-Content a > out.txt 2>&1 3>> log *> all");
  assertEquals(seg.words.map((w) => w.text), ["Get-Content", "a"]);
  assertEquals(
    seg.redirects.map((r) => [r.op, r.target?.text ?? null]),
    [[">", "out.txt"], ["2>&1", null], ["3>>", "log"], ["*>", "all"]],
  );
  assertEquals(seg.stdinRedirected, false);
  const input = only("sls x < file");
  assertEquals(input.stdinRedirected, true);
  assertEquals(input.redirects.map((r) => [r.op, r.target?.text]), [["<", "file"]]);
  assertEquals(only("echo 2").words.map((w) => w.text), ["echo", "2"]);
});

Deno.test("[ambiguous-shell-is-not-evidence] PowerShell --% passes the rest of the line verbatim", () => {
  const p = ok("cmd /c --% del /s /q C:\\x & echo $y | findstr y\nls");
  assertEquals(p.stopParsing, true);
  assertEquals(texts(p), [["cmd", "/c", "del", "/s", "/q", "C:\\x", "&", "echo", "$y"], [
    "findstr",
    "y",
  ], ["ls"]]);
  assertEquals(p.segments[0].stopParsing, true);
  assertEquals(p.segments[0].words[8].expands, false);
  assertEquals(ok("echo '--%'").stopParsing, false);
  assertEquals(ok("echo --%x").stopParsing, false);
});

// ---------------------------------------------------------------------------
// Expansions and nested commands.

Deno.test("[ambiguous-shell-is-not-evidence] PowerShell variables and splats are flagged", () => {
  for (
    const c of ["ls $x", "ls ${a b}", "ls $env:TEMP", "ls $_", "ls $?", "ls @args", 'ls "a$x"']
  ) {
    const p = ok(c);
    assertEquals(p.variables, true, c);
    assertEquals(p.segments[0].words[1].expands, true, c);
  }
  const lit = ok("ls $ 'a$x' a$");
  assertEquals(lit.variables, false);
  assertEquals(texts(lit), [["ls", "$", "a$x", "a$"]]);
  assertEquals(only("ls $env:TEMP\\x").words[1].text, "$env:TEMP\\x");
});

Deno.test("[destructive-bash-gate] commands inside $( ), @( ) and ( ) are segments of their own", () => {
  const sub = ok("Write-Output $(Remove-Item x -Recurse) @(rm y) (ri z)");
  assertEquals(sub.subexpression, true);
  assertEquals(sub.group, true);
  assertEquals(
    sub.segments.map((s) => [s.depth, s.container, s.words.map((w) => w.text).join(" ")]),
    [
      [1, "subexpression", "Remove-Item x -Recurse"],
      [1, "array", "rm y"],
      [1, "group", "ri z"],
      [0, null, "Write-Output $(…) @(…) (…)"],
    ],
  );
  const quoted = ok("echo \"a $(rm -r x; ls) b\" 'c $(rm y)'");
  assertEquals(texts(quoted), [["rm", "-r", "x"], ["ls"], ["echo", "a $(…) b", "c $(rm y)"]]);
  assertEquals(quoted.segments[1].sepBefore, ";");
});

Deno.test("[destructive-bash-gate] commands inside script blocks and hashtables are segments of their own", () => {
  const p = ok("Get-ChildItem | ForEach-Object { Remove-Item $_ -Recurse -Force }");
  assertEquals(p.scriptBlock, true);
  assertEquals(p.segments.map((s) => [s.depth, s.container, s.piped]), [
    [0, null, false],
    [1, "scriptblock", false],
    [0, null, true],
  ]);
  assertEquals(texts(p)[1], ["Remove-Item", "$_", "-Recurse", "-Force"]);
  const table = ok("@{ a = 1; b = (rm x) }");
  assertEquals(table.hashtable, true);
  assertEquals(texts(table), [["a", "=", "1"], ["rm", "x"], ["b", "=", "(…)"], ["@{…}"]]);
  assertEquals(table.segments[1].depth, 2);
  const branches = ok("if ($a) { rm -r x } else { ls }");
  assertEquals(texts(branches), [["$a"], ["rm", "-r", "x"], ["ls"], [
    "if",
    "(…)",
    "{…}",
    "else",
    "{…}",
  ]]);
});

Deno.test("[destructive-bash-gate] PowerShell here-strings are data unless they expand", () => {
  const single = ok("@'\nRemove-Item x -Recurse\n$(rm y)\n'@ | Out-File a");
  assertEquals(single.hereString, true);
  assertEquals(texts(single), [["Remove-Item x -Recurse\n$(rm y)"], ["Out-File", "a"]]);
  assertEquals(single.segments[0].words[0].expands, false);
  const double = ok('@"\nline $(Remove-Item x -Recurse)\n"@');
  assertEquals(texts(double), [["Remove-Item", "x", "-Recurse"], ["line $(…)"]]);
  assertEquals(double.segments[0].container, "subexpression");
  assertEquals(double.segments[1].words[0].expands, true);
  assertEquals(texts(ok("@'\r\nx\r\n'@")), [["x"]]);
  assertEquals(texts(ok("@'\n'@")), [[""]]);
  assertEquals(parsePowerShell("@'\nnever closed").problem, "unbalanced");
  // Not at the end of a line: an ordinary splat-like `@` and a string.
  assertEquals(ok("echo @'x'").hereString, false);
});

Deno.test("[destructive-bash-gate] PowerShell assignments keep the command on the right", () => {
  const seg = only("$x = Remove-Item foo -Recurse");
  assertEquals(seg.assignedTo, "$x");
  assertEquals(seg.words.map((w) => w.text), ["Remove-Item", "foo", "-Recurse"]);
  assertEquals(only("[string[]]$files += gci").assignedTo, "$files");
  assertEquals(only("${my var}=ls").assignedTo, "${my var}");
  assertEquals(only("$env:FOO='x'").words.map((w) => w.text), ["x"]);
  assertEquals(only("$a -eq 1").assignedTo, null);
  assertEquals(parsePowerShell("$x =").problem, "unbalanced");
});

// ---------------------------------------------------------------------------
// Parameters and comma lists.

Deno.test("[powershell-parameter-binding] parameter words, including typographic dashes", () => {
  const seg = only("ri x \u2013Recurse \u2014Force \u2015WhatIf -Path:a -1 --foo -");
  assertEquals(seg.words.map((w) => w.text), [
    "ri",
    "x",
    "-Recurse",
    "-Force",
    "-WhatIf",
    "-Path:a",
    "-1",
    "--foo",
    "-",
  ]);
  assertEquals(seg.words.map((w) => w.parameter), [
    false,
    false,
    true,
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
  assertEquals(only("ri '-Recurse'").words[1].parameter, false);
});

Deno.test("[powershell-parameter-binding] unquoted comma lists are split into parts", () => {
  const seg = only("Remove-Item a,b 'c,d',e -Exclude:x,y -Path f");
  assertEquals(seg.words.map((w) => w.parts), [
    ["Remove-Item"],
    ["a", "b"],
    ["c,d", "e"],
    ["-Exclude:x", "y"],
    ["-Path"],
    ["f"],
  ]);
  assertEquals(seg.words[1].text, "a,b");
});

Deno.test("[powershell-parameter-binding] bindParameter binds by exact name or an unambiguous prefix, case-insensitively", () => {
  const removeItem = ["Path", "LiteralPath", "Filter", "Include", "Exclude", "Recurse", "Force"];
  assertEquals(bindParameter("-r", removeItem), "Recurse");
  assertEquals(bindParameter("-fo", removeItem), "Force");
  assertEquals(bindParameter("-FORCE", removeItem), "Force");
  assertEquals(bindParameter("-f", removeItem), null);
  assertEquals(bindParameter("-Recursive", removeItem), null);
  assertEquals(bindParameter("-x", removeItem), null);
  assertEquals(bindParameter("Recurse", removeItem), "Recurse");
  assertEquals(bindParameter("-r:$false", removeItem), "Recurse");
  assertEquals(bindParameter("\u2013fo", removeItem), "Force");
  assertEquals(bindParameter("-", removeItem), null);
  assertEquals(bindParameter("", removeItem), null);
  // An exact name wins over a longer name it is a prefix of.
  assertEquals(bindParameter("-Path", ["Path", "PathType"]), "Path");
  assertEquals(bindParameter("-Pat", ["Path", "PathType"]), null);
  assertEquals(bindParameter("-PathT", ["Path", "PathType"]), "PathType");
});

Deno.test("[powershell-parameter-binding] bindParameter resolves aliases exactly", () => {
  const known = ["LiteralPath", "Recurse"];
  const aliases = { PSPath: "LiteralPath", LP: "LiteralPath" };
  assertEquals(bindParameter("-lp", known, aliases), "LiteralPath");
  assertEquals(bindParameter("-PSPATH", known, aliases), "LiteralPath");
  assertEquals(bindParameter("-l", known, aliases), "LiteralPath");
  assertEquals(bindParameter("-ps", known, aliases), null);
  assertEquals(bindParameter(42 as unknown as string, known), null);
});

Deno.test("[powershell-parameter-binding] splitColonArg splits -Name:value", () => {
  assertEquals(splitColonArg("-Recurse:$false"), { name: "Recurse", value: "$false" });
  assertEquals(splitColonArg("-Path:C:\\x"), { name: "Path", value: "C:\\x" });
  assertEquals(splitColonArg("-Force"), { name: "Force", value: null });
  assertEquals(splitColonArg("-Path:"), { name: "Path", value: "" });
  assertEquals(splitColonArg("\u2013Force:1"), { name: "Force", value: "1" });
  assertEquals(splitColonArg("Force"), null);
  assertEquals(splitColonArg("-1"), null);
  assertEquals(splitColonArg("--x"), null);
  assertEquals(splitColonArg("-"), null);
});

Deno.test("[destructive-bash-gate] psCommandName strips paths, module qualifiers and extensions", () => {
  const name = (c: string) => psCommandName(only(c).words[0]);
  assertEquals(name("Remove-Item x"), "remove-item");
  assertEquals(name("Microsoft.PowerShell.Management\\Remove-Item x"), "remove-item");
  assertEquals(name("C:\\Program` Files\\Git\\bin\\git.exe push"), "git");
  assertEquals(name("./tool.ps1"), "tool");
  assertEquals(name("RD x"), "rd");
  assertEquals(name(".exe"), ".exe");
  assertEquals(psCommandName(undefined), "");
});

// ---------------------------------------------------------------------------
// Limits.

Deno.test("[ambiguous-shell-is-not-evidence] unbalanced PowerShell input is not ok", () => {
  for (
    const c of [
      "ls 'x",
      'ls "x',
      "ls (x",
      "ls $(x",
      "ls {x",
      "ls @{x",
      "ls )",
      "ls }",
      "ls ${x",
      "ls `",
      "\u2018x",
    ]
  ) {
    const p = parsePowerShell(c);
    assertEquals([p.ok, p.problem], [false, "unbalanced"], c);
  }
  assertEquals(texts(parsePowerShell("rm -r x; ls (")), [["rm", "-r", "x"]]);
});

Deno.test("[ambiguous-shell-is-not-evidence] PowerShell nesting deeper than the limit is not ok", () => {
  const at = "$(".repeat(MAX_NESTING) + "ls" + ")".repeat(MAX_NESTING);
  assertEquals(parsePowerShell(at).ok, true);
  const over = "$(".repeat(MAX_NESTING + 1) + "ls" + ")".repeat(MAX_NESTING + 1);
  assertEquals(parsePowerShell(over).problem, "too-deep");
  assertEquals(parsePowerShell("{".repeat(100_000)).problem, "too-deep");
});

Deno.test("[ambiguous-shell-is-not-evidence] over-long PowerShell input is not ok but still read up to the lexing limit", () => {
  const long = "ls " + "a".repeat(MAX_COMMAND_CHARS) + "; rm -r x";
  const p = parsePowerShell(long);
  assertEquals([p.ok, p.problem], [false, "too-long"]);
  assertEquals(p.segments.map((s) => s.words[0].text), ["ls", "rm"]);
  const huge = parsePowerShell("a".repeat(MAX_LEX_CHARS + 1));
  assertEquals([huge.ok, huge.problem, huge.segments.length], [false, "too-long", 0]);
  const notString = parsePowerShell(null as unknown as string);
  assertEquals([notString.ok, notString.problem], [false, "unbalanced"]);
});

const PIECES = [
  "Remove-Item",
  "rm",
  " ",
  " ",
  "-r",
  "-Force:",
  "'",
  "''",
  '"',
  "`",
  "$",
  "$(",
  "@(",
  "@{",
  "${",
  "@'\n",
  "\n'@",
  '@"\n',
  '\n"@',
  "(",
  ")",
  "{",
  "}",
  "[",
  "]",
  "<#",
  "#>",
  "#",
  "<",
  ">",
  "2>&1",
  "&",
  "&&",
  "|",
  "||",
  ";",
  "\n",
  "\r\n",
  "--%",
  ",",
  "=",
  "$x =",
  "\u2018",
  "\u201c",
  "\u2013",
  ".",
  "a",
  "x",
];

Deno.test("[ambiguous-shell-is-not-evidence] random PowerShell input never throws and costs bounded work per character", () => {
  const rand = mulberry32(0xc0ffee);
  for (let n = 0; n < 5000; n++) {
    const command = joinPieces(rand, PIECES, 1 + Math.floor(rand() * 30));
    const p = parsePowerShell(command);
    assertEquals(p.ok, p.problem === null, command);
    for (const seg of p.segments) {
      for (const w of seg.words) assert(w.parts.length >= 1, command);
    }
    assertStepsPerChar(JSON.stringify(command), command, p.steps, POWERSHELL_STEPS_PER_CHAR);
  }
});

Deno.test("[ambiguous-shell-is-not-evidence] hostile PowerShell input up to the lexing limit is read in linear time", () => {
  const units = [
    "[;",
    "${;",
    "$x=a;",
    "@'\n'@\n",
    '@"\n$(ls)\n"@\n',
    "<# #>",
    "a,",
    "`a",
    "--% a\n",
    "& . ",
    "$($(ls));",
    "ls|\n",
    "\u2018\u2018",
    "$null;",
    "[[[[;",
    "[int]$x = 1;",
    "'a' ",
  ];
  for (const unit of units) {
    const copies = Math.floor(MAX_LEX_CHARS / unit.length);
    const command = unit.repeat(copies);
    const label = JSON.stringify(unit);
    assertStepsPerChar(label, command, parsePowerShell(command).steps, POWERSHELL_STEPS_PER_CHAR);
    assertLinearWork(label, (n) => unit.repeat(n), copies / 4, (c) => parsePowerShell(c).steps);
  }
});

Deno.test("[ambiguous-shell-is-not-evidence] looking ahead for a type constraint at every statement costs one pass in all", () => {
  // Every statement start looks for the `]` of a `[type]$x =`. Looked for
  // anew each time, an unclosed `[` cost a whole window per statement.
  const command = "[;".repeat(50_000);
  const p = parsePowerShell(command);
  assertStepsPerChar("[;", command, p.steps, POWERSHELL_STEPS_PER_CHAR);
  assertEquals(p.segments.length, 50_000);
  // The look-ahead still reads assignments, and only within its window.
  assertEquals(parsePowerShell("[int]$x = ls").segments[0].assignedTo, "$x");
  assertEquals(parsePowerShell("[List[int]]$x = ls").segments[0].assignedTo, "$x");
  assertEquals(parsePowerShell(`[${"a".repeat(300)}]$x = ls`).segments[0].assignedTo, null);
  assertEquals(parsePowerShell("${a b} = ls").segments[0].assignedTo, "${a b}");
});
