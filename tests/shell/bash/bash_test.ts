/**
 * Unit tests of the Bash lexer: every construct it must understand, the
 * shape of its segments, and its bounds on hostile input.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import {
  type BashParse,
  MAX_COMMAND_CHARS,
  MAX_LEX_CHARS,
  MAX_NESTING,
  PIPED_AFTER,
  type Segment,
  SEPARATORS,
} from "../../../src/shell/bash/words.ts";
import { argv, commandName, parseBash } from "../../../src/shell/bash/parser.ts";
import { assertLinearWork, assertStepsPerChar, BASH_STEPS_PER_CHAR } from "../../helpers/work.ts";
import { loadAllParts } from "../../../src/shell/destructive/mod.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();

/** The word texts of every segment. */
function words(command: string): string[][] {
  return parseBash(command).segments.map((s) => s.words.map((w) => w.text));
}

function only(command: string): Segment {
  const { segments } = parseBash(command);
  assertEquals(segments.length, 1, `${JSON.stringify(command)} has ${segments.length} segments`);
  return segments[0];
}

function flags(p: BashParse): Omit<BashParse, "segments" | "steps"> {
  const { segments: _, steps: _steps, ...rest } = p;
  return rest;
}

const NO_FLAGS = {
  ok: true,
  problem: null,
  commandSubstitution: false,
  backticks: false,
  processSubstitution: false,
  heredoc: false,
  hereString: false,
  parameterExpansion: false,
  functions: [] as string[],
};

Deno.test("[destructive-bash-gate] quotes and escapes are removed the way bash removes them", () => {
  const seg = only(`r''m \\rm "rm" 'rm' r"m" $'r\\x6d' $"rm"`);
  assertEquals(seg.words.map((w) => w.text), ["rm", "rm", "rm", "rm", "rm", "rm", "rm"]);
  assertEquals(seg.words.map((w) => w.quoted), [true, true, true, true, true, true, true]);
  assertEquals(seg.words.map((w) => w.raw), [
    `r''m`,
    "\\rm",
    `"rm"`,
    "'rm'",
    `r"m"`,
    "$'r\\x6d'",
    `$"rm"`,
  ]);
  assertEquals(only("rm -rf x").words.map((w) => w.quoted), [false, false, false]);
});

Deno.test("[destructive-bash-gate] double quotes keep their escapes for $ ` \" \\ only; $'…' decodes C escapes", () => {
  assertEquals(only(`echo "a\\$b \\" \\n"`).words[1].text, 'a$b " \\n');
  assertEquals(only("echo $'a\\tb\\n\\101\\u00e9'").words[1].text, "a\tb\nAé");
  assertEquals(only("echo 'a\\tb'").words[1].text, "a\\tb");
});

Deno.test("[destructive-bash-gate] a backslash-newline joins lines inside and between words", () => {
  assertEquals(words("rm \\\n  -rf x"), [["rm", "-rf", "x"]]);
  assertEquals(words("r\\\nm -rf x"), [["rm", "-rf", "x"]]);
});

Deno.test("[read-only-first-shell-command] every control operator separates segments and is recorded", () => {
  const { segments } = parseBash("a; b & c && d || e | f |& g\nh");
  assertEquals(segments.map((s) => s.words[0].text), ["a", "b", "c", "d", "e", "f", "g", "h"]);
  assertEquals(segments.map((s) => s.sepBefore), ["start", ";", "&", "&&", "||", "|", "|&", "\n"]);
  assertEquals(segments.map((s) => s.raw), ["a", "b", "c", "d", "e", "f", "g", "h"]);
  assertEquals(SEPARATORS, [";;&", ";;", ";&", "&&", "||", "|&", ";", "&", "|", "\n"]);
});

Deno.test("[stdin-is-not-a-tree-search] a segment after |, |& or || reads piped input", () => {
  const { segments } = parseBash("a | b |& c || d && e; f");
  assertEquals(segments.map((s) => s.piped), [false, true, true, true, false, false]);
  assertEquals([...PIPED_AFTER].sort(), ["|", "|&", "||"]);
});

Deno.test("[stdin-is-not-a-tree-search] input redirections mark stdin and where they appeared", () => {
  const seg = only("grep x 2>&1 >out <in 3<>f");
  assertEquals(seg.words.map((w) => w.text), ["grep", "x"]);
  assertEquals(seg.redirects.map((r) => [r.op, r.fd, r.target.text]), [
    [">&", "2", "1"],
    [">", null, "out"],
    ["<", null, "in"],
    ["<>", "3", "f"],
  ]);
  assertEquals(seg.stdinRedirected, true);
  assertEquals(seg.inputRedirectAt, 2);
  assertEquals(only("grep x 2>err").stdinRedirected, false);
  assertEquals(only("grep x 2<in").stdinRedirected, false);
  assertEquals(only("cat &>> log").redirects.map((r) => r.op), ["&>>"]);
});

Deno.test("[read-only-first-shell-command] comments end at the newline and hide what they contain", () => {
  assertEquals(words("ls # comment; rm -rf /"), [["ls"]]);
  assertEquals(words("# only a comment"), []);
  assertEquals(words("ls #x\npwd"), [["ls"], ["pwd"]]);
  assertEquals(words("echo a#b"), [["echo", "a#b"]]);
});

Deno.test("[ambiguous-shell-is-not-evidence] command substitutions are segments of their own and flagged", () => {
  const p = parseBash("echo $(date) `id`");
  assertEquals(flags(p), { ...NO_FLAGS, commandSubstitution: true, backticks: true });
  assertEquals(p.segments.map((s) => [s.words[0].text, s.depth, s.inSubstitution]), [
    ["date", 1, true],
    ["id", 1, true],
    ["echo", 0, false],
  ]);
  const echo = p.segments[2];
  assertEquals(echo.words.map((w) => [w.text, w.expands]), [
    ["echo", false],
    ["$(date)", true],
    ["`id`", true],
  ]);
  assertEquals(argv(only('"$(echo rm)" -rf x'.replace("$(echo rm)", "x"))), ["x", "-rf", "x"]);
});

Deno.test("[ambiguous-shell-is-not-evidence] process substitutions are segments and flagged", () => {
  const p = parseBash("diff <(ls a) >(cat)");
  assertEquals(flags(p), { ...NO_FLAGS, processSubstitution: true });
  assertEquals(p.segments.map((s) => s.words[0].text), ["ls", "cat", "diff"]);
  assertEquals(p.segments[2].words.map((w) => w.text), ["diff", "<(ls a)", ">(cat)"]);
});

Deno.test("[destructive-bash-gate] subshells, brace groups and function bodies give nested segments", () => {
  const p = parseBash("(cd x; ls) && { pwd; }; f() { rm -rf y; }; function g { id; }");
  assertEquals(p.segments.map((s) => [s.words[0].text, s.depth]), [
    ["cd", 1],
    ["ls", 1],
    ["pwd", 1],
    ["rm", 1],
    ["id", 1],
  ]);
  assertEquals(p.segments[2].sepBefore, "&&");
  assertEquals(p.functions, ["f", "g"]);
  assert(p.ok);
});

Deno.test("[destructive-bash-gate] if/then/elif/else/fi, loops and case bodies are commands", () => {
  assertEquals(words("if a; then b; elif c; then d; else e; fi"), [["a"], ["b"], ["c"], ["d"], [
    "e",
  ]]);
  assertEquals(words("while a; do b; done; until c; do d; done"), [["a"], ["b"], ["c"], ["d"]]);
  assertEquals(words("for i in 1 2; do x $i; done"), [["for", "i", "in", "1", "2"], ["x", "$i"]]);
  const p = parseBash("case $x in a|b) one;; *) two;; esac");
  assertEquals(p.segments.map((s) => s.words.map((w) => w.text)), [
    ["case", "$x", "in", "a", "b", "*"],
    ["one"],
    ["two"],
  ]);
  assertEquals(words("! rm x"), [["rm", "x"]]);
  assertEquals(only("! rm x").negated, true);
});

Deno.test("[ambiguous-shell-is-not-evidence] here-document bodies are stdin data, not commands", () => {
  const p = parseBash("cat <<'EOF'\nrm -rf /\n$(id)\nEOF");
  assertEquals(flags(p), { ...NO_FLAGS, heredoc: true });
  assertEquals(p.segments.length, 1);
  assertEquals(p.segments[0].stdinTexts, ["rm -rf /\n$(id)\n"]);
  assertEquals(p.segments[0].stdinRedirected, true);
  assertEquals(only("cat <<-EOF\n\tx\n\tEOF").stdinTexts, ["x\n"]);
  assertEquals(words("cat <<A <<B\na\nA\nb\nB\nls"), [["cat"], ["ls"]]);
});

Deno.test("[ambiguous-shell-is-not-evidence] an unquoted here-document still runs its substitutions", () => {
  const p = parseBash("cat <<EOF\nhello $(rm -rf x)\nEOF");
  assertEquals(p.commandSubstitution, true);
  assertEquals(p.segments.map((s) => s.words.map((w) => w.text)), [["rm", "-rf", "x"], ["cat"]]);
  assertEquals(p.segments[0].inSubstitution, true);
});

Deno.test("[ambiguous-shell-is-not-evidence] here-strings feed their text to stdin", () => {
  const p = parseBash('psql <<< "DROP TABLE x"');
  assertEquals(flags(p), { ...NO_FLAGS, hereString: true });
  assertEquals(p.segments[0].stdinTexts, ["DROP TABLE x"]);
  assertEquals(p.segments[0].stdinRedirected, true);
});

Deno.test("[read-only-first-shell-command] leading NAME=value words are assignments, later ones arguments", () => {
  const seg = only("A=1 B='x y' cmd C=3");
  assertEquals(seg.assignments.map((w) => w.text), ["A=1", "B=x y"]);
  assertEquals(seg.words.map((w) => w.text), ["cmd", "C=3"]);
  assertEquals(only("x=rm").words, []);
  assertEquals(only('"A=1" cmd').words.map((w) => w.text), ["A=1", "cmd"]);
});

Deno.test("[ambiguous-shell-is-not-evidence] expansions and globs are marked per word", () => {
  const seg = only("echo $x ${y:-z} ~ *.ts '*.md' $((1+2))");
  assertEquals(seg.words.slice(1).map((w) => [w.text, w.expands, w.globs, w.quoted]), [
    ["$x", true, false, false],
    ["${y:-z}", true, false, false],
    ["~", true, false, false],
    ["*.ts", false, true, false],
    ["*.md", false, false, true],
    ["$((1+2))", true, false, false],
  ]);
  assertEquals(parseBash("echo $x").parameterExpansion, true);
});

Deno.test("[destructive-bash-gate] brace expansion turns one word into several", () => {
  const seg = only("{rm,-rf,x} a{1..3}");
  assertEquals(seg.words.map((w) => w.braces), [["rm", "-rf", "x"], ["a1", "a2", "a3"]]);
  assertEquals(argv(seg), ["rm", "-rf", "x", "a1", "a2", "a3"]);
  assertEquals(only("echo '{a,b}' {a}").words.map((w) => w.braces), [null, null, null]);
});

Deno.test("[destructive-bash-gate] commandName is the last path component", () => {
  assertEquals(commandName(only("/bin/rm -rf x").words[0]), "rm");
  assertEquals(commandName(only("C:\\\\bin\\\\git.exe x").words[0]), "git.exe");
  assertEquals(commandName(undefined), "");
});

Deno.test("[ambiguous-shell-is-not-evidence] unbalanced input gives ok false with a problem, never an exception", () => {
  const unbalanced = [
    'echo "abc',
    "echo 'abc",
    "echo $(ls",
    "echo `ls",
    "echo ${x",
    "(ls",
    "ls)",
    "{ ls",
    "if a; then b",
    "for i in a; do b",
    "case x in a) b;;",
    "cat <<EOF\nbody",
    "ls &&",
    "| ls",
    "ls ;; x",
    "ls >",
  ];
  for (const command of unbalanced) {
    const p = parseBash(command);
    assertEquals([p.ok, p.problem], [false, "unbalanced"], command);
  }
  assertEquals(parseBash(undefined as unknown as string).problem, "unbalanced");
});

Deno.test("[ambiguous-shell-is-not-evidence] over 8192 characters is too long but still read; far past it nothing is read", () => {
  const long = parseBash(`echo ${"a".repeat(MAX_COMMAND_CHARS)} && rm -rf x`);
  assertEquals([long.ok, long.problem], [false, "too-long"]);
  assertEquals(long.segments.map((s) => s.words[0].text), ["echo", "rm"]);
  const huge = parseBash(`echo ${"a".repeat(MAX_LEX_CHARS)}`);
  assertEquals([huge.ok, huge.problem, huge.segments.length], [false, "too-long", 0]);
  assertEquals(parseBash("a".repeat(MAX_COMMAND_CHARS)).ok, true);
});

Deno.test("[ambiguous-shell-is-not-evidence] nesting past the bound is too deep", () => {
  const deep = `${"$(".repeat(MAX_NESTING + 2)}x${")".repeat(MAX_NESTING + 2)}`;
  assertEquals(parseBash(deep).problem, "too-deep");
  const fine = `${"$(".repeat(4)}x${")".repeat(4)}`;
  assertEquals(parseBash(fine).ok, true);
});

Deno.test("[ambiguous-shell-is-not-evidence] nested parameter, arithmetic and array constructs past the bound are too deep", () => {
  for (const open of ["${", "$((", "a=("]) {
    assertEquals(parseBash(open.repeat(MAX_NESTING + 2)).problem, "too-deep", open);
    assertEquals(parseBash(open.repeat(50_000)).problem, "too-deep", open);
  }
  assertEquals(parseBash("echo ${a:-${b:-${c}}}").ok, true);
});

Deno.test("[ambiguous-shell-is-not-evidence] hostile input is lexed with bounded work per character, linear in its length", () => {
  const hostile: [string, number][] = [
    ["a ", 120_000],
    ["$(", 100_000],
    ["`", 200_000],
    ["'a' ", 60_000],
    ["<<A ", 60_000],
    ["${", 100_000],
    ["{a,b}", 30_000],
    ["x\\\n", 60_000],
    ["((", 50_000],
    ["case ", 50_000],
    ["echo `echo \\`echo x\\`` ", 8_000],
    ["cat <<E\n$(ls)\nE\n", 12_000],
    ["# c\n", 60_000],
    ["a=(b c) ", 30_000],
    ["${a:-'x'} ", 20_000],
  ];
  for (const [unit, copies] of hostile) {
    const command = unit.repeat(copies);
    const p = parseBash(command);
    assertEquals(typeof p.ok, "boolean");
    assertStepsPerChar(JSON.stringify(unit), command, p.steps, BASH_STEPS_PER_CHAR);
    assertLinearWork(
      JSON.stringify(unit),
      (n) => unit.repeat(n),
      copies / 2,
      (c) => parseBash(c).steps,
    );
  }
  // Past the lexing bound nothing is read at all.
  assertEquals(parseBash("a ".repeat(MAX_LEX_CHARS)).steps, 0);
});

Deno.test("[read-only-first-shell-command] a segment's raw text ends before the operator that ends it", () => {
  assertEquals(parseBash("ls -la; pwd && id").segments.map((s) => s.raw), ["ls -la", "pwd", "id"]);
  assertEquals(parseBash("echo $(date) x").segments.map((s) => s.raw), ["date", "echo $(date) x"]);
  assertEquals(parseBash("(cd x; ls)").segments.map((s) => s.raw), ["cd x", "ls"]);
});

Deno.test("[destructive-bash-gate] quotes inside arithmetic do not hide the substitutions they enclose", () => {
  // Bash expands an arithmetic expression as if it were double-quoted: its
  // quote characters are plain text, so what they enclose still runs.
  for (const command of [`echo $(( '$(rm -rf x)' ))`, `echo $(( "$(rm -rf x)" + 1 ))`]) {
    const p = parseBash(command);
    assertEquals(p.ok, true, command);
    assertEquals(p.commandSubstitution, true, command);
    assertEquals(words(command), [["rm", "-rf", "x"], ["echo", command.slice(5)]], command);
  }
  assertEquals(words("echo $(( ')' + 1 ))"), [["echo", "$(( ')' + 1 ))"]]);
});

Deno.test("[destructive-bash-gate] single quotes inside a double-quoted ${…} do not hide its substitutions", () => {
  assertEquals(words(`echo "\${x:-'$(rm -rf x)'}"`), [["rm", "-rf", "x"], [
    "echo",
    "${x:-'$(rm -rf x)'}",
  ]]);
  assertEquals(words("cat <<EOF\n${x:-'$(rm -rf x)'}\nEOF"), [["rm", "-rf", "x"], ["cat"]]);
  // Unquoted, the single quotes do quote: nothing runs.
  assertEquals(words(`echo \${x:-'$(rm -rf x)'}`), [["echo", "${x:-'$(rm -rf x)'}"]]);
});

Deno.test("[destructive-bash-gate] a $(( that turns out to be a command substitution keeps no stray segments", () => {
  assertEquals(words("echo $((echo '$(id)') | cat)"), [["echo", "$(id)"], ["cat"], [
    "echo",
    "$((echo '$(id)') | cat)",
  ]]);
});

Deno.test("[fail-to-deny] nested $(( that are command substitutions are read once more per level, not twice", () => {
  // Each `$((` is first tried as arithmetic and read again when it is not.
  // Nested, a retry used to retry every `$((` inside it again, doubling the
  // work per level; a hook that times out lets the command through. A `$((`
  // known not to be arithmetic is now read as a substitution straight away,
  // so each level costs one more reading of what it encloses.
  for (const n of [20, MAX_NESTING - 1, 200]) {
    const command = `echo ${"$((".repeat(n)}1) x)${"1) x)".repeat(n - 1)}; rm -rf /`;
    const p = parseBash(command);
    const levels = Math.min(n, MAX_NESTING + 1);
    assertStepsPerChar(`${n} levels`, command, p.steps, 2 * (levels + 1));
    if (n < MAX_NESTING) assertEquals(p.ok, true, `${n} levels`);
    else assertEquals(p.problem, "too-deep");
  }
  // A retried `$((` inside real arithmetic still yields its commands once.
  assertEquals(words("echo $(( $((echo a) | cat) + 1 ))"), [["echo", "a"], ["cat"], [
    "echo",
    "$(( $((echo a) | cat) + 1 ))",
  ]]);
  assertEquals(words("echo $((echo a) | cat)"), [["echo", "a"], ["cat"], [
    "echo",
    "$((echo a) | cat)",
  ]]);
});

Deno.test("[destructive-bash-gate] a line is parsed once per call: every reader gets the same parse, and only the latest are kept", () => {
  const line = "rm -rf build && echo done";
  const first = parseBash(line);
  assert(parseBash(line) === first, "a second reader of the same line parsed it again");
  for (let i = 0; i < 64; i++) parseBash(`echo ${i}`);
  const again = parseBash(line);
  assert(again !== first, "an old parse was kept past the bound");
  assertEquals(again, first);
});

Deno.test("[destructive-bash-gate] the readers share one parse of a line, so none may change it: after all of them read it, it is as parsed", async () => {
  const { destructiveHit } = await import("../../../src/shell/destructive/mod.ts");
  const { loadReadOnly, readOnlyKind } = await import("../../../src/shell/readonly/mod.ts");
  await loadReadOnly("bash");
  const { shellProtectHits } = await import("../../../src/hook/shell_protect.ts");
  const { WorkBudget } = await import("../../../src/platform/budget.ts");
  const lines = [
    "rm -rf build && ls",
    "x=rm; $x -rf ~ ; echo ok",
    'bash -c "cd .claude && sed -i d settings.json"',
    "cat <<EOF | sh\nrm -rf /tmp/x\nEOF",
    "find . -name '*.o' -exec rm {} + ; git status",
    "python3 - <<'EOF'\nimport shutil; shutil.rmtree('x')\nEOF",
    "ls src/{a,b}/*.ts | xargs rm -f",
  ];
  const surface = {
    surface: {
      env: { HOME: "/home/u" },
      projectRoot: "/home/u/proj",
      processCwd: "/home/u/proj",
      program: { binary: "/usr/local/bin/gateguard", runtime: null, checkout: null },
    },
    cwd: "/home/u/proj",
  };
  for (const line of lines) {
    const before = structuredClone(parseBash(line));
    destructiveHit("bash", line, []);
    readOnlyKind("bash", line);
    shellProtectHits("bash", line, surface, new WorkBudget());
    assertEquals(parseBash(line), before, line);
  }
});
