import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  CREDITING_TOOL_NAMES,
  GATED_TOOLS,
  gateMatcher,
  MAX_INPUT_ENTRIES,
  readToolCall,
  SCANNED_TOOL_NAMES,
} from "../../src/tools/gated.ts";
import { decide } from "../../src/hook/decide.ts";
import { tooComplexText } from "../../src/questions/messages.ts";
import { contextFor, ROOT } from "../hook/context.ts";

const A = `${ROOT}/src/a.ts`;
const B = `${ROOT}/src/b.ts`;

Deno.test("[gated-tools] the table lists each gated tool once, file tools under one hook id", () => {
  const names = GATED_TOOLS.map((t) => t.name);
  assertEquals(new Set(names).size, names.length);
  assertEquals(gateMatcher("file"), "Edit|Write|MultiEdit|NotebookEdit");
  assertEquals(gateMatcher("shell"), "Bash|PowerShell");
  assertEquals(new Set(GATED_TOOLS.filter((t) => t.gate === "file").map((t) => t.hookId)).size, 1);
  assertEquals(readToolCall("Read", { file_path: A }), null);
});

Deno.test("[gated-tools] Claude Code's tools read into the typed call", () => {
  assertEquals(readToolCall("Edit", { file_path: A, old_string: "a", new_string: "b" }), {
    kind: "file",
    touches: [{
      path: A,
      verb: "edit",
      change: { kind: "edits", edits: [{ oldString: "a", newString: "b", replaceAll: false }] },
    }],
  });
  assertEquals(readToolCall("NotebookEdit", { notebook_path: A, new_source: "x" }), {
    kind: "file",
    touches: [{ path: A, verb: "edit", change: { kind: "opaque" } }],
  });
  assertEquals(readToolCall("PowerShell", { command: "gci" }), {
    kind: "shell",
    dialect: "powershell",
    command: "gci",
  });
  // Optional fields may be left out or sent as null.
  assertEquals(
    readToolCall("Edit", { file_path: A, old_string: "a", new_string: "b", replace_all: null }),
    readToolCall("Edit", { file_path: A, old_string: "a", new_string: "b" }),
  );
});

Deno.test("[fail-to-deny] a gated tool's input with a required field missing or mistyped reads as malformed, naming tool and field", () => {
  const cases: [string, Record<string, unknown> | null, string][] = [
    ["Edit", { file_path: "" }, "`file_path` is empty"],
    ["Edit", { old_string: "a", new_string: "b" }, "`file_path` is missing"],
    ["Edit", { file_path: 3, old_string: "a", new_string: "b" }, "`file_path` is not text"],
    ["Edit", { file_path: A, new_string: "b" }, "`old_string` is missing"],
    ["Edit", { file_path: A, old_string: "a", new_string: ["b"] }, "`new_string` is not text"],
    [
      "Edit",
      { file_path: A, old_string: "a", new_string: "b", replace_all: "yes" },
      "`replace_all` is not true or false",
    ],
    ["Write", { file_path: A, content: 7 }, "`content` is not text"],
    ["Write", { file_path: A }, "`content` is missing"],
    ["NotebookEdit", { file_path: A }, "`notebook_path` is missing"],
    ["MultiEdit", { edits: [] }, "`file_path` is missing"],
    ["MultiEdit", { file_path: A }, "`edits` is missing"],
    ["MultiEdit", { file_path: A, edits: { old_string: "a" } }, "`edits` is not a list"],
    [
      "MultiEdit",
      { file_path: A, edits: [{ old_string: "a", new_string: "b" }, "oops"] },
      "entry 2 of `edits` is not an object",
    ],
    [
      "MultiEdit",
      { file_path: A, edits: [{ old_string: 1, new_string: "e" }] },
      "entry 1 of `edits`: `old_string` is not text",
    ],
    [
      "MultiEdit",
      { file_path: A, edits: [{ file_path: "", old_string: "a", new_string: "e" }] },
      "entry 1 of `edits`: `file_path` is empty",
    ],
    ["Bash", { command: 5 }, "`command` is not text"],
    ["Bash", {}, "`command` is missing"],
    ["PowerShell", { script: "gci" }, "`command` is missing"],
  ];
  for (const [tool, input, problem] of cases) {
    assertEquals(readToolCall(tool, input), { kind: "malformed", tool, problem }, tool);
  }
});

Deno.test("[fail-to-deny] a malformed input is denied on every try, with a one-line reason naming the tool and the field", async () => {
  const want = "[Fact-Forcing Gate] GateGuard cannot read this Edit call: `old_string` is " +
    "missing. A call it cannot read is denied every time; send the input the tool documents " +
    "and retry.";
  const input = { file_path: A, new_string: "b" };
  const ctx = contextFor("Edit", input, { env: { GATEGUARD_METRICS: "1" } });
  // Already checked, and even under an exempt glob: nothing that passes a file lets this through.
  ctx.state.checked.add(A);
  for (let attempt = 0; attempt < 3; attempt++) {
    const decision = await decide(ctx);
    assertEquals(decision.outcome, { kind: "deny", text: want });
    assertEquals(decision.delta.check, []);
    assertEquals(decision.events.map((e) => [e.tool, e.decision, e.reason]), [
      ["Edit", "deny", "malformed-input"],
    ]);
    assertEquals(decision.rules, ["input"]);
  }
  assertEquals(want.includes("\n"), false);
  for (const [tool, bad] of [["Bash", { command: null }], ["Write", "not an object"]] as const) {
    const decision = await decide(
      contextFor(tool, bad, { env: { GATEGUARD_EXEMPT_GLOBS: "**" } }),
    );
    assertEquals(decision.outcome.kind, "deny", tool);
    assertStringIncludes(
      decision.outcome.kind === "deny" ? decision.outcome.text : "",
      `cannot read this ${tool} call: ${
        tool === "Bash" ? "`command` is not text" : "`tool_input` is missing or not an object"
      }.`,
    );
  }
});

Deno.test("[multiedit-paths] MultiEdit entries keep their own path, and the call's file is always touched", () => {
  const call = readToolCall("MultiEdit", {
    file_path: A,
    edits: [
      { old_string: "a", new_string: "b" },
      { file_path: B, old_string: "c", new_string: "d", replace_all: true },
    ],
  });
  assertEquals(call, {
    kind: "file",
    touches: [
      {
        path: A,
        verb: "edit",
        change: { kind: "edits", edits: [{ oldString: "a", newString: "b", replaceAll: false }] },
      },
      {
        path: B,
        verb: "edit",
        change: { kind: "edits", edits: [{ oldString: "c", newString: "d", replaceAll: true }] },
      },
      { path: A, verb: "edit", change: { kind: "edits", edits: [] } },
    ],
  });
});

/** An `edits` array of `length` entries that counts how many of them are read. */
function countingEdits(length: number): { edits: unknown[]; reads: () => number } {
  let reads = 0;
  const edits = new Proxy(new Array(length), {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { edits, reads: () => reads };
}

Deno.test("[fail-to-deny] a MultiEdit with millions of entries is refused by count, before any entry is read", async () => {
  const { edits, reads } = countingEdits(2_900_000);
  const decision = await decide(contextFor("MultiEdit", { file_path: A, edits }));
  assertEquals(reads(), 0);
  assertEquals(decision.outcome.kind, "deny");
  const text = decision.outcome.kind === "deny" ? decision.outcome.text : "";
  assertEquals(text, tooComplexText("edit"));
  assertStringIncludes(text, "The change is too large or too complex to check");
  assertStringIncludes(text, "split it into smaller edits, one call each");
  assertEquals(decision.delta.check, []);
  assertEquals(decision.warnings, [
    `input holds 2900000 entries, more than the ${MAX_INPUT_ENTRIES} read`,
  ]);
});

Deno.test("[fail-to-deny] the entry bound is exact: one entry over is refused, the bound itself is read", async () => {
  const entry = { old_string: "a", new_string: "b" };
  const over = Array.from({ length: MAX_INPUT_ENTRIES + 1 }, () => entry);
  assertEquals(readToolCall("MultiEdit", { file_path: A, edits: over }), {
    kind: "oversize",
    entries: MAX_INPUT_ENTRIES + 1,
    limit: MAX_INPUT_ENTRIES,
  });
  const at = readToolCall("MultiEdit", { file_path: A, edits: over.slice(1) });
  assert(at?.kind === "file");
  assertEquals(at.touches.length, MAX_INPUT_ENTRIES + 1);
  const decision = await decide(contextFor("MultiEdit", { file_path: A, edits: over.slice(1) }));
  assertEquals(decision.outcome.kind, "deny");
  assertStringIncludes(decision.outcome.kind === "deny" ? decision.outcome.text : "", "src/a.ts");
});

Deno.test("[fail-to-deny] a refused input is refused on every retry and recorded under its own reason", async () => {
  const over = Array.from({ length: MAX_INPUT_ENTRIES + 1 }, () => ({}));
  const ctx = contextFor("MultiEdit", { file_path: A, edits: over }, {
    env: { GATEGUARD_METRICS: "1" },
  });
  ctx.state.checked.add(A);
  const decision = await decide(ctx);
  assertEquals(decision.outcome.kind, "deny");
  assertEquals(decision.events.map((e) => [e.tool, e.decision, e.reason]), [
    ["MultiEdit", "deny", "oversize-input"],
  ]);
});

Deno.test("[gated-tools] the scan keeps the read tools and the shells; all but Read can credit", () => {
  assertEquals([...SCANNED_TOOL_NAMES], ["Glob", "Grep", "LS", "Read", "Bash", "PowerShell"]);
  assertEquals([...CREDITING_TOOL_NAMES], ["Glob", "Grep", "LS", "Bash", "PowerShell"]);
});

const SRC = new URL("../../src/", import.meta.url);
const TABLE = "tools/gated.ts";

function* srcFiles(dir: URL): Generator<URL> {
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isDirectory) yield* srcFiles(new URL(`${entry.name}/`, dir));
    else if (entry.name.endsWith(".ts")) yield new URL(entry.name, dir);
  }
}

/**
 * The tool names `code` spells as a string literal or an object key.
 * Comments may name tools; a `//` right after a quote or a colon starts no
 * comment (it is a URL or a path in a string).
 */
function spelledNames(code: string, names: readonly string[]): string[] {
  const text = code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  const alternatives = names.join("|");
  const literal = new RegExp(`(["'\`])(${alternatives})\\1`, "g");
  const key = new RegExp(`(?:^|[{,])\\s*(${alternatives})\\s*:`, "gm");
  return [
    ...[...text.matchAll(literal)].map((m) => m[2]),
    ...[...text.matchAll(key)].map((m) => m[1]),
  ];
}

/** Claude Code's tool names GateGuard knows: the gated tools and the tools the scan keeps. */
const CLAUDE_TOOLS = [...new Set([...GATED_TOOLS.map((t) => t.name), ...SCANNED_TOOL_NAMES])];

Deno.test("[gated-tools] Claude Code's tool names are spelled in the tool table alone", () => {
  const found: string[] = [];
  let files = 0;
  for (const url of srcFiles(SRC)) {
    files++;
    const name = url.pathname.slice(SRC.pathname.length);
    if (name === TABLE) continue;
    for (const tool of spelledNames(Deno.readTextFileSync(url), CLAUDE_TOOLS)) {
      found.push(`${name}: ${tool}`);
    }
  }
  assertEquals(found, []);
  assert(files > 100, `only ${files} files read`);
  assertEquals(spelledNames(Deno.readTextFileSync(new URL(TABLE, SRC)), ["Bash"]).length > 0, true);
});

Deno.test("[gated-tools] the spelling check finds literals and keys, not comments or longer words", () => {
  const code = [
    `if (call.tool === "Read") return;`,
    `const t = { Glob: a, x: 'LS' };`,
    "const u = `PowerShell`;",
    `/** The \`Bash\` tool. */`,
    `// "Edit" is gated`,
    `const url = "https://x"; const w = "Write";`,
    `const v = "Bash2" + "ReadMe" + GlobX;`,
  ].join("\n");
  assertEquals(spelledNames(code, CLAUDE_TOOLS).sort(), [
    "Glob",
    "LS",
    "PowerShell",
    "Read",
    "Write",
  ]);
});
