/**
 * The README's reference sections stay complete: its environment table
 * names every variable GateGuard reads, and its documentation list links
 * every page under docs/.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { ENV_VARIABLES } from "../../src/config/env.ts";

const ROOT = new URL("../../", import.meta.url);
const README = Deno.readTextFileSync(new URL("README.md", ROOT));

/** The lines of the README section headed `title`, up to the next heading of its level. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  assert(start >= 0, `no section "${title}"`);
  const end = README.indexOf("\n## ", start + 1);
  return README.slice(start, end < 0 ? README.length : end);
}

Deno.test("[release] the README's environment table names every variable GateGuard reads", () => {
  const rows = section("Environment variables").split("\n").filter((l) => l.startsWith("| `"));
  const named = new Set(
    rows.flatMap((row) => [...row.split("|")[1].matchAll(/`([A-Z_]+)`/g)].map((m) => m[1])),
  );
  assertEquals(ENV_VARIABLES.filter((name) => !named.has(name)), []);
});

Deno.test("[release] the README's documentation list links every page under docs/", () => {
  const list = section("Documentation");
  const pages = [...Deno.readDirSync(new URL("docs/", ROOT))]
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => `docs/${e.name}`)
    .sort();
  assert(pages.length > 5, `${pages.length} pages`);
  assertEquals(pages.filter((page) => !list.includes(`](${page})`)), []);
});
