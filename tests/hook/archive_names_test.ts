/**
 * The paths a patch, a zip or a plain tar would write, read before the
 * command runs (`src/hook/archive_names.ts`), and what that does to the
 * self-protection reader: an archive or patch that holds a control file is
 * caught by name, one that does not is an ordinary command, and one that
 * cannot be read for certain (compressed, holding links, piped in) still
 * stands for any name.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  archivePaths,
  gzipTarListings,
  patchPaths,
  strippedPaths,
} from "../../src/hook/archive_names.ts";
import {
  loadFolderWrites,
  prefetchArchives,
  type ShellProtectHit,
  shellProtectHits,
} from "../../src/hook/shell_protect.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import { loadReadOnly } from "../../src/shell/readonly/mod.ts";

await loadReadOnly("bash");
await loadFolderWrites();

const enc = new TextEncoder();

/** A ustar archive of `entries` (type "0" a file, "2" a symbolic link to `link`). */
function tar(entries: { name: string; body?: string; type?: string; link?: string }[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const { name, body = "", type = "0", link = "" } of entries) {
    const header = new Uint8Array(512);
    const put = (at: number, text: string) => header.set(enc.encode(text), at);
    const data = enc.encode(body);
    put(0, name);
    put(100, "0000644\0");
    put(124, `${data.length.toString(8).padStart(11, "0")}\0`);
    put(148, "        ");
    put(156, type);
    put(157, link);
    put(257, "ustar\x0000");
    let sum = 0;
    for (const byte of header) sum += byte;
    put(148, `${sum.toString(8).padStart(6, "0")}\0 `);
    blocks.push(header);
    const padded = new Uint8Array(Math.ceil(data.length / 512) * 512);
    padded.set(data);
    blocks.push(padded);
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** A zip archive storing `entries` uncompressed (`link` marks a symbolic link). */
function zip(entries: { name: string; body?: string; link?: boolean }[]): Uint8Array {
  const local: number[] = [];
  const central: number[] = [];
  const u16 = (a: number[], v: number) => a.push(v & 0xff, (v >>> 8) & 0xff);
  const u32 = (a: number[], v: number) => {
    u16(a, v & 0xffff);
    u16(a, (v >>> 16) & 0xffff);
  };
  for (const { name, body = "", link = false } of entries) {
    const n = [...enc.encode(name)];
    const d = [...enc.encode(body)];
    const offset = local.length;
    u32(local, 0x04034b50);
    for (const v of [20, 0, 0, 0, 0]) u16(local, v);
    for (const v of [0, d.length, d.length]) u32(local, v);
    u16(local, n.length);
    u16(local, 0);
    local.push(...n, ...d);
    u32(central, 0x02014b50);
    for (const v of [0x031e, 20, 0, 0, 0, 0]) u16(central, v);
    for (const v of [0, d.length, d.length]) u32(central, v);
    for (const v of [n.length, 0, 0, 0, 0]) u16(central, v);
    u32(central, (link ? 0o120777 : 0o100644) * 0x10000);
    u32(central, offset);
    central.push(...n);
  }
  const end: number[] = [];
  u32(end, 0x06054b50);
  for (const v of [0, 0, entries.length, entries.length]) u16(end, v);
  u32(end, central.length);
  u32(end, local.length);
  u16(end, 0);
  return new Uint8Array([...local, ...central, ...end]);
}

const EVIL_PATCH = "diff --git a/.claude/settings.json b/.claude/settings.json\n" +
  "new file mode 100644\n--- /dev/null\n+++ b/.claude/settings.json\n@@ -0,0 +1 @@\n+{}\n";
const OK_PATCH = "--- src/a.ts\t2026-01-01\n+++ src/a.ts\t2026-01-02\n@@ -1 +1 @@\n-x\n+y\n";

Deno.test("[self-protection] a patch's paths are read from its file headers, /dev/null left out", () => {
  assertEquals(patchPaths(EVIL_PATCH), ["a/.claude/settings.json", "b/.claude/settings.json"]);
  assertEquals(patchPaths(OK_PATCH), ["src/a.ts"]);
  assertEquals(
    patchPaths("diff --git a/x b/y\nrename from x\nrename to .gateguard.jsonc\n"),
    ["a/x", "b/y", "x", ".gateguard.jsonc"],
  );
  // Every -p level is a place the file may land.
  assertEquals(strippedPaths("b/.claude/settings.json"), [
    "b/.claude/settings.json",
    ".claude/settings.json",
    "settings.json",
  ]);
});

/**
 * The self-protection hits of `command` run in `dir/proj` with `dir` as the
 * home, on the real filesystem; `read` false leaves the archive reader out,
 * as when no extracting program was seen ahead.
 */
async function hitsIn(dir: string, command: string, read = true): Promise<ShellProtectHit[]> {
  const base = {
    surface: {
      env: { HOME: dir },
      projectRoot: `${dir}/proj`,
      processCwd: `${dir}/proj`,
      program: null,
      fs: denoFs,
    },
    cwd: `${dir}/proj`,
  };
  const budget = new WorkBudget();
  const archives = read ? await prefetchArchives(command, base, budget) : undefined;
  const hits = shellProtectHits(
    "bash",
    command,
    { ...base, ...(archives ? { archives } : {}) },
    budget,
  );
  assert(hits !== null);
  return hits;
}

/** Writes each file into a temp folder; returns the folder. */
async function withFiles(
  files: Record<string, Uint8Array | string>,
  fn: (dir: string) => void | Promise<void>,
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "gg-archive-" }));
  try {
    for (const [name, bytes] of Object.entries(files)) {
      const path = `${dir}/${name}`;
      await Deno.mkdir(path.replace(/\/[^/]+$/, ""), { recursive: true });
      if (typeof bytes === "string") await Deno.writeTextFile(path, bytes);
      else await Deno.writeFile(path, bytes);
    }
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("[self-protection] a zip's and a plain tar's entry names are read; compressed, linked or unreadable ones are not", () =>
  withFiles({
    "a.tar": tar([{ name: ".claude/settings.json", body: "{}" }, { name: "src/a.ts", body: "x" }]),
    "a.zip": zip([{ name: ".claude/" }, { name: ".claude/settings.json", body: "{}" }]),
    "gz.tgz": new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]),
    "link.tar": tar([{ name: "x", type: "2", link: "/home/u/.claude" }]),
    "link.zip": zip([{ name: "x", body: "/home/u/.claude", link: true }]),
    "text.zip": "not a zip",
    "p.diff": EVIL_PATCH,
  }, (dir) => {
    const read = (name: string, kind: "tar" | "zip" | "patch") =>
      archivePaths(denoFs, `${dir}/${name}`, kind, new WorkBudget());
    assertEquals(read("a.tar", "tar"), [".claude/settings.json", "src/a.ts"]);
    assertEquals(read("a.zip", "zip"), [".claude/", ".claude/settings.json"]);
    assertEquals(read("p.diff", "patch")?.includes(".claude/settings.json"), true);
    for (
      const [name, kind] of [["gz.tgz", "tar"], ["link.tar", "tar"], ["link.zip", "zip"], [
        "text.zip",
        "zip",
      ], ["none.tar", "tar"]] as const
    ) {
      assertEquals(read(name, kind), null, name);
    }
    // The reading is charged to the call's budget, and a spent budget reads nothing.
    const budget = new WorkBudget();
    archivePaths(denoFs, `${dir}/a.tar`, "tar", budget);
    assert(budget.spent >= 3 * 256, String(budget.spent));
    assertEquals(archivePaths(denoFs, `${dir}/a.tar`, "tar", new WorkBudget(10)), null);
  }));

Deno.test("[self-protection] extracting or applying what holds a control file is caught by name; what does not is not", () =>
  withFiles({
    "proj/.git/HEAD": "ref: refs/heads/main\n",
    "evil.tar": tar([{ name: ".claude/settings.json", body: "{}" }]),
    "ok.tar": tar([{ name: "src/a.ts", body: "x" }]),
    "evil.zip": zip([{ name: ".gateguard.jsonc", body: "{}" }]),
    "ok.zip": zip([{ name: "docs/a.md", body: "x" }]),
    "evil.diff": EVIL_PATCH,
    "ok.diff": OK_PATCH,
    "ok.tgz": new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]),
  }, async (dir) => {
    const reached = async (command: string, read = true) =>
      (await hitsIn(dir, command, read)).map((h) =>
        h.kind === "control" ? `${h.row.id}: ${h.piece}` : h.kind
      );
    assertEquals(await reached(`tar -xf ${dir}/evil.tar`), [
      "claude-project-settings: .claude/settings.json",
    ]);
    assertEquals(await reached(`unzip -o ../evil.zip`), ["project-config: .gateguard.jsonc"]);
    assertEquals(await reached(`git apply ${dir}/evil.diff`), [
      "claude-project-settings: .claude/settings.json",
    ]);
    assertEquals(await reached(`patch -p1 < ../evil.diff`), [
      "claude-project-settings: .claude/settings.json",
    ]);
    for (
      const command of [
        `tar -xf ${dir}/ok.tar`,
        `tar --extract --file=../ok.tar -C src`,
        `unzip ../ok.zip`,
        `git apply ../ok.diff`,
        `patch -p0 -i ../ok.diff`,
        // A change of folder does not change the archive.
        `cd ${dir}/proj && tar -xf ../ok.tar`,
      ]
    ) {
      assertEquals(await reached(command), [], command);
    }
    // The archive is read before the line runs: a line that may also write (the archive
    // among all else) extracts what it holds then, so it stands for any name.
    for (
      const command of [
        `cp ../evil.tar ../ok.tar; tar -xf ../ok.tar`,
        `curl -so ../ok.zip https://h/x.zip && unzip ../ok.zip`,
        `sh -c 'cp ../evil.diff ../ok.diff' && git apply ../ok.diff`,
        `tar -xf ../ok.tar | tee log`,
      ]
    ) {
      assertEquals((await reached(command)).length, 1, command);
    }
    // Without the reader (no extracting program was seen ahead), any name below the folder.
    assertEquals((await reached(`tar -xf ${dir}/ok.tar`, false)).length, 1);
    // Compressed other than by gzip, piped in, or not there: any name below the folder.
    for (
      const command of [`tar -xzf ../ok.tgz`, `cat ../ok.diff | git apply`, `unzip ../none.zip`]
    ) {
      assertEquals((await reached(command)).length, 1, command);
    }
  }));

/** `bytes` compressed with gzip by the runtime. */
async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([new Uint8Array(bytes)]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

Deno.test("[self-protection] a gzip-compressed tar is unpacked ahead and read like a plain one", async () => {
  const evil = await gzip(tar([{ name: ".claude/settings.json", body: "{}" }]));
  const ok = await gzip(tar([{ name: "src/a.ts", body: "x" }]));
  const linked = await gzip(tar([{ name: "x", type: "2", link: "/home/u/.claude" }]));
  await withFiles({
    "proj/.git/HEAD": "ref: refs/heads/main\n",
    "evil.tgz": evil,
    "ok.tar.gz": ok,
    "linked.tgz": linked,
    "fake.tgz": "not gzip",
  }, async (dir) => {
    const listings = await gzipTarListings(
      denoFs,
      [
        `${dir}/evil.tgz`,
        `${dir}/ok.tar.gz`,
        `${dir}/linked.tgz`,
        `${dir}/fake.tgz`,
        `${dir}/a.zip`,
      ],
      new WorkBudget(),
    );
    assertEquals(Object.fromEntries(listings), {
      [`${dir}/evil.tgz`]: [".claude/settings.json"],
      [`${dir}/ok.tar.gz`]: ["src/a.ts"],
      [`${dir}/linked.tgz`]: null,
      [`${dir}/fake.tgz`]: null,
    });
    // An archive too large to unpack within the call's budget is unreadable; the budget is not spent.
    const small = new WorkBudget(4096);
    const listed = await gzipTarListings(denoFs, [`${dir}/ok.tar.gz`], small);
    assertEquals(listed.get(`${dir}/ok.tar.gz`), null);
    assertEquals(small.exhausted(), null);
    const reached = async (command: string) =>
      (await hitsIn(dir, command)).map((h) => h.kind === "control" ? h.row.id : h.kind);
    assertEquals(await reached(`tar -xzf ../evil.tgz`), ["claude-project-settings"]);
    assertEquals(await reached(`tar xzf ${dir}/ok.tar.gz`), []);
    assertEquals(await reached(`tar -xzf ../linked.tgz`), ["claude-project-settings"]);
    assertEquals(await reached(`curl -sL https://h/ok.tgz | tar -xz`), ["claude-project-settings"]);
  });
});
