import { assertEquals } from "../helpers/assert.ts";
import { turnMayMention } from "../../src/evidence/prefilter.ts";
import { ROOT } from "../session_logs/builder.ts";
import { scanOf } from "./harness.ts";

const grep = (pattern: string) => ({ name: "Grep", input: { pattern, path: ROOT } });

Deno.test("[search-prefilter] a turn whose calls cannot name the target needs no search parsing", () => {
  const scan = scanOf([grep("parser"), { name: "Bash", input: { command: "npm test" } }]);
  assertEquals(
    turnMayMention({ basename: "tokenizer.js", isTest: false, isNewWrite: false }, scan),
    false,
  );
  assertEquals(
    turnMayMention({ basename: "parser.js", isTest: false, isNewWrite: false }, scan),
    true,
  );
  // Quotes cannot hide the stem from the prefilter.
  const quoted = scanOf([{ name: "Bash", input: { command: `rg 'tok'"enizer" src` } }]);
  assertEquals(
    turnMayMention({ basename: "tokenizer.js", isTest: false, isNewWrite: false }, quoted),
    true,
  );
});

Deno.test("[search-prefilter] test affixes are stripped, and new files always pass", () => {
  const scan = scanOf([grep("tokenizer")]);
  assertEquals(
    turnMayMention({ basename: "tokenizer.test.js", isTest: true, isNewWrite: false }, scan),
    true,
  );
  assertEquals(
    turnMayMention({ basename: "lexer.ts", isTest: false, isNewWrite: true }, scan),
    true,
  );
  assertEquals(
    turnMayMention({ basename: "lexer.ts", isTest: false, isNewWrite: false }, scan),
    false,
  );
});

Deno.test("[search-prefilter] failed calls never pass; short names only match a Read", () => {
  const failed = scanOf([{ ...grep("tokenizer"), error: true }]);
  assertEquals(
    turnMayMention({ basename: "tokenizer.js", isTest: false, isNewWrite: false }, failed),
    false,
  );
  const read = scanOf([{ name: "Read", input: { file_path: `${ROOT}/db.ts` } }]);
  assertEquals(turnMayMention({ basename: "db.ts", isTest: false, isNewWrite: false }, read), true);
  assertEquals(
    turnMayMention({ basename: "db.ts", isTest: false, isNewWrite: false }, scanOf([grep("db")])),
    false,
  );
});
