/**
 * Properties over seeded random input: the lexer and the profile never
 * throw, keep their invariants, and do linear work on large and hostile
 * texts (counted by the lexers, never timed).
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { lexCode, lexWorkSoFar, sameCodeLines } from "../../src/change/code_lexer.ts";
import type { Language } from "../../src/change/language.ts";
import { type ChangeProfile, FILE_LEX_BUDGET, profileChange } from "../../src/change/profile.ts";
import { edit, mulberry32, multi, randomText, write } from "./fixtures.ts";
import { loadAllLexers } from "../../src/change/code_lexer.ts";

// Each call loads its file's lexer; these tests lex every language.
await loadAllLexers();

const LANGUAGES: { language: Language; ext: string }[] = [
  { language: "js", ext: "js" },
  { language: "ts", ext: "tsx" },
  { language: "py", ext: "py" },
  { language: "go", ext: "go" },
  { language: "rs", ext: "rs" },
  { language: "java", ext: "java" },
  { language: "kt", ext: "kt" },
  { language: "cs", ext: "cs" },
  { language: "c", ext: "c" },
  { language: "cpp", ext: "cpp" },
  { language: "sh", ext: "sh" },
  { language: "ps1", ext: "ps1" },
  { language: "bat", ext: "bat" },
];

/** Fragments of every syntax the lexers know, in no particular order. */
const CHAOS = [
  "a",
  "b",
  "x1",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\r",
  "\u2028",
  "'",
  '"',
  "`",
  "/",
  "*",
  "/*",
  "*/",
  "//",
  "#",
  "<#",
  "#>",
  "\\",
  "$",
  "${",
  "$(",
  "$((",
  "(",
  ")",
  "{",
  "}",
  "[",
  "]",
  "<<",
  "<<-",
  "<<<",
  "EOF",
  "\nEOF\n",
  '@"',
  '"@',
  'r#"',
  '"#',
  'R"(',
  ')"',
  "'''",
  '"""',
  "f'",
  'f"',
  "??/",
  "-->",
  "<!--",
  "<a",
  "</a>",
  "rem ",
  "REM ",
  "^",
  "::",
  "\u00e9",
  "\u{1F600}",
  "=",
  ";",
  ",",
  ".",
  "case ",
  "\\u0022",
  "`${",
  '@$"',
  '$@"',
  "--%",
  "\u201C",
  "\u2018",
];

/** Well-formed fragments per language, so the lexers stay on track over long texts. */
const C_COMMON = [
  "a",
  "b1",
  "_c",
  " ",
  "\t",
  "\n",
  "  ",
  "(",
  ")",
  "{",
  "}",
  "[",
  "]",
  ";",
  ",",
  ".",
  "=",
  "+",
  "-",
  "<",
  ">",
  "!",
  "&&",
  "0",
  "42",
  "// line comment\n",
  "/* block */",
  "/* two\nlines */",
  '"str"',
  '"s\\"q"',
];
const WELL_FORMED: Record<Language, string[]> = {
  js: [...C_COMMON, "'s'", "`t${a}`", "`two\nlines`"],
  ts: [...C_COMMON, "'s'", "`t${a}`", "x<T>"],
  go: [...C_COMMON, "'r'", "`raw`"],
  rs: [...C_COMMON, "'c'", "<'a>", 'r#"x"#', "/* a /* b */ */"],
  java: [...C_COMMON, "'c'", '"""\nblock"""'],
  kt: [...C_COMMON, "'c'", '"$a"', '"${b}"', '"""raw"""'],
  cs: [...C_COMMON, "'c'", '@"v""w"', '$"{a}"', '"""raw"""', "#region r\n"],
  c: [...C_COMMON, "'c'", "#define X 1\n"],
  cpp: [...C_COMMON, "'c'", 'R"(x)"', "1'000"],
  py: [
    "a",
    "b1",
    " ",
    "\n",
    "    ",
    "(",
    ")",
    ":",
    "=",
    "+",
    "# comment\n",
    "'s'",
    '"s"',
    '"""doc\n"""',
    "f'{a}'",
    "r'x'",
    "[",
    "]",
  ],
  sh: [
    "a",
    " ",
    "\n",
    "echo",
    "# c\n",
    "'q'",
    '"d $x"',
    "$(ls)",
    "${x}",
    "|",
    ";",
    "&&",
    "> f",
    "<<EOF\nbody\nEOF\n",
    "$((1+2))",
  ],
  ps1: [
    "a",
    " ",
    "\n",
    "Get-Item",
    "# c\n",
    "<# b #>",
    "'q'",
    '"d $x"',
    '"$(x)"',
    '@"\nh\n"@\n',
    "|",
    ";",
  ],
  bat: ["a", " ", "\n", "echo", "REM c", ":: l", '"q"', "%x%", "&", ">nul", "^&"],
};

function assertProfileShape(p: ChangeProfile, language: Language): void {
  assertEquals(Object.keys(p), [
    "known",
    "language",
    "touchesPublicSurface",
    "touchesData",
    "trivial",
  ]);
  assertEquals(p.language, language);
  for (const flag of [p.known, p.touchesPublicSurface, p.touchesData, p.trivial]) {
    assertEquals(typeof flag, "boolean");
  }
  if (!p.known) assert(p.touchesPublicSurface && p.touchesData && !p.trivial);
}

for (const { language, ext } of LANGUAGES) {
  Deno.test(`[fail-to-deny] ${language}: random snippets never throw and keep the lexer invariants`, () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rand = mulberry32(seed * 7919);
      const text = randomText(rand, CHAOS, 1 + Math.floor(rand() * 3000));
      const lex = lexCode(language, text, { lineStates: true });
      assertEquals(lex.plainStarts!.length, text.split("\n").length);
      assertEquals(lex.plainStarts![0], 1);
      if (!lex.endsPlain) assert(lex.unclear);
      for (const line of lex.lines) assert(line.text !== "");
      const at = Math.floor(rand() * text.length);
      const oldString = text.slice(at, at + 1 + Math.floor(rand() * 200));
      const newString = randomText(rand, CHAOS, Math.floor(rand() * 200));
      for (
        const input of [
          edit(oldString, newString, rand() < 0.3),
          multi([oldString, newString], [newString, oldString, true]),
        ]
      ) {
        const p = profileChange(`/p/x.${ext}`, input, rand() < 0.8 ? text : null);
        assertProfileShape(p, language);
        assert(p.known);
      }
    }
  });

  Deno.test(`[trivial-edits] ${language}: adding a comment line to clean random code keeps its code lines`, () => {
    const comment = { py: "# note", sh: "# note", ps1: "# note", bat: "REM note" } as Partial<
      Record<Language, string>
    >;
    for (let seed = 1; seed <= 30; seed++) {
      const text = randomText(mulberry32(seed), WELL_FORMED[language], 400);
      const before = lexCode(language, text);
      if (before.unclear) continue;
      const after = lexCode(language, text + "\n" + (comment[language] ?? "// note"));
      assert(!after.unclear, JSON.stringify(text));
      assert(sameCodeLines(before, after), JSON.stringify(text));
    }
  });
}

/**
 * Most characters of work a lexer may spend per character of text. Every
 * lexer reads a character a few times (the whole-text checks, its step, the
 * range it emits, a line's backward look for a continuation); measured, the
 * worst input below costs about 8. A quadratic path costs thousands.
 */
const LINEAR_WORK = 10;

/** Lexing work done by `run`, counted by the lexers themselves. */
function lexWork(run: () => unknown): number {
  const before = lexWorkSoFar();
  run();
  return lexWorkSoFar() - before;
}

const KIB = 1024;

Deno.test("[fail-to-deny] a 200 KiB random snippet lexes in linear work, and doubling it doubles the work", () => {
  for (const { language } of LANGUAGES) {
    for (const pieces of [WELL_FORMED[language], CHAOS]) {
      const rand = mulberry32(2024);
      const small = randomText(rand, pieces, 200 * KIB);
      const large = randomText(rand, pieces, 400 * KIB);
      const w1 = lexCode(language, small, { lineStates: true }).work;
      const w2 = lexCode(language, large, { lineStates: true }).work;
      assert(w1 >= small.length, `${language}: ${w1} for ${small.length} characters`);
      assert(w1 <= LINEAR_WORK * small.length, `${language}: ${w1} for ${small.length}`);
      assert(w2 <= LINEAR_WORK * large.length, `${language}: ${w2} for ${large.length}`);
      assert(w2 < 2.5 * w1, `${language}: ${w1}, then ${w2} doubled`);
    }
  }
});

Deno.test("[fail-to-deny] the work count follows every lexer call, so a profile's lexing can be counted too", () => {
  const text = "const a = 1; // note\n".repeat(100);
  const one = lexCode("ts", text);
  assertEquals(lexWork(() => lexCode("ts", text)), one.work);
  assertEquals(lexWork(() => [lexCode("ts", text), lexCode("ts", text)]), 2 * one.work);
  assertEquals(lexWork(() => profileChange("/p/x.md", write(text), null)), 0);
  assert(lexWork(() => profileChange("/p/x.ts", write(text), null)) >= text.length);
});

/** Texts built to push one lexer path to its worst case. */
const HOSTILE: string[] = [
  "${`".repeat(40 * KIB),
  "`${".repeat(40 * KIB),
  "((((".repeat(50 * KIB),
  "'\\".repeat(100 * KIB),
  "<<E\n".repeat(50 * KIB),
  '"$(\'"'.repeat(40 * KIB),
  "/*".repeat(100 * KIB),
  "a / b `\n".repeat(25 * KIB),
  " ".repeat(200 * KIB) + "\\\n",
  ("x".repeat(1000) + "\n").repeat(200),
  'r###"'.repeat(40 * KIB),
  'R"'.repeat(100 * KIB),
  "f'{".repeat(60 * KIB),
  '@"\n'.repeat(60 * KIB),
  "declare -".repeat(20 * KIB),
  "def def ".repeat(25 * KIB),
  "??".repeat(100 * KIB),
  "\\u".repeat(100 * KIB),
];

Deno.test("[fail-to-deny] hostile texts lex and profile in linear work", () => {
  for (const text of HOSTILE) {
    for (const { language, ext } of LANGUAGES) {
      const label = `${language} ${JSON.stringify(text.slice(0, 12))}`;
      const work = lexCode(language, text, { lineStates: true }).work;
      assert(work <= LINEAR_WORK * text.length, `${label}: ${work} for ${text.length}`);
      const content = text.slice(0, 60 * KIB);
      const p = lexWork(() => profileChange(`/p/x.${ext}`, write(content), null));
      assert(p <= LINEAR_WORK * content.length, `${label} write: ${p} for ${content.length}`);
    }
  }
});

Deno.test("[fail-to-deny] a MultiEdit of 64 entries against a 1 MiB file stays within the file lexing budget", () => {
  const line = "const value = compute(input); // explain the value\n";
  const file = line.repeat(Math.ceil((1024 * KIB) / line.length));
  const entries = Array.from({ length: 64 }, () => ["// explain the value", "// explain it", true]);
  for (const { ext } of LANGUAGES) {
    const work = lexWork(() => profileChange(`/p/x.${ext}`, multi(...entries), file));
    // Without the budget the file would be lexed once per entry: 64 MiB.
    assert(work <= LINEAR_WORK * FILE_LEX_BUDGET, `${ext}: ${work}`);
  }
});

Deno.test("[fail-to-deny] many edit windows in a deeply nested file stay within the file lexing budget", () => {
  const file = "export const a = " + "{".repeat(50 * KIB) + "\n" + "x; // c\n".repeat(20000);
  for (const ext of ["js", "rs", "py"]) {
    const work = lexWork(() =>
      profileChange(`/p/x.${ext}`, edit("x; // c", "y; // c", true), file)
    );
    assert(work <= LINEAR_WORK * FILE_LEX_BUDGET, `${ext}: ${work}`);
  }
});

Deno.test("[fail-to-deny] one statement spread over 200 000 lines is lexed in linear work", () => {
  const file = "export const a = 1 +\n" + "b +\n".repeat(200000) + "c; // z\n";
  const work = lexWork(() => profileChange("/p/x.ts", edit("// z", "// y"), file));
  assert(work <= LINEAR_WORK * file.length, `${work} for ${file.length}`);
});
