/**
 * Text a command runs that cannot be read from the line: a script decoded
 * on its way into a shell or interpreter (`base64 -d`, `rev`, `tr`, …) or
 * fetched from the network (`curl … | sh`, `bash <(wget -qO- …)`). The
 * engine marks such text among a program's stdin and reports it under the
 * interpreters pack's `decoded-script` and `fetched-script` rules.
 *
 * @module
 */

import { DECODERS, FETCHERS, programName } from "../programs/mod.ts";
import { argv, parseBash } from "../bash/mod.ts";
import type { Verdict, Walk } from "./detect_types.ts";
import { FETCHED_STDIN, UNREADABLE_STDIN } from "../stdin_markers.ts";
import { loadedPack, MissingPart } from "./parts.ts";

/** Programs that run code read from their stdin when given no script. */
const STDIN_INTERPRETERS =
  /^(python[0-9.]*|pypy[0-9.]*|node|nodejs|perl|ruby|php|bun|lua|rscript)$/;

/** Whether an interpreter command reads its program from stdin: no code option, no script file. */
export function readsStdinCode(words: readonly string[]): boolean {
  if (words.length === 0 || !STDIN_INTERPRETERS.test(programName(words[0]))) return false;
  const operands = words.slice(1).filter((w) => !w.startsWith("-") || w === "-");
  const codeGiven = words.slice(1).some((w) =>
    /^-[A-Za-z]*[ceErp]/.test(w) || w.startsWith("--eval")
  );
  return !codeGiven && (operands.length === 0 || operands[0] === "-");
}

/** Why text can be unreadable: the rule that names it, and the tables of programs that make it so. */
const UNREADABLE_SOURCES = [
  { rule: "decoded-script", programs: DECODERS },
  { rule: "fetched-script", programs: FETCHERS },
] as const;

/** The rule naming text that cannot be read from the line: decoded on the way in, or fetched. */
export type UnreadableRule = typeof UNREADABLE_SOURCES[number]["rule"];

/**
 * Why the output of the argument vector `words` cannot be read from the
 * line: it runs a decoder (with its decoding option where one is needed)
 * or a fetcher. Null for any other command.
 */
export function unreadableOutput(words: readonly string[]): UnreadableRule | null {
  const name = programName(words[0] ?? "");
  for (const { rule, programs } of UNREADABLE_SOURCES) {
    if (!Object.hasOwn(programs, name)) continue;
    const option = programs[name];
    if (option === null || words.slice(1).some((w) => option.test(w))) return rule;
  }
  return null;
}

/** The markers that stand in a pipe's texts for output of `rule` that cannot be read. */
export function unreadableMarkers(rule: UnreadableRule | null): string[] {
  if (rule === null) return [];
  return rule === "fetched-script" ? [UNREADABLE_STDIN, FETCHED_STDIN] : [UNREADABLE_STDIN];
}

/** Why texts fed to a program's stdin cannot all be read, from their markers; null when they can. */
export function stdinUnreadable(stdin: readonly string[]): UnreadableRule | null {
  if (!stdin.includes(UNREADABLE_STDIN)) return null;
  return stdin.includes(FETCHED_STDIN) ? "fetched-script" : "decoded-script";
}

/** The pack whose rules name unreadable scripts. */
const INTERPRETERS = "interpreters";

/**
 * The hit of an unreadable script, while the interpreters pack is active;
 * its rules (and the words on what the script destroys) load on demand.
 */
export function unreadableHit(walk: Walk, rule: UnreadableRule): Verdict {
  if (!walk.rules.packs.has(INTERPRETERS)) return null;
  const pack = loadedPack(INTERPRETERS);
  if (pack === undefined) throw new MissingPart(`pack:${INTERPRETERS}`);
  const destroys = pack.rules.find((r) => r.id === rule)!.destroys;
  return { pack: INTERPRETERS, rule, destroys };
}

/** Whether `text` holds a substitution (`$(…)`, backquotes, `<(…)`). */
export function substitutes(text: string): boolean {
  return text.includes("$(") || text.includes("<(") || text.includes("`");
}

/**
 * Why a word's substitutions cannot be read (`$(echo … | base64 -d)`,
 * `<(curl -s …)`): the rule of the first decoder or fetcher they run, or
 * null when they run neither.
 */
export function unreadableWord(word: string): UnreadableRule | null {
  if (!substitutes(word)) return null;
  // A word alone on a line parses as a command whose substitutions are listed before it.
  for (const s of parseBash(word).segments) {
    const rule = s.inSubstitution ? unreadableOutput(argv(s)) : null;
    if (rule !== null) return rule;
  }
  return null;
}
