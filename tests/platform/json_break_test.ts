import { assertEquals } from "../helpers/assert.ts";
import { jsonBreak, lineColumn } from "../../src/platform/json_break.ts";

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

Deno.test("[order-of-checks] jsonBreak agrees with JSON.parse on what is JSON", () => {
  const texts = [
    "{}",
    "[]",
    " 1e5 ",
    "-0.5E-3",
    '"\\u00e9\\n\\/"',
    '{"a":[1,2,{"b":null}],"c":true,"d":false}',
    "",
    "not json",
    '{"a":1,}',
    "[1,]",
    '{"a" 1}',
    '{"a":1 // c\n}',
    '{"a": tru}',
    '{"a":"x',
    '{"a":"\t"}',
    '"\\x"',
    '"\\u12G4"',
    "\ufeff{}",
    "{} x",
    "01",
    "1.",
    "-",
    "[1 2]",
    "{'a':1}",
    "{,}",
    "[",
    "{",
    '{"a":',
  ];
  for (const text of texts) {
    assertEquals(jsonBreak(text) === null, parses(text), JSON.stringify(text));
  }
});

Deno.test("[order-of-checks] jsonBreak names the line, column and offset where a payload breaks, and what was expected", () => {
  assertEquals(jsonBreak('{\n  "tool_name": "Bash",\n  "tool_input": {"command": "ls"\n}'), {
    offset: 59,
    line: 4,
    column: 2,
    expected: "',' or '}'",
  });
  assertEquals(jsonBreak('{"a":1,}'), {
    offset: 7,
    line: 1,
    column: 8,
    expected: "a double-quoted property name",
  });
  assertEquals(
    jsonBreak("[1,]")?.expected,
    "a value (object, array, string, number, true, false or null)",
  );
  assertEquals(jsonBreak("{} x"), {
    offset: 3,
    line: 1,
    column: 4,
    expected: "the end of the input",
  });
  assertEquals(jsonBreak('{"a":"x'), {
    offset: 7,
    line: 1,
    column: 8,
    expected: "a closing quote",
  });
  assertEquals(jsonBreak('{"a":"\t"}')?.offset, 6);
  assertEquals(jsonBreak('"\\q"')?.expected, "a valid escape sequence");
  assertEquals(jsonBreak("")?.offset, 0);
});

Deno.test("[order-of-checks] lineColumn counts lines from 1 and columns in UTF-16 units", () => {
  assertEquals(lineColumn("ab\ncd", 0), { line: 1, column: 1 });
  assertEquals(lineColumn("ab\ncd", 4), { line: 2, column: 2 });
  assertEquals(lineColumn("é\n\u{1F600}x", 4), { line: 2, column: 3 });
});
