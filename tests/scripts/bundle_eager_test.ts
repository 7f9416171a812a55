/**
 * The rewriting that makes V8 compile the hook's functions when their file
 * loads: what is wrapped, what is moved, what is left, and that the
 * rewritten code still does what it did.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import { eagerBundle, eagerFunctions, filesOnCircles } from "../../scripts/bundle_eager.ts";
import { SEPARATE_ENTRIES } from "../../scripts/bundle.ts";
import { BUNDLE_DIR } from "../../src/platform/permissions.ts";

/** Runs `code` as a module and returns what it exports. */
async function evaluate(code: string): Promise<Record<string, unknown>> {
  const url = `data:text/javascript;base64,${btoa(unescape(encodeURIComponent(code)))}`;
  return { ...(await import(url)) };
}

Deno.test("[lazy-loading] function and arrow expressions are parenthesized; methods, getters and class members are not", () => {
  assertEquals(
    eagerFunctions("var o=function(t){return t+1},e=n=>n.length;", true),
    "var o=(function(t){return t+1}),e=(n=>n.length);",
  );
  assertEquals(
    eagerFunctions("const k={a(){},get g(){return 1},b:function(){},c:()=>1};", true),
    "const k={a(){},get g(){return 1},b:(function(){}),c:(()=>1)};",
  );
  assertEquals(
    eagerFunctions("class K{m(){return()=>2}static s(){}}", true),
    "class K{m(){return(()=>2)}static s(){}}",
  );
});

Deno.test("[lazy-loading] a top-level declaration moves to the start as a var holding the same named function", () => {
  assertEquals(
    eagerFunctions('import{a}from"./x.js";var v=r(1);function r(n){return a+n}export{r};', true),
    'var r=(function r(n){return a+n});import{a}from"./x.js";var v=r(1);export{r};',
  );
  assertEquals(
    eagerFunctions("async function f(){return 1}function*g(){yield f}", true),
    "var f=(async function f(){return 1});var g=(function*g(){yield f});",
  );
  // Nested declarations stay where they are.
  assertEquals(
    eagerFunctions("function o(){function i(){return 1}return i}", true),
    "var o=(function o(){function i(){return 1}return i});",
  );
});

Deno.test("[lazy-loading] a file on an import circle keeps its declarations", () => {
  const files = new Map([
    ["a.js", 'import{b}from"./b.js";function f(){return b}export{f};'],
    ["b.js", 'import{f}from"./a.js";var b=1;function g(){return f}export{b,g};'],
    ["c.js", 'import{b}from"./b.js";function h(){return b}export{h};'],
  ]);
  assertEquals([...filesOnCircles(files)].sort(), ["a.js", "b.js"]);
  const out = eagerBundle(files);
  assertEquals(out.get("a.js"), files.get("a.js"));
  assertEquals(out.get("c.js"), 'var h=(function h(){return b});import{b}from"./b.js";export{h};');
});

Deno.test("[lazy-loading] a wrapped expression that starts a statement cannot join the line before it", () => {
  // Without the semicolon, `a()\n(x=>1)` would call what a() returns.
  assertEquals(eagerFunctions("a()\nx=>1", true), "a()\n;(x=>1)");
});

Deno.test("[lazy-loading] rewritten code computes what the original did", async () => {
  const code = "var base=double(2);" +
    "function double(n){return n*2}" +
    "async function later(){return base+(await Promise.resolve(1))}" +
    "function*count(){yield 1;yield 2}" +
    "class Box{constructor(v){this.v=v}get twice(){return double(this.v)}map(f){return new Box(f(this.v))}}" +
    "var obj={m(){return 3},n:function(){return this.m()+1},p:x=>x+5};" +
    "var total=()=>[...count()].reduce((a,b)=>a+b,0);" +
    "export{base,later,total,Box,obj,double};";
  const original = await evaluate(code);
  const rewritten = await evaluate(eagerFunctions(code, true));
  for (const module of [original, rewritten]) {
    assertEquals(module.base, 4);
    assertEquals(await (module.later as () => Promise<number>)(), 5);
    assertEquals((module.total as () => number)(), 3);
    const box = new (module.Box as new (
      v: number,
    ) => { twice: number; map: (f: (v: number) => number) => { v: number } })(3);
    assertEquals([box.twice, box.map((v) => v + 1).v], [6, 4]);
    const obj = module.obj as { m: () => number; n: () => number; p: (x: number) => number };
    assertEquals([obj.m(), obj.n(), obj.p(1)], [3, 4, 6]);
    assertEquals((module.double as (n: number) => number).name, "double");
  }
});

Deno.test("[lazy-loading] the built bundle's hook files are rewritten and the subcommands' are not", async () => {
  const dir = `${REPO_ROOT}/${BUNDLE_DIR}`;
  const core = await Deno.readTextFile(`${dir}/core.js`);
  assert(/^var [\w$]+=\(function /.test(core), core.slice(0, 80));
  for (const file of Object.values(SEPARATE_ENTRIES)) {
    const text = await Deno.readTextFile(`${dir}/${file}`);
    assert(!/^var [\w$]+=\(function /.test(text), `${file} was rewritten`);
  }
});
