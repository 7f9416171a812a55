import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";
import { closestMiss, priorSearchCredit } from "../../src/evidence/credit.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { scanTurn } from "../../src/session_logs/claude_log.ts";
import type { TurnCall, TurnScan } from "../../src/session_logs/turn_scan.ts";
import { MemoryFs, ROOT } from "../session_logs/builder.ts";
import { credited, creditOf, missed, ROOTS, scanOf, target } from "./harness.ts";
import { realTranscript } from "../session_logs/real_fixtures.ts";
import { toolUseId } from "../e2e/claude_code/fake_api.ts";
import { SCANNED_TOOL_NAMES } from "../../src/tools/gated.ts";

const SRC = `${ROOT}/src`;
const tokenizer = target(`${SRC}/tokenizer.js`);
const grep = (input: Record<string, unknown>) => ({ name: "Grep", input });
const glob = (input: Record<string, unknown>) => ({ name: "Glob", input });

Deno.test("[prior-search-credit] a Grep for the stem in a directory above the target credits it", () => {
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", path: SRC })], tokenizer),
    credited("Grep", `tokenizer ${SRC}`),
  );
  assertEquals(
    creditOf([grep({ pattern: "from '.*/tokenizer'" })], tokenizer),
    credited("Grep", "from '.*/tokenizer'"),
  );
  // A regex that only spells the stem in pieces does not name it.
  assertEquals(creditOf([grep({ pattern: "tokenize(r|d)" })], tokenizer), missed(null));
});

Deno.test("[stem-matching] payment.py is credited by payment or payment_service, not by payments", () => {
  const payment = target(`${SRC}/payment.py`);
  assertEquals(creditOf([grep({ pattern: "payment" })], payment).credited, true);
  assertEquals(creditOf([grep({ pattern: "payment_service" })], payment).credited, true);
  assertEquals(creditOf([grep({ pattern: "payments" })], payment), missed(null));
  assertEquals(creditOf([grep({ pattern: "PAYMENT" })], payment).credited, true);
});

Deno.test("[read-is-not-evidence] a Read of the target never credits; it is named as not a search", () => {
  assertEquals(
    creditOf([{ name: "Read", input: { file_path: `${SRC}/tokenizer.js` } }], tokenizer),
    missed("not-a-search", "Read", `${SRC}/tokenizer.js`),
  );
  assertEquals(
    creditOf([{ name: "Read", input: { file_path: `${SRC}/parser.js` } }], tokenizer),
    missed(null),
  );
});

Deno.test("[tool-result-pairing] a search whose result is an error neither credits nor is named", () => {
  assertEquals(
    creditOf([{ ...grep({ pattern: "tokenizer" }), error: true }], tokenizer),
    missed(null),
  );
});

Deno.test("[same-batch-searches] a search in the pending call's batch is the closest miss", () => {
  assertEquals(
    creditOf([{ ...grep({ pattern: "tokenizer", path: SRC }), sameBatch: true }], tokenizer),
    missed("same-batch", "Grep", `tokenizer ${SRC}`),
  );
});

Deno.test("[test-stems] a search for the module credits its test file", () => {
  const test = target(`${ROOT}/tests/tokenizer.test.js`, { cls: "test" });
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", path: `${ROOT}/tests` })], test).credited,
    true,
  );
  const pyTest = target(`${ROOT}/tests/test_tokenizer.py`, { cls: "test" });
  assertEquals(creditOf([grep({ pattern: "tokenizer" })], pyTest).credited, true);
  const indexTest = target(`${ROOT}/tests/index.test.js`, { cls: "test" });
  assertEquals(
    creditOf([grep({ pattern: "index" })], indexTest),
    missed("generic-stem", "Grep", "index"),
  );
  // Other classes keep the full stem, which still matches as a word.
  const doc = target(`${ROOT}/docs/tokenizer.test.md`, { cls: "prose" });
  assertEquals(creditOf([grep({ pattern: "tokenizer.test" })], doc).credited, true);
  assertEquals(creditOf([grep({ pattern: "tokenizer" })], doc), missed(null));
});

Deno.test("[stem-matching] generic or short names never credit and are named as too generic", () => {
  for (const name of ["index.js", "utils.py", "api.ts", "__init__.py"]) {
    const stem = name.slice(0, name.lastIndexOf("."));
    assertEquals(
      creditOf([grep({ pattern: stem })], target(`${SRC}/${name}`)),
      missed("generic-stem", "Grep", stem),
      name,
    );
  }
  assertEquals(creditOf([grep({ pattern: "db" })], target(`${SRC}/db.ts`)), missed(null));
});

Deno.test("[search-filters] a Grep glob exclusion that covers the target blocks it; others do not", () => {
  const widget = target(`${SRC}/widget.py`);
  assertEquals(
    creditOf([grep({ pattern: "widget", glob: "!widget.py" })], widget),
    missed("excluded", "Grep", "widget !widget.py"),
  );
  assertEquals(
    creditOf([grep({ pattern: "widget", glob: "!src/**" })], widget).miss?.code,
    "excluded",
  );
  assertEquals(creditOf([grep({ pattern: "widget", glob: "!*.md" })], widget).credited, true);
  // The exclusion is never a stem source.
  assertEquals(creditOf([grep({ pattern: "TODO", glob: "!widget.py" })], widget), missed(null));
});

Deno.test("[include-filters] Grep glob includes must match the file name", () => {
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", glob: "*.{js,ts}" })], tokenizer).credited,
    true,
  );
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", glob: "*.py" })], tokenizer),
    missed("excluded", "Grep", "tokenizer *.py"),
  );
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", glob: "src/**/*.js" })], tokenizer).credited,
    true,
  );
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", glob: "lib/**/*.js" })], tokenizer).credited,
    false,
  );
  // The include text is a stem source.
  assertEquals(
    creditOf([grep({ pattern: "TODO", glob: "*tokenizer*" })], tokenizer).credited,
    true,
  );
});

Deno.test("[type-filters] the Grep type is read like rg -t", () => {
  assertEquals(creditOf([grep({ pattern: "tokenizer", type: "js" })], tokenizer).credited, true);
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", type: "py" })], tokenizer),
    missed("excluded", "Grep", "tokenizer py"),
  );
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", type: "jsx-ish" })], tokenizer).miss?.code,
    "excluded",
  );
});

Deno.test("[search-scope] lookups of the target's own name never credit it", () => {
  assertEquals(
    creditOf([glob({ pattern: "**/tokenizer.js" })], tokenizer),
    missed("not-a-search", "Glob", "**/tokenizer.js"),
  );
  assertEquals(
    creditOf([grep({ pattern: "x", glob: "tokenizer.js" })], tokenizer).miss?.code,
    "not-a-search",
  );
  assertEquals(
    creditOf([glob({ pattern: "**/tokenizer.*" })], tokenizer),
    credited("Glob", "**/tokenizer.*"),
  );
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", path: `${SRC}/tokenizer.js` })], tokenizer),
    missed("not-a-search", "Grep", `tokenizer ${SRC}/tokenizer.js`),
  );
});

Deno.test("[search-scope] Glob and Grep lookups in disguise never credit the target", () => {
  for (const pattern of ["**/{tokenizer.js}", "**/tokenizer.[j]s", "src/tokenizer.j[s]"]) {
    assertEquals(creditOf([glob({ pattern })], tokenizer).miss?.code, "not-a-search", pattern);
  }
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", glob: "tokenizer.[j]s" })], tokenizer).miss?.code,
    "not-a-search",
  );
  // Look-alikes that search: another name is possible.
  assertEquals(creditOf([glob({ pattern: "**/{tokenizer,parser}.js" })], tokenizer).credited, true);
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", glob: "*.[jt]s" })], tokenizer).credited,
    true,
  );
});

Deno.test("[search-scope] Grep and Glob only credit targets strictly inside their directory", () => {
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", path: `${ROOT}/docs` })], tokenizer),
    missed("out-of-scope", "Grep", `tokenizer ${ROOT}/docs`),
  );
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", path: "/usr/share/doc" })], tokenizer).miss?.code,
    "out-of-scope",
  );
  assertEquals(creditOf([glob({ pattern: "src/**/*tokenizer*" })], tokenizer).credited, true);
  assertEquals(
    creditOf([glob({ pattern: "lib/**/*tokenizer*" })], tokenizer).miss?.code,
    "out-of-scope",
  );
  assertEquals(
    creditOf([glob({ pattern: "*tokenizer*", path: `${ROOT}/lib` })], tokenizer).miss?.code,
    "out-of-scope",
  );
  assertEquals(creditOf([glob({ pattern: `${SRC}/*tokenizer*` })], tokenizer).credited, true);
});

Deno.test("[path-patterns] the Glob pattern is a filter: it must match the target's path below its root", () => {
  const py = target(`${SRC}/tokenizer.py`);
  assertEquals(creditOf([glob({ pattern: "**/tokenizer.py" })], tokenizer).miss?.code, "excluded");
  assertEquals(
    creditOf([glob({ pattern: "*/tokenizer*" })], target(`${SRC}/a/tokenizer.js`)).miss?.code,
    "excluded",
  );
  assertEquals(creditOf([glob({ pattern: "**/tokenizer*" })], py).credited, true);
  assertEquals(
    creditOf([glob({ pattern: "src/*.{js,py}" }), grep({ pattern: "tokenizer" })], py).credited,
    true,
  );
});

Deno.test("[search-scope] a Glob without glob characters credits only its directory's other files", () => {
  const lookup = glob({ pattern: "src/tokenizer.js" });
  assertEquals(creditOf([lookup], tokenizer), missed("not-a-search", "Glob", "src/tokenizer.js"));
  const sibling = target(`${SRC}/tokenizer.test.js`, { cls: "test" });
  assertEquals(creditOf([lookup], sibling), credited("Glob", "src/tokenizer.js"));
  const deeper = target(`${SRC}/sub/tokenizer.test.js`, { cls: "test" });
  assertEquals(creditOf([lookup], deeper).miss?.code, "out-of-scope");
  // It names no directory, so a new file gets nothing from it without the stem.
  assertEquals(creditOf([lookup], target(`${SRC}/other.js`, { isNewWrite: true })), missed(null));
});

Deno.test("[new-file-detection] a Write of a new file is credited by a search that named its directory", () => {
  const fresh = target(`${SRC}/widget_factory.ts`, { isNewWrite: true });
  assertEquals(
    creditOf([glob({ pattern: "*.ts", path: SRC })], fresh),
    credited("Glob", `*.ts ${SRC}`),
  );
  assertEquals(creditOf([glob({ pattern: "src/*.ts" })], fresh).credited, true);
  assertEquals(creditOf([grep({ pattern: "factory", path: SRC })], fresh).credited, true);
  assertEquals(creditOf([{ name: "LS", input: { path: SRC } }], fresh), credited("LS", SRC));
  // No path and no literal prefix: only the implicit cwd, which names nothing.
  assertEquals(creditOf([glob({ pattern: "*.ts" })], fresh), missed(null));
  assertEquals(creditOf([grep({ pattern: "factory" })], fresh), missed(null));
  // The directory must be exactly the target's.
  assertEquals(creditOf([{ name: "LS", input: { path: ROOT } }], fresh), missed(null));
  // An existing file matches by stem only.
  assertEquals(
    creditOf([{ name: "LS", input: { path: SRC } }], target(`${SRC}/widget_factory.ts`)),
    missed(null),
  );
});

Deno.test("[new-file-detection] an exclusion covering the new file blocks directory credit", () => {
  const fresh = target(`${SRC}/widget_factory.ts`, { isNewWrite: true });
  assertEquals(
    creditOf([{ name: "LS", input: { path: SRC, ignore: ["*.ts"] } }], fresh),
    missed("excluded", "LS", SRC),
  );
  assertEquals(
    creditOf([{ name: "LS", input: { path: SRC, ignore: ["*.md"] } }], fresh).credited,
    true,
  );
  assertEquals(
    creditOf([{ ...glob({ pattern: "*.ts", path: SRC }), sameBatch: true }], fresh).miss?.code,
    "same-batch",
  );
});

Deno.test("[prior-search-credit] relative search paths resolve against the tool cwd, then the project dir, then the process cwd", () => {
  const search = [grep({ pattern: "tokenizer", path: "src" })];
  assertEquals(creditOf(search, tokenizer).credited, true);
  const elsewhere = { toolCwd: null, projectDirEnv: "/other", processCwd: ROOT };
  assertEquals(creditOf(search, tokenizer, { roots: elsewhere }).miss?.code, "out-of-scope");
  const processOnly = { toolCwd: null, projectDirEnv: null, processCwd: ROOT };
  assertEquals(creditOf(search, tokenizer, { roots: processOnly }).credited, true);
});

Deno.test("[prior-search-credit] Windows paths compare case-insensitively, POSIX paths do not", () => {
  const win = target("C:/Proj/src/tokenizer.js", { windowsStyle: true });
  const roots = { toolCwd: "C:\\Proj", projectDirEnv: null, processCwd: "/" };
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", path: "c:\\proj\\SRC" })], win, { roots }).credited,
    true,
  );
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", path: "src" })], win, { roots }).credited,
    true,
  );
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", path: `${ROOT}/SRC` })], tokenizer).miss?.code,
    "out-of-scope",
  );
});

Deno.test("[closest-search-that-did-not-count] the closest reason wins, then the newest call", () => {
  const calls = [
    { name: "Read", input: { file_path: `${SRC}/tokenizer.js` } },
    grep({ pattern: "tokenizer", path: `${ROOT}/docs` }),
    grep({ pattern: "tokenizer", glob: "*.py" }),
    grep({ pattern: "tokenizer", path: `${ROOT}/lib` }),
  ];
  assertEquals(creditOf(calls, tokenizer), missed("excluded", "Grep", "tokenizer *.py"));
  assertEquals(
    creditOf([calls[0], calls[1], calls[3]], tokenizer),
    missed("out-of-scope", "Grep", `tokenizer ${ROOT}/lib`),
  );
  assertEquals(creditOf([calls[0]], tokenizer).miss?.code, "not-a-search");
});

Deno.test("[closest-search-that-did-not-count] the detail is the sanitized input cut to 60 characters", () => {
  const long = "tokenizer" + "\n\t ".repeat(3) + "|x".repeat(80);
  const res = creditOf([grep({ pattern: long, path: `${ROOT}/docs` })], tokenizer);
  assertEquals(res, missed("out-of-scope", "Grep", "tokenizer " + "|x".repeat(24) + "|…"));
  assert(!res.credited && res.miss !== null && [...res.miss.detail].length === 60);
});

Deno.test("[closest-search-that-did-not-count] the miss is only computed when it is read", () => {
  let reads = 0;
  const call: TurnCall = {
    id: "toolu_a",
    tool: "Read",
    get input() {
      reads++;
      return { file_path: `${SRC}/index.js` };
    },
    completed: true,
    sameBatch: false,
    messageId: "msg_x",
    cwd: null,
    denied: false,
  };
  const scan: TurnScan = { turnId: "t", calls: [call] };
  const res = priorSearchCredit(target(`${SRC}/index.js`), scan, ROOTS, new MemoryFs());
  assertEquals(reads, 0);
  assert(!res.credited);
  assertEquals(res.miss, { code: "not-a-search", tool: "Read", detail: `${SRC}/index.js` });
  const after = reads;
  assertEquals(res.miss?.code, "not-a-search");
  assertEquals(reads, after);
});

Deno.test("[fail-to-deny] an error while judging reaches the gate, which warns and gives no credit", () => {
  const fresh = target(`${SRC}/new_module.ts`, { isNewWrite: true });
  const scan = scanOf([grep({ pattern: "tokenizer", path: SRC })]);
  const broken = new MemoryFs();
  broken.stat = () => {
    throw new Error("boom");
  };
  const hostile: TurnScan = {
    turnId: "t",
    get calls(): TurnCall[] {
      throw new Error("boom");
    },
  };
  // Thrown, not swallowed: the file gate turns it into a stderr warning
  // (tests/hook/fact_warning_test.ts), so a fault never passes for a plain denial.
  assertThrows(() => priorSearchCredit(fresh, hostile, ROOTS, broken));
  assertThrows(() => closestMiss(fresh, hostile, ROOTS, broken));
  assertEquals(priorSearchCredit(fresh, scan, ROOTS, broken).credited, true);
});

Deno.test("[search-prefilter] a search that cannot name the stem is never parsed for an existing file", () => {
  let reads = 0;
  const call: TurnCall = {
    id: "toolu_a",
    tool: "Grep",
    get input() {
      reads++;
      return { pattern: "parser", path: SRC };
    },
    completed: true,
    sameBatch: false,
    messageId: "msg_x",
    cwd: null,
    denied: false,
  };
  const res = priorSearchCredit(tokenizer, { turnId: "t", calls: [call] }, ROOTS, new MemoryFs());
  assertEquals(res.credited, false);
  // Only the prefilter's read of the raw input happened.
  assertEquals(reads, 1);
});

function realScan(name: string, toolUseId: string | null): TurnScan {
  const transcriptPath = realTranscript(name);
  const scan = scanTurn(
    { transcriptPath, promptId: null, toolUseId, tools: SCANNED_TOOL_NAMES },
    denoFs,
  );
  if (!scan) throw new Error(`${name} has no turn`);
  return scan;
}

Deno.test("[prior-search-credit] real 2.1.332 transcript: the Grep and Glob tool calls credit", () => {
  // The fixtures replaced the project path by `$ROOT`, which resolves below the tool cwd.
  const root = `${ROOT}/$ROOT`;
  const scan = realScan("grep-glob-tools.jsonl", null);
  const hello = target(`${root}/hello.txt`, { cls: "prose" });
  assertEquals(priorSearchCredit(hello, scan, ROOTS, new MemoryFs()), {
    credited: true,
    tool: "Grep",
    detail: "hello $ROOT",
  });
  const fresh = target(`${root}/notes.txt`, { cls: "prose", isNewWrite: true });
  assertEquals(priorSearchCredit(fresh, scan, ROOTS, new MemoryFs()), {
    credited: true,
    tool: "Glob",
    detail: "*.txt $ROOT",
  });
  // Pending in the Glob's own message, the Glob cannot credit, but the Grep's directory can.
  const batch = realScan("grep-glob-tools.jsonl", toolUseId(2, 1));
  assertEquals(priorSearchCredit(fresh, batch, ROOTS, new MemoryFs()), {
    credited: true,
    tool: "Grep",
    detail: "hello $ROOT",
  });
});

Deno.test("[prior-search-credit] real 2.1.332 transcript: failed Grep and Glob calls give nothing", () => {
  const scan = realScan("bash-then-missing-tools.jsonl", null);
  const fresh = target(`${ROOT}/$ROOT/notes.txt`, { cls: "prose", isNewWrite: true });
  const res = priorSearchCredit(fresh, scan, ROOTS, new MemoryFs());
  assertEquals(res.credited ? res : { credited: false, miss: res.miss }, {
    credited: false,
    miss: null,
  });
});

const HAND = new URL("../fixtures/transcripts/", import.meta.url).pathname;
const HAND_PROMPT = "0b1c2d3e-0000-4000-8000-00000000a001";

function handOutcome(name: string, toolUseId: string): unknown {
  const scan = scanTurn(
    {
      transcriptPath: `${HAND}${name}`,
      promptId: HAND_PROMPT,
      toolUseId,
      tools: SCANNED_TOOL_NAMES,
    },
    denoFs,
  );
  if (!scan) return "no turn";
  const res = priorSearchCredit(tokenizer, scan, ROOTS, new MemoryFs());
  return res.credited ? res : { credited: false, miss: res.miss };
}

Deno.test("[prior-search-credit] hand-written transcripts: turn, compaction, batch, errors, meta records", () => {
  assertEquals(
    handOutcome("search-then-edit.jsonl", "toolu_edit"),
    credited("Bash", "rg -n tokenizer src tests"),
  );
  assertEquals(handOutcome("compacted.jsonl", "toolu_c_edit"), missed(null));
  assertEquals(
    handOutcome("parallel-batch.jsonl", "toolu_p_edit"),
    missed("same-batch", "Grep", `tokenizer ${ROOT}`),
  );
  assertEquals(handOutcome("errors-and-duplicates.jsonl", "toolu_e_edit"), missed(null));
  assertEquals(
    handOutcome("meta-sidechain.jsonl", "toolu_m_edit"),
    credited("Grep", `tokenizer ${ROOT}`),
  );
});

Deno.test("[search-output] a Grep call that only counts matches earns no credit", () => {
  assertEquals(
    creditOf([grep({ pattern: "tokenizer", path: SRC, output_mode: "count" })], tokenizer),
    missed(null),
  );
  // Benign look-alikes: the lines or the file names reached the model.
  for (const mode of ["content", "files_with_matches", undefined]) {
    const input = { pattern: "tokenizer", path: SRC, output_mode: mode };
    assertEquals(creditOf([grep(input)], tokenizer).credited, true, String(mode));
  }
});
