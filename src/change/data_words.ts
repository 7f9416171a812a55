/**
 * Data words: does the changed code touch stored or exchanged data? File
 * reads and writes, data formats and their parsers, text encodings, schemas
 * and queries, databases and key-value stores, browser storage, dates and
 * the clock; in shell scripts also output sent into files, downloads, and
 * PowerShell's file and web cmdlets.
 *
 * Matching is on code and string contents, never comments. Identifiers are
 * split into their camelCase and snake_case parts, so `readFileSync` has a
 * `file` part while `update` has no `date`.
 *
 * @module
 */

import type { CodeLine } from "./lex_emitter.ts";
import type { Language } from "./language.ts";

/** Identifier parts (lowercased) that name data handling. */
const DATA_PARTS: ReadonlySet<string> = new Set([
  // File I/O.
  "file",
  "files",
  "filename",
  "filepath",
  "fs",
  "io",
  "open",
  "fopen",
  "fread",
  "fwrite",
  "fclose",
  "fgets",
  "fputs",
  "fprintf",
  "fscanf",
  "fstream",
  "ifstream",
  "ofstream",
  "pathlib",
  "shutil",
  "tempfile",
  "ioutil",
  "bufio",
  "mkdir",
  "readdir",
  "unlink",
  "reader",
  "writer",
  "readlines",
  "writelines",
  "upload",
  "download",
  "blob",
  // Formats and serialisation.
  "json",
  "jsonl",
  "ndjson",
  "csv",
  "tsv",
  "yaml",
  "yml",
  "toml",
  "xml",
  "ini",
  "parquet",
  "avro",
  "protobuf",
  "msgpack",
  "bson",
  "cbor",
  "pickle",
  "excel",
  "xlsx",
  "pdf",
  "serialize",
  "serialise",
  "deserialize",
  "deserialise",
  "serializer",
  "serde",
  "marshal",
  "unmarshal",
  "stringify",
  "dumps",
  "loads",
  // Encodings.
  "encode",
  "decode",
  "encoder",
  "decoder",
  "encoding",
  "codec",
  "charset",
  "base64",
  "utf",
  "utf8",
  "utf16",
  "ascii",
  "latin1",
  // Schemas and SQL.
  "schema",
  "schemas",
  "pydantic",
  "sql",
  "sqlite",
  "sqlite3",
  "mysql",
  "postgres",
  "postgresql",
  "psql",
  // Data stores.
  "db",
  "database",
  "datastore",
  "redis",
  "mongo",
  "mongodb",
  "mongoose",
  "dynamo",
  "dynamodb",
  "firestore",
  "firebase",
  "supabase",
  "prisma",
  "sequelize",
  "typeorm",
  "knex",
  "sqlalchemy",
  "orm",
  "gorm",
  "diesel",
  "jdbc",
  "hibernate",
  "s3",
  "bucket",
  "cassandra",
  "elasticsearch",
  "leveldb",
  "rocksdb",
  "lmdb",
  // Browser storage.
  "storage",
  "cookie",
  "cookies",
  "indexeddb",
  // Dates and clock reads.
  "date",
  "dates",
  "datetime",
  "time",
  "times",
  "timestamp",
  "timestamps",
  "timezone",
  "tz",
  "tzinfo",
  "utc",
  "gmt",
  "iso",
  "now",
  "today",
  "utcnow",
  "clock",
  "calendar",
  "strftime",
  "strptime",
  "moment",
  "dayjs",
  "luxon",
  "chrono",
  "instant",
]);

/** Lowercased fragments that name data handling wherever they appear. */
const DATA_FRAGMENTS: readonly string[] = [
  "json",
  "csv",
  "yaml",
  "sql",
  "serializ",
  "serialis",
  "pickle",
  "base64",
  "utf-8",
  "localstorage",
  "sessionstorage",
  "indexeddb",
  "strftime",
  "strptime",
  "timestamp",
  "datetime",
  "readfile",
  "writefile",
  "appendfile",
  "readtext",
  "writetext",
  "readbytes",
  "writebytes",
  "readstream",
  "writestream",
  "isoformat",
  "toisostring",
];

/** SQL statements, as lowercased fragments that must all occur. */
const SQL_PHRASES: readonly (readonly string[])[] = [
  ["select ", " from "],
  ["insert into"],
  ["delete from"],
  ["create table"],
  ["alter table"],
  ["drop table"],
  ["update ", " set "],
];

/** Commands that fetch or reshape data in shell scripts. */
const SHELL_COMMANDS: readonly string[] = ["curl", "wget", "jq"];

/** PowerShell file and web cmdlets and their aliases (lowercased). */
const POWERSHELL_CMDLETS: readonly string[] = [
  "get-content",
  "set-content",
  "add-content",
  "clear-content",
  "out-file",
  "export-csv",
  "import-csv",
  "convertto-csv",
  "convertfrom-csv",
  "convertto-json",
  "convertfrom-json",
  "export-clixml",
  "import-clixml",
  "convertto-xml",
  "select-xml",
  "import-powershelldatafile",
  "new-item",
  "remove-item",
  "copy-item",
  "move-item",
  "rename-item",
  "get-item",
  "set-item",
  "get-itemproperty",
  "set-itemproperty",
  "test-path",
  "tee-object",
  "expand-archive",
  "compress-archive",
  "invoke-webrequest",
  "invoke-restmethod",
  "start-bitstransfer",
  "new-webserviceproxy",
  "iwr",
  "irm",
  "gc",
  "sc",
  "ac",
  "ni",
  "ri",
  "epcsv",
  "ipcsv",
  "tee",
];

/** Languages where redirection, `curl`, `wget` and `jq` count. */
const SHELL_LANGUAGES: ReadonlySet<Language> = new Set(["sh", "ps1", "bat"]);

/** Redirection targets that are not files. */
const NON_FILE_TARGETS: readonly string[] = ["/dev/null", "/dev/std", "/dev/tty", "$null"];

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}
function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isAlnum(c: number): boolean {
  return isLower(c) || isUpper(c) || isDigit(c);
}

/** True when some camelCase/snake_case part of an identifier in `text` is a data part. */
function hasDataPart(text: string): boolean {
  let start = -1;
  for (let at = 0; at <= text.length; at++) {
    const c = at < text.length ? text.charCodeAt(at) : 0;
    if (!isAlnum(c)) {
      if (start >= 0 && DATA_PARTS.has(text.slice(start, at).toLowerCase())) return true;
      start = -1;
      continue;
    }
    if (start < 0) {
      start = at;
      continue;
    }
    const prev = text.charCodeAt(at - 1);
    const boundary = (isLower(prev) && isUpper(c)) ||
      (isUpper(prev) && isUpper(c) && isLower(text.charCodeAt(at + 1))) ||
      (isDigit(prev) && !isDigit(c));
    if (boundary) {
      if (DATA_PARTS.has(text.slice(start, at).toLowerCase())) return true;
      start = at;
    }
  }
  return false;
}

/** True when `word` occurs in `s` between characters that are not letters, digits, `_` or `-`. */
function hasCommandWord(s: string, word: string): boolean {
  const inWord = (c: number): boolean => isAlnum(c) || c === 95 || c === 45;
  for (let at = s.indexOf(word); at >= 0; at = s.indexOf(word, at + 1)) {
    if ((at === 0 || !inWord(s.charCodeAt(at - 1))) && !inWord(s.charCodeAt(at + word.length))) {
      return true;
    }
  }
  return false;
}

/** True when a skeleton line redirects to or from a file. */
function redirectsToFile(language: Language, skeleton: string): boolean {
  for (let at = 0; at < skeleton.length; at++) {
    const ch = skeleton[at];
    if (ch !== ">" && !(ch === "<" && language !== "ps1")) continue;
    const prev = skeleton[at - 1] ?? "";
    let k = at + 1;
    if (ch === ">" && (skeleton[k] === ">" || skeleton[k] === "|")) k++;
    const next = skeleton[k] ?? "";
    if (
      next === "&" || next === "(" || next === "<" || prev === "<" || prev === "-" || prev === "="
    ) {
      continue;
    }
    while (skeleton[k] === " " || skeleton[k] === "\t") k++;
    if (k >= skeleton.length) continue;
    const target = skeleton.slice(k, k + 10).toLowerCase();
    if (NON_FILE_TARGETS.some((t) => target.startsWith(t))) continue;
    if (language === "bat" && target.startsWith("nul") && !isAlnum(target.charCodeAt(3))) continue;
    return true;
  }
  return false;
}

/** True when the code lines (either side of a change) handle data. */
export function mentionsData(language: Language, lines: readonly CodeLine[]): boolean {
  if (lines.length === 0) return false;
  const text = lines.map((l) => l.text).join("\n");
  const lower = text.toLowerCase();
  if (DATA_FRAGMENTS.some((f) => lower.includes(f))) return true;
  if (SQL_PHRASES.some((phrase) => phrase.every((part) => lower.includes(part)))) return true;
  if (hasDataPart(text)) return true;
  if (!SHELL_LANGUAGES.has(language)) return false;
  if (SHELL_COMMANDS.some((w) => hasCommandWord(lower, w))) return true;
  if (language === "ps1" && POWERSHELL_CMDLETS.some((w) => hasCommandWord(lower, w))) return true;
  return lines.some((l) => redirectsToFile(language, l.skeleton));
}
