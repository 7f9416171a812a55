/**
 * Symbol credit through `decide()`: the target is read for its names only
 * on a first touch every other rule would deny, only when the turn may
 * hold a content search, and only when it is a regular file.
 */

import { CountingBudget } from "../helpers/work.ts";
import { assertEquals } from "../helpers/assert.ts";
import { decide } from "../../src/hook/decide.ts";
import type { Decision } from "../../src/hook/decision.ts";
import type { StatResult } from "../../src/platform/fs_port.ts";
import { assistant, jsonl, prompt, result } from "../session_logs/builder.ts";
import { contextFor, MemoryFs, ROOT } from "./context.ts";
import type { WorkBudget } from "../../src/platform/budget.ts";
import { UNITS_PER_FILE_CHAR } from "../../src/evidence/symbol.ts";
import { lexCode } from "../../src/change/code_lexer.ts";
import type { Language } from "../../src/change/language.ts";

const STORE = `${ROOT}/src/store.ts`;
const STORE_TEXT = "export function loadWidgets() {\n  return 1;\n}\n";
const TRANSCRIPT = "/home/u/.claude/projects/p/s1.jsonl";
const PROMPT = "0b1c2d3e-0000-4000-8000-00000000e001";
const PENDING = "t-pending";

/** The in-memory filesystem, counting reads of the target's text. */
class CountingFs extends MemoryFs {
  targetReads = 0;
  /** The target stands in a FIFO's place: no regular file. */
  fifo = false;

  override stat(path: string): StatResult {
    const st = super.stat(path);
    return this.fifo && path === STORE && st.ok ? { ...st, isFile: false } : st;
  }

  override readTextBounded(path: string, maxBytes: number): string | null {
    if (path === STORE) {
      this.targetReads++;
      if (this.fifo) throw new Error("a FIFO was opened");
    }
    return super.readTextBounded(path, maxBytes);
  }
}

/** A turn with one Bash command before the pending call. */
function turnWith(command: string): string {
  return jsonl(
    prompt("change the store", PROMPT),
    assistant("m1", [{ id: "t1", name: "Bash", input: { command } }]),
    result("t1", PROMPT, { content: "ok" }),
    assistant("m2", [{ id: PENDING, name: "Write", input: {} }]),
  );
}

/** A Write over the existing store after `command`; the profile of a Write reads no file. */
async function writeAfter(
  command: string,
  opts: { env?: Record<string, string>; fifo?: boolean; budget?: WorkBudget } = {},
): Promise<{ d: Decision; reads: number }> {
  const fs = new CountingFs({ [STORE]: STORE_TEXT }, [ROOT, `${ROOT}/src`]);
  fs.fifo = opts.fifo ?? false;
  fs.write(TRANSCRIPT, turnWith(command));
  const ctx = contextFor("Write", { file_path: STORE, content: STORE_TEXT + "// more\n" }, {
    fs,
    env: { GATEGUARD_METRICS: "1", ...opts.env },
    payload: { transcript_path: TRANSCRIPT, prompt_id: PROMPT, tool_use_id: PENDING },
  });
  if (opts.budget) ctx.budget = opts.budget;
  const d = await decide(ctx);
  return { d, reads: fs.targetReads };
}

Deno.test("[prior-search-credit] a search for an exported name credits a Write over the file, reading it once", async () => {
  const { d, reads } = await writeAfter("rg -n loadWidgets src");
  assertEquals(d.rules?.[0], "symbol-credit");
  assertEquals(d.outcome, {
    kind: "note",
    text: "Prior-search credit: the Bash search (rg -n loadWidgets src) earlier this turn " +
      `already covered ${STORE}, so the first-touch questions are skipped.`,
  });
  assertEquals(reads, 1);
});

Deno.test("[prior-search-credit] the target is not read for names when the turn holds no content search", async () => {
  const { d, reads } = await writeAfter("npm test");
  assertEquals([d.rules?.[0], d.outcome.kind], ["deny", "deny"]);
  assertEquals(reads, 0);
});

Deno.test("[prior-search-credit] the target is not read for names when a stem search or the cap lets it through", async () => {
  const stem = await writeAfter("rg -n store src");
  assertEquals([stem.d.rules?.[0], stem.reads], ["credit", 0]);
  const cap = await writeAfter("rg -n loadWidgets src", {
    env: { GATEGUARD_FACT_FORCE_MAX_DENIALS: "0" },
  });
  assertEquals([cap.d.rules?.[0], cap.reads], ["cap", 0]);
});

Deno.test("[prior-search-credit] a target that is no regular file is never opened for its names", async () => {
  const { d, reads } = await writeAfter("rg -n loadWidgets src", { fifo: true });
  assertEquals([d.rules?.[0], d.outcome.kind], ["deny", "deny"]);
  assertEquals(reads, 0);
});

Deno.test("[prior-search-credit] reading the names is charged before the file is lexed, above what the lexer examines", async () => {
  const budget = new CountingBudget();
  await writeAfter("rg -n loadWidgets src", { budget });
  // The file's characters, then two units per character of the search's pattern.
  assertEquals(
    budget.by.get("symbols"),
    UNITS_PER_FILE_CHAR * STORE_TEXT.length + 2 * "loadWidgets".length,
  );
  const none = new CountingBudget();
  await writeAfter("npm test", { budget: none });
  assertEquals(none.by.get("symbols"), undefined);
  const samples: [Language, string][] = [
    ["ts", "export function f() { return `${a}`; } // c\n".repeat(200)],
    ["py", 'def f():\n    """doc"""\n    return 1  # c\n'.repeat(200)],
    ["ts", "/*".repeat(5000)],
    ["py", "'''".repeat(5000)],
    ["sh", "f() {\n  echo \"$x\" | grep -q 'y'\n}\n".repeat(200)],
  ];
  for (const [language, text] of samples) {
    const { work } = lexCode(language, text, { lineStates: true });
    assertEquals(
      work <= UNITS_PER_FILE_CHAR * text.length,
      true,
      `${language}: ${work / text.length}`,
    );
  }
});
