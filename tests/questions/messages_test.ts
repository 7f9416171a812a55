import { assertEquals, assertNotIncludes, assertStringIncludes } from "../helpers/assert.ts";
import {
  closestMissLine,
  fileDenialText,
  QUESTIONS,
  siblingNote,
  trivialNote,
} from "../../src/questions/file_texts.ts";
import {
  sanitizeForDisplay,
  tooComplexLine,
  tooComplexText,
} from "../../src/questions/messages.ts";
import {
  DESTRUCTIVE_TEXT,
  destructiveDenialText,
  ROUTINE_TEXT,
} from "../../src/questions/shell_texts.ts";
import { selectQuestions } from "../../src/questions/select.ts";

const RECOVERY =
  "If these facts cannot be gathered (setup or repair work, say), tell the user why and ask " +
  "how to proceed.";

const BATCH = (f: string) =>
  `Batch warning: if this call rode in a parallel batch, sibling edits to ${f} may already ` +
  `have been applied; retry this one and re-read the file before relying on them.`;

Deno.test("[edit-multiedit-gate] the full code Edit denial, word for word", () => {
  const sel = selectQuestions("code", "edit", null, false);
  const text = fileDenialText({
    verb: "edit",
    file: "/p/src/app.py",
    questions: sel.questions,
    fixedHint: sel.fixedHint,
    ordinal: 1,
    condensed: false,
    targetNote: null,
    closestMiss: null,
    domainText: null,
    batch: true,
  });
  assertEquals(
    text,
    [
      "[Fact-Forcing Gate]",
      "",
      "Before editing /p/src/app.py, present these facts:",
      "",
      "1. List ALL files that import/require this file (search the tree — Glob/Grep, or find/grep via Bash)",
      "2. List the public functions/classes affected by this change",
      "3. If this file reads/writes data files, show field names, structure,",
      "   and date format (use redacted or synthetic values, not raw production data)",
      "4. Quote the user's current instruction verbatim",
      "",
      BATCH("/p/src/app.py"),
      "",
      "Present the facts, then retry the same operation.",
      RECOVERY,
    ].join("\n"),
  );
});

Deno.test("[write-gate] the full code Write denial asks for callers and no duplicate", () => {
  const sel = selectQuestions("code", "write", {
    known: true,
    touchesPublicSurface: true,
    touchesData: true,
  }, false);
  const text = fileDenialText({
    verb: "write",
    file: "src/new.ts",
    questions: sel.questions,
    fixedHint: sel.fixedHint,
    ordinal: 2,
    condensed: false,
    targetNote: null,
    closestMiss: null,
    domainText: null,
    batch: false,
  });
  assertStringIncludes(
    text,
    [
      "Before creating src/new.ts, present these facts:",
      "",
      "1. Name the file(s) and line(s) that will call this new file",
      "2. Confirm no existing file serves the same purpose (search the tree — Glob/Grep, or find/grep via Bash)",
      "3. If this file reads/writes data files, show field names, structure,",
      "   and date format (use redacted or synthetic values, not raw production data)",
      "4. Quote the user's current instruction verbatim",
    ].join("\n"),
  );
});

Deno.test("[write-gate] item 3 is dropped when the new content handles no data", () => {
  const sel = selectQuestions("code", "write", {
    known: true,
    touchesPublicSurface: true,
    touchesData: false,
  }, false);
  assertEquals(sel.questions, ["callers", "no-duplicate", "quote-instruction"]);
});

Deno.test("[questions-fit-the-change] a private change asks for local call sites", () => {
  const sel = selectQuestions("code", "edit", {
    known: true,
    touchesPublicSurface: false,
    touchesData: false,
  }, false);
  assertEquals(sel, { questions: ["local-callers", "quote-instruction"], fixedHint: null });
  assertEquals(
    QUESTIONS["local-callers"].text,
    "List the call sites in this file or its module that rely on the changed behaviour",
  );
});

Deno.test("[questions-fit-the-change] public surface keeps importers and public-api; data keeps data-schema", () => {
  assertEquals(
    selectQuestions(
      "code",
      "edit",
      { known: true, touchesPublicSurface: true, touchesData: true },
      false,
    ).questions,
    ["importers", "public-api", "data-schema", "quote-instruction"],
  );
});

Deno.test("[questions-fit-the-change] an unreadable change gets the original four, five with external-contract", () => {
  assertEquals(selectQuestions("code", "edit", null, false), {
    questions: ["importers", "public-api", "data-schema", "quote-instruction"],
    fixedHint: "importers/callers, affected API, data schemas if any",
  });
  assertEquals(
    selectQuestions(
      "code",
      "edit",
      { known: false, touchesPublicSurface: true, touchesData: true },
      true,
    ),
    {
      questions: [
        "importers",
        "public-api",
        "data-schema",
        "external-contract",
        "quote-instruction",
      ],
      fixedHint: "importers/callers, affected API, data schemas if any, external contract",
    },
  );
});

Deno.test("[questions-fit-the-change] external-contract is asked only where data-schema is kept", () => {
  assertEquals(
    selectQuestions("code", "edit", {
      known: true,
      touchesPublicSurface: false,
      touchesData: false,
    }, true).questions,
    ["local-callers", "quote-instruction"],
  );
  assertEquals(
    selectQuestions(
      "code",
      "edit",
      { known: true, touchesPublicSurface: false, touchesData: true },
      true,
    ).questions,
    ["local-callers", "data-schema", "external-contract", "quote-instruction"],
  );
});

Deno.test("[questions-by-target-class] every class ends with the verbatim instruction", () => {
  const expected: Record<string, string[]> = {
    instruction: [
      "Name the harness/loader that reads this file (Claude Code, Codex, Cursor, OpenCode, …) and when it loads it",
      "Describe what agent behaviour changes as a result",
      "Confirm no existing instruction, skill, or agent file already covers this (search the tree — Glob/Grep, or find/grep via Bash)",
      "Quote the user's current instruction verbatim",
    ],
    test: [
      "Name what behaviour is under test and which module/function it exercises",
      "Name the existing test file(s) covering this module, or confirm none exist (search the tree — Glob/Grep, or find/grep via Bash)",
      "Quote the user's current instruction verbatim",
    ],
    config: [
      "Name which process/tool reads this file and when",
      "Describe the effect of the change",
      "Confirm no secrets or credentials are being written in plain text",
      "Quote the user's current instruction verbatim",
    ],
  };
  for (const [cls, texts] of Object.entries(expected)) {
    for (const verb of ["edit", "write"] as const) {
      const sel = selectQuestions(cls as "test", verb, null, false);
      assertEquals(sel.questions.map((id) => QUESTIONS[id].text), texts, `${cls} ${verb}`);
    }
  }
  assertEquals(
    selectQuestions("prose", "write", null, false).questions.map((id) => QUESTIONS[id].text),
    [
      "Name any existing doc this supersedes or duplicates (search the tree — Glob/Grep, or find/grep via Bash)",
      "State where it will be linked or referenced from",
      "Explain why a new file rather than editing an existing one",
      "Quote the user's current instruction verbatim",
    ],
  );
  assertEquals(
    selectQuestions("prose", "edit", null, false).questions.map((id) => QUESTIONS[id].text),
    [
      "List other docs or code that reference the section being changed (search the tree — Glob/Grep, or find/grep via Bash)",
      "State what the change corrects or adds",
      "Quote the user's current instruction verbatim",
    ],
  );
});

Deno.test("[questions-fit-the-change] question ids are short lowercase codes", () => {
  for (const [id, q] of Object.entries(QUESTIONS)) {
    assertEquals(q.id, id);
    assertEquals(/^[a-z][a-z0-9-]{0,31}$/.test(id), true, id);
  }
});

Deno.test("[sensitive-targets] the sensitive line and the condensed form with the denial ordinal", () => {
  const text = fileDenialText({
    verb: "edit",
    file: ".env",
    questions: ["config-reader", "config-effect", "config-secrets", "quote-instruction"],
    fixedHint: null,
    ordinal: 4,
    condensed: true,
    targetNote: "sensitive",
    closestMiss: null,
    domainText: "Dates here are %Y/%m/%d %H:%M.",
    batch: true,
  });
  assertEquals(
    text,
    [
      "[Fact-Forcing Gate] Denial #4: before editing .env, present reader, effect, no plain-text secrets, " +
      "and quote the user's current instruction verbatim; then retry. (Earlier denials listed the full " +
      "questions.)",
      BATCH(".env"),
      "Sensitive target: prior-search credit, sibling collapse, and the denial cap do not apply.",
      "Dates here are %Y/%m/%d %H:%M.",
    ].join("\n"),
  );
});

Deno.test("[closest-search-that-did-not-count] the line names tool, detail and why", () => {
  assertEquals(
    closestMissLine("Bash", "rg -g '!widget.py' TODO .", "excluded"),
    "Closest search this turn did not count (Bash rg -g '!widget.py' TODO .): its filters exclude this file.",
  );
});

Deno.test("[comment-and-whitespace-only-edits] and [sibling-collapse] notes", () => {
  assertEquals(trivialNote("src/a.ts"), "Comment or whitespace-only change to src/a.ts");
  assertEquals(
    siblingNote("src/a.ts", 3),
    "Sibling of src/a.ts (gated earlier at denial #3 this session)",
  );
});

Deno.test("[destructive-bash-gate] and [routine-bash-gate] messages list their questions", () => {
  assertStringIncludes(
    DESTRUCTIVE_TEXT,
    "1. List all files/data this command will modify or delete\n" +
      "2. Write a one-line rollback procedure\n" +
      "3. Quote the user's current instruction verbatim",
  );
  assertStringIncludes(
    ROUTINE_TEXT,
    "1. The current user request in one sentence\n2. What this specific command verifies or produces",
  );
});

Deno.test("[destructive-bash-gate] the destructive denial, word for word: the rule that matched and the user to ask, no off switch", () => {
  assertEquals(
    destructiveDenialText(
      "core",
      "rm-recursive",
      "deletes a directory tree and every file below it",
    ),
    [
      "[Fact-Forcing Gate]",
      "",
      "Destructive command detected. Before running it, present these facts:",
      "",
      "1. List all files/data this command will modify or delete",
      "2. Write a one-line rollback procedure",
      "3. Quote the user's current instruction verbatim",
      "",
      "Present the facts, then retry the same command.",
      "Matched rule: core/rm-recursive. If this must run and the user has not asked for it, " +
      "ask the user first.",
      "What it destroys (core/rm-recursive): deletes a directory tree and every file below it.",
    ].join("\n"),
  );
});

Deno.test("[routine-bash-gate] the routine denial, word for word, no off switch", () => {
  assertEquals(
    ROUTINE_TEXT,
    [
      "[Fact-Forcing Gate]",
      "",
      "Before the first shell command of this session, present these facts:",
      "",
      "1. The current user request in one sentence",
      "2. What this specific command verifies or produces",
      "",
      "Present the facts, then retry the same command.",
      "One sentence for each fact is enough.",
    ].join("\n"),
  );
});

Deno.test("[parallel-batches-and-partial-application] a denial outside a batch carries no batch warning", () => {
  const sel = selectQuestions("code", "write", null, false);
  const denial = {
    verb: "write" as const,
    file: "src/new.ts",
    questions: sel.questions,
    fixedHint: sel.fixedHint,
    ordinal: 1,
    condensed: false,
    targetNote: null,
    closestMiss: null,
    domainText: null,
  };
  assertNotIncludes(fileDenialText({ ...denial, batch: false }), "Batch warning");
  assertStringIncludes(fileDenialText({ ...denial, batch: true }), BATCH("src/new.ts"));
  const short = { ...denial, ordinal: 4, condensed: true };
  assertNotIncludes(fileDenialText({ ...short, batch: false }), "Batch warning");
  assertStringIncludes(fileDenialText({ ...short, batch: true }), `\n${BATCH("src/new.ts")}`);
});

Deno.test("[fail-to-deny] display text drops control and bidi characters and is bounded", () => {
  assertEquals(sanitizeForDisplay("a\nb\u202ec\u0007"), "a b c ");
  assertEquals(sanitizeForDisplay("x".repeat(400)).length, 300);
});

Deno.test("[fail-to-deny] the work-budget denial names the input and how to split it", () => {
  assertEquals(
    tooComplexLine("command"),
    "The command is too large or too complex to check within GateGuard's work limit, so this " +
      "call is denied; split it into shorter commands, one call each, then retry.",
  );
  assertEquals(
    tooComplexText("edit"),
    "[Fact-Forcing Gate] The change is too large or too complex to check within GateGuard's " +
      "work limit, so this call is denied; split it into smaller edits, one call each, then " +
      "retry.\nIf it cannot be split, ask the user to make the change.",
  );
  assertEquals(
    tooComplexText("command"),
    `[Fact-Forcing Gate] ${
      tooComplexLine("command")
    }\nIf it cannot be split, ask the user to run it.`,
  );
  assertStringIncludes(tooComplexLine("searches"), "narrower searches");
});
