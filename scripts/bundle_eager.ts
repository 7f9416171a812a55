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
 * cached with the file. Measured on whole processes, the destructive call
 * took about 6 ms less, a first-touch Edit 4 ms, a routine `ls` 1.5 ms.
 * Only the hook's files get this: a subcommand a person types (`report`,
 * `explain`, ...) would read back hundreds of functions it never runs.
 *
 * The rewriting keeps the meaning:
 * - a function or arrow expression gets parentheses around it (none for a
 *   method, getter or setter, whose syntax has no expression to wrap);
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

/** What the rewriting of one file does: ranges to wrap, declarations to move. */
interface Plan {
  /** Expressions to put in parentheses; `statement` when one starts an expression statement. */
  wrap: { start: number; end: number; statement: boolean }[];
  /** Top-level function declarations to move to the start as `var`s. */
  hoist: { start: number; end: number; name: string }[];
}

function planOf(code: string, hoistDeclarations: boolean): Plan {
  const program = parse(code, {
    ecmaVersion: "latest",
    sourceType: "module",
  }) as unknown as Node;
  const plan: Plan = { wrap: [], hoist: [] };
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
    const start = node.type === "ExpressionStatement" ? node.start : statementStart;
    for (const child of childrenOf(node)) visit(child, node, start);
  };
  visit(program, null, null);
  return plan;
}

/**
 * `code` (one ES module of the bundle) with every function expression
 * parenthesized and, when `hoistDeclarations`, its top-level function
 * declarations moved to the start as parenthesized `var`s.
 */
export function eagerFunctions(code: string, hoistDeclarations: boolean): string {
  const plan = planOf(code, hoistDeclarations);
  const before = new Map<number, string>();
  const add = (at: number, text: string, first: boolean): void => {
    const had = before.get(at) ?? "";
    before.set(at, first ? text + had : had + text);
  };
  for (const { start, end, statement } of plan.wrap) {
    // A line that starts with `(` would call whatever ended the line before it.
    add(start, statement ? ";(" : "(", false);
    add(end, ")", true);
  }
  const text = (from: number, to: number): string => {
    let out = "";
    for (let i = from; i < to; i++) out += (before.get(i) ?? "") + code[i];
    return out;
  };
  const moved = plan.hoist.map(({ start, end, name }) => `var ${name}=(${text(start, end)});`);
  let body = "";
  let at = 0;
  for (const { start, end } of plan.hoist) {
    body += text(at, start);
    at = end;
  }
  body += text(at, code.length) + (before.get(code.length) ?? "");
  return moved.join("") + body;
}

/** A static import of a sibling file, as esbuild writes one. */
const SIBLING_IMPORT = /import(?:\{[^}]*\}from)?"\.\/([^"]+\.js)"/g;

/** The files among `files` that sit on a circle of static imports. */
export function filesOnCircles(files: ReadonlyMap<string, string>): Set<string> {
  const edges = new Map<string, string[]>();
  for (const [name, code] of files) {
    edges.set(name, [...code.matchAll(SIBLING_IMPORT)].map((m) => m[1]));
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
