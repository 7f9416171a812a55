/**
 * The code lexer, per language: which text is code, which forms make an edit
 * unclear, and which lines start in plain code.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { inFreshProcess } from "../helpers/fresh_process.ts";
import { lexCode, sameCodeLines } from "../../src/change/code_lexer.ts";
import type { Language } from "../../src/change/language.ts";
import { loadAllLexers } from "../../src/change/code_lexer.ts";

// Each call loads its file's lexer; these tests lex every language.
await loadAllLexers();

/** The code line texts of `text`. */
function code(language: Language, text: string): string[] {
  return lexCode(language, text).lines.map((l) => l.text);
}

/** The skeletons of `text`. */
function skeletons(language: Language, text: string): string[] {
  return lexCode(language, text).lines.map((l) => l.skeleton);
}

/** Whether each physical line of `text` starts in plain code, as a 0/1 string. */
function plain(language: Language, text: string): string {
  return [...lexCode(language, text, { lineStates: true }).plainStarts!].join("");
}

function unclear(language: Language, text: string): boolean {
  return lexCode(language, text).unclear;
}

Deno.test("[trivial-edits] comments go, whitespace runs collapse, strings stay verbatim", () => {
  assertEquals(code("js", 'a  =\t"x  y" // c\n\n  b(); /* d */'), ['a = "x  y"', "b();"]);
  assertEquals(skeletons("js", 'a = "x  y";'), ['a = "";']);
  assertEquals(unclear("js", 'a  =\t"x  y" // c\n\n  b(); /* d */'), false);
});

Deno.test("[trivial-edits] a removed inline comment still separates tokens", () => {
  assertEquals(code("c", "a/**/b"), ["a b"]);
  assertEquals(code("c", "ab"), ["ab"]);
  assertEquals(code("c", "a /* x */ b"), ["a b"]);
});

Deno.test("[trivial-edits] the presence of whitespace between tokens is code, its amount is not", () => {
  assert(!sameCodeLines(lexCode("js", "a+b"), lexCode("js", "a + b")));
  assert(sameCodeLines(lexCode("js", "a + b"), lexCode("js", "a    +\tb")));
});

Deno.test("[trivial-edits] a block comment spanning lines leaves the lines after it not plain", () => {
  assertEquals(code("js", "a(); /* x\ny */ b();\nc();"), ["a();", "b();", "c();"]);
  assertEquals(plain("js", "a(); /* x\ny */ b();\nc();"), "101");
});

Deno.test("[comment-and-whitespace-only-edits] js: template literals are unclear and followed through holes", () => {
  const text = "const s = `a ${f(`b`, { c: 1 })} // not a comment\n`;\n// real comment\nx();";
  assertEquals(code("js", text), [
    "const s = `a ${f(`b`, { c: 1 })} // not a comment",
    "`;",
    "x();",
  ]);
  assertEquals(plain("js", text), "1011");
  assert(unclear("js", text));
});

Deno.test("[comment-and-whitespace-only-edits] js: any / outside a comment is unclear but a plain line end is kept", () => {
  assert(unclear("js", "x = a / b;"));
  assert(unclear("js", 'const re = /"/;'));
  assertEquals(plain("js", 'const re = /"/;\n// c\n'), "111");
});

Deno.test("[comment-and-whitespace-only-edits] js: a / followed on its line by a backtick loses track", () => {
  assertEquals(plain("js", "x = a / `b`;\n// c\ny();\n"), "1000");
});

Deno.test("[comment-and-whitespace-only-edits] js: a string cut by the line end (JSX text) loses track", () => {
  assertEquals(plain("js", "const p = <p>Don't</p>;\n// c\n"), "100");
});

Deno.test("[comment-and-whitespace-only-edits] js: JSX-like tags are unclear, type arguments are not", () => {
  assert(unclear("ts", "return <div>{x}</div>;"));
  assert(unclear("js", "const el = (<App />);"));
  assert(!unclear("ts", "const [a, setA] = useState<string>(x);"));
  assert(!unclear("ts", "if (a <b) f();"));
});

Deno.test("[comment-and-whitespace-only-edits] js: HTML-like comments lose track", () => {
  assert(unclear("js", "x --> 0;"));
  assertEquals(plain("js", "<!-- x\ny();\n"), "100");
});

Deno.test("[comment-and-whitespace-only-edits] js: an unterminated block comment is unclear and not plain at the end", () => {
  const r = lexCode("js", "a(); /* open");
  assert(r.unclear);
  assertEquals(r.endsPlain, false);
});

Deno.test("[comment-and-whitespace-only-edits] a code line ending in a backslash is unclear", () => {
  assert(unclear("js", 'const s = "a\\\nb";'));
  assert(unclear("go", "x := 1 \\"));
  assertEquals(plain("c", "#define A \\\n  1\nint x;"), "101");
});

Deno.test("[comment-and-whitespace-only-edits] c: a spliced line comment swallows the next line", () => {
  assertEquals(code("c", "// a \\\nint hidden;\nint x;"), ["int x;"]);
  assertEquals(code("cpp", "int x; // a\nint y;"), ["int x;", "int y;"]);
});

Deno.test("[comment-and-whitespace-only-edits] c: preprocessor lines are code", () => {
  assertEquals(code("c", "#include <stdio.h>\n#if 0\n#endif"), [
    "#include <stdio.h>",
    "#if 0",
    "#endif",
  ]);
});

Deno.test("[comment-and-whitespace-only-edits] c: trigraphs are unclear, ??/ loses track", () => {
  assert(unclear("c", 'char *s = "??=";'));
  assertEquals(plain("c", 'char *s = "??/";\nint x;'), "10");
  assert(!unclear("cs", "var a = b ?? c;"));
  assert(unclear("py", "x = 1  # ??/"));
});

Deno.test("[comment-and-whitespace-only-edits] cpp: raw strings run to their delimiter and are unclear", () => {
  const text = 'auto s = R"x(a)" // b)x"; int y;\n// c';
  assertEquals(code("cpp", text), ['auto s = R"x(a)" // b)x"; int y;']);
  assert(unclear("cpp", text));
  assertEquals(code("cpp", "int n = 1'000'000; // c"), ["int n = 1'000'000;"]);
  assert(!unclear("cpp", "int n = 1'000'000; // c"));
});

Deno.test("[comment-and-whitespace-only-edits] go: backtick strings are raw and unclear, runes hold quotes", () => {
  const text = "var s = `a\n// b`\nvar q = '\"' // c\n";
  assertEquals(code("go", text), ["var s = `a", "// b`", "var q = '\"'"]);
  assertEquals(plain("go", text), "1011");
  assert(unclear("go", "var s = `a`"));
  assert(!unclear("go", "var q = '\"'"));
});

Deno.test("[comment-and-whitespace-only-edits] rs: lifetimes, chars, nested comments and raw strings", () => {
  assertEquals(code("rs", "fn f<'a>(x: &'a str) -> char { '\"' } // c"), [
    "fn f<'a>(x: &'a str) -> char { '\"' }",
  ]);
  assert(!unclear("rs", "fn f<'a>(x: &'a str) -> char { '\\'' }"));
  assertEquals(code("rs", "/* a /* b */ c */ x();"), ["x();"]);
  assert(!unclear("rs", "/* a /* b */ c */ x();"));
  assertEquals(code("rs", 'let s = r##"a"#b"##; // c'), ['let s = r##"a"#b"##;']);
  assert(unclear("rs", 'let s = r##"a"#b"##;'));
  assert(unclear("rs", 'let s = "a\nb";'));
  assertEquals(code("rs", "let r#type = 1;"), ["let r#type = 1;"]);
});

Deno.test("[directive-comments] rs: doc comments are code, other comments are not", () => {
  assertEquals(code("rs", "/// doc\n//! inner\n//// plain\n/** doc */\n/**/\n// plain\nx();"), [
    "/// doc",
    "//! inner",
    "/** doc */",
    "x();",
  ]);
});

Deno.test("[comment-and-whitespace-only-edits] java: text blocks are unclear; dangerous unicode escapes lose track", () => {
  assert(unclear("java", 'String s = """\n  a\n  """;'));
  assertEquals(plain("java", 'String s = """\n  a\n  """;\nint x;'), "1001");
  assertEquals(plain("java", "int w;\n// \\u000a int x;\nint y;"), "100");
  assert(!unclear("java", 'String s = "\\u00e9"; // c'));
});

Deno.test("[comment-and-whitespace-only-edits] kt: $ templates are unclear and nest", () => {
  assert(unclear("kt", 'val s = "a $b"'));
  assert(unclear("kt", 'val s = "a ${b}"'));
  assert(!unclear("kt", 'val s = "a \\$b"'));
  assertEquals(code("kt", 'val s = "${"}"}" // c\nval t = 1'), ['val s = "${"}"}"', "val t = 1"]);
  assertEquals(code("kt", 'val s = """a""""\nval t = 1'), ['val s = """a""""', "val t = 1"]);
});

Deno.test("[comment-and-whitespace-only-edits] cs: verbatim, interpolated and raw strings are unclear", () => {
  assertEquals(code("cs", 'var s = @"a""b" + c; // d'), ['var s = @"a""b" + c;']);
  assert(unclear("cs", 'var s = @"a";'));
  assert(unclear("cs", 'var s = $"{a}";'));
  assertEquals(code("cs", 'var s = $@"{a}\n}" + b; // c'), ['var s = $@"{a}', '}" + b;']);
  assertEquals(code("cs", 'var s = """a "" b"""; // c'), ['var s = """a "" b""";']);
  assert(!unclear("cs", 'var s = "a"; // c'));
});

Deno.test("[comment-and-whitespace-only-edits] py: comments go, indentation of code lines stays", () => {
  assertEquals(code("py", "def f():\n    # c\n    x  =  1  # d\n\n\treturn x"), [
    "def f():",
    "    x = 1",
    "\treturn x",
  ]);
});

Deno.test("[comment-and-whitespace-only-edits] py: triple quotes, raw strings and f-strings are unclear", () => {
  assert(unclear("py", 's = """a"""'));
  assert(unclear("py", "s = r'a'"));
  assert(unclear("py", "s = f'{a}'"));
  assert(unclear("py", "s = Rb'a'"));
  assert(!unclear("py", "s = b'a' + u'b'"));
  assertEquals(plain("py", 'def f():\n    """a\n    # b\n    """\n    x = 1\n'), "110011");
});

Deno.test("[comment-and-whitespace-only-edits] py: f-string fields may reuse the outer quote", () => {
  const text = 'x = f"{d["k"]} # not a comment"  # comment\ny = 2';
  assertEquals(code("py", text), ['x = f"{d["k"]} # not a comment"', "y = 2"]);
  assertEquals(plain("py", text), "11");
  assertEquals(code("py", "x = f'{{a}}' # c"), ["x = f'{{a}}'"]);
});

Deno.test("[comment-and-whitespace-only-edits] py: a backslash continuation is unclear and the next line is not plain", () => {
  assert(unclear("py", "x = 1 + \\\n    2"));
  assertEquals(plain("py", "x = 1 + \\\n    2\ny = 3"), "101");
});

Deno.test("[shell-scripts] sh: # starts a comment only at the start of a word", () => {
  assertEquals(code("sh", "echo a#b # c\necho ${#x} $# ;# d"), ["echo a#b", "echo ${#x} $# ;"]);
});

Deno.test("[shell-scripts] sh: heredoc bodies are unclear and not plain, whatever they hold", () => {
  const text = "cat <<-'EOF' <<X\n# a\n\tEOF\n`\nX\necho b\n";
  assertEquals(plain("sh", text), "1000011");
  assert(unclear("sh", text));
  assertEquals(code("sh", text).at(-1), "echo b");
});

Deno.test("[shell-scripts] sh: an unterminated heredoc is not plain at the end", () => {
  const r = lexCode("sh", "cat <<EOF\nbody\n");
  assert(r.unclear);
  assertEquals(r.endsPlain, false);
});

Deno.test("[shell-scripts] sh: substitutions nest through quotes", () => {
  const text = 'x="$(echo ")" )" # yes\ny=1';
  assertEquals(code("sh", text), ['x="$(echo ")" )"', "y=1"]);
  assertEquals(plain("sh", text), "11");
  assert(unclear("sh", text));
  // A comment inside the substitution runs to the line end, closing parenthesis included.
  assertEquals(plain("sh", 'x="$(echo a # )"\n)"\ny=1'), "101");
});

Deno.test("[shell-scripts] sh: arithmetic shifts are not heredocs, ${...} is not a comment", () => {
  assertEquals(plain("sh", "x=$((1<<2))\necho ${x#*/}\ny=1"), "111");
  assert(!unclear("sh", "x=$((1<<2))\necho ${x#*/}\ny=1"));
});

Deno.test("[shell-scripts] sh: case inside a substitution loses track", () => {
  assertEquals(plain("sh", "x=$(case a in a) echo;; esac)\ny=1"), "10");
});

Deno.test("[shell-scripts] sh: a carriage return is code, $'...' and here-strings are unclear", () => {
  assert(!sameCodeLines(lexCode("sh", "echo a\r\n"), lexCode("sh", "echo a\n")));
  assert(unclear("sh", "echo $'a'"));
  assert(unclear("sh", "cat <<< a"));
  assert(unclear("sh", "echo 'a\nb'"));
});

Deno.test("[shell-scripts] ps1: comments, here-strings, smart quotes and subexpressions", () => {
  assertEquals(code("ps1", "Write-Host a#b # c\n<# x\n y #> $z = 1"), ["Write-Host a#b", "$z = 1"]);
  assertEquals(plain("ps1", '$s = @"\n# a\n"@\n$t = 1'), "1001");
  assertEquals(code("ps1", "$s = \u2018it\u2019\u2019s\u2019 # c"), [
    "$s = \u2018it\u2019\u2019s\u2019",
  ]);
  assert(unclear("ps1", '$s = "$(Get-Date)"'));
  assert(!unclear("ps1", '$s = "a ${b} c" # d'));
  assert(unclear("ps1", "cmd --% a # b"));
  assertEquals(plain("ps1", "Get-Item `\n  -Path a\n$x = 1"), "101");
});

Deno.test("[comment-and-whitespace-only-edits] bat: REM lines are comments, labels and quotes are code", () => {
  assertEquals(code("bat", '@echo off\n@rem a\nREM\nrem\tb\nremark x\n:: c\nset x="a  b"'), [
    "@echo off",
    "remark x",
    ":: c",
    'set x="a  b"',
  ]);
  assert(unclear("bat", "echo a ^\n b"));
  assert(unclear("bat", 'echo "a'));
});

Deno.test("[comment-and-whitespace-only-edits] bat: spaces after the indentation are code, trailing ones too", () => {
  assertEquals(code("bat", "  set x=1  \r\n"), ["set x=1  "]);
  assert(!sameCodeLines(lexCode("bat", "echo a  b"), lexCode("bat", "echo a b")));
  assert(sameCodeLines(lexCode("bat", "    echo a b\r\n"), lexCode("bat", "echo a b\n")));
});

Deno.test("[comment-and-whitespace-only-edits] foreign line breaks lose track everywhere", () => {
  assertEquals(plain("js", "a(); // c\u2028b();\nc();"), "10");
  assertEquals(plain("py", "a = 1 # c\rb = 2\nc = 3"), "10");
  assertEquals(plain("sh", "echo a\rb\necho c"), "11");
});

Deno.test("[fail-to-deny] nesting past the stack bound loses track instead of recursing", () => {
  const deep = "x = `${".repeat(5000) + "`".repeat(5000) + "\ny();";
  const r = lexCode("js", deep, { lineStates: true });
  assert(r.unclear);
  assertEquals([...r.plainStarts!], [1, 0]);
  const py = lexCode("py", 'x = f"{'.repeat(5000) + "\ny = 1", { lineStates: true });
  assertEquals([...py.plainStarts!], [1, 0]);
});

Deno.test("[trivial-edits] directive detection can be turned off for file-wide scans", () => {
  assertEquals(
    lexCode("ts", "// @ts-ignore\nx();", { directives: false }).lines.map((l) => l.text),
    [
      "x();",
    ],
  );
});

Deno.test("[lazy-loading] a language's lexer loads on demand; until then its text reads as unclear, never as plain", async () => {
  const printed = await inFreshProcess(
    new URL("../../src/change/code_lexer.ts", import.meta.url),
    `const before = m.lexCode("py", "x = 1  # note\\n").unclear;
    await m.loadLexer("py");
    console.log(JSON.stringify([before, m.lexCode("py", "x = 1  # note\\n").unclear]));`,
  );
  assertEquals(printed, "[true,false]");
});
