/**
 * The programs whose output cannot be read from the command line: decoders
 * that turn their input into other text (`base64 -d`, `rev`, `tr`, …) and
 * fetchers that print text from the network. Each maps to the option that
 * makes it decode or print to stdout, or null when it always does.
 *
 * @module
 */

/** Programs that turn their input into other text: a script through them cannot be read. */
export const DECODERS: Readonly<Record<string, RegExp | null>> = {
  base64: /^-(d|D|-decode)$|^-[a-zA-Z]*d/,
  base32: /^-(d|-decode)$|^-[a-zA-Z]*d/,
  basenc: /^-(d|-decode)$|^-[a-zA-Z]*d/,
  openssl: /^-d$|^(base64|enc)$/,
  xxd: /^-r/,
  uudecode: null,
  rev: null,
  tr: null,
  sed: null,
  gunzip: null,
  zcat: null,
  bzcat: null,
  xzcat: null,
  zstdcat: null,
  gzip: /^-[a-zA-Z]*d|^--decompress$/,
  iconv: null,
};

/**
 * Programs that print text fetched from the network (wget only with
 * `-O -`): a script from them is not on the line or the machine.
 */
export const FETCHERS: Readonly<Record<string, RegExp | null>> = {
  curl: null,
  curlie: null,
  wget: /^-[a-zA-Z]*O-$|^--output-document=-$|^-$/,
  http: null,
  https: null,
  xh: null,
  xhs: null,
  nc: null,
  ncat: null,
  netcat: null,
  socat: null,
};
