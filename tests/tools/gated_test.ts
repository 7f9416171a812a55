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
  assertEquals(readToolCall("Write", { file_path: A, content: 7 }), {
    kind: "file",
    touches: [{ path: A, verb: "write", change: { kind: "unreadable" } }],
  });
  assertEquals(readToolCall("NotebookEdit", { notebook_path: A, new_source: "x" }), {
    kind: "file",
    touches: [{ path: A, verb: "edit", change: { kind: "opaque" } }],
  });
  assertEquals(readToolCall("Edit", { file_path: "" }), { kind: "file", touches: [] });
  assertEquals(readToolCall("PowerShell", { command: "gci" }), {
    kind: "shell",
    dialect: "powershell",
    command: "gci",
  });
  assertEquals(readToolCall("Bash", { command: 5 }), {
    kind: "shell",
    dialect: "bash",
    command: "",
  });
  assertEquals(readToolCall("Bash", null), { kind: "shell", dialect: "bash", command: "" });
});

Deno.test("[multiedit-paths] MultiEdit entries keep their own path, skip non-objects, and the call's file is always touched", () => {
  const call = readToolCall("MultiEdit", {
    file_path: A,
    edits: [
      { old_string: "a", new_string: "b" },
      "oops",
      { file_path: B, old_string: "c", new_string: "d", replace_all: true },
      { old_string: 1, new_string: "e" },
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
      { path: A, verb: "edit", change: { kind: "unreadable" } },
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
