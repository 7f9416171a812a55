/**
 * Folds the chunks every hook call loads at start-up into one file.
 *
 * The bundler (esbuild, inside `deno bundle --code-splitting`) cuts one
 * chunk per set of entry points that reach a module, and it counts the
 * hook's own entry as one of those sets, so the entry file starts by
 * importing many small chunks (a few hundred bytes each, some under one
 * hundred). Measured in process, each module Deno loads costs about 85 µs
 * beyond its bytes when imported statically, more through `import()`: ten
 * start-up files cost most of a millisecond on every call. None of them
 * is ever loaded without the others, so nothing is gained by keeping them
 * apart.
 *
 * This pass takes the entry's static closure (minus any file some call
 * loads with `import()`, and whatever imports one), bundles it once more
 * into `core.js` with every export renamed to say which chunk it came from,
 * and points every import of those chunks, in the entry and in the lazy
 * chunks alike, at `core.js`. Each module still exists once, so no state is
 * ever doubled; only the file boundaries go.
 *
 * The text forms read here are the ones esbuild writes when it minifies:
 * `import{a as b,c}from"./x.js";`, `import"./x.js";` and one closing
 * `export{a as b,c};`. Anything else that names a folded chunk fails the
 * build instead of leaving a broken bundle.
 *
 * @module
 */

/** The file the folded chunks become. */
export const CORE_FILE = "core.js";

/** A static import of a sibling chunk: its names (null for a bare import) and the file. */
const STATIC_IMPORT = /import(?:\{([^}]*)\}from)?"\.\/([^"]+\.js)";?/g;

/** A run-time URL import of a sibling chunk (the form `deno run` does not follow). */
const RUNTIME_IMPORT = /import\(new URL\("\.\/([^"]+\.js)",import\.meta\.url\)\.href\)/g;

/** The closing export statement esbuild writes. */
const EXPORTS = /export\{([^}]*)\};?\s*$/;

/** Any mention of a sibling chunk file, to check nothing was left pointing at a folded one. */
const SIBLING = /"\.\/([^"]+\.js)"/g;

/** The chunk files one file imports statically, in order. */
export function staticImportsOf(text: string): string[] {
  return [...text.matchAll(STATIC_IMPORT)].map((m) => m[2]);
}

/** The files some file loads with `import()`. */
function runtimeTargets(files: ReadonlyMap<string, string>): Set<string> {
  const out = new Set<string>();
  for (const text of files.values()) {
    for (const m of text.matchAll(RUNTIME_IMPORT)) out.add(m[1]);
  }
  return out;
}

/** `a as b` pairs of an import or export list, as [inner, outer] names. */
function namePairs(list: string): [string, string][] {
  return list.split(",").filter((p) => p.trim() !== "").map((pair) => {
    const [inner, outer] = pair.trim().split(/\s+as\s+/);
    return [inner, outer ?? inner];
  });
}

/** The names a chunk exports. */
export function exportedNames(text: string): string[] {
  const m = EXPORTS.exec(text);
  return m === null ? [] : namePairs(m[1]).map(([, outer]) => outer);
}

/**
 * The chunks to fold, in the order the entry evaluates them (dependencies
 * first): the entry's static closure, without files loaded by `import()`
 * and without anything that imports one of those.
 */
export function startupChunks(files: ReadonlyMap<string, string>, entry: string): string[] {
  const lazy = runtimeTargets(files);
  const order: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (file: string): void => {
    if (state.has(file)) return;
    state.set(file, "open");
    for (const dep of staticImportsOf(files.get(file) ?? "")) visit(dep);
    state.set(file, "done");
    order.push(file);
  };
  visit(entry);
  const excluded = new Set([...order].filter((f) => lazy.has(f) || !files.has(f)));
  // Whatever imports an excluded file stays apart too, or core.js would import it.
  let grew = true;
  while (grew) {
    grew = false;
    for (const file of order) {
      if (excluded.has(file)) continue;
      if (staticImportsOf(files.get(file)!).some((dep) => excluded.has(dep))) {
        excluded.add(file);
        grew = true;
      }
    }
  }
  return order.filter((f) => f !== entry && !excluded.has(f));
}

/** The name a folded chunk's export takes in core.js. */
function aliasOf(index: number, name: string): string {
  return `c${index}_${name}`;
}

/** The entry the second bundling starts from: every folded chunk's exports, renamed. */
export function coreEntry(files: ReadonlyMap<string, string>, folded: readonly string[]): string {
  return folded.map((file, index) => {
    const names = exportedNames(files.get(file)!);
    return names.length === 0
      ? `import"./${file}";`
      : `export{${names.map((n) => `${n} as ${aliasOf(index, n)}`).join(",")}}from"./${file}";`;
  }).join("\n") + "\n";
}

/** `text` with its imports of folded chunks pointed at core.js under the renamed exports. */
export function pointAtCore(text: string, folded: readonly string[]): string {
  const index = new Map(folded.map((file, i) => [file, i]));
  const out = text.replace(STATIC_IMPORT, (whole, list: string | undefined, file: string) => {
    const at = index.get(file);
    if (at === undefined) return whole;
    if (list === undefined) return `import"./${CORE_FILE}";`;
    const names = namePairs(list).map(([inner, outer]) => `${aliasOf(at, inner)} as ${outer}`);
    return `import{${names.join(",")}}from"./${CORE_FILE}";`;
  });
  for (const m of out.matchAll(SIBLING)) {
    if (index.has(m[1])) throw new Error(`a reference to folded ${m[1]} is left in the bundle`);
  }
  return out;
}
