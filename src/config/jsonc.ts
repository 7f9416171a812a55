/**
 * A small JSONC reader and editor: JSON plus `//` and block comments and
 * trailing commas. The parse tree keeps the text offsets of every value, so
 * a document is changed by splicing a few text ranges and everything else
 * (layout, comments, key order) stays byte for byte as it was.
 *
 * Written here rather than imported because the hook loads it on the hot
 * path whenever a project file exists. Parsing is a single left-to-right
 * pass with bounded nesting, so hostile input costs linear time.
 *
 * @module
 */

/** Where a parse failed, with a 1-based line and column (UTF-16 units). */
export interface JsonError {
  message: string;
  offset: number;
  line: number;
  column: number;
}

interface NodeSpan {
  /** Offset of the value's first character. */
  offset: number;
  /** Offset just past the value's last character. */
  end: number;
  /** For an array item: offset of the comma that follows it, else null. */
  comma: number | null;
}

/** A string, number, boolean or null value. */
export interface JsonScalarNode extends NodeSpan {
  type: "string" | "number" | "boolean" | "null";
  value: string | number | boolean | null;
}

/** One `"key": value` member of an object. */
export interface JsonProperty {
  key: string;
  /** Offset of the key's opening quote. */
  keyOffset: number;
  value: JsonNode;
  /** Offset of the comma that follows the member, else null. */
  comma: number | null;
}

/** An object; members in text order (a repeated key appears each time). */
export interface JsonObjectNode extends NodeSpan {
  type: "object";
  properties: JsonProperty[];
}

/** An array; items in text order. */
export interface JsonArrayNode extends NodeSpan {
  type: "array";
  items: JsonNode[];
}

/** Any parsed value. */
export type JsonNode = JsonScalarNode | JsonObjectNode | JsonArrayNode;

/** Parser switches. */
export interface ParseOptions {
  /** Accept a key twice in one object (the last one wins, as in `JSON.parse`). */
  allowDuplicateKeys?: boolean;
}

/** The outcome of a parse: the tree, or the first error. */
export type ParseResult = { ok: true; root: JsonNode } | { ok: false; error: JsonError };

/** Deepest nesting of objects and arrays accepted. */
export const MAX_DEPTH = 64;

/** Plain JSON data as `toValue` returns it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | {
  [key: string]: JsonValue;
};

/** 1-based line and column of an offset; `\r\n`, `\n` and a lone `\r` each end a line. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const stop = Math.min(offset, text.length);
  for (let i = 0; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: stop - lineStart + 1 };
}

/**
 * `positionAt` for many offsets of one text: each call scans on from the
 * previous offset when it asks for a later one, so offsets asked in text
 * order cost one pass in all. `scanned` counts the characters read.
 */
export function positionCursor(
  text: string,
): { at(offset: number): { line: number; column: number }; scanned: number } {
  let line = 1;
  let lineStart = 0;
  let pos = 0;
  const cursor = {
    scanned: 0,
    at(offset: number): { line: number; column: number } {
      const stop = Math.max(0, Math.min(offset, text.length));
      if (stop < pos) {
        line = 1;
        lineStart = 0;
        pos = 0;
      }
      cursor.scanned += Math.max(0, stop - pos);
      for (; pos < stop; pos++) {
        const c = text.charCodeAt(pos);
        if (c === 10 || (c === 13 && text.charCodeAt(pos + 1) !== 10)) {
          line++;
          lineStart = pos + 1;
        }
      }
      return { line, column: stop - lineStart + 1 };
    },
  };
  return cursor;
}

class Failure {
  constructor(readonly message: string, readonly offset: number) {}
}

function describeChar(text: string, i: number): string {
  if (i >= text.length) return "end of input";
  return `character ${JSON.stringify(text[i])}`;
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

const LITERALS: ReadonlyArray<[string, boolean | null]> = [
  ["true", true],
  ["false", false],
  ["null", null],
];

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** Parses a JSONC document. Never throws. */
export function parseJsonc(text: string, options: ParseOptions = {}): ParseResult {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const skipTrivia = (): void => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) {
        i++;
      } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
        while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
      } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
        const close = text.indexOf("*/", i + 2);
        if (close < 0) throw new Failure("unterminated block comment", i);
        i = close + 2;
      } else {
        return;
      }
    }
  };

  const parseString = (): string => {
    const start = i;
    i++;
    let out = "";
    let run = i;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(run, i);
        i++;
        return out;
      }
      if (c < 32) throw new Failure("control character in string", i);
      if (c === 92) {
        out += text.slice(run, i);
        const e = text[i + 1];
        if (e === "u") {
          for (let k = 2; k < 6; k++) {
            if (!isHex(text.charCodeAt(i + k))) throw new Failure("invalid \\u escape", i);
          }
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
          out += ESCAPES[e];
          i += 2;
        } else {
          throw new Failure("invalid escape in string", i);
        }
        run = i;
      } else {
        i++;
      }
    }
    throw new Failure("unterminated string", start);
  };

  const parseNumber = (): number => {
    const start = i;
    if (text[i] === "-") i++;
    if (text[i] === "0") {
      i++;
    } else if (isDigit(text.charCodeAt(i))) {
      while (isDigit(text.charCodeAt(i))) i++;
    } else {
      throw new Failure("invalid number", start);
    }
    if (text[i] === ".") {
      i++;
      if (!isDigit(text.charCodeAt(i))) throw new Failure("invalid number", start);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      if (!isDigit(text.charCodeAt(i))) throw new Failure("invalid number", start);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    return Number(text.slice(start, i));
  };

  const parseValue = (depth: number): JsonNode => {
    skipTrivia();
    const offset = i;
    const c = text[i];
    if (c === "{" || c === "[") {
      if (depth >= MAX_DEPTH) throw new Failure(`nesting deeper than ${MAX_DEPTH} levels`, i);
      return c === "{" ? parseObject(depth + 1) : parseArray(depth + 1);
    }
    if (c === '"') {
      const value = parseString();
      return { type: "string", value, offset, end: i, comma: null };
    }
    if (c === "-" || isDigit(text.charCodeAt(i))) {
      const value = parseNumber();
      return { type: "number", value, offset, end: i, comma: null };
    }
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return { type: value === null ? "null" : "boolean", value, offset, end: i, comma: null };
      }
    }
    throw new Failure(`unexpected ${describeChar(text, i)}`, i);
  };

  const parseObject = (depth: number): JsonObjectNode => {
    const offset = i;
    i++;
    const properties: JsonProperty[] = [];
    const seen = new Set<string>();
    for (;;) {
      skipTrivia();
      if (text[i] === "}") break;
      if (text[i] !== '"') {
        throw new Failure(`expected a property name or '}', found ${describeChar(text, i)}`, i);
      }
      const keyOffset = i;
      const key = parseString();
      if (!options.allowDuplicateKeys && seen.has(key)) {
        throw new Failure(`duplicate key ${JSON.stringify(key)}`, keyOffset);
      }
      seen.add(key);
      skipTrivia();
      if (text[i] !== ":") {
        throw new Failure(`expected ':' after the key, found ${describeChar(text, i)}`, i);
      }
      i++;
      const value = parseValue(depth);
      const property: JsonProperty = { key, keyOffset, value, comma: null };
      properties.push(property);
      skipTrivia();
      if (text[i] === ",") {
        property.comma = i;
        i++;
        continue;
      }
      if (text[i] === "}") break;
      throw new Failure(`expected ',' or '}', found ${describeChar(text, i)}`, i);
    }
    i++;
    return { type: "object", properties, offset, end: i, comma: null };
  };

  const parseArray = (depth: number): JsonArrayNode => {
    const offset = i;
    i++;
    const items: JsonNode[] = [];
    for (;;) {
      skipTrivia();
      if (text[i] === "]") break;
      const item = parseValue(depth);
      items.push(item);
      skipTrivia();
      if (text[i] === ",") {
        item.comma = i;
        i++;
        continue;
      }
      if (text[i] === "]") break;
      throw new Failure(`expected ',' or ']', found ${describeChar(text, i)}`, i);
    }
    i++;
    return { type: "array", items, offset, end: i, comma: null };
  };

  try {
    const root = parseValue(0);
    skipTrivia();
    if (i < text.length) {
      throw new Failure(`unexpected ${describeChar(text, i)} after the value`, i);
    }
    return { ok: true, root };
  } catch (err) {
    const failure = err instanceof Failure ? err : new Failure("unreadable document", i);
    return {
      ok: false,
      error: {
        message: failure.message,
        offset: failure.offset,
        ...positionAt(text, failure.offset),
      },
    };
  }
}

/** The member an object gives for `key`: the last one, as `JSON.parse` would. */
export function getProperty(object: JsonObjectNode, key: string): JsonProperty | undefined {
  for (let k = object.properties.length - 1; k >= 0; k--) {
    if (object.properties[k].key === key) return object.properties[k];
  }
  return undefined;
}

/** Converts a tree to plain data; `__proto__` keys become ordinary own properties. */
export function toValue(node: JsonNode): JsonValue {
  if (node.type === "array") return node.items.map(toValue);
  if (node.type !== "object") return node.value;
  const out: { [key: string]: JsonValue } = {};
  for (const p of node.properties) {
    Object.defineProperty(out, p.key, {
      value: toValue(p.value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** One text replacement: `length` characters at `offset` become `text`. */
export interface TextEdit {
  offset: number;
  length: number;
  text: string;
}

/** Applies non-overlapping edits (in any order) to a text. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.offset - a.offset)) {
    out = out.slice(0, e.offset) + e.text + out.slice(e.offset + e.length);
  }
  return out;
}

/** The line ending and indentation unit a document already uses. */
export interface TextFormat {
  eol: string;
  indent: string;
}

/** Detects the format of a document: its line ending and first indentation (default 2 spaces). */
export function detectFormat(text: string): TextFormat {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indented = /\n([ \t]+)\S/.exec(text);
  let indent = "  ";
  if (indented) {
    const ws = indented[1];
    indent = ws[0] === "\t" ? "\t" : " ".repeat(Math.min(ws.length, 8));
  }
  return { eol, indent };
}

function lineStart(text: string, offset: number): number {
  let k = offset;
  while (k > 0 && text[k - 1] !== "\n" && text[k - 1] !== "\r") k--;
  return k;
}

function indentOfLine(text: string, offset: number): string {
  const start = lineStart(text, offset);
  let k = start;
  while (text[k] === " " || text[k] === "\t") k++;
  return text.slice(start, k);
}

function startsLine(text: string, offset: number): boolean {
  return text.slice(lineStart(text, offset), offset).trim() === "";
}

/**
 * Skips spaces, tabs and comments that end on the same line, from `pos`.
 * Reports where it stopped and whether that is the end of the line.
 */
function skipSameLineTrivia(text: string, pos: number): { pos: number; atEol: boolean } {
  let k = pos;
  for (;;) {
    while (text[k] === " " || text[k] === "\t") k++;
    if (text.startsWith("//", k)) {
      while (k < text.length && text[k] !== "\n" && text[k] !== "\r") k++;
      return { pos: k, atEol: true };
    }
    if (text.startsWith("/*", k)) {
      const close = text.indexOf("*/", k + 2);
      const nl = text.slice(k, close < 0 ? text.length : close).search(/[\r\n]/);
      if (close >= 0 && nl < 0) {
        k = close + 2;
        continue;
      }
    }
    return { pos: k, atEol: k >= text.length || text[k] === "\n" || text[k] === "\r" };
  }
}

function serialize(value: JsonValue, baseIndent: string, fmt: TextFormat): string {
  return JSON.stringify(value, null, fmt.indent).split("\n").join(fmt.eol + baseIndent);
}

interface Child {
  start: number;
  end: number;
  comma: number | null;
}

function childrenOf(container: JsonObjectNode | JsonArrayNode): Child[] {
  return container.type === "object"
    ? container.properties.map((p) => ({ start: p.keyOffset, end: p.value.end, comma: p.comma }))
    : container.items.map((n) => ({ start: n.offset, end: n.end, comma: n.comma }));
}

/** Renders one new child at `indent`: a member for objects, a bare value for arrays. */
type ChildRenderer = (indent: string, compact: boolean) => string;

function insertChildEdits(
  text: string,
  container: JsonObjectNode | JsonArrayNode,
  render: ChildRenderer,
  fmt: TextFormat,
): TextEdit[] {
  const children = childrenOf(container);
  const close = container.end - 1;
  const baseIndent = indentOfLine(text, container.offset);
  if (children.length === 0) {
    const inner = baseIndent + fmt.indent;
    const interior = text.slice(container.offset + 1, close);
    if (interior.trim() === "") {
      return [{
        offset: container.offset + 1,
        length: interior.length,
        text: fmt.eol + inner + render(inner, false) + fmt.eol + baseIndent,
      }];
    }
    return [{
      offset: container.offset + 1,
      length: 0,
      text: fmt.eol + inner + render(inner, false),
    }];
  }
  const last = children[children.length - 1];
  const multiline = /[\r\n]/.test(text.slice(container.offset, close));
  if (!multiline) {
    return last.comma !== null
      ? [{ offset: last.comma + 1, length: 0, text: ` ${render("", true)},` }]
      : [{ offset: last.end, length: 0, text: `, ${render("", true)}` }];
  }
  const indent = startsLine(text, last.start)
    ? indentOfLine(text, last.start)
    : baseIndent + fmt.indent;
  const line = fmt.eol + indent + render(indent, false);
  if (last.comma !== null) {
    const after = skipSameLineTrivia(text, last.comma + 1);
    return [{ offset: after.atEol ? after.pos : last.comma + 1, length: 0, text: `${line},` }];
  }
  const after = skipSameLineTrivia(text, last.end);
  if (after.atEol && after.pos > last.end) {
    return [
      { offset: last.end, length: 0, text: "," },
      { offset: after.pos, length: 0, text: line },
    ];
  }
  return [{ offset: last.end, length: 0, text: `,${line}` }];
}

/**
 * Edits that set `key` of an object to `value`: the existing member's value
 * is replaced in place, or a new member is added after the last one.
 */
export function setPropertyEdits(
  text: string,
  object: JsonObjectNode,
  key: string,
  value: JsonValue,
  fmt: TextFormat,
): TextEdit[] {
  const existing = getProperty(object, key);
  if (existing) {
    const node = existing.value;
    return [{
      offset: node.offset,
      length: node.end - node.offset,
      text: serialize(value, indentOfLine(text, node.offset), fmt),
    }];
  }
  const render: ChildRenderer = (indent, compact) =>
    `${JSON.stringify(key)}: ${compact ? JSON.stringify(value) : serialize(value, indent, fmt)}`;
  return insertChildEdits(text, object, render, fmt);
}

/** Edits that append `value` as the last item of an array. */
export function appendItemEdits(
  text: string,
  array: JsonArrayNode,
  value: JsonValue,
  fmt: TextFormat,
): TextEdit[] {
  const render: ChildRenderer = (indent, compact) =>
    compact ? JSON.stringify(value) : serialize(value, indent, fmt);
  return insertChildEdits(text, array, render, fmt);
}

function lineBreakLength(text: string, pos: number): number {
  if (text.startsWith("\r\n", pos)) return 2;
  return text[pos] === "\n" || text[pos] === "\r" ? 1 : 0;
}

/**
 * Edits that remove the `index`-th member or item of a container, with its
 * comma. A child on lines of its own goes with those lines (and a comment
 * trailing it on its last line); the previous sibling loses its comma when
 * the removed child was the last one, so no trailing comma is left behind.
 */
export function removeChildEdits(
  text: string,
  container: JsonObjectNode | JsonArrayNode,
  index: number,
): TextEdit[] {
  const children = childrenOf(container);
  const child = children[index];
  const open = container.offset + 1;
  const close = container.end - 1;
  const tail = child.comma !== null ? child.comma + 1 : child.end;
  if (
    children.length === 1 && text.slice(open, child.start).trim() === "" &&
    text.slice(tail, close).trim() === ""
  ) {
    // The only child, with nothing else inside: the container closes up to `{}` or `[]`.
    return [{ offset: open, length: close - open, text: "" }];
  }
  const prev = index > 0 ? children[index - 1] : null;
  const edits: TextEdit[] = [];
  const after = skipSameLineTrivia(text, tail);
  if (startsLine(text, child.start) && after.atEol) {
    const from = lineStart(text, child.start);
    const to = after.pos + lineBreakLength(text, after.pos);
    edits.push({ offset: from, length: to - from, text: "" });
  } else if (child.comma !== null) {
    let to = child.comma + 1;
    while (text[to] === " " || text[to] === "\t") to++;
    edits.push({ offset: child.start, length: to - child.start, text: "" });
  } else if (
    prev !== null && prev.comma !== null && text.slice(prev.comma + 1, child.start).trim() === ""
  ) {
    return [{ offset: prev.comma, length: child.end - prev.comma, text: "" }];
  } else {
    edits.push({ offset: child.start, length: child.end - child.start, text: "" });
  }
  if (child.comma === null && prev !== null && prev.comma !== null) {
    edits.push({ offset: prev.comma, length: 1, text: "" });
  }
  return edits;
}
