/**
 * The JSONC reader (values, errors with line and column, bounds on hostile
 * input) and its text editor (splices that keep everything else).
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import {
  appendItemEdits,
  applyEdits,
  detectFormat,
  getProperty,
  type JsonArrayNode,
  type JsonNode,
  type JsonObjectNode,
  MAX_DEPTH,
  parseJsonc,
  positionAt,
  removeChildEdits,
  setPropertyEdits,
  toValue,
} from "../../src/config/jsonc.ts";

function root(text: string): JsonNode {
  const r = parseJsonc(text, { allowDuplicateKeys: true });
  if (!r.ok) throw new Error(`unexpected parse error: ${r.error.message}`);
  return r.root;
}

function errorOf(text: string): [string, number, number] {
  const r = parseJsonc(text);
  if (r.ok) throw new Error("expected a parse error");
  return [r.error.message, r.error.line, r.error.column];
}

Deno.test("[project-config] JSONC reads comments, trailing commas and every JSON value", () => {
  const text = `\uFEFF// lead comment
{
  /* block */ "s": "a\\"b\\u00e9\\n", // tail
  "n": -1.5e2, "z": 0, "t": true, "f": false, "nil": null,
  "list": [1, [2, {}], ],
  "o": { "k": [], },
}`;
  assertEquals(toValue(root(text)), {
    s: 'a"b\u00e9\n',
    n: -150,
    z: 0,
    t: true,
    f: false,
    nil: null,
    list: [1, [2, {}]],
    o: { k: [] },
  });
});

Deno.test("[project-config] parse errors carry the exact line and column", () => {
  assertEquals(errorOf('{\n  "a": 1\n  "b": 2\n}'), [
    `expected ',' or '}', found character "\\""`,
    3,
    3,
  ]);
  assertEquals(errorOf('{"a": "x'), ["unterminated string", 1, 7]);
  assertEquals(errorOf("{\n/* open"), ["unterminated block comment", 2, 1]);
  assertEquals(errorOf('{"a": "\\q"}'), ["invalid escape in string", 1, 8]);
  assertEquals(errorOf('{"a" 1}'), [`expected ':' after the key, found character "1"`, 1, 6]);
  assertEquals(errorOf("{,}"), [`expected a property name or '}', found character ","`, 1, 2]);
  assertEquals(errorOf(""), ["unexpected end of input", 1, 1]);
  assertEquals(errorOf('{"a":1}}'), [`unexpected character "}" after the value`, 1, 8]);
  assertEquals(errorOf('["a\tb"]'), ["control character in string", 1, 4]);
  assertEquals(errorOf("[1.]"), ["invalid number", 1, 2]);
  assertEquals(errorOf("[tru]"), [`unexpected character "t"`, 1, 2]);
});

Deno.test("[project-config] CRLF and lone CR each end one line when counting positions", () => {
  assertEquals(errorOf("\r\n\r\n  x"), [`unexpected character "x"`, 3, 3]);
  assertEquals(positionAt("a\rb\nc", 4), { line: 3, column: 1 });
});

Deno.test("[project-config] a repeated key is an error unless allowed, and then the last one counts", () => {
  assertEquals(errorOf('{"a":1,"a":2}'), ['duplicate key "a"', 1, 8]);
  const obj = root('{"a":1,"a":2}') as JsonObjectNode;
  assertEquals(getProperty(obj, "a")?.value.offset, 11);
  assertEquals(toValue(obj), { a: 2 });
});

Deno.test("[project-config] nesting is bounded, and deep hostile input fails fast", () => {
  assert(parseJsonc("[".repeat(MAX_DEPTH) + "]".repeat(MAX_DEPTH)).ok);
  assertEquals(errorOf("[".repeat(MAX_DEPTH + 1) + "]".repeat(MAX_DEPTH + 1)), [
    `nesting deeper than ${MAX_DEPTH} levels`,
    1,
    MAX_DEPTH + 1,
  ]);
  // The single pass stops at the first bracket too deep: position counted, not time.
  assertEquals(errorOf("[".repeat(2_000_000)), [
    `nesting deeper than ${MAX_DEPTH} levels`,
    1,
    MAX_DEPTH + 1,
  ]);
  const big = parseJsonc(`["${"x".repeat(4_000_000)}", ${"1,".repeat(200_000)} 1]`);
  assert(big.ok);
  assertEquals(big.root.type === "array" ? big.root.items.length : -1, 200_002);
});

Deno.test("[project-config] a __proto__ key stays an ordinary property", () => {
  const value = toValue(root('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
  assertEquals(Object.getPrototypeOf(value), Object.prototype);
  assertEquals(Object.keys(value), ["__proto__"]);
  assertEquals(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("[init] the format of a document is detected from its first indented line", () => {
  assertEquals(detectFormat('{\r\n\t"a": 1\r\n}'), { eol: "\r\n", indent: "\t" });
  assertEquals(detectFormat('{\n    "a": 1\n}'), { eol: "\n", indent: "    " });
  assertEquals(detectFormat("{}"), { eol: "\n", indent: "  " });
});

function edit(
  text: string,
  change: (t: string, n: JsonNode) => ReturnType<typeof applyEdits>,
): string {
  return change(text, root(text));
}

Deno.test("[init] setting a property replaces its value in place or appends a member", () => {
  const fmt = { eol: "\n", indent: "  " };
  const setA = (t: string, n: JsonNode): string =>
    applyEdits(t, setPropertyEdits(t, n as JsonObjectNode, "a", 2, fmt));
  const setB = (t: string, n: JsonNode): string =>
    applyEdits(t, setPropertyEdits(t, n as JsonObjectNode, "b", { x: [1] }, fmt));
  assertEquals(edit('{ "a": 1 /* keep */ }', setA), '{ "a": 2 /* keep */ }');
  assertEquals(edit('{"a": 1}', setB), '{"a": 1, "b": {"x":[1]}}');
  assertEquals(edit("{}", setB), '{\n  "b": {\n    "x": [\n      1\n    ]\n  }\n}');
  assertEquals(
    edit('{\n  "a": 1 // note\n}', setB),
    '{\n  "a": 1, // note\n  "b": {\n    "x": [\n      1\n    ]\n  }\n}',
  );
  assertEquals(edit('{\n  "a": 1,\n}', setA), '{\n  "a": 2,\n}');
  assertEquals(
    edit('{\n    "a": 1, // trailing comma style\n}', setB),
    '{\n    "a": 1, // trailing comma style\n    "b": {\n      "x": [\n        1\n      ]\n    },\n}',
  );
  assertEquals(edit("{ // only a comment\n}", setA), '{\n  "a": 2 // only a comment\n}');
});

Deno.test("[init] appending an item follows the array's own layout", () => {
  const fmt = { eol: "\r\n", indent: "\t" };
  const add = (t: string, n: JsonNode): string =>
    applyEdits(
      t,
      appendItemEdits(t, getProperty(n as JsonObjectNode, "l")!.value as JsonArrayNode, "x", fmt),
    );
  assertEquals(
    edit('{\r\n\t"l": [\r\n\t\t"a"\r\n\t]\r\n}', add),
    '{\r\n\t"l": [\r\n\t\t"a",\r\n\t\t"x"\r\n\t]\r\n}',
  );
  assertEquals(edit('{"l": []}', add), '{"l": [\r\n\t"x"\r\n]}');
  assertEquals(edit('{"l": ["a",]}', add), '{"l": ["a", "x",]}');
});

Deno.test("[init] removing a child takes its comma and its own lines, and keeps neighbours' comments", () => {
  const drop = (index: number) => (t: string, n: JsonNode): string =>
    applyEdits(
      t,
      removeChildEdits(t, getProperty(n as JsonObjectNode, "l")!.value as JsonArrayNode, index),
    );
  const text = '{\n  "l": [\n    1, // one\n    2, // two\n    3\n  ]\n}';
  assertEquals(edit(text, drop(0)), '{\n  "l": [\n    2, // two\n    3\n  ]\n}');
  assertEquals(edit(text, drop(1)), '{\n  "l": [\n    1, // one\n    3\n  ]\n}');
  assertEquals(edit(text, drop(2)), '{\n  "l": [\n    1, // one\n    2 // two\n  ]\n}');
  assertEquals(edit('{"l": [1, 2, 3]}', drop(2)), '{"l": [1, 2]}');
  assertEquals(edit('{"l": [1, 2, 3]}', drop(0)), '{"l": [2, 3]}');
  assertEquals(edit('{"l": [\n    1\n  ]}', drop(0)), '{"l": []}');
  const obj = '{\n  "a": 1,\n  "b": {\n    "c": 2\n  }\n}';
  const dropB = (t: string, n: JsonNode): string =>
    applyEdits(t, removeChildEdits(t, n as JsonObjectNode, 1));
  assertEquals(edit(obj, dropB), '{\n  "a": 1\n}');
});
