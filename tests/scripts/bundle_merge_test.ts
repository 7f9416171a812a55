/**
 * The pass that folds the bundle's start-up chunks into one file: which
 * chunks it takes, how their exports are renamed, how imports are pointed
 * at the folded file, and that the built bundle holds no folded chunk.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import {
  CORE_FILE,
  coreEntry,
  exportedNames,
  pointAtCore,
  startupChunks,
  staticImportsOf,
} from "../../scripts/bundle_merge.ts";
import { BUNDLE_DIR } from "../../src/platform/permissions.ts";

/** A small bundle as esbuild writes one: an entry, start-up chunks and a lazy one. */
const FILES = new Map<string, string>([
  [
    "main.js",
    'import{a as x}from"./chunk-A.js";import"./chunk-B.js";' +
    'var r=()=>import(new URL("./lazy-L.js",import.meta.url).href);export{x as run};',
  ],
  ["chunk-A.js", 'import{b as y}from"./chunk-C.js";var a=y+1;export{a};'],
  ["chunk-B.js", "globalThis.order=(globalThis.order??[]).concat('B');"],
  ["chunk-C.js", "var c=1;export{c as b};"],
  ["lazy-L.js", 'import{a as q}from"./chunk-A.js";import{z}from"./chunk-D.js";export{q,z};'],
  ["chunk-D.js", "var d=2;export{d as z};"],
]);

Deno.test("[lazy-loading] the fold takes the entry's static closure, dependencies first, and nothing only a lazy chunk loads", () => {
  assertEquals(staticImportsOf(FILES.get("main.js")!), ["chunk-A.js", "chunk-B.js"]);
  assertEquals(startupChunks(FILES, "main.js"), ["chunk-C.js", "chunk-A.js", "chunk-B.js"]);
});

Deno.test("[lazy-loading] a chunk some call loads with import(), and whatever imports it, is never folded", () => {
  const files = new Map(FILES);
  // A start-up chunk imports the lazy one statically: folding either would load it twice.
  files.set("main.js", 'import"./chunk-E.js";import"./chunk-B.js";');
  files.set("chunk-E.js", 'import{q}from"./lazy-L.js";var e=q;export{e};');
  files.set("other.js", 'var o=()=>import(new URL("./lazy-L.js",import.meta.url).href);');
  // What the lazy chunk itself imports may still be folded: it then imports it from core.js.
  assertEquals(startupChunks(files, "main.js"), [
    "chunk-C.js",
    "chunk-A.js",
    "chunk-D.js",
    "chunk-B.js",
  ]);
});

Deno.test("[lazy-loading] the folded file re-exports each chunk's names under the chunk's number", () => {
  const folded = startupChunks(FILES, "main.js");
  assertEquals(exportedNames(FILES.get("chunk-A.js")!), ["a"]);
  assertEquals(exportedNames(FILES.get("chunk-C.js")!), ["b"]);
  assertEquals(
    coreEntry(FILES, folded),
    'export{b as c0_b}from"./chunk-C.js";\nexport{a as c1_a}from"./chunk-A.js";\nimport"./chunk-B.js";\n',
  );
});

Deno.test("[lazy-loading] imports of folded chunks point at the folded file, others stay", () => {
  const folded = startupChunks(FILES, "main.js");
  assertEquals(
    pointAtCore(FILES.get("main.js")!, folded),
    `import{c1_a as x}from"./${CORE_FILE}";import"./${CORE_FILE}";` +
      'var r=()=>import(new URL("./lazy-L.js",import.meta.url).href);export{x as run};',
  );
  assertEquals(
    pointAtCore(FILES.get("lazy-L.js")!, folded),
    `import{c1_a as q}from"./${CORE_FILE}";import{z}from"./chunk-D.js";export{q,z};`,
  );
});

Deno.test("[lazy-loading] a folded chunk named in a form the pass does not rewrite fails the build", () => {
  let message = "";
  try {
    pointAtCore('export*from"./chunk-A.js";', ["chunk-A.js"]);
  } catch (err) {
    message = (err as Error).message;
  }
  assertEquals(message, "a reference to folded chunk-A.js is left in the bundle");
});

Deno.test("[lazy-loading] the built bundle's entry loads one start-up file, and no folded chunk is left", async () => {
  const dir = `${REPO_ROOT}/${BUNDLE_DIR}`;
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".js")) {
      files.set(entry.name, await Deno.readTextFile(`${dir}/${entry.name}`));
    }
  }
  assertEquals([...new Set(staticImportsOf(files.get("main.js")!))], [CORE_FILE]);
  assertEquals(startupChunks(files, "main.js"), [CORE_FILE]);
  for (const [name, text] of files) {
    for (const dep of staticImportsOf(text)) assert(files.has(dep), `${name} imports ${dep}`);
  }
});
