/**
 * File context: applying an edit as the Edit tool does, its windows, and
 * the cgo check.
 */

import { assertEquals } from "../helpers/assert.ts";
import {
  applyStep,
  importsC,
  LineIndex,
  startsPlain,
  toolReadings,
} from "../../src/change/file_context.ts";
import { lexCode } from "../../src/change/code_lexer.ts";
import { loadAllLexers } from "../../src/change/code_lexer.ts";

// Each call loads its file's lexer; these tests lex every language.
await loadAllLexers();

const step = (oldString: string, newString: string, replaceAll = false) => ({
  oldString,
  newString,
  replaceAll,
});

/** The before and after texts of each window. */
function windowTexts(text: string, s: ReturnType<typeof step>): [string, string][] {
  const a = applyStep(text, s)!;
  return a.windows.map((w) => [text.slice(w.start, w.end), a.after.slice(w.newStart, w.newEnd)]);
}

Deno.test("[file-context] a window is the whole lines around the occurrence", () => {
  const text = "a();\nb(); // x\nc();\n";
  assertEquals(windowTexts(text, step("// x", "// y")), [["b(); // x", "b(); // y"]]);
  assertEquals(applyStep(text, step("// x", "// y"))!.after, "a();\nb(); // y\nc();\n");
});

Deno.test("[file-context] without replace_all only the first occurrence is replaced, and a second is counted", () => {
  const a = applyStep("x x x", step("x", "y"))!;
  assertEquals(a.after, "y x x");
  assertEquals(a.occurrences, 2);
  assertEquals(applyStep("x", step("x", "y"))!.occurrences, 1);
});

Deno.test("[file-context] replace_all occurrences on one line share a window", () => {
  const text = "x; x;\ny;\nx;\n";
  const a = applyStep(text, step("x", "zz", true))!;
  assertEquals(a.occurrences, 3);
  assertEquals(a.after, "zz; zz;\ny;\nzz;\n");
  assertEquals(windowTexts(text, step("x", "zz", true)), [["x; x;", "zz; zz;"], ["x;", "zz;"]]);
});

Deno.test("[file-context] an old_string ending in a line feed takes the next line into the window", () => {
  assertEquals(windowTexts("// a\nf();\n", step("// a\n", "")), [["// a\nf();", "f();"]]);
});

Deno.test("[file-context] a window of a CRLF file ends before the carriage return", () => {
  assertEquals(windowTexts("a(); // x\r\nb();\r\n", step("// x", "// y")), [[
    "a(); // x",
    "a(); // y",
  ]]);
  assertEquals(windowTexts("a(); // x\r\nb();", step("// x\r", "")), [["a(); // x\r", "a(); "]]);
});

Deno.test("[file-context] an empty or absent old_string is not placed", () => {
  assertEquals(applyStep("abc", step("", "x")), null);
  assertEquals(applyStep("abc", step("z", "x")), null);
});

Deno.test("[file-context] deleting text may also delete the line feed after it", () => {
  assertEquals(toolReadings("a // c\nb", step("// c", "")), [
    step("// c\n", ""),
    step("// c", ""),
  ]);
  assertEquals(toolReadings("a // c", step("// c", "")), [step("// c", "")]);
  assertEquals(toolReadings("a // c\nb", step("// c", "// d")), [step("// c", "// d")]);
});

Deno.test("[file-context] line numbers of offsets", () => {
  const index = new LineIndex("ab\ncd\n\nef");
  assertEquals([0, 2, 3, 5, 6, 7, 9].map((o) => index.lineOf(o)), [0, 0, 1, 1, 2, 3, 3]);
});

Deno.test("[file-context] a window starts plain only outside strings and comments", () => {
  const text = "a();\n/*\nb();\n*/\nc();\n";
  const file = lexCode("js", text, { lineStates: true });
  const index = new LineIndex(text);
  assertEquals(
    [0, 5, 8, 13, 16].map((o) => startsPlain(file, index, o)),
    [true, true, false, false, true],
  );
  assertEquals(startsPlain(lexCode("js", text), index, 0), false);
});

Deno.test('[comment-and-whitespace-only-edits] go: importing "C" is found alone or in a block', () => {
  const lex = (t: string) => lexCode("go", t, { directives: false });
  assertEquals(importsC(lex('package a\n\n// #include <x.h>\nimport "C"\n')), true);
  assertEquals(importsC(lex('package a\n\nimport (\n\t"fmt"\n\t"C"\n)\n')), true);
  assertEquals(importsC(lex('package a\n\nimport "fmt"\n\nvar grade = "C"\n')), false);
  assertEquals(importsC(lex('package a\n\n// import "C"\n')), false);
});
