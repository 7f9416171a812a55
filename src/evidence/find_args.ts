/**
 * Reads the arguments of `find` (and `bfs`): its leading options, its
 * start paths, and the name, path and regex tests of its expression, with
 * negation, groups, `-o` chains and `-prune` deciding which tests include
 * files and which exclude them.
 *
 * @module
 */

import { addGlob } from "./filters.ts";
import type { ArgsContext, ShellWord } from "./types.ts";
import { FIND_LEADING_OPTIONS, FIND_PRIMARIES } from "../shell/programs/mod.ts";
import { limitDepth } from "./depth.ts";
import { Collector } from "./arg_collector.ts";
import { NON_FILE_KINDS } from "./tool_flags.ts";

/** A find name test, before it is known whether it includes or excludes. */
interface NameTest {
  role: "name" | "iname" | "path" | "ipath" | "regex";
  value: string;
  negated: boolean;
  pruned: boolean;
}

/** Reads find's (or bfs's) paths and expression. */
export function readFind(words: ShellWord[], offset: number, ctx: ArgsContext): Collector {
  const c = new Collector(false, true, ctx.base);
  let i = 0;
  while (i < words.length) {
    const t = words[i].text;
    if (Object.hasOwn(FIND_LEADING_OPTIONS, t)) i += 1 + FIND_LEADING_OPTIONS[t];
    else if (/^-O[0-9]*$/.test(t)) i++;
    else break;
  }
  for (; i < words.length; i++) {
    const t = words[i].text;
    if (t.startsWith("-") || t === "!" || t === "(" || t === ")" || t === ",") break;
    c.operands.push({ word: words[i], index: offset + i, mayName: true, git: false });
    c.stem(t);
  }
  const tests: NameTest[] = [];
  // Per open group: where its tests start, where its current and-chain starts, and its negation.
  const chains: { start: number; chainStart: number; negated: boolean }[] = [
    { start: 0, chainStart: 0, negated: false },
  ];
  let closedGroup: { from: number } | null = null;
  let negateNext = false;
  // `-type` values every listed entry must have; meaningful only without `-o`.
  const entryTypes: string[] = [];
  let alternatives = false;
  for (; i < words.length; i++) {
    const t = words[i].text;
    const group = chains[chains.length - 1];
    if (t === "(") {
      chains.push({
        start: tests.length,
        chainStart: tests.length,
        negated: group.negated !== negateNext,
      });
      negateNext = false;
      closedGroup = null;
      continue;
    }
    if (t === ")") {
      if (chains.length > 1) {
        const closed = chains.pop()!;
        closedGroup = { from: closed.start };
      }
      continue;
    }
    const primary = Object.hasOwn(FIND_PRIMARIES, t)
      ? FIND_PRIMARIES[t]
      : { role: "value" as const, values: 0 };
    switch (primary.role) {
      case "not":
        negateNext = !negateNext;
        continue;
      case "or":
        alternatives = true;
        group.chainStart = tests.length;
        closedGroup = null;
        continue;
      case "prune": {
        const from = closedGroup ? closedGroup.from : group.chainStart;
        for (let k = from; k < tests.length; k++) tests[k].pruned = true;
        closedGroup = null;
        continue;
      }
      case "exec":
        while (i + 1 < words.length && words[i + 1].text !== ";" && words[i + 1].text !== "+") {
          c.stem(words[++i].text);
        }
        i++;
        closedGroup = null;
        continue;
      case "unreadable":
        c.filters.unreadable = true;
        i += primary.values;
        continue;
      case "max-depth":
      case "min-depth":
        c.stem(t);
        limitDepth(c.depth, primary.role, words[i + 1]?.text ?? "");
        i += primary.values;
        continue;
      case "operand":
        if (i + 1 < words.length) {
          c.operands.push({ word: words[i + 1], index: offset + i + 1, mayName: true, git: false });
          c.stem(words[i + 1].text);
        }
        i += primary.values;
        continue;
      case "entry-type":
        if (group.negated === negateNext) entryTypes.push(words[i + 1]?.text ?? "");
        c.stem(t);
        c.stem(words[i + 1]?.text ?? "");
        i += primary.values;
        negateNext = false;
        closedGroup = null;
        continue;
      case "value":
        c.stem(t);
        for (let k = 1; k <= primary.values && i + k < words.length; k++) c.stem(words[i + k].text);
        i += primary.values;
        negateNext = false;
        closedGroup = null;
        continue;
      default: {
        const value = words[i + 1]?.text ?? "";
        tests.push({
          role: primary.role,
          value,
          negated: group.negated !== negateNext,
          pruned: false,
        });
        i += primary.values;
        negateNext = false;
        closedGroup = null;
      }
    }
  }
  const dirsOnly = (value: string): boolean =>
    value.split(",").every((kind) => NON_FILE_KINDS.has(kind));
  if (!alternatives && entryTypes.some(dirsOnly)) c.silent = true;
  for (const test of tests) {
    const fold = test.role === "iname" || test.role === "ipath";
    if (test.negated || test.pruned) {
      if (test.role === "regex") c.filters.unreadable = true;
      else c.exclude(test.value, fold);
    } else if (test.role === "regex") {
      addGlob(c.filters, test.value, false, false, false, true);
      c.stem(test.value);
    } else {
      c.include(test.value, fold);
    }
  }
  return c;
}
