/**
 * Tests of bash brace expansion: alternatives, sequences, nesting, quoting
 * (only unquoted braces count) and the output bound.
 */

import { assertEquals } from "../../helpers/assert.ts";
import { expandBraces } from "../../../src/shell/bash/braces.ts";

/** Offsets of every `{`, `,` and `}` in `text`, as if none were quoted. */
function marks(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) if ("{,}".includes(text[i])) out.push(i);
  return out;
}

const expand = (text: string, limit = 256): string[] | null =>
  expandBraces(text, marks(text), limit);

Deno.test("[destructive-bash-gate] comma alternatives expand in bash's order", () => {
  assertEquals(expand("{rm,-rf,x}"), ["rm", "-rf", "x"]);
  assertEquals(expand("r{m,}"), ["rm", "r"]);
  assertEquals(expand("a{b,c}d{1,2}"), ["abd1", "abd2", "acd1", "acd2"]);
  assertEquals(expand("{a,{b,c}}x"), ["ax", "bx", "cx"]);
});

Deno.test("[destructive-bash-gate] sequences of numbers and letters expand, with a step", () => {
  assertEquals(expand("{1..3}"), ["1", "2", "3"]);
  assertEquals(expand("{3..1}"), ["3", "2", "1"]);
  assertEquals(expand("{1..9..4}"), ["1", "5", "9"]);
  assertEquals(expand("{a..c}"), ["a", "b", "c"]);
  assertEquals(expand("{r..r}m"), ["rm"]);
});

Deno.test("[destructive-bash-gate] braces without a comma or sequence, or unbalanced, stay literal", () => {
  assertEquals(expand("{a}"), ["{a}"]);
  assertEquals(expand("{}"), ["{}"]);
  assertEquals(expand("{a,b"), ["{a,b"]);
  assertEquals(expand("a}b{"), ["a}b{"]);
  assertEquals(expand("plain"), ["plain"]);
});

Deno.test("[destructive-bash-gate] only the unquoted braces the lexer marked take part", () => {
  // `"{a,b}"c` quoted: no marks, nothing expands.
  assertEquals(expandBraces("{a,b}c", [], 256), ["{a,b}c"]);
  // Only the comma is quoted: `{a","b}` is one alternative, so it stays literal.
  assertEquals(expandBraces("{a,b}", [0, 4], 256), ["{a,b}"]);
});

Deno.test("[destructive-bash-gate] expansions past the limit give null", () => {
  assertEquals(expand("{1..1000}"), null);
  assertEquals(expand("{a,b}{a,b}{a,b}", 7), null);
  assertEquals(expand("{a,b}{a,b}{a,b}", 8)?.length, 8);
  assertEquals(expand("{a,b}".repeat(65)), null);
});
