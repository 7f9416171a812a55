/**
 * Reading SQL text as a destructive detector needs it: tokens with string
 * literals and quoted identifiers reduced to placeholders (their content is
 * data), comments dropped except MySQL's executable ones, and the forms
 * that destroy data: `DROP`, `DELETE`, `TRUNCATE`, and `DELETE`/`UPDATE`
 * without a `WHERE`. Also the arguments of a SQL client where statements
 * may hide (attached option values, `--command=`).
 *
 * Code inside data: a dollar-quoted body (`DO $$ … $$`, a function body)
 * is read as statements, and so are the string literals a statement hands
 * to dynamic SQL (`EXECUTE '…'`, `EXEC('…')`, `PREPARE s FROM '…'`,
 * `sp_executesql N'…'`, psql's `\gexec`), each alone and all of them
 * joined (`'DR' || 'OP TABLE t'`). Dynamic SQL built from anything else
 * (a variable, a function's result) cannot be read and counts as
 * destructive, and so does text fed to a client that cannot be read.
 *
 * @module
 */

import { UNREADABLE_STDIN } from "../stdin_markers.ts";

const SQL_WORD = /[A-Za-z_][A-Za-z0-9_]*/y;

/** A dollar-quote delimiter: `$$` or `$tag$`. */
const DOLLAR_TAG = /\$([A-Za-z_][A-Za-z0-9_]*)?\$/y;

/** Tokens that open and close a dollar-quoted body. */
const BODY_OPEN = "$(";
const BODY_CLOSE = "$)";

/** Deepest nesting of dynamic SQL read inside dynamic SQL. */
const MAX_DYNAMIC_DEPTH = 3;

/** SQL text as tokens, and the content of each string literal by its token index. */
interface SqlTokens {
  readonly tokens: string[];
  readonly literals: Map<number, string>;
}

/**
 * The tokens of SQL text, keywords lower-cased, with each string literal and
 * quoted identifier reduced to the placeholder `_` (its content kept aside
 * for dynamic SQL) and punctuation kept as one-character tokens (so
 * statement starts and function calls can be told apart). A dollar-quoted
 * body is read as tokens between `$(` and `$)`: it can hold statements
 * that run.
 */
function sqlTokens(text: string, out: SqlTokens = { tokens: [], literals: new Map() }): SqlTokens {
  const { tokens, literals } = out;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    // MySQL runs the body of `/*! … */`; other comments are blanks, so they
    // cannot split `DROP/* x */TABLE` into harmless tokens.
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const close = end < 0 ? text.length : end;
      if (text[i + 2] === "!") sqlTokens(text.slice(i + 3, close).replace(/^[0-9]*/, ""), out);
      i = close + 2;
      continue;
    }
    if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (c === "'" || c === '"' || c === "`") {
      let content = "";
      i++;
      while (i < text.length) {
        if (c === "'" && text[i] === "\\") {
          content += text[i + 1] ?? "";
          i += 2;
        } else if (text[i] === c && text[i + 1] === c) {
          content += c;
          i += 2;
        } else if (text[i] === c) break;
        else content += text[i++];
      }
      i++;
      if (c === "'") literals.set(tokens.length, content);
      tokens.push("_");
      continue;
    }
    if (c === "$") {
      DOLLAR_TAG.lastIndex = i;
      const tag = DOLLAR_TAG.exec(text)?.[0];
      const end = tag === undefined ? -1 : text.indexOf(tag, i + tag.length);
      if (tag !== undefined && end >= 0) {
        tokens.push(BODY_OPEN);
        sqlTokens(text.slice(i + tag.length, end), out);
        tokens.push(BODY_CLOSE);
        i = end + tag.length;
        continue;
      }
    }
    if (/[A-Za-z_]/.test(c)) {
      SQL_WORD.lastIndex = i;
      const word = SQL_WORD.exec(text)![0];
      tokens.push(word.toLowerCase());
      i += word.length;
      continue;
    }
    if (!/\s/.test(c)) tokens.push(c);
    i++;
  }
  return out;
}

/** Tokens after which a statement starts: separators, a body's opening, block keywords. */
const STATEMENT_OPENERS = new Set([";", "(", BODY_OPEN, "begin", "then", "else", "loop"]);

/** Keywords that run SQL given as an expression. */
const DYNAMIC_SQL = new Set(["execute", "exec", "prepare", "sp_executesql", "gexec"]);

/** Functions that only assemble text from their arguments. */
const TEXT_FUNCTIONS = new Set(["format", "concat", "concat_ws", "quote_ident", "replace", "n"]);

/** Where the statement around token `at` starts and ends. */
function statementAround(tokens: readonly string[], at: number): [number, number] {
  let start = at;
  while (start > 0 && tokens[start - 1] !== ";" && tokens[start - 1] !== BODY_OPEN) start--;
  let end = at;
  while (end < tokens.length && tokens[end] !== ";" && tokens[end] !== BODY_CLOSE) end++;
  return [start, end];
}

/**
 * Whether the dynamic SQL run at token `at` is built from something other
 * than literals and text functions: a variable, a column, a call.
 * `EXECUTE name` outside a body runs a prepared statement or a procedure,
 * which is no text.
 */
function dynamicUnreadable(t: SqlTokens, at: number, end: number, inBody: boolean): boolean {
  const keyword = t.tokens[at];
  let i = at + 1;
  if (keyword === "prepare") {
    while (i < end && t.tokens[i] !== "from" && t.tokens[i] !== "as") i++;
    if (t.tokens[i] === "as") return false;
    i++;
  }
  if (t.tokens[i] === "immediate") i++;
  if (keyword === "gexec") return ![...t.literals.keys()].some((k) => k < at);
  const first = t.tokens[i];
  if (first === undefined || i >= end) return false;
  if (first === "@" || first === ":" || first === "$") return true;
  if (first === "_" || first === "(" || TEXT_FUNCTIONS.has(first)) {
    // Every word of the expression must be a text function or a keyword that ends it.
    for (let k = i; k < end; k++) {
      const tok = t.tokens[k];
      if (tok === "@" || tok === ":") return true;
      if (/^[a-z_]/.test(tok) && tok !== "_" && !TEXT_FUNCTIONS.has(tok)) {
        if (tok === "using" || tok === "into") break;
        return true;
      }
    }
    return false;
  }
  // A bare name: a variable in a procedural body, a prepared statement outside one.
  return inBody && keyword !== "prepare";
}

/** Whether `tokens` drop, delete or truncate, not counting dynamic SQL. */
function dropsOrDeletes(tokens: readonly string[]): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    const next = tokens[i + 1];
    const statementStart = i === 0 || STATEMENT_OPENERS.has(tokens[i - 1]);
    const named = next !== undefined && /^[a-z_]/.test(next);
    if (tok === "drop" && named) return true;
    if (tok === "delete" && (next === "from" || (statementStart && named))) return true;
    // `truncate(x, 1)` is a function; `TRUNCATE t` and `TRUNCATE TABLE t` empty a table.
    if (tok === "truncate" && (next === "table" || (statementStart && named))) return true;
  }
  return false;
}

/**
 * Whether the condition starting at `t[k]` is always true and stands alone
 * up to the next `OR` or the statement's end: `WHERE 1=1`, `WHERE true`,
 * `WHERE 1`, `WHERE id = id`, `… OR 1=1`. Such a `WHERE` bounds nothing.
 */
function alwaysTrue(t: readonly string[], k: number): boolean {
  const ends = (at: number): boolean =>
    at >= t.length || t[at] === ";" || t[at] === "or" || t[at] === BODY_CLOSE;
  if ((t[k] === "true" || /^[1-9][0-9]*$/.test(t[k] ?? "")) && ends(k + 1)) return true;
  const same = t[k] !== undefined && t[k] !== "_" && /^[a-z0-9_.]+$/.test(t[k]) &&
    t[k + 1] === "=" && t[k + 2] === t[k];
  return same && ends(k + 3);
}

/**
 * Whether `tokens` delete or update every row of a table: `DELETE FROM t`
 * or `UPDATE t SET …` with no `WHERE` before the statement ends.
 */
function unboundedWrite(t: readonly string[]): boolean {
  for (let i = 0; i < t.length; i++) {
    const statementStart = i === 0 || STATEMENT_OPENERS.has(t[i - 1]);
    if (!statementStart || (t[i] !== "update" && t[i] !== "delete")) continue;
    let where = false;
    const next = t[i + 1];
    // `DELETE FROM t` and `DELETE t`; a lone word (a user named `delete`) is no statement.
    let sets = t[i] === "delete" && next !== undefined && /^[a-z_]/.test(next);
    let j = i + 1;
    for (; j < t.length && t[j] !== ";" && t[j] !== BODY_CLOSE; j++) {
      if (t[j] === "where") where = !alwaysTrue(t, j + 1);
      if (t[j] === "or" && where && alwaysTrue(t, j + 1)) where = false;
      if (t[j] === "set") sets = true;
    }
    if (sets && !where) return true;
    i = j;
  }
  return false;
}

/**
 * The SQL texts the dynamic SQL of `t` runs: the string literals of each
 * statement that runs one, alone and joined. Null when one of them is
 * built from something that cannot be read.
 */
function dynamicTexts(t: SqlTokens): string[] | null {
  const texts: string[] = [];
  let bodies = 0;
  for (let i = 0; i < t.tokens.length; i++) {
    const tok = t.tokens[i];
    if (tok === BODY_OPEN) bodies++;
    if (tok === BODY_CLOSE) bodies--;
    if (!DYNAMIC_SQL.has(tok)) continue;
    const [start, end] = statementAround(t.tokens, i);
    if (dynamicUnreadable(t, i, end, bodies > 0)) return null;
    const parts: string[] = [];
    for (let k = start; k < end; k++) {
      const literal = t.literals.get(k);
      if (literal !== undefined && literal !== "") parts.push(literal);
    }
    texts.push(...parts);
    if (parts.length > 1) texts.push(parts.join(""));
  }
  return texts;
}

/**
 * Whether `test` holds for SQL `text` or for the dynamic SQL it runs,
 * `depth` levels down; `unreadable` is the answer for dynamic SQL that
 * cannot be read.
 */
function readSql(
  text: string,
  test: (tokens: readonly string[]) => boolean,
  unreadable: boolean,
  depth: number,
): boolean {
  const t = sqlTokens(text);
  if (test(t.tokens)) return true;
  if (depth >= MAX_DYNAMIC_DEPTH) return false;
  const texts = dynamicTexts(t);
  if (texts === null) return unreadable;
  return texts.some((x) => x !== "" && readSql(x, test, unreadable, depth + 1));
}

/**
 * Whether SQL text drops something, deletes rows or truncates a table,
 * directly or through dynamic SQL, or runs dynamic SQL that cannot be
 * read. String literals are otherwise data and do not count.
 */
export function sqlDestructive(text: string): boolean {
  return readSql(text, dropsOrDeletes, true, 0);
}

/**
 * Whether a SQL client run with `args` and fed `stdin` runs a destructive
 * statement, or is fed text that cannot be read first.
 */
export function sqlClientDestructive(args: readonly string[], stdin: readonly string[]): boolean {
  if (stdin.includes(UNREADABLE_STDIN)) return true;
  const options = args.filter((a) => !a.startsWith("--"));
  return [...sqlClientTexts(args, stdin), options.join(" ")].some(sqlDestructive);
}

/**
 * Whether SQL text deletes or updates every row of a table (`DELETE FROM
 * t`, `UPDATE t SET …` with no `WHERE`), directly or through dynamic SQL.
 */
export function sqlUnbounded(text: string): boolean {
  return readSql(text, unboundedWrite, false, 0);
}

/** Most letters of an option cluster after which an attached value may start (`-qXcDROP …`). */
const MAX_CLUSTER = 8;

/** The texts a SQL client may run: its arguments, values attached to options, and its stdin. */
export function sqlClientTexts(args: readonly string[], stdin: readonly string[]): string[] {
  // A value attached to a short option, alone or after a cluster of
  // switches (`-cDROP TABLE x`, `-qXcDROP TABLE x`), is read from every
  // letter it may start after.
  const attached = args.filter((a) => /^-[A-Za-z]./.test(a)).flatMap((a) => {
    const letters = /^-[A-Za-z]+/.exec(a)![0].length;
    const last = Math.min(letters, MAX_CLUSTER + 1);
    return Array.from({ length: last - 1 }, (_, k) => a.slice(k + 2));
  });
  // So is the value of a long option (`--command=DROP TABLE x`): read whole,
  // its leading `--` would start an SQL comment.
  const long = args.filter((a) => /^--[A-Za-z-]+=/.test(a)).map((a) => a.slice(a.indexOf("=") + 1));
  return [...args, ...attached, ...long, ...stdin.filter((s) => s !== UNREADABLE_STDIN)];
}
