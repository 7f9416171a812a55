/**
 * The full change profile, per language: public surface, data and trivial
 * judgements, the file-context checks, and the limits.
 */

import { assertEquals } from "../helpers/assert.ts";
import { type ChangeProfile, profileChange } from "../../src/change/profile.ts";
import type { FileChange } from "../../src/tools/call.ts";
import { edit, known, multi, unknown, write } from "./fixtures.ts";
import { loadAllLexers } from "../../src/change/code_lexer.ts";

// Each call loads its file's lexer; these tests lex every language.
await loadAllLexers();

interface Row {
  name: string;
  path: string;
  input: FileChange;
  file: string | null;
  expect: ChangeProfile;
}

const JS_ROWS: Row[] = [
  {
    name: "[comment-and-whitespace-only-edits] js: a changed line comment is trivial",
    path: "/p/src/a.js",
    input: edit("// one", "// the one"),
    file: "function f() {\n  return 1; // one\n}\n",
    expect: known("js", "trivial"),
  },
  {
    name: "[comment-and-whitespace-only-edits] js: re-indenting and trailing blanks are trivial",
    path: "/p/src/a.js",
    input: edit("  return 1;", "    return 1;   "),
    file: "function f() {\n  return 1;\n}\n",
    expect: known("js", "trivial"),
  },
  {
    name: "[comment-and-whitespace-only-edits] js: a+b to a + b is not trivial",
    path: "/p/src/a.js",
    input: edit("a+b", "a + b"),
    file: "const s = a+b;\n",
    expect: known("js"),
  },
  {
    name: "[comment-and-whitespace-only-edits] js: joining two code lines is not trivial",
    path: "/p/src/a.js",
    input: edit("a();\nb();", "a(); b();"),
    file: "a();\nb();\n",
    expect: known("js"),
  },
  {
    name: "[comment-and-whitespace-only-edits] js: a comment added inside a string is not trivial",
    path: "/p/src/a.js",
    input: edit('"a"', '"a // b"'),
    file: 'const s = "a";\n',
    expect: known("js"),
  },
  {
    name: "[comment-and-whitespace-only-edits] js: whitespace inside a string is code",
    path: "/p/src/a.js",
    input: edit('"a b"', '"a  b"'),
    file: 'const s = "a b";\n',
    expect: known("js"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] js: a comment edit on a line with a / is never trivial",
    path: "/p/src/a.js",
    input: edit("// half", "// halve"),
    file: "const h = a / 2; // half\n",
    expect: known("js"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] js: a division on an earlier line does not block a later comment edit",
    path: "/p/src/a.js",
    input: edit("// half", "// halve"),
    file: "const h = a / 2;\n// half\n",
    expect: known("js", "trivial"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] js: an edit window inside a template literal is never trivial",
    path: "/p/src/a.js",
    input: edit("// a", "// b"),
    file: "const s = `\n// a\n`;\n",
    expect: known("js"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] js: an edit window starting inside a block comment is not plain code",
    path: "/p/src/a.js",
    input: edit("// old", "// new"),
    file: "/*\n// old\n*/\nf();\n",
    expect: known("js"),
  },
  {
    name: "[comment-and-whitespace-only-edits] js: a whole block comment edited is trivial",
    path: "/p/src/a.js",
    input: edit("/**\n * old\n */", "/**\n * new\n */"),
    file: "/**\n * old\n */\nf();\n",
    expect: known("js", "trivial"),
  },
  {
    name: "[comment-and-whitespace-only-edits] js: a JSX-like tag is never trivial",
    path: "/p/src/a.jsx",
    input: edit("// c", "// d"),
    file: "const el = <div>hi</div>; // c\n",
    expect: known("js"),
  },
  {
    name: "[comment-and-whitespace-only-edits] js: an HTML-like comment is never trivial",
    path: "/p/src/a.js",
    input: edit("x --> 0; // c", "x --> 0; // d"),
    file: "x --> 0; // c\n",
    expect: known("js"),
  },
  {
    name: "[directive-comments] js: an eslint comment added is not trivial",
    path: "/p/src/a.js",
    input: edit("foo();", "// eslint-disable-next-line no-undef\nfoo();"),
    file: "foo();\n",
    expect: known("js"),
  },
  {
    name: "[questions-fit-the-change] js: the body of an exported function is not public",
    path: "/p/src/a.js",
    input: edit("return 1;", "return 2;"),
    file: "export function f() {\n  return 1;\n}\n",
    expect: known("js"),
  },
  {
    name: "[questions-fit-the-change] js: renaming an exported function is public",
    path: "/p/src/a.js",
    input: edit("function f()", "function g()"),
    file: "export function f() {\n  return 1;\n}\n",
    expect: known("js", "public"),
  },
  {
    name: "[questions-fit-the-change] js: module.exports is public",
    path: "/p/src/a.cjs",
    input: edit("module.exports = { a };", "module.exports = { a, b };"),
    file: "module.exports = { a };\n",
    expect: known("js", "public"),
  },
  {
    name: "[questions-fit-the-change] js: a member of an exported object is public",
    path: "/p/src/a.mjs",
    input: edit("retries: 3", "retries: 4"),
    file: "export const config = {\n  retries: 3,\n};\n",
    expect: known("js", "public"),
  },
  {
    name: "[questions-fit-the-change] js: a member of a module-private object is not public",
    path: "/p/src/a.mjs",
    input: edit("retries: 3", "retries: 4"),
    file: "const config = {\n  retries: 3,\n};\n",
    expect: known("js"),
  },
  {
    name: "[questions-fit-the-change] js: a line of an export list is public",
    path: "/p/src/a.js",
    input: edit("  b,", "  c,"),
    file: "export {\n  a,\n  b,\n};\n",
    expect: known("js", "public"),
  },
  {
    name: "[questions-fit-the-change] js: JSON.parse handles data",
    path: "/p/src/a.js",
    input: edit("load()", "JSON.parse(text)"),
    file: "const x = load();\n",
    expect: known("js", "data"),
  },
  {
    name: "[questions-fit-the-change] js: localStorage is browser storage",
    path: "/p/src/a.js",
    input: edit("cache.get(k)", "localStorage.getItem(k)"),
    file: "const v = cache.get(k);\n",
    expect: known("js", "data"),
  },
  {
    name: "[questions-fit-the-change] js: Date.now() is a clock read",
    path: "/p/src/a.js",
    input: edit("let t = 0;", "let t = Date.now();"),
    file: "let t = 0;\n",
    expect: known("js", "data"),
  },
  {
    name: "[questions-fit-the-change] js: update() has no date in it",
    path: "/p/src/a.js",
    input: edit("validate(x);", "update(x);"),
    file: "validate(x);\n",
    expect: known("js"),
  },
];

const TS_ROWS: Row[] = [
  {
    name: "[directive-comments] ts: adding // @ts-ignore is not trivial",
    path: "/p/src/a.ts",
    input: edit("foo();", "// @ts-ignore\nfoo();"),
    file: "foo();\n",
    expect: known("ts"),
  },
  {
    name: "[directive-comments] ts: changing a triple-slash reference is not trivial",
    path: "/p/src/a.ts",
    input: edit('/// <reference types="a" />', '/// <reference types="b" />'),
    file: '/// <reference types="a" />\nfoo();\n',
    expect: known("ts"),
  },
  {
    name: "[questions-fit-the-change] ts: a member of an exported interface is public",
    path: "/p/src/a.ts",
    input: edit("  a: string;", "  a: number;"),
    file: "export interface A {\n  a: string;\n}\n",
    expect: known("ts", "public"),
  },
  {
    name: "[questions-fit-the-change] ts: a member of a private interface is not public",
    path: "/p/src/a.ts",
    input: edit("  a: string;", "  a: number;"),
    file: "interface A {\n  a: string;\n}\n",
    expect: known("ts"),
  },
  {
    name: "[questions-fit-the-change] ts: a member of an exported enum is public",
    path: "/p/src/a.ts",
    input: edit("  Red = 1,", "  Red = 2,"),
    file: "export enum Color {\n  Red = 1,\n}\n",
    expect: known("ts", "public"),
  },
  {
    name: "[questions-fit-the-change] ts: a member of an exported type literal is public",
    path: "/p/src/a.ts",
    input: edit("  a?: string;", "  a: string;"),
    file: "export type T = {\n  a?: string;\n};\n",
    expect: known("ts", "public"),
  },
  {
    name: "[questions-fit-the-change] ts: a union member of an exported type is public",
    path: "/p/src/a.ts",
    input: edit('  | "b"', '  | "c"'),
    file: 'export type T =\n  | "a"\n  | "b";\n',
    expect: known("ts", "public"),
  },
  {
    name: "[questions-fit-the-change] ts: a member declaration of an exported class is public",
    path: "/p/src/a.ts",
    input: edit("  f() {", "  g() {"),
    file: "export class A {\n  f() {\n    return 1;\n  }\n}\n",
    expect: known("ts", "public"),
  },
  {
    name: "[questions-fit-the-change] ts: a method body of an exported class is not public",
    path: "/p/src/a.ts",
    input: edit("    return 1;", "    return 2;"),
    file: "export class A {\n  f() {\n    return 1;\n  }\n}\n",
    expect: known("ts"),
  },
  {
    name:
      "[questions-fit-the-change] ts: a line after an exported statement without semicolons is not public",
    path: "/p/src/a.ts",
    input: edit("const b = 2", "const b = 3"),
    file: "export const a = 1\nconst b = 2\n",
    expect: known("ts"),
  },
  {
    name: "[questions-fit-the-change] ts: a public member is public",
    path: "/p/src/a.ts",
    input: edit("x = 1;", "x = 2;"),
    file: "class A {\n  public x = 1;\n}\n",
    expect: known("ts", "public"),
  },
  {
    name: "[questions-fit-the-change] ts: every edit of a .d.ts file is public",
    path: "/p/src/a.d.ts",
    input: edit("// a", "// b"),
    file: "// a\ntype X = 1;\n",
    expect: known("ts", "public", "trivial"),
  },
  {
    name: "[questions-fit-the-change] ts: a file that cannot be read makes a TS edit public",
    path: "/p/src/a.ts",
    input: edit("return 1;", "return 2;"),
    file: null,
    expect: known("ts", "public"),
  },
];

const PY_ROWS: Row[] = [
  {
    name: "[comment-and-whitespace-only-edits] py: a changed comment is trivial",
    path: "/p/pkg/a.py",
    input: edit("# old", "# new"),
    file: "x = 1\n# old\n",
    expect: known("py", "trivial"),
  },
  {
    name: "[comment-and-whitespace-only-edits] py: an indentation change is not trivial",
    path: "/p/pkg/a.py",
    input: edit("    x = 1", "  x = 1"),
    file: "def f():\n    x = 1\n",
    expect: known("py"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] py: a blank line added between statements is trivial",
    path: "/p/pkg/a.py",
    input: edit("    x = 1\n", "    x = 1\n\n"),
    file: "def f():\n    x = 1\n    return x\n",
    expect: known("py", "trivial"),
  },
  {
    name: "[directive-comments] py: adding # noqa is not trivial",
    path: "/p/pkg/a.py",
    input: edit("import os", "import os  # noqa: F401"),
    file: "import os\n",
    expect: known("py"),
  },
  {
    name: "[directive-comments] py: changing the encoding cookie is not trivial",
    path: "/p/pkg/a.py",
    input: edit("# -*- coding: utf-8 -*-", "# -*- coding: latin-1 -*-"),
    file: "# -*- coding: utf-8 -*-\nx = 1\n",
    expect: known("py", "data"),
  },
  {
    name: "[directive-comments] py: changing the shebang is not trivial",
    path: "/p/pkg/a.py",
    input: edit("#!/usr/bin/env python3", "#!/usr/bin/python3"),
    file: "#!/usr/bin/env python3\nprint(1)\n",
    expect: known("py"),
  },
  {
    name: "[directive-comments] py: a type comment is not trivial",
    path: "/p/pkg/a.py",
    input: edit("x = []", "x = []  # type: list[int]"),
    file: "x = []\n",
    expect: known("py", "public"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] py: an edit window inside a docstring is never trivial",
    path: "/p/pkg/a.py",
    input: edit("    # c", "    # d"),
    file: 'def f():\n    """Doc.\n    # c\n    """\n',
    expect: known("py"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] py: a comment on a line with an f-string is never trivial",
    path: "/p/pkg/a.py",
    input: edit("# c", "# d"),
    file: 'print(f"{x}")  # c\n',
    expect: known("py"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] py: a line after a backslash continuation is never trivial",
    path: "/p/pkg/a.py",
    input: edit("  + 2  # c", "  + 2  # d"),
    file: "y = 1 \\\n  + 2  # c\n",
    expect: known("py", "public"),
  },
  {
    name: "[questions-fit-the-change] py: a public def is public",
    path: "/p/pkg/a.py",
    input: edit("def helper(a):", "def helper(a, b):"),
    file: "def helper(a):\n    return a\n",
    expect: known("py", "public"),
  },
  {
    name: "[questions-fit-the-change] py: a private def body is not public",
    path: "/p/pkg/a.py",
    input: edit("    return a", "    return a + 1"),
    file: "def _helper(a):\n    return a\n",
    expect: known("py"),
  },
  {
    name: "[questions-fit-the-change] py: a dunder method is public",
    path: "/p/pkg/a.py",
    input: edit("def __eq__(self, o):", "def __eq__(self, other):"),
    file: "class A:\n    def __eq__(self, o):\n        return True\n",
    expect: known("py", "public"),
  },
  {
    name: "[questions-fit-the-change] py: a module-level public assignment is public",
    path: "/p/pkg/a.py",
    input: edit('BASE_URL = "http://a"', 'BASE_URL = "http://b"'),
    file: 'BASE_URL = "http://a"\n',
    expect: known("py", "public"),
  },
  {
    name: "[questions-fit-the-change] py: a local assignment in a function is not public",
    path: "/p/pkg/a.py",
    input: edit("    x = 1", "    x = 2"),
    file: "def f():\n    x = 1\n",
    expect: known("py"),
  },
  {
    name: "[questions-fit-the-change] py: a public class attribute is public",
    path: "/p/pkg/a.py",
    input: edit("    retries = 3", "    retries = 4"),
    file: "class Client:\n    retries = 3\n",
    expect: known("py", "public"),
  },
  {
    name: "[questions-fit-the-change] py: a dataclass field is public",
    path: "/p/pkg/a.py",
    input: edit("    name: str", "    name: str = ''"),
    file: "@dataclass\nclass User:\n    name: str\n",
    expect: known("py", "public"),
  },
  {
    name: "[questions-fit-the-change] py: a private class attribute is not public",
    path: "/p/pkg/a.py",
    input: edit("    _retries = 3", "    _retries = 4"),
    file: "class Client:\n    _retries = 3\n",
    expect: known("py"),
  },
  {
    name: "[questions-fit-the-change] py: an __all__ entry is public",
    path: "/p/pkg/a.py",
    input: edit('    "b",', '    "c",'),
    file: '__all__ = [\n    "a",\n    "b",\n]\n',
    expect: known("py", "public"),
  },
  {
    name: "[questions-fit-the-change] py: every edit of __init__.py is public",
    path: "/p/pkg/__init__.py",
    input: edit("    x = 1", "    x = 2"),
    file: "def f():\n    x = 1\n",
    expect: known("py", "public"),
  },
  {
    name: "[questions-fit-the-change] py: open() and json handle data",
    path: "/p/pkg/a.py",
    input: edit("    return None", "    return json.load(open(path))"),
    file: "def _read(path):\n    return None\n",
    expect: known("py", "data"),
  },
  {
    name: "[questions-fit-the-change] py: SQL in a string handles data",
    path: "/p/pkg/a.py",
    input: edit('q = ""', 'q = "SELECT id FROM users"'),
    file: 'def _q():\n    q = ""\n',
    expect: known("py", "data"),
  },
];

const GO_ROWS: Row[] = [
  {
    name: "[comment-and-whitespace-only-edits] go: a changed comment is trivial",
    path: "/p/a.go",
    input: edit("// c", "// d"),
    file: "package main\n\n// c\nfunc f() {}\n",
    expect: known("go", "trivial"),
  },
  {
    name: '[comment-and-whitespace-only-edits] go: a file importing "C" never passes',
    path: "/p/a.go",
    input: edit("// c", "// d"),
    file: 'package main\n\nimport "C"\n\n// c\nfunc f() {}\n',
    expect: known("go"),
  },
  {
    name: '[comment-and-whitespace-only-edits] go: "C" in an import block never passes',
    path: "/p/a.go",
    input: edit("// c", "// d"),
    file: 'package main\n\nimport (\n\t"fmt"\n\t"C"\n)\n\n// c\nfunc f() {}\n',
    expect: known("go"),
  },
  {
    name: "[directive-comments] go: changing //go:build is not trivial",
    path: "/p/a.go",
    input: edit("//go:build linux", "//go:build darwin"),
    file: "//go:build linux\n\npackage main\n",
    expect: known("go"),
  },
  {
    name: "[directive-comments] go: changing a // +build line is not trivial",
    path: "/p/a.go",
    input: edit("// +build linux", "// +build darwin"),
    file: "// +build linux\n\npackage main\n",
    expect: known("go"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] go: a comment on a line with a raw string is never trivial",
    path: "/p/a.go",
    input: edit("// c", "// d"),
    file: "package main\n\nvar s = `x` // c\n",
    expect: known("go"),
  },
  {
    name: "[questions-fit-the-change] go: a capitalised func is public",
    path: "/p/a.go",
    input: edit("func Run() {", "func Run(n int) {"),
    file: "package main\n\nfunc Run() {\n}\n",
    expect: known("go", "public"),
  },
  {
    name: "[questions-fit-the-change] go: a capitalised method is public",
    path: "/p/a.go",
    input: edit("func (s *S) Do() {", "func (s *S) Do(n int) {"),
    file: "package main\n\nfunc (s *S) Do() {\n}\n",
    expect: known("go", "public"),
  },
  {
    name: "[questions-fit-the-change] go: a lowercase func body is not public",
    path: "/p/a.go",
    input: edit("x := 1", "x := 2"),
    file: "package main\n\nfunc run() {\n\tx := 1\n}\n",
    expect: known("go"),
  },
  {
    name: "[questions-fit-the-change] go: a capitalised struct field is public",
    path: "/p/a.go",
    input: edit("Name string", "Name []byte"),
    file: "package main\n\ntype T struct {\n\tName string\n}\n",
    expect: known("go", "public"),
  },
  {
    name: "[questions-fit-the-change] go: the package clause is public",
    path: "/p/a.go",
    input: edit("package main", "package app"),
    file: "package main\n",
    expect: known("go", "public"),
  },
  {
    name: "[questions-fit-the-change] go: os.ReadFile and time.Now handle data",
    path: "/p/a.go",
    input: edit("x := 1", "x, _ := os.ReadFile(p)"),
    file: "package main\n\nfunc run() {\n\tx := 1\n}\n",
    expect: known("go", "data"),
  },
];

const RS_ROWS: Row[] = [
  {
    name: "[comment-and-whitespace-only-edits] rs: a plain comment change is trivial",
    path: "/p/src/a.rs",
    input: edit("// c", "// d"),
    file: "fn f() {\n    // c\n    g();\n}\n",
    expect: known("rs", "trivial"),
  },
  {
    name: "[directive-comments] rs: a doc comment change is not trivial",
    path: "/p/src/a.rs",
    input: edit("/// Old.", "/// New."),
    file: "/// Old.\nfn f() {}\n",
    expect: known("rs"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] rs: a comment on a line with a raw string is never trivial",
    path: "/p/src/a.rs",
    input: edit("// c", "// d"),
    file: 'fn f() {\n    let s = r#"x"#; // c\n}\n',
    expect: known("rs"),
  },
  {
    name: "[questions-fit-the-change] rs: pub fn is public",
    path: "/p/src/a.rs",
    input: edit("pub fn f() {", "pub fn f(n: u8) {"),
    file: "pub fn f() {\n}\n",
    expect: known("rs", "public"),
  },
  {
    name: "[questions-fit-the-change] rs: a private fn body is not public",
    path: "/p/src/a.rs",
    input: edit("    g();", "    h();"),
    file: "fn f() {\n    g();\n}\n",
    expect: known("rs"),
  },
  {
    name: "[questions-fit-the-change] rs: a member of a pub struct is public",
    path: "/p/src/a.rs",
    input: edit("    id: u32,", "    id: u64,"),
    file: "pub struct S {\n    id: u32,\n}\n",
    expect: known("rs", "public"),
  },
  {
    name: "[questions-fit-the-change] rs: a member of a private struct is not public",
    path: "/p/src/a.rs",
    input: edit("    id: u32,", "    id: u64,"),
    file: "struct S {\n    id: u32,\n}\n",
    expect: known("rs"),
  },
  {
    name: "[questions-fit-the-change] rs: a member of a pub use list is public",
    path: "/p/src/a.rs",
    input: edit("    b,", "    c,"),
    file: "pub use crate::m::{\n    a,\n    b,\n};\n",
    expect: known("rs", "public"),
  },
  {
    name: "[questions-fit-the-change] rs: #[derive] is public",
    path: "/p/src/a.rs",
    input: edit("#[derive(Debug)]", "#[derive(Debug, Clone)]"),
    file: "#[derive(Debug)]\nstruct S;\n",
    expect: known("rs", "public"),
  },
  {
    name: "[questions-fit-the-change] rs: serde_json and std::fs handle data",
    path: "/p/src/a.rs",
    input: edit("    g();", "    let v: V = serde_json::from_str(&fs::read_to_string(p)?)?;"),
    file: "fn f() {\n    g();\n}\n",
    expect: known("rs", "data"),
  },
];

const JVM_NET_ROWS: Row[] = [
  {
    name: "[questions-fit-the-change] java: every edit touches the public surface",
    path: "/p/A.java",
    input: edit("// c", "// d"),
    file: "class A {\n  // c\n  void f() {}\n}\n",
    expect: known("java", "public", "trivial"),
  },
  {
    name: "[comment-and-whitespace-only-edits] java: a text block is never trivial",
    path: "/p/A.java",
    input: edit("// c", "// d"),
    file: 'class A {\n  String s = """\n    x\n    """; // c\n}\n',
    expect: known("java", "public"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] java: a unicode escape for a line feed defeats the lexer",
    path: "/p/A.java",
    input: edit("// c", "// d"),
    file: "class A {\n  // \\u000a int x;\n  // c\n}\n",
    expect: known("java", "public"),
  },
  {
    name: "[questions-fit-the-change] java: Files and LocalDate handle data",
    path: "/p/A.java",
    input: edit("int x = 0;", "var d = LocalDate.parse(Files.readString(p));"),
    file: "class A {\n  int x = 0;\n}\n",
    expect: known("java", "public", "data"),
  },
  {
    name: "[comment-and-whitespace-only-edits] kt: a string template is never trivial",
    path: "/p/A.kt",
    input: edit("// c", "// d"),
    file: 'val s = "a $b" // c\n',
    expect: known("kt", "public"),
  },
  {
    name: "[comment-and-whitespace-only-edits] kt: a comment change is trivial",
    path: "/p/build.gradle.kts",
    input: edit("// c", "// d"),
    file: "plugins {\n  // c\n}\n",
    expect: known("kt", "public", "trivial"),
  },
  {
    name: "[comment-and-whitespace-only-edits] cs: a verbatim string is never trivial",
    path: "/p/A.cs",
    input: edit("// c", "// d"),
    file: 'var s = @"a\\b"; // c\n',
    expect: known("cs", "public"),
  },
  {
    name: "[comment-and-whitespace-only-edits] cs: an interpolated string is never trivial",
    path: "/p/A.cs",
    input: edit("// c", "// d"),
    file: 'var s = $"{a}"; // c\n',
    expect: known("cs", "public"),
  },
  {
    name: "[comment-and-whitespace-only-edits] cs: a comment change is trivial",
    path: "/p/A.cs",
    input: edit("// c", "// d"),
    file: "class A {\n  // c\n}\n",
    expect: known("cs", "public", "trivial"),
  },
];

const C_ROWS: Row[] = [
  {
    name: "[comment-and-whitespace-only-edits] c: a comment change is trivial",
    path: "/p/a.c",
    input: edit("/* c */", "/* d */"),
    file: "int f(void) {\n  return 0; /* c */\n}\n",
    expect: known("c", "public", "trivial"),
  },
  {
    name: "[comment-and-whitespace-only-edits] c: a preprocessor line is code, not a comment",
    path: "/p/a.h",
    input: edit("int x;", "#include <a.h>\nint x;"),
    file: "int x;\n",
    expect: known("c", "public"),
  },
  {
    name: "[directive-comments] c: a fallthrough marker is not trivial",
    path: "/p/a.c",
    input: edit("/* fallthrough */", "/* falls through */"),
    file: "switch (x) {\ncase 1:\n  f();\n  /* fallthrough */\ncase 2:\n  g();\n}\n",
    expect: known("c", "public"),
  },
  {
    name: "[directive-comments] c: NOLINT is not trivial",
    path: "/p/a.c",
    input: edit("f();", "f(); // NOLINT"),
    file: "f();\n",
    expect: known("c", "public"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] c: a line comment ending in a backslash is never trivial",
    path: "/p/a.c",
    input: edit("// c", "// c \\"),
    file: "// c\nint x;\n",
    expect: known("c", "public"),
  },
  {
    name: "[comment-and-whitespace-only-edits] c: a trigraph ??/ is never trivial",
    path: "/p/a.c",
    input: edit("// c", "// d"),
    file: 'const char *s = "??/";\n// c\n',
    expect: known("c", "public"),
  },
  {
    name: "[comment-and-whitespace-only-edits] c: a nested block comment is never trivial",
    path: "/p/a.c",
    input: edit("/* a */", "/* a /* b */"),
    file: "/* a */\nint x;\n",
    expect: known("c", "public"),
  },
  {
    name: "[comment-and-whitespace-only-edits] cpp: a raw string is never trivial",
    path: "/p/a.cpp",
    input: edit("// c", "// d"),
    file: 'auto s = R"(x)"; // c\n',
    expect: known("cpp", "public"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] cpp: digit separators do not open a character literal",
    path: "/p/a.hpp",
    input: edit("// c", "// d"),
    file: "int n = 1'000; // c\n",
    expect: known("cpp", "public", "trivial"),
  },
  {
    name: "[questions-fit-the-change] cpp: fopen handles data",
    path: "/p/a.cc",
    input: edit("int x;", 'FILE *f = fopen("a.csv", "r");'),
    file: "int x;\n",
    expect: known("cpp", "public", "data"),
  },
];

const SH_ROWS: Row[] = [
  {
    name: "[comment-and-whitespace-only-edits] sh: a changed comment is trivial",
    path: "/p/run.sh",
    input: edit("# old", "# new"),
    file: "echo hi\n# old\n",
    expect: known("sh", "trivial"),
  },
  {
    name: "[directive-comments] sh: changing #!/bin/sh is not trivial",
    path: "/p/run.sh",
    input: edit("#!/bin/sh", "#!/bin/bash"),
    file: "#!/bin/sh\necho hi\n",
    expect: known("sh"),
  },
  {
    name: "[directive-comments] sh: a shellcheck directive is not trivial",
    path: "/p/run.bash",
    input: edit("echo $x", "# shellcheck disable=SC2086\necho $x"),
    file: "echo $x\n",
    expect: known("sh"),
  },
  {
    name: "[comment-and-whitespace-only-edits] sh: # inside a word is code",
    path: "/p/run.sh",
    input: edit("a#b", "a#c"),
    file: "echo a#b\n",
    expect: known("sh"),
  },
  {
    name:
      "[comment-and-whitespace-only-edits] sh: an edit window inside a heredoc is never trivial",
    path: "/p/run.sh",
    input: edit("# c", "# d"),
    file: "cat <<EOF\n# c\nEOF\n",
    expect: known("sh"),
  },
  {
    name: "[comment-and-whitespace-only-edits] sh: a comment after a heredoc ends is trivial",
    path: "/p/run.sh",
    input: edit("# c", "# d"),
    file: "cat <<'EOF'\nbody\nEOF\n# c\n",
    expect: known("sh", "trivial"),
  },
  {
    name: "[shell-scripts] sh: $( inside double quotes is never trivial",
    path: "/p/run.sh",
    input: edit("# c", "# d"),
    file: 'echo "$(date)" # c\n',
    expect: known("sh", "data"),
  },
  {
    name: "[shell-scripts] sh: $'...' is never trivial",
    path: "/p/run.sh",
    input: edit("# c", "# d"),
    file: "echo $'a\\n' # c\n",
    expect: known("sh"),
  },
  {
    name: "[shell-scripts] sh: a here-string is never trivial",
    path: "/p/run.sh",
    input: edit("# c", "# d"),
    file: "read x <<< hi # c\n",
    expect: known("sh"),
  },
  {
    name: "[shell-scripts] sh: backticks are never trivial",
    path: "/p/run.sh",
    input: edit("# c", "# d"),
    file: "x=`pwd` # c\n",
    expect: known("sh"),
  },
  {
    name: "[shell-scripts] sh: a line continuation is never trivial",
    path: "/p/run.sh",
    input: edit("  b # c", "  b # d"),
    file: "echo a \\\n  b # c\n",
    expect: known("sh"),
  },
  {
    name: "[questions-fit-the-change] sh: a function definition is public",
    path: "/p/run.sh",
    input: edit("deploy() {", "deploy_all() {"),
    file: "deploy() {\n  :\n}\n",
    expect: known("sh", "public"),
  },
  {
    name: "[questions-fit-the-change] sh: export and declare -x are public",
    path: "/p/run.zsh",
    input: edit("X=1", "declare -rx X=1"),
    file: "X=1\n",
    expect: known("sh", "public"),
  },
  {
    name: "[shell-scripts] sh: redirection to a file handles data",
    path: "/p/run.sh",
    input: edit("echo hi", 'echo hi >> "$log"'),
    file: "echo hi\n",
    expect: known("sh", "data"),
  },
  {
    name: "[shell-scripts] sh: redirection to /dev/null does not",
    path: "/p/run.sh",
    input: edit("make", "make >/dev/null 2>&1"),
    file: "make\n",
    expect: known("sh"),
  },
  {
    name: "[shell-scripts] sh: curl piped to jq handles data",
    path: "/p/run.sh",
    input: edit("true", "curl -s $u | jq .a"),
    file: "true\n",
    expect: known("sh", "data"),
  },
];

const PS_BAT_ROWS: Row[] = [
  {
    name: "[comment-and-whitespace-only-edits] ps1: a block comment change is trivial",
    path: "/p/a.ps1",
    input: edit("<# old #>", "<# new #>"),
    file: "<# old #>\nWrite-Host hi\n",
    expect: known("ps1", "trivial"),
  },
  {
    name: "[directive-comments] ps1: #Requires is not trivial",
    path: "/p/a.ps1",
    input: edit("#Requires -Version 5", "#Requires -Version 7"),
    file: "#Requires -Version 5\nWrite-Host hi\n",
    expect: known("ps1"),
  },
  {
    name: "[shell-scripts] ps1: an edit window inside a here-string is never trivial",
    path: "/p/a.ps1",
    input: edit("# c", "# d"),
    file: '$s = @"\n# c\n"@\n',
    expect: known("ps1"),
  },
  {
    name: "[shell-scripts] ps1: a backtick continuation is never trivial",
    path: "/p/a.ps1",
    input: edit("  -Path x # c", "  -Path x # d"),
    file: "Get-Item `\n  -Path x # c\n",
    expect: known("ps1"),
  },
  {
    name: "[questions-fit-the-change] ps1: function, param and CmdletBinding are public",
    path: "/p/a.psm1",
    input: edit("function Get-A {", "function Get-B {"),
    file: "function Get-A {\n}\n",
    expect: known("ps1", "public"),
  },
  {
    name: "[questions-fit-the-change] ps1: Export-ModuleMember is public",
    path: "/p/a.psm1",
    input: edit("Export-ModuleMember -Function A", "Export-ModuleMember -Function A, B"),
    file: "Export-ModuleMember -Function A\n",
    expect: known("ps1", "public"),
  },
  {
    name: "[shell-scripts] ps1: Invoke-RestMethod and Set-Content handle data",
    path: "/p/a.ps1",
    input: edit("$x = 1", "Invoke-RestMethod $u | Set-Content out.json"),
    file: "$x = 1\n",
    expect: known("ps1", "data"),
  },
  {
    name: "[comment-and-whitespace-only-edits] bat: a REM line change is trivial and public",
    path: "/p/a.bat",
    input: edit("REM old", "REM new"),
    file: "@echo off\nREM old\n",
    expect: known("bat", "public", "trivial"),
  },
  {
    name: "[comment-and-whitespace-only-edits] bat: a trailing space after set is code",
    path: "/p/a.bat",
    input: edit("set x=1", "set x=1 "),
    file: "set x=1\r\nREM done\r\n",
    expect: known("bat", "public"),
  },
  {
    name: "[comment-and-whitespace-only-edits] bat: indentation is not code",
    path: "/p/a.bat",
    input: edit("set x=1", "  set x=1"),
    file: "set x=1\r\nREM done\r\n",
    expect: known("bat", "public", "trivial"),
  },
  {
    name: "[comment-and-whitespace-only-edits] bat: a :: label is code",
    path: "/p/a.cmd",
    input: edit(":: old", ":: new"),
    file: "@echo off\n:: old\n",
    expect: known("bat", "public"),
  },
  {
    name: "[comment-and-whitespace-only-edits] bat: a caret continuation is never trivial",
    path: "/p/a.cmd",
    input: edit("REM c", "REM d"),
    file: "echo a ^\nREM c\n",
    expect: known("bat", "public"),
  },
  {
    name: "[shell-scripts] bat: redirection to a file handles data, to nul does not",
    path: "/p/a.bat",
    input: edit("echo a >nul", "echo a > out.txt"),
    file: "echo a >nul\n",
    expect: known("bat", "public", "data"),
  },
];

const CONTEXT_ROWS: Row[] = [
  {
    name: "[file-context] an old_string not found in the file is never trivial",
    path: "/p/a.js",
    input: edit("// nope", "// yes"),
    file: "f();\n",
    expect: known("js", "public"),
  },
  {
    name: "[file-context] an old_string not found in a Go file is never trivial but stays readable",
    path: "/p/a.go",
    input: edit("// nope", "// yes"),
    file: "package main\n",
    expect: known("go"),
  },
  {
    name: "[file-context] a missing file is never trivial",
    path: "/p/a.go",
    input: edit("// c", "// d"),
    file: null,
    expect: known("go"),
  },
  {
    name: "[file-context] an old_string found twice without replace_all is never trivial",
    path: "/p/a.js",
    input: edit("// c", "// d"),
    file: "a(); // c\nb(); // c\n",
    expect: known("js"),
  },
  {
    name: "[file-context] replace_all of comments only is trivial",
    path: "/p/a.js",
    input: edit("// c", "// d", true),
    file: "a(); // c\nb(); // c\n",
    expect: known("js", "trivial"),
  },
  {
    name: "[file-context] replace_all reaching into a string is not trivial",
    path: "/p/a.js",
    input: edit("// c", "// d", true),
    file: 'a(); // c\nconst s = "// c";\n',
    expect: known("js"),
  },
  {
    name: "[file-context] a comment marker that is really inside a string is not trivial",
    path: "/p/a.py",
    input: edit("# b", "# c"),
    file: 's = "a # b"\n',
    expect: known("py", "public"),
  },
  {
    name: "[file-context] a CRLF file is matched with LF line ends",
    path: "/p/a.js",
    input: edit("// a\nf();", "// b\nf();"),
    file: "// a\r\nf();\r\n",
    expect: known("js", "trivial"),
  },
  {
    name:
      "[file-context] a one-line edit of a CRLF file keeps the carriage return out of the window",
    path: "/p/a.sh",
    input: edit("# a", "# b"),
    file: "echo hi # a\r\necho bye\r\n",
    expect: known("sh", "trivial"),
  },
  {
    name: "[file-context] a CRLF Python file: a comment edit is trivial",
    path: "/p/a.py",
    input: edit("# a", "# b"),
    file: "def f():\r\n    x = 1  # a\r\n    y = 2\r\n",
    expect: known("py", "trivial"),
  },
  {
    name: "[file-context] a CRLF Python file: a re-indent is not trivial",
    path: "/p/a.py",
    input: edit("    y = 2", "  y = 2"),
    file: "def f():\r\n    x = 1  # a\r\n    y = 2\r\n",
    expect: known("py"),
  },
  {
    name:
      "[file-context] deleting a trailing comment that takes the line feed along joins lines, not trivial",
    path: "/p/a.c",
    input: edit("/* c */", ""),
    file: "int a = 1 /* c */\n+ 2;\n",
    expect: known("c", "public"),
  },
  {
    name: "[file-context] deleting a whole comment line is trivial",
    path: "/p/a.js",
    input: edit("// c\n", ""),
    file: "a();\n// c\nb();\n",
    expect: known("js", "trivial"),
  },
  {
    name: "[file-context] a replacement pattern in the new text is never trivial",
    path: "/p/a.js",
    input: edit("// a", "// $& costs"),
    file: "f(); // a\n",
    expect: known("js"),
  },
];

const MULTI_ROWS: Row[] = [
  {
    name: "[multiedit-paths] all-trivial MultiEdit entries are trivial",
    path: "/p/a.js",
    input: multi(["// a", "// A"], ["// b", "// B"]),
    file: "x(); // a\ny(); // b\n",
    expect: known("js", "trivial"),
  },
  {
    name: "[multiedit-paths] one non-trivial MultiEdit entry makes the change non-trivial",
    path: "/p/a.js",
    input: multi(["// a", "// A"], ["y();", "z();"]),
    file: "x(); // a\ny(); // b\n",
    expect: known("js"),
  },
  {
    name: "[multiedit-paths] entries apply one after another to the evolving text",
    path: "/p/a.js",
    input: multi(["// a", "// b"], ["// b", "// c"]),
    file: "x(); // a\n",
    expect: known("js", "trivial"),
  },
  {
    name: "[multiedit-paths] any public entry makes the MultiEdit public, any data entry adds data",
    path: "/p/a.ts",
    input: multi(["// a", "// A"], ["  a: string;", "  a: Date;"]),
    file: "// a\nexport interface I {\n  a: string;\n}\n",
    expect: known("ts", "public", "data"),
  },
];

const LIMIT_ROWS: Row[] = [
  {
    name: "[questions-fit-the-change] an unknown extension is not read",
    path: "/p/a.rb",
    input: edit("# a", "# b"),
    file: "# a\n",
    expect: unknown(null),
  },
  {
    name:
      "[questions-fit-the-change] a prose target is not a supported extension, so never trivial",
    path: "/p/README.md",
    input: edit("a", "b"),
    file: "a\n",
    expect: unknown(null),
  },
  {
    name: "[questions-fit-the-change] extensions match case-insensitively",
    path: "C:\\p\\RUN.PS1",
    input: edit("# a", "# b"),
    file: "# a\n",
    expect: known("ps1", "trivial"),
  },
  {
    name: "[questions-fit-the-change] a non-string old_string is not read",
    path: "/p/a.js",
    input: edit(1, "x"),
    file: "1\n",
    expect: unknown("js"),
  },
  {
    name: "[questions-fit-the-change] a missing new_string is not read",
    path: "/p/a.js",
    input: edit("x", undefined),
    file: "x\n",
    expect: unknown("js"),
  },
  {
    name: "[questions-fit-the-change] a non-boolean replace_all is not read",
    path: "/p/a.js",
    input: edit("x", "y", "yes"),
    file: "x\n",
    expect: unknown("js"),
  },
  {
    name: "[questions-fit-the-change] a Write without string content is not read",
    path: "/p/a.js",
    input: write(null),
    file: null,
    expect: unknown("js"),
  },
  {
    name: "[questions-fit-the-change] a side of exactly 64 KiB is read",
    path: "/p/a.js",
    input: edit("// a", "// " + "b".repeat(64 * 1024 - 3)),
    file: "// a\n",
    expect: known("js", "trivial"),
  },
  {
    name: "[questions-fit-the-change] a side of 64 KiB + 1 is not read",
    path: "/p/a.js",
    input: edit("// a", "// " + "b".repeat(64 * 1024 - 2)),
    file: "// a\n",
    expect: unknown("js"),
  },
  {
    name: "[questions-fit-the-change] side sizes count UTF-8 bytes",
    path: "/p/a.js",
    input: edit("// a", "// " + "\u20ac".repeat(21845)),
    file: "// a\n",
    expect: unknown("js"),
  },
  {
    name: "[questions-fit-the-change] more than 256 KiB in total is not read",
    path: "/p/a.js",
    input: multi(
      ...Array.from({ length: 5 }, () => ["// " + "a".repeat(30000), "// " + "b".repeat(30000)]),
    ),
    file: "x\n",
    expect: unknown("js"),
  },
  {
    name: "[questions-fit-the-change] 64 MultiEdit entries are read",
    path: "/p/a.js",
    input: multi(...Array.from({ length: 64 }, (_, k) => [`// ${k}.`, `// ${k}!`])),
    file: Array.from({ length: 64 }, (_, k) => `f(); // ${k}.\n`).join(""),
    expect: known("js", "trivial"),
  },
  {
    name: "[questions-fit-the-change] 65 MultiEdit entries are not read",
    path: "/p/a.js",
    input: multi(...Array.from({ length: 65 }, (_, k) => [`// ${k}.`, `// ${k}!`])),
    file: Array.from({ length: 65 }, (_, k) => `f(); // ${k}.\n`).join(""),
    expect: unknown("js"),
  },
  {
    name: "[questions-fit-the-change] a MultiEdit entry that is not an object is not read",
    path: "/p/a.js",
    input: multi(["// a", "// b"], "oops"),
    file: "// a\n",
    expect: unknown("js"),
  },
  {
    name: "[questions-fit-the-change] a MultiEdit without entries is not read",
    path: "/p/a.js",
    input: multi(),
    file: "// a\n",
    expect: unknown("js"),
  },
];

const WRITE_ROWS: Row[] = [
  {
    name:
      "[questions-fit-the-change] a Write always touches the public surface and is never trivial",
    path: "/p/a.py",
    input: write("# only a comment\n"),
    file: null,
    expect: known("py", "public"),
  },
  {
    name: "[questions-fit-the-change] a Write that parses YAML handles data",
    path: "/p/a.py",
    input: write("import yaml\n\ncfg = yaml.safe_load(text)\n"),
    file: null,
    expect: known("py", "public", "data"),
  },
  {
    name: "[questions-fit-the-change] data words in a Write's comments do not count",
    path: "/p/a.go",
    input: write("package a\n\n// reads the json file\nfunc f() {}\n"),
    file: null,
    expect: known("go", "public"),
  },
];

for (
  const row of [
    ...JS_ROWS,
    ...TS_ROWS,
    ...PY_ROWS,
    ...GO_ROWS,
    ...RS_ROWS,
    ...JVM_NET_ROWS,
    ...C_ROWS,
    ...SH_ROWS,
    ...PS_BAT_ROWS,
    ...CONTEXT_ROWS,
    ...MULTI_ROWS,
    ...LIMIT_ROWS,
    ...WRITE_ROWS,
  ]
) {
  Deno.test(row.name, () => {
    assertEquals(profileChange(row.path, row.input, row.file), row.expect);
  });
}

Deno.test("[decision-metrics] the profile has exactly the metrics keys, in order", () => {
  const p = profileChange("/p/a.js", edit("a", "b"), "a\n");
  assertEquals(Object.keys(p), [
    "known",
    "language",
    "touchesPublicSurface",
    "touchesData",
    "trivial",
  ]);
  assertEquals(
    JSON.stringify(p),
    '{"known":true,"language":"js","touchesPublicSurface":false,"touchesData":false,"trivial":false}',
  );
});

Deno.test("[fail-to-deny] hostile inputs give the unknown profile instead of throwing", () => {
  const hostile: FileChange = {
    kind: "edits",
    edits: [{
      get oldString(): string {
        throw new Error("boom");
      },
      newString: "x",
      replaceAll: false,
    }],
  };
  assertEquals(profileChange("/p/a.js", hostile, "x\n"), unknown("js"));
  assertEquals(
    profileChange("/p/a.js", { kind: "nope" } as unknown as FileChange, null),
    unknown("js"),
  );
});
