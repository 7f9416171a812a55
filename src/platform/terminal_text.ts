/**
 * Text from files GateGuard does not control (settings, plugin indexes, the
 * project file) made safe to print: control characters, bidirectional
 * overrides and line separators are shown as `\u` escapes, so such text
 * can neither drive the terminal nor pass itself off as GateGuard's own
 * line.
 *
 * @module
 */

/**
 * C0 and C1 controls and DEL, the bidirectional embeddings, overrides and
 * isolates, and the Unicode line and paragraph separators.
 */
function isUnsafe(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) || code === 0x2028 || code === 0x2029;
}

/** True when `text` holds an unsafe character other than tab and newline. */
export function hasUnsafeCharacter(text: string): boolean {
  for (let k = 0; k < text.length; k++) {
    const code = text.charCodeAt(k);
    if (code !== 9 && code !== 10 && isUnsafe(code)) return true;
  }
  return false;
}

/** `text` with every unsafe character, newline and tab included, written as a `\u` escape. */
export function printable(text: string): string {
  let out = "";
  let run = 0;
  for (let k = 0; k < text.length; k++) {
    const code = text.charCodeAt(k);
    if (!isUnsafe(code)) continue;
    out += text.slice(run, k) + `\\u${code.toString(16).padStart(4, "0")}`;
    run = k + 1;
  }
  return out + text.slice(run);
}

/** `printable` in double quotes, cut to `max` characters first. */
export function quoted(text: string, max = 200): string {
  return `"${printable(text.slice(0, max).replaceAll("\\", "\\\\").replaceAll('"', '\\"'))}"`;
}
