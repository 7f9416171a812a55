import { assert, assertEquals } from "../helpers/assert.ts";
import {
  type CompiledGlob,
  compileGlob,
  GLOB_MAX_ALTERNATIVES,
  GLOB_MAX_PATTERN,
  GLOB_MAX_TEXT,
  GLOB_PARSE_UNITS,
  globMatch,
  type GlobOptions,
  type GlobResult,
  matchGlob,
  matchGlobOrAncestor,
} from "../../src/glob/glob.ts";
import { CALL_WORK_UNITS, WorkBudget } from "../../src/platform/budget.ts";
import { joinPieces, mulberry32, pick } from "../helpers/prng.ts";
import { hostileExemptGlobs, longPath } from "../helpers/hostile.ts";
import { referenceMatch } from "./reference_dp.ts";

function expect(pattern: string, cases: Record<string, GlobResult>, opts: GlobOptions = {}): void {
  for (const [text, result] of Object.entries(cases)) {
    assertEquals(globMatch(pattern, text, opts), result, `${pattern} vs ${text}`);
  }
}

Deno.test("[glob-matching-without-regexp] literals match the whole text only", () => {
  expect("src/a.ts", { "src/a.ts": "match", "src/a.tsx": "no-match", "x/src/a.ts": "no-match" });
  expect("", { "": "match", "a": "no-match" });
  expect("a.b+c(d)$^|", { "a.b+c(d)$^|": "match", "aXb+c(d)$^|": "no-match" });
});

Deno.test("[glob-matching-without-regexp] * stays within one segment", () => {
  expect("*.md", { "a.md": "match", ".md": "match", "docs/a.md": "no-match", "a.mdx": "no-match" });
  expect("src/*/x", { "src/a/x": "match", "src//x": "match", "src/a/b/x": "no-match" });
  expect("a*b*c", { "abc": "match", "aXbYc": "match", "aXc": "no-match" });
});

Deno.test("[glob-matching-without-regexp] ** crosses segments and **/ matches zero or more directories", () => {
  expect("**/x", { "x": "match", "a/x": "match", "ax": "no-match", "a/bx": "no-match" });
  expect("**", { "": "match", "a": "match", "a/b/c": "match" });
  expect("**/tests/**", {
    "tests/foo.js": "match",
    "a/b/tests/c/d.js": "match",
    "tests": "no-match",
    "atests/x": "no-match",
  });
  expect("src/**", {
    "src/a": "match",
    "src/a/b": "match",
    "src": "no-match",
    "lib/src/a": "no-match",
  });
  expect("a/**/b", { "a/b": "match", "a/x/b": "match", "a/x/y/b": "match", "a/xb": "no-match" });
  expect("**/*.md", { "a.md": "match", "x/y/a.md": "match", "x/y/a.mdx": "no-match" });
});

Deno.test("[glob-matching-without-regexp] ** inside a segment is a plain *", () => {
  expect("a**b", { "axxb": "match", "ax/xb": "no-match" });
  expect("**a", { "xa": "match", "x/a": "no-match" });
});

Deno.test("[glob-matching-without-regexp] ? matches one character, never /", () => {
  expect("a?c", { "abc": "match", "ac": "no-match", "abbc": "no-match", "a/c": "no-match" });
  expect("?", { "é": "match", "😀": "match", "ab": "no-match" });
});

Deno.test("[glob-matching-without-regexp] bracket classes: members, ranges, negation, leading ]", () => {
  expect("[abc].ts", { "a.ts": "match", "c.ts": "match", "d.ts": "no-match" });
  expect("x[0-9]", { "x5": "match", "xa": "no-match" });
  expect("[!a]x", { "bx": "match", "ax": "no-match" });
  expect("[^a]x", { "bx": "match", "ax": "no-match" });
  expect("[]a]", { "]": "match", "a": "match", "b": "no-match" });
  expect("[!]a]", { "]": "no-match", "b": "match" });
  expect("[a-]", { "-": "match", "a": "match", "b": "no-match" });
  expect("[*?{]", { "*": "match", "{": "match", "a": "no-match" });
  expect("a[/]b", { "a/b": "no-match" });
  expect("a[!x]b", { "a/b": "no-match" });
});

Deno.test("[glob-matching-without-regexp] an unclosed class or a reversed range is malformed", () => {
  for (const p of ["[abc", "a[", "[!", "[]", "[!]", "{a,[b}", "[z-a]", "{a,b}[9-0]"]) {
    assertEquals(compileGlob(p), null, p);
    assertEquals(globMatch(p, "a"), "invalid", p);
  }
});

Deno.test("[glob-matching-without-regexp] braces expand alternatives, nested too", () => {
  expect("*.{ts,js}", { "a.ts": "match", "a.js": "match", "a.py": "no-match" });
  expect("{src,lib}/**/x", { "src/x": "match", "lib/a/x": "match", "app/x": "no-match" });
  expect("{a,{b,c}}x", { "ax": "match", "cx": "match", "dx": "no-match" });
  expect("{a}", { "a": "match" });
  expect("x{,y}", { "x": "match", "xy": "match" });
  expect("{a,**}/b", { "a/b": "match", "q/r/b": "match" });
});

Deno.test("[glob-matching-without-regexp] an unbalanced { or } is literal, and a class protects braces", () => {
  expect("{a,b", { "{a,b": "match", "a": "no-match" });
  expect("a}", { "a}": "match" });
  expect("{a,{b,c}", { "{a,b": "match", "{a,c": "match" });
  expect("[{]a,b}", { "{a,b}": "match" });
});

Deno.test("[glob-matching-without-regexp] braces can be read literally", () => {
  expect("{a,b}", { "{a,b}": "match", "a": "no-match" }, { braces: false });
});

Deno.test("[glob-matching-without-regexp] case folding", () => {
  expect("SRC/*.MD", { "src/a.md": "match", "Src/A.Md": "match" }, { foldCase: true });
  expect("SRC/*.MD", { "src/a.md": "no-match" });
  expect("[A-C]x", { "bx": "match", "BX": "match", "dx": "no-match" }, { foldCase: true });
  expect("[!A-C]x", { "bx": "no-match", "dx": "match" }, { foldCase: true });
});

Deno.test("[glob-matching-without-regexp] git pathspec style: wildcards also match /", () => {
  const opts = { slashWildcards: true };
  expect("*.py", { "a.py": "match", "src/deep/a.py": "match" }, opts);
  expect("a?b", { "a/b": "match" }, opts);
  expect("a[/]b", { "a/b": "match" }, opts);
  // No directory meaning for **: a leading **/ needs at least one /.
  expect("**/a.py", { "a.py": "no-match", "x/a.py": "match" }, opts);
});

Deno.test("[glob-matching-without-regexp] patterns over 256 characters are past bounds", () => {
  assertEquals(GLOB_MAX_PATTERN, 256);
  const at = "a".repeat(256);
  assertEquals(globMatch(at, at), "match");
  assertEquals(compileGlob("a".repeat(257)), null);
  assertEquals(globMatch("a".repeat(257), "a".repeat(257)), "invalid");
});

Deno.test("[glob-matching-without-regexp] at most 32 brace alternatives", () => {
  assertEquals(GLOB_MAX_ALTERNATIVES, 32);
  const five = "{a,b}{c,d}{e,f}{g,h}{i,j}";
  assertEquals(compileGlob(five)?.alternatives.length, 32);
  assertEquals(globMatch(five, "bdfhj"), "match");
  assertEquals(compileGlob(five + "{k,l}"), null);
  assertEquals(globMatch(five + "{k,l}", "acegik"), "invalid");
  const list = (n: number): string => `{${Array.from({ length: n }, (_, i) => `x${i}`).join(",")}}`;
  assertEquals(compileGlob(list(32))?.alternatives.length, 32);
  assertEquals(compileGlob(list(33)), null);
  assertEquals(compileGlob("{a,{b,{c,{d,e}}}}")?.alternatives.length, 5);
});

Deno.test("[glob-matching-without-regexp] texts past the bound are invalid, not misses", () => {
  const glob = compileGlob("**")!;
  assertEquals(matchGlob(glob, "a".repeat(GLOB_MAX_TEXT)), "match");
  assertEquals(matchGlob(glob, "a".repeat(GLOB_MAX_TEXT + 1)), "invalid");
});

Deno.test("[glob-matching-without-regexp] a compiled glob matches many texts", () => {
  const glob = compileGlob("src/**/*.{ts,tsx}")!;
  assertEquals(["src/a.ts", "src/x/b.tsx", "lib/a.ts", "src/a.js"].map((t) => matchGlob(glob, t)), [
    "match",
    "match",
    "no-match",
    "no-match",
  ]);
});

/**
 * The most units a match may cost: a step per word of positions per
 * character, the reading, 16 for the call itself, and for each distinct
 * character a word and a position (building its step).
 */
function costBound(glob: CompiledGlob, text: string): number {
  const positions = glob.alternatives.reduce((n, alt) => n + alt.length + 1, 0);
  const words = Math.ceil(positions / 32);
  return 16 + text.length + (text.length + 1) * (words + 1) +
    new Set(text).size * (words + positions);
}

Deno.test("[glob-matching-without-regexp] hostile patterns get a defined result at a cost linear in the text", () => {
  const text = "a".repeat(GLOB_MAX_TEXT);
  const run = (pattern: string, input: string, result: GlobResult): number => {
    const glob = compileGlob(pattern)!;
    const budget = new WorkBudget();
    assertEquals(matchGlob(glob, input, budget), result, pattern);
    assert(budget.spent <= costBound(glob, input), `${pattern}: ${budget.spent}`);
    return budget.spent;
  };
  run("*a*a*a*a*a*a*a*b", text, "no-match");
  run("*a*a*a*a*a*a*a*a", text, "match");
  // The worst case inside the bounds: 32 alternatives of a long star chain,
  // 7,552 positions in 236 words; about 2 million units, never more (the
  // two distinct characters add a word and a position each for their steps).
  const worst = "{a,b}{c,d}{e,f}{g,h}{i,j}" + "*a".repeat(115);
  assert(worst.length <= GLOB_MAX_PATTERN);
  assert(
    run(worst, "a" + text.slice(1, -1) + "b", "no-match") <=
      8193 * 237 + 8192 + 16 + 2 * (236 + 7552),
  );
  run("**/**/**/**/**/**/**/**/x", "a/".repeat(4000) + "y", "no-match");
  // A text no alternative can start on stops at once, after building the
  // step of its first character (one word and the four literals of `a`).
  assertEquals(run("x*a*a*a*a", text, "no-match"), GLOB_MAX_TEXT + 3 + 16 + 5);
});

Deno.test("[glob-matching-without-regexp] a match the budget cannot pay for is invalid and marks the budget spent", () => {
  const glob = compileGlob("**/*a*b*c")!;
  const text = "x/".repeat(100) + "abc";
  const full = new WorkBudget();
  assertEquals(matchGlob(glob, text, full), "match");
  const short = new WorkBudget(full.spent - 1);
  assertEquals(matchGlob(glob, text, short), "invalid");
  assertEquals(short.exhausted()?.what, "glob");
  assertEquals(matchGlob(glob, "abc", short), "invalid");
});

Deno.test("[glob-matching-without-regexp] a pattern is parsed once per process and paid for once per call", () => {
  const pattern = "src/{a,b}/**/*.ts";
  const first = new WorkBudget();
  const glob = compileGlob(pattern, { foldCase: true }, first);
  // The fixed part, the characters and the tokens of both alternatives.
  assertEquals(first.spent, GLOB_PARSE_UNITS + pattern.length + 2 * 13);
  // The same call asking again pays nothing more...
  assertEquals(compileGlob(pattern, { foldCase: true }, first), glob);
  assertEquals(first.spent, GLOB_PARSE_UNITS + pattern.length + 2 * 13);
  // ...another call pays the same, though nothing is parsed again.
  const again = new WorkBudget();
  assertEquals(compileGlob(pattern, { foldCase: true }, again), glob);
  assertEquals(again.spent, first.spent);
  assertEquals(compileGlob("q{a,b}" + pattern, {}, new WorkBudget(1)), null);
  const short = new WorkBudget(first.spent - 1);
  assertEquals(compileGlob(pattern, { foldCase: true }, short), null);
  assert(short.exhausted() !== null);
});

Deno.test("[glob-matching-without-regexp] the bit-set automaton agrees with the plain dynamic program", () => {
  const rand = mulberry32(1207);
  const patternPieces = [
    "a",
    "b",
    "/",
    "*",
    "**",
    "**/",
    "?",
    "[ab]",
    "[!a]",
    "{a,b/}",
    "{,x}",
    ".",
  ];
  const textPieces = ["a", "b", "/", "x", ".", "ab/", "A"];
  const styles: GlobOptions[] = [{}, { foldCase: true }, { slashWildcards: true }];
  for (let i = 0; i < 3000; i++) {
    const pattern = joinPieces(rand, patternPieces, 1 + Math.floor(rand() * 16));
    const text = joinPieces(rand, textPieces, Math.floor(rand() * 10));
    const options = pick(rand, styles);
    const glob = compileGlob(pattern, options);
    if (!glob) continue;
    const want = referenceMatch(glob, text) ? "match" : "no-match";
    assertEquals(matchGlob(glob, text), want, `${JSON.stringify(options)} ${pattern} vs ${text}`);
  }
});

Deno.test("[glob-matching-without-regexp] matching a path or a directory above it is matching the glob or the glob with /** after it", () => {
  const rand = mulberry32(2411);
  const patternPieces = ["a", "b", "/", "*", "**", "**/", "?", "[ab]", "{a,b/}", "{,x}"];
  const textPieces = ["a", "b", "/", "x", "ab/", "A"];
  const styles: GlobOptions[] = [{}, { foldCase: true }, { slashWildcards: true }];
  for (let i = 0; i < 3000; i++) {
    const pattern = joinPieces(rand, patternPieces, 1 + Math.floor(rand() * 12));
    const text = joinPieces(rand, textPieces, Math.floor(rand() * 10));
    const options = pick(rand, styles);
    const glob = compileGlob(pattern, options);
    const below = compileGlob(`${pattern}/**`, options);
    if (!glob || !below) continue;
    const want = referenceMatch(glob, text) || referenceMatch(below, text) ? "match" : "no-match";
    assertEquals(
      matchGlobOrAncestor(glob, text),
      want,
      `${JSON.stringify(options)} ${pattern} vs ${text}`,
    );
  }
});

Deno.test("[glob-matching-without-regexp] a match costs the same the first time and every later time", () => {
  // Fresh patterns: their steps are built during the first match only.
  for (const pattern of ["{a,b}*[c-x]q91/**", "*/**/[!z]x7*", "??[é-ü]*"]) {
    const glob = compileGlob(pattern, { foldCase: true })!;
    const text = "Déjà/vu/über/cq91/x7/éé";
    const costs = [0, 1, 2].map(() => {
      const budget = new WorkBudget();
      matchGlobOrAncestor(glob, text, budget);
      return budget.spent;
    });
    assertEquals(costs[1], costs[0], pattern);
    assertEquals(costs[2], costs[0], pattern);
  }
});

Deno.test("[glob-matching-without-regexp] building a step for each distinct character is charged", () => {
  // Many bracket classes against a text of many distinct characters: each
  // character's step looks at every class, and is paid for.
  const pattern = "{a,b}" + "[!q]".repeat(60);
  const glob = compileGlob(pattern)!;
  const text = "a" +
    Array.from({ length: 62 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("");
  const budget = new WorkBudget();
  assertEquals(matchGlob(glob, text, budget), "no-match");
  const classPositions = 2 * 60;
  assert(budget.spent >= 62 * classPositions, `${budget.spent}`);
});

Deno.test("[exempt-globs] 64 crafted project globs against a 4,039-character path cost a bounded count of work", () => {
  const path = longPath(4039);
  const budget = new WorkBudget();
  for (const pattern of hostileExemptGlobs()) {
    const glob = compileGlob(pattern, { foldCase: true }, budget);
    assert(glob !== null, pattern);
    assertEquals(matchGlob(glob, path, budget), "no-match", pattern);
  }
  // A match costs at most the path length times its word count: the brace
  // globs expand to 16 alternatives of about 210 positions, 105 words a
  // character, so about 14.6 million units in all (the dynamic program this
  // replaced needed 870 million cells). That fits one call's budget; with
  // more work on top, the call is denied as too complex, never exempted.
  assert(budget.spent < 15_000_000, `spent ${budget.spent}`);
  assert(budget.spent < CALL_WORK_UNITS);
});
