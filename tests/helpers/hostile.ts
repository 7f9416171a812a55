/**
 * The slow inputs of the bounded-time work, built once so the tests (which
 * count work) and `deno task bench` (which times whole calls) judge exactly
 * the same bytes. Each builder returns text or plain data; writing files is
 * left to the caller.
 *
 * @module
 */

import { assistant, jsonl, prompt, result } from "../session_logs/builder.ts";

/** The prompt id of the hostile search turn. */
export const SEARCH_TURN_PROMPT = "p-hostile";

/** A project-relative file `depth` directories deep, named `widget.ts`. */
export function deepTarget(depth: number): string {
  return `${Array.from({ length: depth }, (_, i) => `d${i}`).join("/")}/widget.ts`;
}

/**
 * One `rg widget` command with `exclusions` crafted exclusions
 * (`!*{a,…,h}N[a-z]*`) and `paths` path patterns (`*\/**\/xN*`, relative
 * to the project the call runs in, so the command stays within the
 * lexer's 8,192 characters wherever the project lives): each mentions the
 * stem, so nothing is skipped before the globs run. The numbers N start at
 * `from`, so commands built from different starts share no pattern.
 */
export function hostileRg(exclusions: number, paths: number, from = 0): string {
  const ex = Array.from(
    { length: exclusions },
    (_, n) => `-g '!*{a,b,c,d,e,f,g,h}${from + n}[a-z]*'`,
  );
  const ps = Array.from({ length: paths }, (_, n) => `*/**/x${from + n}*`);
  return ["rg", "widget", ...ex, ...ps].join(" ");
}

/**
 * A transcript whose current turn holds `calls` completed Bash calls, each
 * `hostileRg(32, 200)`, in separate assistant messages: about 6 MB at 999
 * calls. The pending call's `tool_use_id` is not in it. With `distinct`,
 * every call numbers its patterns apart from the others, so no two calls
 * share a pattern (and nothing judged once can be reused).
 */
export function hostileSearchTurn(calls: number, distinct = false): string {
  const records = [prompt("tidy the widget", SEARCH_TURN_PROMPT)];
  for (let i = 0; i < calls; i++) {
    const command = hostileRg(32, 200, distinct ? i * 200 : 0);
    records.push(
      ...assistant(`m${i}`, [{ id: `t${i}`, name: "Bash", input: { command } }]),
      result(`t${i}`, SEARCH_TURN_PROMPT, { content: "" }),
    );
  }
  return jsonl(...records);
}

/**
 * A turn of `calls` completed Bash calls, each `rg widget` with 900 plain
 * operands named apart from every other call's, whose records say they ran
 * `depth` directories below `root` (`/ab` repeated): every operand is
 * relative to that deep directory.
 */
export function deepCwdSearchTurn(root: string, calls: number, depth = 1300): string {
  const cwd = root + "/ab".repeat(depth);
  const records = [prompt("tidy the widget", SEARCH_TURN_PROMPT)];
  for (let i = 0; i < calls; i++) {
    const command = "rg widget " + Array.from({ length: 900 }, (_, n) => `q${i}_${n}`).join(" ");
    records.push(
      ...assistant(`m${i}`, [{ id: `t${i}`, name: "Bash", input: { command } }], { cwd }),
      result(`t${i}`, SEARCH_TURN_PROMPT, { content: "" }),
    );
  }
  return jsonl(...records);
}

/** A PowerShell command of `repeats` `$null;` statements, then a recursive delete. */
export function powershellNulls(repeats: number): string {
  return "$null;".repeat(repeats) + "gci C:\\x -Recurse | Remove-Item";
}

/** The same PowerShell text run through `pwsh -Command` from Bash. */
export function pwshFromBash(repeats: number): string {
  return `pwsh -NoProfile -Command '${powershellNulls(repeats)}'`;
}

/** A Bash command of `bytes` characters of `echo a;a;a;…` ending in `rm -rf x`. */
export function longBashChain(bytes: number): string {
  const tail = "; rm -rf x";
  return "echo a" + ";a".repeat(Math.max(0, Math.floor((bytes - 6 - tail.length) / 2))) + tail;
}

/** MultiEdit `edits` of `count` entries of about 20 bytes each: 2.9 million fit in 64 MiB. */
export function manyEdits(count: number): { old_string: string }[] {
  const entry = { old_string: "ab" };
  return Array.from({ length: count }, () => entry);
}

/**
 * 64 crafted `exemptGlobs`: deep `*a*\/` runs and brace alternatives, each
 * within the project file's 256-character bound, that never match
 * `longPath`.
 */
export function hostileExemptGlobs(): string[] {
  const globs: string[] = [];
  for (let n = 0; n < 64; n++) {
    const run = n % 2 === 0
      ? "*a*/".repeat(60) + `q${n}`
      : "**/{a,b,c,d}*{e,f,g,h}*/".repeat(1) + "*a*/".repeat(50) + `q${n}`;
    globs.push(run.slice(0, 256));
  }
  return globs;
}

/** A project-relative path of about `length` characters: `aaa…/` segments, then a file. */
export function longPath(length: number): string {
  const segment = "a".repeat(30) + "/";
  const count = Math.max(1, Math.floor((length - 10) / segment.length));
  return segment.repeat(count) + "file.ts";
}

/**
 * A JSON text of about `bytes` bytes nested as deeply as it can be: arrays
 * within arrays, for the state file.
 */
export function deeplyNestedJson(bytes: number): string {
  const depth = Math.floor(bytes / 2);
  return "[".repeat(depth) + "]".repeat(depth);
}

/** The transcript of one assistant message that sent `command` twice, denial not yet seen. */
export function twiceInOneMessage(
  firstId: string,
  secondId: string,
  command: string,
  promptId: string,
): string {
  return jsonl(
    prompt("clean up", promptId),
    assistant("m-twice", [
      { id: firstId, name: "Bash", input: { command } },
      { id: secondId, name: "Bash", input: { command } },
    ]),
  );
}

/** The same command in two messages, the first one's denial read before the second was sent. */
export function retryAfterDenial(
  firstId: string,
  secondId: string,
  command: string,
  promptId: string,
): string {
  return jsonl(
    prompt("clean up", promptId),
    assistant("m-first", [{ id: firstId, name: "Bash", input: { command } }]),
    result(firstId, promptId, { error: true, content: "[Fact-Forcing Gate] denied" }),
    assistant("m-second", [{ id: secondId, name: "Bash", input: { command } }]),
  );
}
