/**
 * What Bash words expand to, as far as the command line itself shows. The
 * values a line gives its variables (assignments, `declare`, `read` and
 * `mapfile` from visible input, `printf -v`, `for … in`, `set --`, the
 * arguments of a call of a function the line defines) and the
 * command names it redefines (`hash -p`, `alias`) are collected first;
 * every word is then read with those values substituted, through the
 * parameter expansion operators that reshape a value (`${x,,}`,
 * `${x:-word}`, `${x%suffix}`, `${!ref}`, substrings).
 *
 * A reference the line gives no value stays in its source form, so the
 * word still reads as only known at run time; a default (`${o:--rf}`) is
 * tried beside it. A variable given several values is tried with each:
 * the k-th reading of a command takes every word's k-th reading, which
 * keeps the work linear in the number of values.
 *
 * @module
 */

import { argv, parseBash } from "./parser.ts";
import type { Segment, Word } from "./words.ts";
import { closingBracket, type OptionSpec, scanArgs } from "../programs/mod.ts";
import { printfOutput, producedTexts } from "./printf.ts";

/** Most values remembered per variable. */
const MAX_VALUES_PER_VARIABLE = 8;

/** Most readings of one word or command line. */
export const MAX_READINGS = 8;

/** Deepest chain of values whose own references are substituted (`y=${x}m`). */
const MAX_INDIRECTION = 4;

/** Most text (and references followed) one line's expansions may build; past it the line is read crudely. */
const MAX_EXPANDED_CHARS = 64 * 1024;

/** The expansion built more text than `MAX_EXPANDED_CHARS`. */
export class ExpansionTooLarge extends Error {}

/** What the line says about its variables and command names. */
export interface LineValues {
  /** Values per variable, in the order given; arrays hold their elements. */
  readonly vars: ReadonlyMap<string, readonly string[][]>;
  /** `declare -n ref=target`: a reference reads its target. */
  readonly refs: ReadonlyMap<string, string>;
  /** Names redefined as commands (`hash -p /bin/rm zap`, `alias zap='rm -r'`): their words. */
  readonly commands: ReadonlyMap<string, readonly string[]>;
}

/** Builtins whose `NAME=value` arguments assign variables (`env`, `sudo`: for the command they run). */
const DECLARING_BUILTINS = new Set([
  "export",
  "declare",
  "typeset",
  "local",
  "readonly",
  "env",
  "sudo",
]);

/** `read`'s options (`-a` names the array it fills). */
export const READ_OPTIONS: OptionSpec = {
  short: {
    a: "value",
    d: "value",
    i: "value",
    n: "value",
    N: "value",
    p: "value",
    t: "value",
    u: "value",
  },
};

/** `mapfile`'s (and `readarray`'s) options. */
export const MAPFILE_OPTIONS: OptionSpec = {
  short: { d: "value", n: "value", O: "value", s: "value", u: "value", C: "value", c: "value" },
};

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The elements of an array literal `(a b c)`, quotes removed crudely. */
function arrayElements(inner: string): string[] {
  const out: string[] = [];
  for (const m of inner.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    out.push(m[1] ?? m[2] ?? m[3]);
  }
  return out;
}

/**
 * Collects the values the line gives: `stdinOf(i)` is the visible input of
 * segment `i` (null when it cannot be told), for `read` and `mapfile`. A
 * call of one of `functions` (defined on the line) gives the positional
 * parameters its arguments, so a body that forwards them (`rm "$@"`) is
 * read with what the call passes.
 */
export function lineValues(
  segments: readonly Segment[],
  stdinOf: (index: number) => string[] | null,
  functions: ReadonlySet<string> = new Set(),
): LineValues {
  const vars = new Map<string, string[][]>();
  const refs = new Map<string, string>();
  const commands = new Map<string, string[]>();
  const give = (name: string, value: string[]): void => {
    const list = vars.get(name) ?? [];
    // The first few values are enough to spot a destructive one; more would only cost time.
    if (list.length < MAX_VALUES_PER_VARIABLE) list.push(value);
    vars.set(name, list);
  };
  const assign = (text: string, asRef = false): void => {
    const eq = text.indexOf("=");
    const name = text.slice(0, eq).replace(/\+$/, "").replace(/\[[^\]]*\]$/, "");
    if (eq <= 0 || !NAME.test(name)) return;
    const value = text.slice(eq + 1);
    const before = text[eq - 1] === "+" ? vars.get(name) : undefined;
    if (asRef) refs.set(name, value);
    else if (before !== undefined && !value.startsWith("(")) {
      // `x+=ude` appends to each value the variable had.
      for (const old of [...before]) give(name, [old.join(" ") + value]);
    } else if (value.startsWith("(") && value.endsWith(")")) {
      give(name, arrayElements(value.slice(1, -1)));
    } else give(name, [value]);
  };
  const input = (index: number): string | null => {
    const text = (stdinOf(index) ?? []).join("\n");
    return text.trim() === "" ? null : text;
  };
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    for (const a of seg.assignments) assign(a.text);
    const [first, ...rest] = argv(seg);
    if (first === undefined) continue;
    if (functions.has(first)) {
      // A function hides the builtin of its name. Every body defined on the
      // line may be the one called: each reads these arguments.
      ["@", "*"].forEach((n) => give(n, rest));
    } else if (DECLARING_BUILTINS.has(first)) {
      const scan = scanArgs(rest);
      const asRef = scan.shorts.some((s) => s.letter === "n");
      rest.filter((w) => !w.startsWith("-")).forEach((w) => assign(w, asRef));
    } else if (first === "set") {
      const scan = scanArgs(rest, { permute: false });
      const params = scan.dashDash ? scan.operands : rest.slice(scan.stop);
      if (params.length > 0) ["@", "*"].forEach((n) => give(n, params));
    } else if (first === "read") {
      // Input the line does not show leaves the variables unknown, not empty.
      const text = input(i);
      const scan = scanArgs(rest, READ_OPTIONS);
      const arrays = scan.shorts.filter((o) => o.letter === "a" && o.value !== null);
      if (text !== null) {
        for (const name of scan.operands) give(name, [text.replace(/\n/g, " ")]);
        for (const a of arrays) give(a.value!, text.split(/\s+/).filter((t) => t !== ""));
      }
    } else if (first === "mapfile" || first === "readarray") {
      const text = input(i);
      const scan = scanArgs(rest, MAPFILE_OPTIONS);
      if (text !== null) give(scan.operands[0] ?? "MAPFILE", text.split("\n"));
    } else if (first === "printf") {
      const scan = scanArgs(rest, { short: { v: "value" }, permute: false });
      const target = scan.shorts.find((s) => s.letter === "v")?.value;
      const after = rest.slice(scan.stop);
      if (target && after.length > 0) give(target, [printfOutput(after[0], after.slice(1))]);
    } else if ((first === "for" || first === "select") && rest[1] === "in") {
      for (const value of rest.slice(2, 2 + MAX_VALUES_PER_VARIABLE)) give(rest[0], [value]);
    } else if (first === "hash") {
      const scan = scanArgs(rest, { short: { p: "value" } });
      const path = scan.shorts.find((s) => s.letter === "p")?.value;
      if (path && scan.operands[0]) commands.set(scan.operands[0], [path]);
    } else if (first === "alias") {
      for (const a of rest) {
        const eq = a.indexOf("=");
        if (eq > 0) commands.set(a.slice(0, eq), a.slice(eq + 1).split(/\s+/).filter(Boolean));
      }
    }
  }
  return { vars, refs, commands };
}

/** A piece of an expanded word: literal text, or a value that unquoted splitting cuts. */
interface Piece {
  text: string;
  fromValue: boolean;
}

/** One `${…}` or `$name` reference as written. */
interface Reference {
  /** `!` before the name: the value names the variable to read. */
  indirect: boolean;
  /** `#` before the name: the length. */
  length: boolean;
  name: string;
  /** The `[…]` subscript, null without one. */
  index: string | null;
  /** The operator and its word (`:-`, `-rf`), null without one. */
  op: string | null;
  arg: string;
}

const BRACED = /^([!#]?)([A-Za-z_][A-Za-z0-9_]*|[@*0-9])(?:\[([^\]]*)\])?(.*)$/s;
const OPERATORS = [":-", ":=", ":+", ":?", "-", "=", "+", "?", ",,", "^^", ",", "^", "~~", "~"];

/** Reads the inside of `${…}`; null for forms that are not modelled. */
function parseBraced(inner: string): Reference | null {
  const m = BRACED.exec(inner);
  if (m === null) return null;
  const [, prefix, name, index, tail] = m;
  const ref = {
    indirect: prefix === "!",
    length: prefix === "#",
    name,
    index: index ?? null,
    op: null as string | null,
    arg: "",
  };
  if (tail === "") return ref;
  const op = OPERATORS.find((o) => tail.startsWith(o)) ??
    /^(##|#|%%|%|\/\/|\/#|\/%|\/|@[A-Za-z]|:)/.exec(tail)?.[1];
  if (op === undefined) return null;
  return { ...ref, op, arg: tail.slice(op.length) };
}

/** A shell pattern as a regular expression source (`*`, `?`, `[…]`). */
function patternSource(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*") out += "[^]*";
    else if (c === "?") out += "[^]";
    else if (c === "[" && pattern.indexOf("]", i + 2) > 0) {
      const end = pattern.indexOf("]", i + 2);
      out += `[${pattern.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
      i = end;
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return out;
}

/** Applies a reshaping operator to one known value; null when it is not modelled. */
function reshape(value: string, op: string, arg: string): string | null {
  switch (op) {
    case ",,":
      return value.toLowerCase();
    case "^^":
      return value.toUpperCase();
    case ",":
      return value.slice(0, 1).toLowerCase() + value.slice(1);
    case "^":
      return value.slice(0, 1).toUpperCase() + value.slice(1);
    case "~~":
    case "~":
      return [...value].map((c) => c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())
        .join("");
    case "@U":
      return value.toUpperCase();
    case "@L":
      return value.toLowerCase();
    case "@u":
      return value.slice(0, 1).toUpperCase() + value.slice(1);
    case "@Q":
    case "@E":
    case "@P":
      return value;
    case ":": {
      const m = /^\s*(-?[0-9]+)\s*(?::\s*(-?[0-9]+)\s*)?$/.exec(arg);
      if (m === null) return null;
      const start = Number(m[1]) < 0 ? Math.max(0, value.length + Number(m[1])) : Number(m[1]);
      if (m[2] === undefined) return value.slice(start);
      const len = Number(m[2]);
      return len < 0 ? value.slice(start, value.length + len) : value.slice(start, start + len);
    }
  }
  const pattern = op.startsWith("/") ? arg.split("/")[0] : arg;
  const source = patternSource(pattern);
  switch (op) {
    case "#":
    case "##": {
      const re = new RegExp(`^(?:${source})$`);
      for (let n = 0; n <= value.length; n++) {
        const len = op === "#" ? n : value.length - n;
        if (re.test(value.slice(0, len))) return value.slice(len);
      }
      return value;
    }
    case "%":
    case "%%": {
      const re = new RegExp(`^(?:${source})$`);
      for (let n = 0; n <= value.length; n++) {
        const len = op === "%" ? n : value.length - n;
        if (re.test(value.slice(value.length - len))) return value.slice(0, value.length - len);
      }
      return value;
    }
  }
  const replacement = arg.includes("/") ? arg.slice(arg.indexOf("/") + 1) : "";
  if (pattern === "") return value;
  const anchor = op === "/#" ? "^" : "";
  const tail = op === "/%" ? "$" : "";
  return value.replace(
    new RegExp(`${anchor}(?:${source})${tail}`, op === "//" ? "g" : ""),
    () => replacement,
  );
}

/** A word that is every positional parameter or every element of an array. */
const ALL_ELEMENTS = /^\$(?:@|\{@\}|\{[A-Za-z_][A-Za-z0-9_]*\[@\]\})$/;

/** Reads words and texts of one command line with the values it gives. */
export class Expander {
  private produced = 0;

  /**
   * `spend(units)` charges work to the caller's budget and answers whether
   * it may go on; a refusal ends the reading with `ExpansionTooLarge`.
   */
  constructor(
    private readonly values: LineValues,
    private readonly spend: (units: number) => boolean = () => true,
  ) {}

  /** The values of a variable, through name references; undefined when the line gives none. */
  private lookup(name: string, seen = 0): readonly string[][] | undefined {
    const target = this.values.refs.get(name);
    if (target !== undefined && seen < MAX_INDIRECTION) return this.lookup(target, seen + 1);
    if (/^[1-9]$/.test(name)) {
      const params = this.values.vars.get("@");
      return params?.map((p) => [p[Number(name) - 1] ?? ""]);
    }
    const known = this.values.vars.get(name);
    // `$IFS` left at its default expands to blanks.
    return known ?? (name === "IFS" ? [[" "]] : undefined);
  }

  /** The readings of one reference; its source form when the line gives no value. */
  private reference(ref: Reference, source: string, depth: number): Piece[][] {
    const unknown: Piece[][] = [[{ text: source, fromValue: false }]];
    let values = this.lookup(ref.name);
    if (values !== undefined && ref.indirect) {
      values = values.flatMap((v) => this.lookup(v.join(" ")) ?? []);
      if (values.length === 0) values = undefined;
    }
    const op = ref.op;
    if (values === undefined) {
      if (op === ":-" || op === "-" || op === ":=" || op === "=" || op === ":+" || op === "+") {
        return [...this.text(ref.arg, depth + 1), ...unknown].slice(0, MAX_READINGS);
      }
      return unknown;
    }
    const out: Piece[][] = [];
    for (const elements of values) {
      const whole = ref.name === "@" || ref.name === "*" || ref.index === "@" || ref.index === "*";
      const picked = whole
        ? elements
        : ref.index === null
        ? elements.slice(0, 1)
        : /^[0-9]+$/.test(ref.index)
        ? [elements[Number(ref.index)] ?? ""]
        : elements;
      const value = picked.join(" ");
      if (ref.length) {
        out.push([{ text: String(value.length), fromValue: true }]);
        continue;
      }
      if (op === ":-" || op === "-" || op === ":=" || op === "=") {
        out.push(
          ...(value === "" && op.startsWith(":")
            ? this.text(ref.arg, depth + 1)
            : this.text(value, depth + 1, true)),
        );
        continue;
      }
      if (op === ":+" || op === "+") {
        out.push(...(value !== "" || op === "+" ? this.text(ref.arg, depth + 1) : [[]]));
        continue;
      }
      for (const reading of this.text(value, depth + 1, true)) {
        const flat = reading.map((p) => p.text).join("");
        const shaped = op === null || op === "?" || op === ":?" ? flat : reshape(flat, op, ref.arg);
        if (shaped === null) return unknown;
        out.push([{ text: shaped, fromValue: true }]);
      }
    }
    return out.slice(0, MAX_READINGS);
  }

  /**
   * The readings of `text` with known references substituted, as pieces;
   * `fromValue` marks the whole text as a value (its pieces split unquoted).
   */
  private text(text: string, depth: number, fromValue = false): Piece[][] {
    if (depth > MAX_INDIRECTION || !/[$`]/.test(text)) return [[{ text, fromValue }]];
    const parts: Piece[][][] = [];
    let literal = "";
    const flush = (): void => {
      if (literal !== "") parts.push([[{ text: literal, fromValue }]]);
      literal = "";
    };
    /** A substitution from `start` to `end` (inclusive) running `inner`: its output, else its source. */
    const substituted = (start: number, end: number, inner: string): void => {
      const produced = end < 0 ? null : this.substitution(inner, depth);
      if (produced === null) {
        literal += text.slice(start, end < 0 ? text.length : end + 1);
        return;
      }
      flush();
      parts.push(produced.map((t) => [{ text: t, fromValue: true }]));
    };
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === "`") {
        const end = text.indexOf("`", i + 1);
        substituted(i, end, text.slice(i + 1, end));
        i = end < 0 ? text.length : end;
        continue;
      }
      if (c !== "$" || i + 1 >= text.length) {
        literal += c;
        continue;
      }
      const next = text[i + 1];
      if (next === "(" && text[i + 2] !== "(") {
        const end = closingBracket(text, i + 1);
        substituted(i, end, text.slice(i + 2, end));
        i = end < 0 ? text.length : end;
        continue;
      }
      if (next === "(") {
        const end = closingBracket(text, i + 1);
        literal += text.slice(i, end < 0 ? text.length : end + 1);
        i = end < 0 ? text.length : end;
        continue;
      }
      if (next === "{") {
        const end = closingBracket(text, i + 1);
        const ref = end < 0 ? null : parseBraced(text.slice(i + 2, end));
        if (ref === null) {
          literal += text.slice(i, end < 0 ? text.length : end + 1);
          i = end < 0 ? text.length : end;
          continue;
        }
        flush();
        parts.push(this.reference(ref, text.slice(i, end + 1), depth));
        i = end;
        continue;
      }
      const m = /^(?:[A-Za-z_][A-Za-z0-9_]*|[@*0-9])/.exec(text.slice(i + 1));
      if (m === null) {
        literal += c;
        continue;
      }
      flush();
      const ref: Reference = {
        indirect: false,
        length: false,
        name: m[0],
        index: null,
        op: null,
        arg: "",
      };
      parts.push(this.reference(ref, text.slice(i, i + 1 + m[0].length), depth));
      i += m[0].length;
    }
    flush();
    const count = Math.max(1, ...parts.map((p) => p.length));
    const out: Piece[][] = [];
    for (let k = 0; k < count; k++) {
      const reading = parts.flatMap((p) => p[Math.min(k, p.length - 1)] ?? []);
      // Every reading is paid for, empty ones too: chains of references cost calls.
      const units = 1 + reading.reduce((n, p) => n + p.text.length, 0);
      this.produced += units;
      if (this.produced > MAX_EXPANDED_CHARS || !this.spend(units)) throw new ExpansionTooLarge();
      out.push(reading);
    }
    return out;
  }

  /**
   * What a command substitution writes when it is one `echo` or `printf`
   * (`$(echo -rf)`), trailing newlines dropped; null for any other command,
   * whose output the line does not show.
   */
  private substitution(inner: string, depth: number): string[] | null {
    if (depth >= MAX_INDIRECTION || !this.spend(inner.length + 1)) return null;
    const parsed = parseBash(inner);
    if (!parsed.ok || parsed.segments.length !== 1) return null;
    const out: string[] = [];
    for (const words of this.argvAt(parsed.segments[0].words, depth + 1)) {
      const produced = producedTexts(words);
      if (produced === null) return null;
      out.push(...produced.map((t) => t.replace(/\n+$/, "")));
    }
    return out.slice(0, MAX_READINGS);
  }

  /** The readings of a text as one string (a here-string, a producer's output). */
  texts(text: string): string[] {
    return [...new Set(this.text(text, 0).map((r) => r.map((p) => p.text).join("")))];
  }

  /** The readings of one word as the fields it becomes. */
  private fields(word: Word, depth: number): string[][] {
    const ifs = (this.lookup("IFS") ?? [[" "]]).map((v) => v.join("")).join("");
    const perText = (word.braces ?? [word.text]).map((text) =>
      this.text(text, depth).map((reading) =>
        // `"$@"` and `"${a[@]}"` keep their elements apart; other quoted words stay whole.
        !word.quoted
          ? split(reading, ifs)
          : ALL_ELEMENTS.test(text)
          ? split(reading, "")
          : [reading.map((p) => p.text).join("")]
      )
    );
    const count = Math.max(0, ...perText.map((r) => r.length));
    const out: string[][] = [];
    for (let k = 0; k < count; k++) {
      out.push(perText.flatMap((r) => r[Math.min(k, r.length - 1)]));
    }
    return out.length === 0 ? [[]] : out;
  }

  /**
   * The readings of a segment's argument vector, redefined command names
   * replaced; one reading when nothing on the line varies.
   */
  argv(words: readonly Word[]): string[][] {
    return this.argvAt(words, 0);
  }

  private argvAt(words: readonly Word[], depth: number): string[][] {
    const perWord = words.map((w) => this.fields(w, depth));
    const count = Math.max(1, ...perWord.map((r) => r.length));
    const out: string[][] = [];
    for (let k = 0; k < count; k++) {
      let reading = perWord.flatMap((r) => r[Math.min(k, r.length - 1)]);
      for (let n = 0; n < MAX_INDIRECTION && this.values.commands.has(reading[0]); n++) {
        reading = [...this.values.commands.get(reading[0])!, ...reading.slice(1)];
      }
      out.push(reading);
    }
    return out;
  }
}

/** Splits a reading into fields: value pieces at blanks and `IFS` characters, literals never. */
function split(reading: readonly Piece[], ifs: string): string[] {
  const fields: string[] = [];
  let cur = "";
  let started = false;
  for (const piece of reading) {
    if (!piece.fromValue) {
      cur += piece.text;
      started ||= piece.text !== "";
      continue;
    }
    let text = piece.text;
    for (const c of ifs) text = text.split(c).join(" ");
    const parts = text.split(/\s+/);
    parts.forEach((part, n) => {
      if (n > 0) {
        if (started || cur !== "") fields.push(cur);
        cur = "";
        started = false;
      }
      cur += part;
      started ||= part !== "";
    });
  }
  if (started || cur !== "") fields.push(cur);
  return fields;
}
