/**
 * The short, display-safe text that names a search in a credit note or a
 * closest-miss line: the tool input with control and bidirectional
 * formatting characters removed, whitespace runs folded to one space, and
 * cut to a fixed length.
 *
 * @module
 */

/** Longest detail shown, in characters. */
export const DETAIL_MAX = 60;

function isWhitespace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0x85 || code === 0xa0 ||
    code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 ||
    code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000;
}

function isHidden(code: number): boolean {
  return code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) ||
    (code >= 0x200b && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) || code === 0xfeff;
}

/**
 * Sanitizes `text` for display and cuts it to `DETAIL_MAX` characters (a
 * cut text ends in `…`). Stops reading once the cut is certain.
 */
export function sanitizeDetail(text: string): string {
  const out: string[] = [];
  let pendingSpace = false;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (isWhitespace(code)) {
      pendingSpace = out.length > 0;
      continue;
    }
    if (isHidden(code)) continue;
    if (pendingSpace) out.push(" ");
    pendingSpace = false;
    out.push(ch);
    if (out.length > DETAIL_MAX) break;
  }
  return out.length > DETAIL_MAX ? out.slice(0, DETAIL_MAX - 1).join("") + "…" : out.join("");
}
