/**
 * Rewrites the hook's bundle so that V8 compiles its functions when a file
 * loads instead of when each function first runs, which puts them in
 * Deno's code cache.
 *
 * Why: V8 compiles a function the first time it is called, and Deno's code
 * cache keeps only what was compiled when the module loaded (the top-level
 * code). So every hook process parsed and compiled again each function its
 * call ran: measured with V8's function events, most of what a destructive
 * call spends deciding. V8 compiles eagerly a function expression written
 * in parentheses (its "PIFE" heuristic), and what it compiles eagerly is
 * cached with the file. Measured on whole processes, paired, a destructive
 * call took 3-7 ms less, a first-touch Edit 1-4 ms, a routine `ls` 0-2 ms.
 * Only the hook's files get this: a subcommand a person types (`report`,
 * `explain`, ...) would read back hundreds of functions it never runs.
 *
 * The rewriting keeps the meaning:
 * - a function or arrow expression gets parentheses around it;
 * - an object literal's method (`m(){}`) becomes a property holding the
 *   same function (`m:(function(){})`), unless it uses `super`; getters
 *   and setters stay;
 * - a top-level class's methods are defined on it (`Object.defineProperty`,
 *   not enumerable, as methods are) right after the statement that creates
 *   it, unless they use `super` or the class's inner name; a class with
 *   private names (which only its own body can reach) or static code (which
 *   runs while the class is created) keeps all of them;
 * - a function declaration at the top of a file becomes a `var` holding the
 *   same function as a named expression, moved to the start of the file, so
 *   it exists before any top-level code runs, as a declaration would. A
 *   declaration is only ever reached before its file runs through an import
 *   circle, so a file on one keeps its declarations;
 * - nested declarations are left as they are.
 *
 * @module
 */

import { parse } from "acorn";
import { staticImportsOf } from "./bundle_merge.ts";

/** An ESTree node as acorn gives it: a type, a range, and children under any key. */
interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null &&
    typeof (value as { type?: unknown }).type === "string";
}

/** The child nodes of `node`, in source order. */
function childrenOf(node: Node): Node[] {
  const out: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "type" || key === "start" || key === "end") continue;
    if (Array.isArray(value)) out.push(...value.filter(isNode));
    else if (isNode(value)) out.push(value);
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Function values whose syntax is a method's: `m(){}`, `get g(){}`, class members. */
function methodValues(node: Node): Node[] {
  if (node.type === "Property" && (node.method === true || node.kind !== "init")) {
    return isNode(node.value) ? [node.value] : [];
  }
  if (node.type === "MethodDefinition" && isNode(node.value)) return [node.value];
  return [];
}

/** True when `node` or anything inside it is of `type` (`Super`, `PrivateIdentifier`, ...). */
function contains(node: Node, test: (n: Node) => boolean): boolean {
  return test(node) || childrenOf(node).some((child) => contains(child, test));
}

/**
 * A method whose function can be written as a plain function expression:
 * no `super`, a key written out, and not `__proto__`, which as a property
 * key would set the object's prototype instead.
 */
function movable(method: Node): boolean {
  const key = method.key as Node | undefined;
  const name = key?.type === "Identifier" ? key.name : key?.type === "Literal" ? key.value : null;
  return isNode(method.value) && !method.computed && name !== "__proto__" &&
    !contains(method.value, (n) => n.type === "Super");
}

/** A class method moved out of its class: defined on `target` right after the statement. */
interface MovedMethod {
  /** Where the statement that creates the class ends. */
  after: number;
  /** `X.prototype`, or `X` for a static method. */
  target: string;
  method: Node;
}

/** What the rewriting of one file does. */
interface Plan {
  /** Expressions to put in parentheses; `statement` when one starts an expression statement. */
  wrap: { start: number; end: number; statement: boolean }[];
  /** Top-level function declarations to move to the start as `var`s. */
  hoist: { start: number; end: number; name: string }[];
  /** Object literal methods (`m(){}`) to write as properties holding a function (`m:(function(){})`). */
  objectMethods: Node[];
  /** Class methods to define on the class right after it is created. */
  classMethods: MovedMethod[];
}

/**
 * The methods of the class `init` declared by the last declarator of the
 * top-level `statement`, that can be defined on it from outside: none when
 * the class uses private names (only its own body can) or runs static code
 * while it is created, and no method that uses `super` or names the class
 * by its inner name.
 */
function classMethodsOf(statement: Node, declarator: Node, init: Node): MovedMethod[] {
  const body = init.body as Node | undefined;
  const outer = declarator.id as Node;
  if (!body || outer.type !== "Identifier") return [];
  if (contains(body, (n) => n.type === "PrivateIdentifier")) return [];
  // Static fields and blocks run while the class is created, before methods defined after it.
  const staticCode = (body.body as Node[]).some((m) =>
    m.type === "StaticBlock" || (m.type === "PropertyDefinition" && m.static === true)
  );
  if (staticCode) return [];
  const inner = isNode(init.id) ? String(init.id.name) : null;
  const namesInner = (method: Node): boolean =>
    inner !== null &&
    contains(method.value as Node, (n) => n.type === "Identifier" && n.name === inner);
  return (body.body as Node[])
    .filter((m) =>
      m.type === "MethodDefinition" && m.kind === "method" && movable(m) && !namesInner(m)
    )
    .map((method) => ({
      after: statement.end,
      target: method.static ? String(outer.name) : `${outer.name}.prototype`,
      method,
    }));
}

function planOf(code: string, hoistDeclarations: boolean): Plan {
  const program = parse(code, {
    ecmaVersion: "latest",
    sourceType: "module",
  }) as unknown as Node;
  const plan: Plan = { wrap: [], hoist: [], objectMethods: [], classMethods: [] };
  const methods = new Set<Node>();
  const visit = (node: Node, parent: Node | null, statementStart: number | null): void => {
    for (const value of methodValues(node)) methods.add(value);
    const expression = node.type === "FunctionExpression" ||
      node.type === "ArrowFunctionExpression";
    if (expression && !methods.has(node)) {
      plan.wrap.push({
        start: node.start,
        end: node.end,
        statement: statementStart === node.start,
      });
    }
    if (
      hoistDeclarations && node.type === "FunctionDeclaration" && parent?.type === "Program" &&
      isNode(node.id)
    ) {
      plan.hoist.push({ start: node.start, end: node.end, name: String(node.id.name) });
    }
    if (node.type === "Property" && node.method === true && node.kind === "init" && movable(node)) {
      plan.objectMethods.push(node);
    }
    if (node.type === "VariableDeclaration" && parent?.type === "Program") {
      const declarators = node.declarations as Node[];
      const last = declarators[declarators.length - 1];
      if (isNode(last?.init) && last.init.type === "ClassExpression") {
        plan.classMethods.push(...classMethodsOf(node, last, last.init));
      }
    }
    // Only a statement in a list of statements can join the one before it; the body of an `if`
    // or a loop cannot, and a `;` there would end that body early.
    const inList = Array.isArray(parent?.body) || Array.isArray(parent?.consequent);
    const start = node.type === "ExpressionStatement" && inList ? node.start : statementStart;
    for (const child of childrenOf(node)) visit(child, node, start);
  };
  visit(program, null, null);
  return plan;
}

/** The key of a method as written in a property or a `defineProperty` call. */
function keyText(code: string, method: Node, quoted: boolean): string {
  const key = method.key as Node;
  if (key.type === "Identifier") {
    return quoted ? JSON.stringify(String(key.name)) : String(key.name);
  }
  return code.slice(key.start, key.end);
}

/**
 * `code` (one ES module of the bundle) rewritten so V8 compiles its
 * functions when it loads: every function expression parenthesized, object
 * literal methods written as properties holding parenthesized functions,
 * class methods defined on their class right after it is created and, when
 * `hoistDeclarations`, top-level function declarations moved to the start
 * as parenthesized `var`s.
 */
export function eagerFunctions(code: string, hoistDeclarations: boolean): string {
  const plan = planOf(code, hoistDeclarations);
  // What is written before the character at a position: closing parentheses
  // first, then moved class methods, then opening parentheses.
  const closing = new Map<number, string>();
  const opening = new Map<number, string>();
  const defined = new Map<number, (() => string)[]>();
  /** Ranges written as something else: start → end and what replaces them. */
  const replaced = new Map<number, { end: number; render: () => string }>();
  const functionOf = (value: Node): string =>
    `(${value.async === true ? "async " : ""}function${value.generator === true ? "*" : ""}${
      text(value.start, value.end, true)
    })`;
  for (const { start, end, statement } of plan.wrap) {
    // A line that starts with `(` would call whatever ended the line before it.
    opening.set(start, (opening.get(start) ?? "") + (statement ? ";(" : "("));
    closing.set(end, `)${closing.get(end) ?? ""}`);
  }
  for (const { start, end } of plan.hoist) replaced.set(start, { end, render: () => "" });
  for (const method of plan.objectMethods) {
    replaced.set(method.start, {
      end: method.end,
      render: () => `${keyText(code, method, false)}:${functionOf(method.value as Node)}`,
    });
  }
  for (const { after, target, method } of plan.classMethods) {
    replaced.set(method.start, { end: method.end, render: () => "" });
    const define = (): string =>
      `Object.defineProperty(${target},${keyText(code, method, true)},{value:${
        functionOf(method.value as Node)
      },writable:!0,configurable:!0});`;
    defined.set(after, [...(defined.get(after) ?? []), define]);
  }
  const insertedAt = (at: number): string => {
    const defines = (defined.get(at) ?? []).map((render) => render()).join("");
    // The statement before them may end without a semicolon.
    const separator = defines !== "" && code[at - 1] !== ";" ? ";" : "";
    return (closing.get(at) ?? "") + separator + defines + (opening.get(at) ?? "");
  };
  /**
   * The rewritten text of `from`..`to`. A `piece` is written somewhere else
   * (a moved declaration, a method's function): what belongs before its
   * first character, and the replacement of that piece itself, stay where
   * the piece was.
   */
  function text(from: number, to: number, piece: boolean): string {
    let out = "";
    for (let i = from; i < to; i++) {
      const first = piece && i === from;
      if (!first) out += insertedAt(i);
      const swap = first ? undefined : replaced.get(i);
      if (swap !== undefined && swap.end <= to) {
        out += swap.render();
        i = swap.end - 1;
        continue;
      }
      out += code[i];
    }
    return out;
  }
  const moved = plan.hoist.map(({ start, end, name }) =>
    `var ${name}=(${text(start, end, true)});`
  );
  return moved.join("") + text(0, code.length, false) + insertedAt(code.length);
}

/** The files among `files` that sit on a circle of static imports. */
export function filesOnCircles(files: ReadonlyMap<string, string>): Set<string> {
  const edges = new Map<string, string[]>();
  for (const [name, code] of files) {
    edges.set(name, staticImportsOf(code));
  }
  const onCircle = new Set<string>();
  for (const name of files.keys()) {
    // A file is on a circle when it can reach itself.
    const seen = new Set<string>();
    const stack = [...(edges.get(name) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === name) {
        onCircle.add(name);
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(edges.get(next) ?? []));
    }
  }
  return onCircle;
}

/** Rewrites every file of `files` (the hook's bundle, by file name) for eager compilation. */
export function eagerBundle(files: ReadonlyMap<string, string>): Map<string, string> {
  const circles = filesOnCircles(files);
  return new Map(
    [...files].map(([name, code]) => [name, eagerFunctions(code, !circles.has(name))]),
  );
}
