/**
 * Lazy loading, checked on the module graph: what each kind of call loads
 * before it branches is the static closure of its entry modules.
 */

import { assertEquals } from "../helpers/assert.ts";

const SRC = new URL("../../src/", import.meta.url);

interface Dep {
  code?: { specifier: string };
  isDynamic?: boolean;
}

async function graph(): Promise<Map<string, string[]>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL("main.ts", SRC).pathname],
    stdout: "piped",
    stderr: "null",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  const edges = new Map<string, string[]>();
  for (const m of info.modules as { specifier: string; dependencies?: Dep[] }[]) {
    edges.set(
      m.specifier,
      (m.dependencies ?? []).filter((d) => d.code && !d.isDynamic).map((d) => d.code!.specifier),
    );
  }
  return edges;
}

function closure(edges: Map<string, string[]>, roots: string[]): string[] {
  const seen = new Set<string>();
  const todo = roots.map((r) => new URL(r, SRC).href);
  while (todo.length > 0) {
    const m = todo.pop()!;
    if (seen.has(m)) continue;
    seen.add(m);
    todo.push(...(edges.get(m) ?? []));
  }
  return [...seen].map((s) => s.slice(SRC.href.length)).sort();
}

const folder = (m: string) => m.split("/")[0];

Deno.test("[lazy-loading] a shell call loads no file facts, transcript, evidence, change, metrics or report code", async () => {
  const mods = closure(await graph(), [
    "main.ts",
    "cli/hook.ts",
    "hook/decide.ts",
    "hook/shell_gate.ts",
  ]);
  const folders = [...new Set(mods.map(folder))].sort();
  assertEquals(
    folders.filter((f) =>
      ["file_facts", "transcript", "evidence", "change", "metrics", "report"].includes(f)
    ),
    [],
  );
});

Deno.test("[lazy-loading] a file call loads the transcript scan, evidence and change profile only on demand", async () => {
  const mods = closure(await graph(), [
    "main.ts",
    "cli/hook.ts",
    "hook/decide.ts",
    "hook/file_gate.ts",
  ]);
  const folders = [...new Set(mods.map(folder))];
  assertEquals(
    folders.filter((f) =>
      ["transcript", "evidence", "change", "shell", "metrics", "report"].includes(f)
    ),
    [],
  );
});

Deno.test("[lazy-loading] the dispatcher statically loads only the env reader and the version", async () => {
  assertEquals(closure(await graph(), ["main.ts"]), ["config/env.ts", "main.ts", "version.ts"]);
});
