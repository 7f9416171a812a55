/**
 * Bash brace expansion (`{a,b}`, `{1..3}`, `{a..c}`) of one word, bounded.
 *
 * Brace expansion happens before the command runs, so `{rm,-rf,x}` is the
 * three words `rm -rf x` and `r{m,}` starts with `rm`. The lexer records
 * which `{`, `,` and `}` characters of a word were unquoted; only those take
 * part. Expansion stops with `null` once it would produce more than the
 * caller's limit, so a hostile word cannot blow up memory or time.
 *
 * @module
 */

/** Most `{` characters of one word that are looked at. */
const MAX_OPEN_BRACES = 64;

/** Most elements one `{x..y}` sequence may produce. */
const MAX_SEQUENCE = 256;

class Overflow {}

/** Integer sequence `{1..5}` / `{1..9..2}`; digits only, optional sign. */
const NUMERIC_SEQUENCE = /^(-?\d{1,6})\.\.(-?\d{1,6})(?:\.\.(-?\d{1,6}))?$/;

/** Letter sequence `{a..e}` / `{a..z..2}`. */
const LETTER_SEQUENCE = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d{1,6}))?$/;

function sequence(body: string): string[] | null {
  const num = NUMERIC_SEQUENCE.exec(body);
  const letter = num ? null : LETTER_SEQUENCE.exec(body);
  const m = num ?? letter;
  if (!m) return null;
  const from = num ? Number(m[1]) : m[1].charCodeAt(0);
  const to = num ? Number(m[2]) : m[2].charCodeAt(0);
  const step = Math.abs(m[3] === undefined ? 1 : Number(m[3])) || 1;
  if (Math.abs(to - from) / step >= MAX_SEQUENCE) throw new Overflow();
  const out: string[] = [];
  const dir = to >= from ? 1 : -1;
  for (let v = from; dir > 0 ? v <= to : v >= to; v += dir * step) {
    out.push(num ? String(v) : String.fromCharCode(v));
  }
  return out;
}

/**
 * Expands `text[start, end)`; `special` holds the offsets of the unquoted
 * brace characters.
 */
function expand(
  text: string,
  special: ReadonlySet<number>,
  start: number,
  end: number,
  limit: number,
): string[] {
  for (let open = start; open < end; open++) {
    if (text[open] !== "{" || !special.has(open)) continue;
    let level = 0;
    const commas: number[] = [];
    let close = -1;
    for (let j = open + 1; j < end; j++) {
      if (!special.has(j)) continue;
      const c = text[j];
      if (c === "{") level++;
      else if (c === "}") {
        if (level === 0) {
          close = j;
          break;
        }
        level--;
      } else if (c === "," && level === 0) commas.push(j);
    }
    if (close < 0) continue;
    let alternatives: string[];
    if (commas.length > 0) {
      alternatives = [];
      let from = open + 1;
      for (const cut of [...commas, close]) {
        alternatives.push(...expand(text, special, from, cut, limit));
        if (alternatives.length > limit) throw new Overflow();
        from = cut + 1;
      }
    } else {
      const seq = sequence(text.slice(open + 1, close));
      if (seq === null) continue;
      alternatives = seq;
    }
    const prefix = text.slice(start, open);
    const suffixes = expand(text, special, close + 1, end, limit);
    if (alternatives.length * suffixes.length > limit) throw new Overflow();
    const out: string[] = [];
    for (const alt of alternatives) {
      for (const suffix of suffixes) out.push(prefix + alt + suffix);
    }
    return out;
  }
  return [text.slice(start, end)];
}

/**
 * The words a brace expansion of `text` produces, in bash's order; the
 * one-element `[text]` when nothing expands; null past `limit` words.
 * `special` lists the offsets of unquoted `{`, `,` and `}` in `text`.
 */
export function expandBraces(
  text: string,
  special: readonly number[],
  limit: number,
): string[] | null {
  const opens = special.filter((at) => text[at] === "{").length;
  if (opens === 0) return [text];
  if (opens > MAX_OPEN_BRACES) return null;
  try {
    return expand(text, new Set(special), 0, text.length, limit);
  } catch {
    return null;
  }
}
