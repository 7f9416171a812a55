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

Deno.test("[lazy-loading] function and arrow expressions are parenthesized; getters, setters and class declarations' methods are not", () => {
  assertEquals(
    eagerFunctions("var o=function(t){return t+1},e=n=>n.length;", true),
    "var o=(function(t){return t+1}),e=(n=>n.length);",
  );
  assertEquals(
    eagerFunctions("const k={get g(){return 1},set g(v){},b:function(){},c:()=>1};", true),
    "const k={get g(){return 1},set g(v){},b:(function(){}),c:(()=>1)};",
  );
  assertEquals(
    eagerFunctions("class K{m(){return()=>2}static s(){}}", true),
    "class K{m(){return(()=>2)}static s(){}}",
  );
});

Deno.test("[lazy-loading] an object literal's methods become properties holding parenthesized functions, unless they use super", () => {
  assertEquals(
    eagerFunctions("const k={a(x){return x},async b(){},*c(){},d(){return super.d()}};", true),
    "const k={a:(function(x){return x}),b:(async function(){}),c:(function*(){}),d(){return super.d()}};",
  );
  // As a property, `__proto__` would set the prototype instead of a method.
  assertEquals(
    eagerFunctions('const p={__proto__(){},"__proto__"(){}};', true),
    'const p={__proto__(){},"__proto__"(){}};',
  );
});

Deno.test("[lazy-loading] a top-level class's methods are defined on it right after it is created", () => {
  assertEquals(
    eagerFunctions(
      "var T=class{x=1;constructor(a){this.a=a}get g(){return 1}m(b){return b}static s(){}};",
      true,
    ),
    "var T=class{x=1;constructor(a){this.a=a}get g(){return 1}};" +
      'Object.defineProperty(T.prototype,"m",{value:(function(b){return b}),writable:!0,configurable:!0});' +
      'Object.defineProperty(T,"s",{value:(function(){}),writable:!0,configurable:!0});',
  );
  // Private names, super, and the class's inner name keep a method in its class.
  const kept = [
    "var P=class{#n=1;m(){return this.#n}};",
    "var S=class extends Array{m(){return super.length}};",
    "var R=class r{m(){return new r}};",
    // Static code runs while the class is created, before methods defined after it.
    "var F=class{static x=F.m();m(){}static m(){return 1}};",
    "var B=class{static{B.m()}static m(){}};",
    // A declarator after the class could use it before the methods are defined.
    "var A=class{m(){}},a=new A;",
  ];
  for (const code of kept) assertEquals(eagerFunctions(code, true), code);
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
  // The body of an if or a loop stays its body.
  assertEquals(eagerFunctions("if(a)x=>1,f()", true), "if(a)(x=>1),f()");
  assertEquals(eagerFunctions("for(;;)x=>1", true), "for(;;)(x=>1)");
});

Deno.test("[lazy-loading] rewritten code computes what the original did", async () => {
  const code = "var base=double(2);" +
    "function double(n){return n*2}" +
    "async function later(){return base+(await Promise.resolve(1))}" +
    "function*count(){yield 1;yield 2}" +
    "var Box=class{constructor(v){this.v=v}get twice(){return double(this.v)}map(f){return new Box(f(this.v))}static of(v){return new Box(v)}*[Symbol.iterator](){yield this.v}};" +
    "var obj={m(){return 3},n:function(){return this.m()+1},p:x=>x+5};" +
    "var total=()=>[...count()].reduce((a,b)=>a+b,0);" +
    "export{base,later,total,Box,obj,double};";
  const original = await evaluate(code);
  const rewritten = await evaluate(eagerFunctions(code, true));
  for (const module of [original, rewritten]) {
    assertEquals(module.base, 4);
    assertEquals(await (module.later as () => Promise<number>)(), 5);
    assertEquals((module.total as () => number)(), 3);
    type BoxType = {
      v: number;
      twice: number;
      map: (f: (v: number) => number) => BoxType;
    } & Iterable<number>;
    const Box = module.Box as { new (v: number): BoxType; of: (v: number) => BoxType };
    const box = new Box(3);
    assertEquals([box.twice, box.map((v) => v + 1).v, [...Box.of(7)]], [6, 4, [7]]);
    // Moved methods stay out of a for-in, as methods do.
    const keys: string[] = [];
    for (const key in box) keys.push(key);
    assertEquals(keys, ["v"]);
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

Deno.test("[lazy-loading] methods of a class followed at once by a declaration are defined after the class, not with the moved declaration", async () => {
  const code = "var T=class{m(){return 2}};function f(){return new T().m()}export{f};";
  const out = eagerFunctions(code, true);
  assertEquals(
    out,
    "var f=(function f(){return new T().m()});var T=class{};" +
      'Object.defineProperty(T.prototype,"m",{value:(function(){return 2}),writable:!0,configurable:!0});export{f};',
  );
  assertEquals((await evaluate(out)).f instanceof Function, true);
  assertEquals(((await evaluate(out)).f as () => number)(), 2);
});
