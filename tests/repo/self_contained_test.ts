/**
 * The repository stands alone: nothing under `src/`, `tests/` or `scripts/`
 * reaches a path outside it, so a plain clone passes its own suite.
 */

import { assertEquals } from "../helpers/assert.ts";

const ROOT = new URL("../../", import.meta.url);
const FOLDERS = ["src", "tests", "scripts"];

/** Text that names the sibling folder the spec and old fixtures lived in. */
const SIBLING = ["..", "shared"].join("/");
const SIBLING_ABSOLUTE = ["", "work", "shared"].join("/");

function* sourceFiles(dir: URL, depth: number): Generator<{ url: URL; depth: number }> {
  for (const entry of Deno.readDirSync(dir)) {
    const url = new URL(entry.isDirectory ? `${entry.name}/` : entry.name, dir);
    if (entry.isDirectory) yield* sourceFiles(url, depth + 1);
    else if (/\.(ts|js|json|sh)$/.test(entry.name)) yield { url, depth };
  }
}

/**
 * Module-relative paths (imports and `new URL(…, import.meta.url)`) that
 * climb more folders than the file sits below the root. Paths that are only
 * data (hostile inputs of the gate tests) are not read, so they are left out.
 */
function escapes(text: string, depth: number): string[] {
  const out: string[] = [];
  const pattern = /(?:new URL\(|from |import\()\s*["'`]((?:\.\.\/)+)([^"'`\n]*)/g;
  for (const match of text.matchAll(pattern)) {
    if (match[1].length / 3 > depth) out.push(match[1] + match[2]);
  }
  return out;
}

Deno.test("[release] no source, test or script reaches outside the repository", () => {
  const found: string[] = [];
  let files = 0;
  for (const folder of FOLDERS) {
    for (const { url, depth } of sourceFiles(new URL(`${folder}/`, ROOT), 1)) {
      files++;
      const text = Deno.readTextFileSync(url);
      const name = url.pathname.slice(ROOT.pathname.length);
      if (text.includes(SIBLING) || text.includes(SIBLING_ABSOLUTE)) found.push(`${name}: shared`);
      for (const path of escapes(text, depth)) found.push(`${name}: ${path}`);
    }
  }
  assertEquals(found, []);
  assertEquals(files > 100, true, `only ${files} files read`);
});

Deno.test("[release] the outside-path check sees a path that climbs out, and not one that stays in", () => {
  // Built from parts, so this file's own text holds no such path.
  const up = (n: number): string => "../".repeat(n);
  assertEquals(escapes(`new URL("${up(3)}x/", import.meta.url)`, 2), [`${up(3)}x/`]);
  assertEquals(escapes(`import { a } from "${up(3)}a.ts";`, 2), [`${up(3)}a.ts`]);
  assertEquals(escapes(`import { a } from "${up(2)}src/a.ts";`, 2), []);
  assertEquals(escapes(`const hostile = "${up(4)}etc/x";`, 2), []);
});
