/**
 * The module graph, checked: what each kind of call loads before it
 * branches (the static closure of its entry modules), no import cycle, no
 * import from a lower layer up (dynamic imports count like static ones),
 * and the size of the house: src/shell/ entered through its concept
 * folders, no source file too long to read.
 */

import { assertEquals } from "../helpers/assert.ts";

const SRC = new URL("../../src/", import.meta.url);

interface Dep {
  code?: { specifier: string };
  type?: { specifier: string };
  isDynamic?: boolean;
}

interface Module {
  specifier: string;
  dependencies?: Dep[];
}

let listed: Promise<Module[]> | undefined;

/** Every module reachable from `main.ts`, lazily loaded ones included; listed once per file. */
function modules(): Promise<Module[]> {
  listed ??= listModules();
  return listed;
}

async function listModules(): Promise<Module[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL("main.ts", SRC).pathname],
    stdout: "piped",
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).modules;
}

/** Static code imports only: what loading a module loads with it. */
async function graph(): Promise<Map<string, string[]>> {
  const edges = new Map<string, string[]>();
  for (const m of await modules()) {
    edges.set(
      m.specifier,
      (m.dependencies ?? []).filter((d) => d.code && !d.isDynamic).map((d) => d.code!.specifier),
    );
  }
  return edges;
}

/** Imports between src modules as paths under src/: static, type-only and dynamic alike. */
async function allImports(): Promise<Map<string, string[]>> {
  const edges = new Map<string, string[]>();
  const inSrc = (s: string) => s.startsWith(SRC.href);
  for (const m of await modules()) {
    if (!inSrc(m.specifier)) continue;
    const targets = (m.dependencies ?? []).flatMap((d) =>
      [d.code?.specifier, d.type?.specifier].filter((t): t is string => !!t && inSrc(t))
    );
    edges.set(
      m.specifier.slice(SRC.href.length),
      [...new Set(targets.map((t) => t.slice(SRC.href.length)))],
    );
  }
  return edges;
}

/**
 * The layers of src/, lowest first: a folder imports only from itself and
 * from folders of lower layers. A top-level module stands for itself. No
 * entry names a single module of a folder: a folder sits on one layer.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["platform", "version.ts"],
  ["glob", "config", "build_info.ts"],
  ["file_facts", "shell", "state"],
  ["tools", "control"],
  ["session_logs"],
  ["change", "evidence", "metrics"],
  ["questions", "report", "setup"],
  ["hook"],
  ["agents"],
  ["cli"],
  ["main.ts"],
];

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

/** The folder of a module under src/; a top-level module stands for itself. */
const folder = (m: string) => m.split("/")[0];

function layerOf(m: string): number {
  return LAYERS.findIndex((layer) => layer.includes(folder(m)));
}

/**
 * The path modules a shell call needs to place the words of its command
 * against GateGuard's control surface (hook/shell_protect.ts): splitting,
 * resolving against the project root and following links.
 */
const SHELL_PATH_MODULES = [
  "file_facts/paths.ts",
  "file_facts/real_path.ts",
  "file_facts/resolve.ts",
];

Deno.test("[lazy-loading] a shell call loads no file facts beyond path handling, and no session-log, evidence, change, metrics or report code", async () => {
  const mods = closure(await graph(), [
    "main.ts",
    "cli/hook.ts",
    "hook/decide.ts",
    "hook/shell_gate.ts",
  ]);
  const folders = [...new Set(mods.map(folder))].sort();
  assertEquals(
    folders.filter((f) => ["session_logs", "evidence", "change", "metrics", "report"].includes(f)),
    [],
  );
  assertEquals(
    mods.filter((m) => folder(m) === "file_facts" && !SHELL_PATH_MODULES.includes(m)),
    [],
  );
});

Deno.test("[lazy-loading] a file call loads the session-log readers, evidence and change profile only on demand", async () => {
  const mods = closure(await graph(), [
    "main.ts",
    "cli/hook.ts",
    "hook/decide.ts",
    "hook/file_gate.ts",
  ]);
  const folders = [...new Set(mods.map(folder))];
  assertEquals(
    folders.filter((f) =>
      ["session_logs", "evidence", "change", "shell", "metrics", "report"].includes(f)
    ),
    [],
  );
});

Deno.test("[lazy-loading] the dispatcher statically loads only the env reader and the version", async () => {
  assertEquals(closure(await graph(), ["main.ts"]), ["config/env.ts", "main.ts", "version.ts"]);
});

Deno.test("[lazy-loading] every src folder has a layer, and no import goes up or sideways across layers", async () => {
  const upward: string[] = [];
  for (const [from, tos] of await allImports()) {
    assertEquals(layerOf(from) >= 0, true, `${folder(from)} has no layer`);
    for (const to of tos) {
      const across = folder(to) !== folder(from) || layerOf(to) !== layerOf(from);
      if (across && layerOf(to) >= layerOf(from)) {
        upward.push(`${from} -> ${to}`);
      }
    }
  }
  assertEquals(upward, []);
});

Deno.test("[lazy-loading] the src import graph has no cycle of static, type or dynamic imports", async () => {
  const edges = await allImports();
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (m: string, path: string[]): void => {
    if (state.get(m) === "done") return;
    if (state.get(m) === "open") {
      cycles.push([...path.slice(path.indexOf(m)), m].join(" -> "));
      return;
    }
    state.set(m, "open");
    for (const to of edges.get(m) ?? []) visit(to, [...path, m]);
    state.set(m, "done");
  };
  for (const m of [...edges.keys()].sort()) visit(m, []);
  assertEquals(cycles, []);
});

/**
 * The concept folders of src/shell/, lowest first: a folder imports only
 * from itself, from lower folders of this list and from the files shared
 * directly under src/shell/.
 */
const SHELL_LAYERS: readonly (readonly string[])[] = [
  ["dialect.ts", "stdin_markers.ts"],
  ["programs", "sql"],
  ["bash"],
  ["powershell"],
  ["packs"],
  ["destructive", "readonly"],
];

/** The concept of a module under src/shell/ (its folder, or the shared file itself); null elsewhere. */
function shellConcept(m: string): string | null {
  const parts = m.split("/");
  return parts[0] === "shell" ? parts[1] : null;
}

/**
 * `deno run` (the from-source install and the plugin) reads, before the
 * entry runs, every module a string-literal `import("…")` names, whether or
 * not the call takes that branch. A lazy import therefore names its module
 * through a URL built at run time (`import(new URL("./x.ts",
 * import.meta.url).href)`), typed by a type-only `typeof import("./x.ts")`
 * that `deno run` does not follow. The graph checks above still see those
 * edges: `deno info` lists the type import.
 */
Deno.test("[lazy-loading] no src module names a lazy import with a string literal", () => {
  const literal = /(?<!typeof\s*)\bimport\(\s*["'`]/;
  const named = srcFiles().filter((f) => literal.test(Deno.readTextFileSync(new URL(f, SRC))));
  assertEquals(named, []);
});

Deno.test("[lazy-loading] a shell concept folder is entered only through its mod.ts", async () => {
  const bypasses: string[] = [];
  for (const [from, tos] of await allImports()) {
    for (const to of tos) {
      const concept = shellConcept(to);
      if (concept === null || concept.endsWith(".ts")) continue;
      if (shellConcept(from) !== concept && !to.endsWith(`shell/${concept}/mod.ts`)) {
        bypasses.push(`${from} -> ${to}`);
      }
    }
  }
  assertEquals(bypasses, []);
});

Deno.test("[lazy-loading] every shell concept has a layer, and no shell import goes up or sideways", async () => {
  const shellLayer = (concept: string) => SHELL_LAYERS.findIndex((l) => l.includes(concept));
  const wrong: string[] = [];
  for (const [from, tos] of await allImports()) {
    const own = shellConcept(from);
    if (own === null) continue;
    assertEquals(shellLayer(own) >= 0, true, `shell/${own} has no layer`);
    for (const to of tos) {
      const concept = shellConcept(to);
      if (concept === null || concept === own) continue;
      if (shellLayer(concept) >= shellLayer(own)) wrong.push(`${from} -> ${to}`);
    }
  }
  assertEquals(wrong, []);
});

/** Every .ts file under src/, as a path under src/. */
function srcFiles(dir = SRC, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory) out.push(...srcFiles(new URL(`${entry.name}/`, dir), `${path}/`));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}

/** Most files directly under src/shell/: the rest lives in its concept folders. */
const MAX_SHELL_TOP_FILES = 6;

/** Most lines of one source file. */
const MAX_FILE_LINES = 700;

Deno.test("[lazy-loading] src/shell/ holds its concepts in folders, at most six files directly under it", () => {
  const top = srcFiles().filter((f) => f.startsWith("shell/") && f.split("/").length === 2);
  assertEquals(top.length <= MAX_SHELL_TOP_FILES, true, top.join(", "));
});

Deno.test("[lazy-loading] no src file is longer than 700 lines", () => {
  const long = srcFiles().flatMap((f) => {
    const lines = Deno.readTextFileSync(new URL(f, SRC)).split("\n").length;
    return lines > MAX_FILE_LINES ? [`${f}: ${lines}`] : [];
  });
  assertEquals(long, []);
});
