/**
 * What `printf` and `echo` write, for the detector: a command line that
 * builds a command word or a script with them (`printf -v x '\x72\x6d'`,
 * `echo -e 'r\x6d -rf x' | sh`) is read as the text they produce. Only the
 * conversions that shape text are modelled; a number conversion writes its
 * argument as given.
 *
 * @module
 */

/** Most times a format is reused for leftover arguments. */
const MAX_FORMAT_ROUNDS = 64;

/** Backslash escapes of `printf` formats, `%b` arguments and `echo -e`. */
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  '"': '"',
  "'": "'",
};

/** The escape starting at `text[i]` (a backslash): what it stands for and how many characters it takes. */
function escapeAt(text: string, i: number, octalPrefix: boolean): [string, number] {
  const next = text[i + 1];
  if (next === undefined) return ["\\", 1];
  const hex = /^x([0-9A-Fa-f]{1,2})/.exec(text.slice(i + 1, i + 4));
  if (hex) return [String.fromCharCode(parseInt(hex[1], 16)), 1 + hex[0].length];
  const uni = /^[uU]([0-9A-Fa-f]{1,8})/.exec(text.slice(i + 1, i + 10));
  if (uni) {
    const code = parseInt(uni[1], 16);
    return [code <= 0x10ffff ? String.fromCodePoint(code) : "", 1 + uni[0].length];
  }
  const oct = (octalPrefix ? /^0([0-7]{0,3})/ : /^([0-7]{1,3})/).exec(text.slice(i + 1, i + 5));
  if (oct) return [String.fromCharCode(parseInt(oct[1] || "0", 8) & 0xff), 1 + oct[0].length];
  if (Object.hasOwn(SIMPLE_ESCAPES, next)) return [SIMPLE_ESCAPES[next], 2];
  return ["\\", 1];
}

/** Decodes backslash escapes; `octalPrefix` means octal needs a leading 0 (`echo -e`, `%b`). */
export function decodeEscapes(text: string, octalPrefix = false): string {
  let out = "";
  for (let i = 0; i < text.length;) {
    if (text[i] !== "\\") {
      out += text[i++];
      continue;
    }
    const [value, length] = escapeAt(text, i, octalPrefix);
    out += value;
    i += length;
  }
  return out;
}

/** One conversion at a position: `%` flags, width and precision, then the letter. */
const CONVERSION = /%([-+ #0]*)(\*|[0-9]*)(?:\.(\*|[0-9]*))?([a-zA-Z%])/y;

/** The text `printf FORMAT ARGS…` writes. */
export function printfOutput(format: string, args: readonly string[]): string {
  let out = "";
  let next = 0;
  for (let round = 0; round < MAX_FORMAT_ROUNDS; round++) {
    let consumed = false;
    const take = (): string => {
      if (next < args.length) consumed = true;
      return args[next++] ?? "";
    };
    for (let i = 0; i < format.length;) {
      if (format[i] === "\\") {
        const [value, length] = escapeAt(format, i, false);
        out += value;
        i += length;
        continue;
      }
      CONVERSION.lastIndex = i;
      const m = format[i] === "%" ? CONVERSION.exec(format) : null;
      if (m === null) {
        out += format[i++];
        continue;
      }
      i += m[0].length;
      const letter = m[4];
      if (letter === "%") {
        out += "%";
        continue;
      }
      if (m[2] === "*") take();
      if (m[3] === "*") take();
      const arg = take();
      out += letter === "b" ? decodeEscapes(arg, true) : letter === "c" ? arg.slice(0, 1) : arg;
    }
    // The format is reused while arguments are left and it consumed some.
    if (!consumed || next >= args.length) break;
  }
  return out;
}

/** The texts `echo ARGS…` may write: as given, and with `-e` escapes decoded. */
export function echoOutputs(args: readonly string[]): string[] {
  let i = 0;
  let decode = false;
  while (i < args.length && /^-[neE]+$/.test(args[i])) {
    decode ||= args[i].includes("e");
    i++;
  }
  const plain = args.slice(i).join(" ");
  // `xpg_echo` and some shells' echo decode escapes without `-e`.
  const decoded = decodeEscapes(plain, true);
  return decode || decoded !== plain ? [...new Set([decoded, plain])] : [plain];
}

/** The texts a `printf` or `echo` command line writes; null for any other command. */
export function producedTexts(words: readonly string[]): string[] | null {
  const name = words[0];
  if (name === "echo") return echoOutputs(words.slice(1));
  if (name !== "printf") return null;
  let rest = words.slice(1);
  if (rest[0] === "--") rest = rest.slice(1);
  // `printf -v NAME` writes into a variable, not to stdout.
  if (rest[0] === "-v") return [];
  return rest.length === 0 ? [] : [printfOutput(rest[0], rest.slice(1))];
}
