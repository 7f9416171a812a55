/**
 * The Bash side of the destructive detector: variables assigned on the
 * same line (`x=rm; $x -rf /`, arrays, `set --`, `read`, a custom `IFS`)
 * are substituted, text piped or redirected into a command is handed to it
 * as stdin, scripts a shell reads from a process substitution are scanned,
 * and a script decoded on the way into a shell or interpreter (`base64 -d`,
 * `rev`, `tr`) is taken as able to do anything. Every simple command is
 * handed to the engine through the shared wrapper reading.
 *
 * @module
 */

import { argv, parseBash } from "./parser.ts";
import type { Segment } from "./words.ts";
import { programName, scanArgs } from "./options.ts";
import { unwrapCommand } from "./wrappers.ts";
import type { Engine, Verdict, Walk } from "./detect_types.ts";
import { decodedIntoInterpreter, readsStdinCode } from "./packs/interpreters.ts";

/** Most values remembered per shell variable assigned in a command line. */
const MAX_VALUES_PER_VARIABLE = 8;

/** Programs that run a script file named by an operand, which may be a `<( … )`. */
export const SCRIPT_READERS: ReadonlySet<string> = new Set([
  "source",
  ".",
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
]);

/** A word made of two to eight variable references (`$a$b`). */
const JOINED_VARIABLES = /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?){2,8}$/;
const VARIABLE_REF = /\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g;

/**
 * A word that is one variable, array element, whole array or the
 * positional parameters: `$x`, `${x}`, `${a[0]}`, `${a[@]}`, `$@`, `${*}`.
 */
const LONE_VARIABLE =
  /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[@*])(?:\[[^\]]*\])?\}|([A-Za-z_][A-Za-z0-9_]*|[@*]))$/;

/** Splits a variable's value into the words it expands to: at blanks and at `IFS` characters. */
function fields(value: string, ifs: string): string[] {
  let text = value;
  for (const c of ifs) text = text.split(c).join(" ");
  return text.split(/\s+/).filter((v) => v !== "");
}

/** `$IFS` in any spelling: it expands to blanks, so it splits the word around it. */
const IFS_EXPANSION = /\$\{IFS[^}]*\}|\$IFS(?![A-Za-z0-9_])/g;

/**
 * Replaces words that are a lone variable assigned earlier in the same
 * command line by every value it was given (`x=rm; $x -rf /`), and splits
 * words at `$IFS` (`rm$IFS-rf$IFS/`).
 */
function resolveVariables(words: readonly string[], vars: ReadonlyMap<string, string[]>): string[] {
  // A custom `IFS` splits values at its characters too (`IFS=,; x=rm,-rf,y; $x`).
  const ifs = (vars.get("IFS") ?? []).join("");
  return words.flatMap((w) => {
    const m = LONE_VARIABLE.exec(w);
    const values = m ? vars.get(m[1] ?? m[2]) : undefined;
    if (values) return fields(values.join(" "), ifs);
    // A word made only of known variables (`$a$b`) is their values joined.
    if (JOINED_VARIABLES.test(w)) {
      const parts = [...w.matchAll(VARIABLE_REF)].map((r) => vars.get(r[1])?.at(-1));
      if (parts.every((v) => v !== undefined)) {
        return parts.join("").split(/\s+/).filter((v) => v !== "");
      }
    }
    if (!w.includes("IFS")) return [w];
    return w.replace(IFS_EXPANSION, " ").split(" ").filter((v) => v !== "");
  });
}

/** Builtins whose `NAME=value` arguments assign variables (`env`, `sudo`: for the command they run). */
const DECLARING_BUILTINS = new Set([
  "export",
  "declare",
  "typeset",
  "local",
  "readonly",
  "env",
  "sudo",
]);

/** `read` options that take a value (`-a` names the array it fills). */
const READ_VALUE_OPTIONS = "adinNptu";

/**
 * Variables given a value anywhere in the parse: `x=…` prefixes (arrays
 * too), `export`/`declare` arguments, `set --` (the positional parameters,
 * as `@` and `*`) and `read` from a here-string, here-document or pipe.
 */
function assignedVariables(segments: readonly Segment[], walk: Walk): Map<string, string[]> {
  const vars = new Map<string, string[]>();
  const give = (name: string, value: string): void => {
    const list = vars.get(name) ?? [];
    // The first few values are enough to spot a destructive one; more would only cost time.
    if (list.length < MAX_VALUES_PER_VARIABLE) list.push(value);
    vars.set(name, list);
  };
  const add = (text: string): void => {
    const eq = text.indexOf("=");
    const name = text.slice(0, eq).replace(/\+$/, "").replace(/\[[^\]]*\]$/, "");
    if (eq <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
    const value = text.slice(eq + 1);
    const array = value.startsWith("(") && value.endsWith(")");
    give(name, array ? value.slice(1, -1) : value);
  };
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    for (const a of seg.assignments) add(a.text);
    const [first, ...rest] = argv(seg);
    if (first === undefined) continue;
    if (DECLARING_BUILTINS.has(first)) rest.forEach(add);
    else if (first === "set") {
      const scan = scanArgs(rest, { permute: false });
      const params = scan.dashDash ? scan.operands : rest.slice(scan.stop);
      if (params.length > 0) ["@", "*"].forEach((n) => give(n, params.join(" ")));
    } else if (first === "read") {
      const scan = scanArgs(rest, { shortValue: READ_VALUE_OPTIONS });
      const names = [
        ...scan.operands,
        ...scan.shorts.filter((o) => o.letter === "a" && o.value !== null).map((o) => o.value!),
      ];
      const input = (bashStdin(segments, i, walk) ?? []).join(" ");
      for (const name of names) give(name, input);
    }
  }
  return vars;
}

/**
 * Texts that reach the stdin of `segments[index]`: its here-documents and
 * here-strings and, when it is piped, the words and stdin texts of the
 * commands before it in the pipeline (a group or subshell piped into it
 * included). Null once the call's character budget is spent: the command
 * is then read with the fail-closed token scan.
 */
function bashStdin(segments: readonly Segment[], index: number, walk: Walk): string[] | null {
  const seg = segments[index];
  const out = [...seg.stdinTexts];
  if (seg.sepBefore !== "|" && seg.sepBefore !== "|&") return out;
  for (let j = index - 1; j >= 0; j--) {
    const prev = segments[j];
    if (prev.depth < seg.depth) break;
    // The arguments are what a producer such as `echo` or `printf` writes.
    if (prev.words.length > 1) out.push(argv(prev).slice(1).join(" "));
    out.push(...prev.stdinTexts);
    // Every element of a long pipeline looks back over all the others.
    if ((walk.budget.chars -= prev.raw.length + 1) < 0) return null;
    if (prev.depth === seg.depth && prev.sepBefore !== "|" && prev.sepBefore !== "|&") break;
  }
  return out;
}

/**
 * A script reader (`source`, `.`, a shell) given a `<( … )` operand runs
 * what the substituted command prints; that text is only known as the
 * command's source, so it is read with the fail-closed token scan.
 */
function readsProcessSubstitution(words: readonly string[]): boolean {
  return words.some((w) => SCRIPT_READERS.has(programName(w))) &&
    words.some((w) => w.startsWith("<("));
}

/**
 * What the `<( … )` operands of a command print, as far as it can be told:
 * the arguments and stdin texts of the substituted commands. A program
 * reading such a file (`psql -f <(echo "drop table x")`) consumes that text.
 */
function processSubstitutionOutput(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    if (!w.startsWith("<(") || !w.endsWith(")")) continue;
    for (const seg of parseBash(w.slice(2, -1)).segments) {
      const produced = argv(seg).slice(1);
      if (produced.length > 0) out.push(produced.join(" "));
      out.push(...seg.stdinTexts);
    }
  }
  return out;
}

/** Whether a Bash command line is destructive. */
export function bashVerdict(
  command: string,
  walk: Walk,
  stdin: readonly string[],
  engine: Engine,
): Verdict {
  const parsed = parseBash(command);
  const vars = assignedVariables(parsed.segments, walk);
  // A pipeline too long to follow into `read` leaves variables unknown.
  if (walk.budget.chars < 0) return engine.raw(command, walk);
  // What the line assigns may reach the programs it runs (`GIT_PAGER=… git log`).
  if (vars.size > 0) walk = { ...walk, env: new Map([...walk.env ?? [], ...vars]) };
  for (let i = 0; i < parsed.segments.length; i++) {
    const seg = parsed.segments[i];
    const words = resolveVariables(argv(seg), vars);
    if (words.length === 0) continue;
    const piped = bashStdin(parsed.segments, i, walk);
    if (piped === null) return engine.raw(command, walk);
    const segStdin = [
      ...piped,
      ...processSubstitutionOutput(words),
      ...stdin,
    ];
    const u = unwrapCommand(words, walk.depth);
    const hit = engine.unwrapped(u, segStdin, walk, seg.raw) ??
      (u.stdinShell !== null || readsStdinCode(words)
        ? decodedIntoInterpreter(parsed.segments, i, walk)
        : null);
    if (hit) return hit;
    if (readsProcessSubstitution(words)) {
      for (const w of words) {
        const inner = w.startsWith("<(") ? engine.raw(w, walk) : null;
        if (inner) return inner;
      }
    }
  }
  return parsed.ok ? null : engine.raw(command, walk);
}
