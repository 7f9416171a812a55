import { assert, assertEquals } from "../helpers/assert.ts";
import { callEvidence } from "../../src/evidence/search.ts";
import type { ParseContext } from "../../src/evidence/types.ts";
import type { TurnCall } from "../../src/session_logs/turn_scan.ts";

const ctx: ParseContext = {
  base: "/work/proj",
  processCwd: "/",
  shellCwdUnknown: false,
};

function call(tool: string, input: Record<string, unknown>): TurnCall {
  return {
    id: "toolu_x",
    tool,
    input,
    completed: true,
    sameBatch: false,
    messageId: "msg_x",
    cwd: null,
    denied: false,
  };
}

Deno.test("[search-prefilter] parsed evidence is cached per call, so credit and miss share one parse", () => {
  const c = call("Bash", { command: "rg tokenizer src" });
  const first = callEvidence(c, ctx);
  assert(first === callEvidence(c, ctx));
  // A different turn context is a different parse.
  assert(first !== callEvidence(c, { ...ctx, shellCwdUnknown: true }));
  assertEquals(first.searches.length, 1);
});

Deno.test("[ambiguous-shell-is-not-evidence] an ambiguous command keeps its detail but offers nothing", () => {
  const ev = callEvidence(call("Bash", { command: "rg x $(cat list)" }), ctx);
  assertEquals([ev.ambiguous, ev.searches, ev.otherTexts, ev.detail], [
    true,
    [],
    [],
    "rg x $(cat list)",
  ]);
});

Deno.test("[search-scope] each Glob, Grep and LS input offers its scope and named directories", () => {
  const glob = callEvidence(call("Glob", { pattern: "src/**/*.ts" }), ctx).searches[0];
  assertEquals(glob.scope, {
    kind: "glob",
    root: { windows: false, root: "/", segments: ["work", "proj", "src"] },
    pattern: "**/*.ts",
  });
  assertEquals(glob.namedDirs.map((d) => d.place.segments.join("/")), ["work/proj/src"]);
  const bare = callEvidence(call("Glob", { pattern: "**/*.ts" }), ctx).searches[0];
  assertEquals(bare.namedDirs, []);
  const grep = callEvidence(call("Grep", { pattern: "x", glob: "*.ts,!*.d.ts", type: "ts" }), ctx)
    .searches[0];
  assertEquals(grep.filters.includes.filter((f) => !f.fromType).map((f) => f.glob), ["*.ts"]);
  assertEquals(grep.filters.exclusions.map((f) => f.glob), ["*.d.ts"]);
  assertEquals(grep.stemTexts, ["x", "*.ts"]);
  const ls =
    callEvidence(call("LS", { path: "/work/proj/src", ignore: ["dist", 7] }), ctx).searches[0];
  assertEquals(ls.stemTexts, []);
  assertEquals(ls.filters.exclusions.map((f) => f.glob), ["dist"]);
  // Inputs of the wrong shape offer nothing.
  assertEquals(callEvidence(call("Glob", { pattern: 3 }), ctx).searches, []);
  assertEquals(callEvidence(call("Grep", {}), ctx).searches, []);
  assertEquals(callEvidence(call("LS", { path: "" }), ctx).searches, []);
});
