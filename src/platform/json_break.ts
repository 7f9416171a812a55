/**
 * Where a JSON text stops being JSON: the first offset a strict reader
 * rejects, what it expected there, and the line and column. `JSON.parse`
 * says where only for some errors, so `gateguard explain` asks this reader
 * instead when a payload does not parse. One linear pass, no values built.
 *
 * @module
 */

/** The first place a text breaks the JSON grammar. */
export interface JsonBreak {
  /** Offset in UTF-16 units from the start of the text. */
  offset: number;
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 units. */
  column: number;
  /** What the grammar allows there, in words. */
  expected: string;
}

/** What comes next, as the reader sees it. */
type Want = "value" | "key-or-close" | "key" | "colon" | "after-value" | "value-or-close";

const LITERALS = ["true", "false", "null"];
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function isSpace(c: string): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\r";
}

/** Line and column (1-based) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** The end of the string opening at `i`, or a break inside it. */
function stringEnd(text: string, i: number): number | { at: number; expected: string } {
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '"') return j + 1;
    if (c.charCodeAt(0) < 0x20) {
      return { at: j, expected: "an escaped control character (a raw one is not allowed)" };
    }
    if (c !== "\\") continue;
    const e = text[j + 1];
    if (e === "u") {
      if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
        return { at: j, expected: "four hex digits after \\u" };
      }
      j += 5;
    } else if (e !== undefined && ESCAPES.has(e)) {
      j++;
    } else {
      return { at: j, expected: "a valid escape sequence" };
    }
  }
  return { at: text.length, expected: "a closing quote" };
}

/** What each state expects, in words (after a value, the open bracket decides). */
const EXPECTED: Record<Exclude<Want, "after-value">, string> = {
  value: "a value (object, array, string, number, true, false or null)",
  "key-or-close": "a double-quoted property name or '}'",
  key: "a double-quoted property name",
  colon: "':'",
  "value-or-close": "a value or ']'",
};

/** The first break of `text` as strict JSON, or null when it is JSON. */
export function jsonBreak(text: string): JsonBreak | null {
  const stack: ("{" | "[")[] = [];
  let want: Want = "value";
  let i = 0;
  const broken = (at: number, expected: string): JsonBreak => ({
    offset: at,
    ...lineColumn(text, at),
    expected,
  });
  for (;;) {
    while (i < text.length && isSpace(text[i])) i++;
    const c = text[i];
    if (want === "after-value") {
      const top = stack.at(-1);
      if (top === undefined) return i < text.length ? broken(i, "the end of the input") : null;
      const close = top === "{" ? "}" : "]";
      if (c === ",") {
        want = top === "{" ? "key" : "value";
        i++;
      } else if (c === close) {
        stack.pop();
        i++;
      } else {
        return broken(i, `',' or '${close}'`);
      }
      continue;
    }
    if (c === undefined) return broken(i, EXPECTED[want]);
    if (want === "colon") {
      if (c !== ":") return broken(i, EXPECTED.colon);
      want = "value";
      i++;
      continue;
    }
    if ((want === "key-or-close" && c === "}") || (want === "value-or-close" && c === "]")) {
      stack.pop();
      want = "after-value";
      i++;
      continue;
    }
    if (want === "key" || want === "key-or-close") {
      if (c !== '"') return broken(i, EXPECTED[want]);
      const end = stringEnd(text, i);
      if (typeof end !== "number") return broken(end.at, end.expected);
      i = end;
      want = "colon";
      continue;
    }
    // A value.
    if (c === "{" || c === "[") {
      stack.push(c);
      want = c === "{" ? "key-or-close" : "value-or-close";
      i++;
      continue;
    }
    if (c === '"') {
      const end = stringEnd(text, i);
      if (typeof end !== "number") return broken(end.at, end.expected);
      i = end;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) return broken(i, "a number");
      i = NUMBER.lastIndex;
    } else {
      const literal = LITERALS.find((l) => text.startsWith(l, i));
      if (literal === undefined) return broken(i, EXPECTED[want]);
      i += literal.length;
    }
    want = "after-value";
  }
}
