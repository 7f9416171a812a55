/**
 * Reading SQL text as a destructive detector needs it: tokens with string
 * literals and quoted identifiers reduced to placeholders (their content is
 * data), comments dropped except MySQL's executable ones, and the forms
 * that destroy data: `DROP`, `DELETE`, `TRUNCATE`, and `DELETE`/`UPDATE`
 * without a `WHERE`. Also the arguments of a SQL client where statements
 * may hide (attached option values, `--command=`).
 *
 * @module
 */

const SQL_WORD = /[A-Za-z_][A-Za-z0-9_$]*/y;

/**
 * The tokens of SQL text, keywords lower-cased, with each string literal and
 * quoted identifier reduced to the placeholder `_` (its content is data) and
 * punctuation kept as one-character tokens (so statement starts and
 * function calls can be told apart). Dollar-quoted bodies are kept: they
 * can hold statements that run.
 */
function sqlTokens(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    // MySQL runs the body of `/*! … */`; other comments are blanks, so they
    // cannot split `DROP/* x */TABLE` into harmless tokens.
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const close = end < 0 ? text.length : end;
      if (text[i + 2] === "!") {
        tokens.push(...sqlTokens(text.slice(i + 3, close).replace(/^[0-9]*/, "")));
      }
      i = close + 2;
      continue;
    }
    if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (c === "'" || c === '"' || c === "`") {
      i++;
      while (i < text.length) {
        if (c === "'" && text[i] === "\\") i += 2;
        else if (text[i] === c && text[i + 1] === c) i += 2;
        else if (text[i] === c) break;
        else i++;
      }
      i++;
      tokens.push("_");
      continue;
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
  return tokens;
}

/**
 * Whether SQL text drops something, deletes rows or truncates a table.
 * String literals are data and do not count.
 */
export function sqlDestructive(text: string): boolean {
  const t = sqlTokens(text);
  for (let i = 0; i < t.length; i++) {
    const next = t[i + 1];
    const statementStart = i === 0 || t[i - 1] === ";" || t[i - 1] === "(";
    const named = next !== undefined && /^[a-z_]/.test(next);
    if (t[i] === "drop" && named) return true;
    if (t[i] === "delete" && (next === "from" || (statementStart && named))) return true;
    // `truncate(x, 1)` is a function; `TRUNCATE t` and `TRUNCATE TABLE t` empty a table.
    if (t[i] === "truncate" && (next === "table" || (statementStart && named))) return true;
  }
  return false;
}

/** Whether a SQL client run with `args` and fed `stdin` runs a destructive statement. */
export function sqlClientDestructive(args: readonly string[], stdin: readonly string[]): boolean {
  const options = args.filter((a) => !a.startsWith("--"));
  return [...sqlClientTexts(args, stdin), options.join(" ")].some(sqlDestructive);
}

/**
 * Whether SQL text deletes or updates every row of a table: `DELETE FROM t`
 * or `UPDATE t SET …` with no `WHERE` before the statement ends.
 */
export function sqlUnbounded(text: string): boolean {
  const t = sqlTokens(text);
  for (let i = 0; i < t.length; i++) {
    const statementStart = i === 0 || t[i - 1] === ";" || t[i - 1] === "(";
    if (!statementStart || (t[i] !== "update" && t[i] !== "delete")) continue;
    let where = false;
    const next = t[i + 1];
    // `DELETE FROM t` and `DELETE t`; a lone word (a user named `delete`) is no statement.
    let sets = t[i] === "delete" && next !== undefined && /^[a-z_]/.test(next);
    let j = i + 1;
    for (; j < t.length && t[j] !== ";"; j++) {
      if (t[j] === "where") where = true;
      if (t[j] === "set") sets = true;
    }
    if (sets && !where) return true;
    i = j;
  }
  return false;
}

/** The texts a SQL client may run: its arguments, values attached to options, and its stdin. */
export function sqlClientTexts(args: readonly string[], stdin: readonly string[]): string[] {
  // A value attached to a short option (`-cDROP TABLE x`) is read without the option.
  const attached = args.filter((a) => /^-[A-Za-z]./.test(a)).map((a) => a.slice(2));
  // So is the value of a long option (`--command=DROP TABLE x`): read whole,
  // its leading `--` would start an SQL comment.
  const long = args.filter((a) => /^--[A-Za-z-]+=/.test(a)).map((a) => a.slice(a.indexOf("=") + 1));
  return [...args, ...attached, ...long, ...stdin];
}
