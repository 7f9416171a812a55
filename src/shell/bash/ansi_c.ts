/**
 * Bash's `$'…'` quoting: the body's backslash escapes decoded to the text
 * the shell passes on, so `$'\x72\x6d'` reads as `rm`.
 *
 * @module
 */

/** Escapes that stand for one fixed character. */
const SINGLE: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Most hex digits each numeric escape takes. */
const HEX_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** A decoded `$'…'` body and the index just past its closing quote. */
export interface AnsiCBody {
  readonly text: string;
  readonly end: number;
}

/**
 * Decodes the body of `$'…'` starting at `start` (just inside the opening
 * quote). Null when the closing quote is missing. One pass over the body.
 */
export function decodeAnsiC(s: string, start: number): AnsiCBody | null {
  let out = "";
  let i = start;
  while (i < s.length) {
    const c = s[i];
    if (c === "'") return { text: out, end: i + 1 };
    if (c !== "\\") {
      out += c;
      i++;
      continue;
    }
    const n = s[i + 1] ?? "";
    i += 2;
    if (Object.hasOwn(SINGLE, n)) out += SINGLE[n];
    else if (Object.hasOwn(HEX_DIGITS, n)) {
      let digits = "";
      while (digits.length < HEX_DIGITS[n] && /[0-9A-Fa-f]/.test(s[i] ?? "")) digits += s[i++];
      if (digits === "") out += `\\${n}`;
      else {
        const cp = parseInt(digits, 16);
        out += cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
      }
    } else if (n >= "0" && n <= "7") {
      let digits = n;
      while (digits.length < 3 && /[0-7]/.test(s[i] ?? "")) digits += s[i++];
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
    } else if (n === "c") {
      out += String.fromCharCode((s[i] ?? "@").charCodeAt(0) & 0x1f);
      i++;
    } else out += `\\${n}`;
  }
  return null;
}
