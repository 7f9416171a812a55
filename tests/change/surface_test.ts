/**
 * Public surface: the line rules and the member rules, judged from the file.
 */

import { assertEquals } from "../helpers/assert.ts";
import {
  alwaysTouchesSurface,
  declaresPublicName,
  touchesExportedMember,
} from "../../src/change/surface.ts";
import { lexCode } from "../../src/change/code_lexer.ts";
import type { Language } from "../../src/change/language.ts";
import { loadAllLexers } from "../../src/change/code_lexer.ts";

// Each call loads its file's lexer; these tests lex every language.
await loadAllLexers();

function linePublic(language: Language, line: string): boolean {
  return declaresPublicName(language, lexCode(language, line).lines);
}

const PUBLIC_LINES: [Language, string][] = [
  ["js", "export default function () {}"],
  ["js", "exports.a = 1;"],
  ["ts", "declare const x: number;"],
  ["ts", "  public run(): void {"],
  ["py", "def run(self):"],
  ["py", "async def fetch():"],
  ["py", "class Client(Base):"],
  ["py", "    def __repr__(self):"],
  ["py", "__all__ += ['b']"],
  ["go", "package main"],
  ["go", "func New() *T {"],
  ["go", "func (t *T) Close() error {"],
  ["go", "type Config struct {"],
  ["go", 'var ErrClosed = errors.New("x")'],
  ["go", "const Max = 3"],
  ["go", "\tName string"],
  ["go", "\u00c9t\u00e9 int"],
  ["rs", "pub(crate) fn f() {}"],
  ["rs", "impl Display for T {"],
  ["rs", "trait Shape {"],
  ["rs", 'extern "C" {'],
  ["rs", "#[macro_export]"],
  ["rs", "#[repr(C)]"],
  ["rs", "#[unsafe(no_mangle)]"],
  ["sh", "deploy() {"],
  ["sh", "function deploy {"],
  ["sh", "export PATH"],
  ["sh", "declare -x A=1"],
  ["sh", "typeset -gx A=1"],
  ["ps1", "function Get-Thing {"],
  ["ps1", "filter Only-Odd { }"],
  ["ps1", "param([string]$Name)"],
  ["ps1", "[CmdletBinding()]"],
  ["ps1", "Export-ModuleMember -Function *"],
];

const PRIVATE_LINES: [Language, string][] = [
  ["js", "const exported = 1;"],
  ["js", 'log("export");'],
  ["js", "const $export = 1;"],
  ["py", "def _helper():"],
  ["py", "class _Impl:"],
  ["py", "    return define(x)"],
  ["go", "func run() {"],
  ["go", "func (t *T) close() error {"],
  ["go", "x := New()"],
  ["go", "type config struct {"],
  ["rs", "fn private() {}"],
  ["rs", "let publish = 1;"],
  ["sh", "a=()"],
  ["sh", "x=$(date)"],
  ["sh", "declare -a list"],
  ["sh", "echo exported"],
  ["ps1", "$param = 1"],
  ["ps1", "Get-ChildItem -Filter *.txt"],
  ["ps1", "Write-Host 'function'"],
];

for (const [language, line] of PUBLIC_LINES) {
  Deno.test(`[public-surface] ${language}: ${line} declares a public name`, () => {
    assertEquals(linePublic(language, line), true);
  });
}

for (const [language, line] of PRIVATE_LINES) {
  Deno.test(`[public-surface] ${language}: ${line} declares no public name`, () => {
    assertEquals(linePublic(language, line), false);
  });
}

Deno.test("[questions-fit-the-change] languages and files that always touch the surface", () => {
  for (
    const [language, path] of [
      ["java", "/p/A.java"],
      ["kt", "/p/A.kt"],
      ["cs", "/p/A.cs"],
      ["c", "/p/a.c"],
      ["cpp", "/p/a.hpp"],
      ["bat", "/p/a.cmd"],
      ["ts", "/p/types/index.d.ts"],
      ["ts", "/p/a.D.MTS"],
      ["py", "/p/pkg/__init__.py"],
    ] as [Language, string][]
  ) {
    assertEquals(alwaysTouchesSurface(language, path), true, path);
  }
  for (
    const [language, path] of [
      ["ts", "/p/a.ts"],
      ["py", "/p/pkg/init.py"],
      ["go", "/p/a.go"],
      ["sh", "/p/a.sh"],
    ] as [Language, string][]
  ) {
    assertEquals(alwaysTouchesSurface(language, path), false, path);
  }
});

/** Whether lines `first..last` of `file`, replaced by `after`, touch an exported member. */
function member(language: Language, file: string, first: number, last: number, after: string) {
  return touchesExportedMember(language, lexCode(language, file, { lineStates: true }), [
    { firstLine: first, lastLine: last, after: lexCode(language, after, { lineStates: true }) },
  ]);
}

Deno.test("[public-surface] js: nested objects inside an exported object count", () => {
  const file = "export default {\n  a: {\n    b: 1,\n  },\n};\nconst c = 2;\n";
  assertEquals(member("js", file, 2, 2, "    b: 2,"), true);
  assertEquals(member("js", file, 5, 5, "const c = 3;"), false);
});

Deno.test("[public-surface] js: an exported function's parameter lines count, its body does not", () => {
  const file = "export function f(\n  a,\n  b,\n) {\n  return a;\n}\n";
  assertEquals(member("js", file, 1, 1, "  x,"), true);
  assertEquals(member("js", file, 4, 4, "  return b;"), false);
});

Deno.test("[public-surface] ts: an interface split over lines by extends is still exported", () => {
  const file = "export interface A\n  extends B {\n  x: number;\n}\n";
  assertEquals(member("ts", file, 2, 2, "  x: string;"), true);
});

Deno.test("[public-surface] ts: a new member added to an exported interface counts on the new side", () => {
  const file = "export interface A {\n}\n";
  assertEquals(member("ts", file, 0, 0, "export interface A {\n  x: number;"), true);
  assertEquals(member("ts", "interface A {\n}\n", 0, 0, "interface A {\n  x: number;"), false);
});

Deno.test("[public-surface] py: attributes of a class nested in a function are not public", () => {
  const file = "def f():\n    class A:\n        x = 1\n";
  assertEquals(member("py", file, 2, 2, "        x = 2"), false);
});

Deno.test("[public-surface] py: continuation lines of a module-level assignment count", () => {
  const file = "CONFIG = {\n    'a': 1,\n}\nlocal_thing = 2\n";
  assertEquals(member("py", file, 1, 1, "    'a': 2,"), true);
});

Deno.test("[public-surface] py: a docstring ending at column 0 does not close the blocks around it", () => {
  const file = 'def f():\n    class A:\n        """Doc.\n"""\n        x = 1\n';
  assertEquals(member("py", file, 4, 4, "        x = 2"), false);
});

Deno.test("[public-surface] py: a method body of a public class is not a class attribute", () => {
  const file = "class A:\n    def f(self):\n        y = 1\n";
  assertEquals(member("py", file, 2, 2, "        y = 2"), false);
});

Deno.test("[public-surface] rs: members of a pub enum count, also nested", () => {
  const file = "pub enum E {\n    A { x: u8 },\n    B,\n}\nfn f() {}\n";
  assertEquals(member("rs", file, 2, 2, "    C,"), true);
  assertEquals(member("rs", file, 4, 4, "fn g() {}"), false);
});

Deno.test("[public-surface] languages without member rules never count members", () => {
  assertEquals(member("go", "type T struct {\n\tx int\n}\n", 1, 1, "\ty int"), false);
});
