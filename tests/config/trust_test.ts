/**
 * Tests of the project file's trust: which keys loosen, what of a file
 * applies before the user trusted it, and how the trust store is read (a
 * store that is forged, linked, oversized or malformed trusts nothing).
 *
 * @module
 */

import { assertEquals } from "../helpers/assert.ts";
import type { EnvSnapshot } from "../../src/config/env.ts";
import { PROJECT_CONFIG_KEYS, type ProjectConfig } from "../../src/config/project_config.ts";
import { resolveSettings, stateDirFrom } from "../../src/config/settings.ts";
import { splitByTrust, TRUST_RULES } from "../../src/config/trust_rules.ts";
import {
  MAX_TRUSTED_FILES,
  parseTrustStore,
  readTrustStore,
  serializeTrustStore,
  TRUST_STORE_MAX_BYTES,
  trustDigest,
  type TrustEntry,
  trustOf,
  trustStorePath,
} from "../../src/config/trust_store.ts";
import { denoFs, type FsPort, type StatResult } from "../../src/platform/fs_port.ts";

const DIGEST = "a".repeat(64);
const entry = (path: string, sha256 = DIGEST): TrustEntry => ({
  path,
  sha256,
  trustedAt: "2026-12-05T06:00:00.000Z",
});

Deno.test("[project-config-trust] every key of the project file is classed as tightening, loosening or either by its value", () => {
  const effects = Object.fromEntries(PROJECT_CONFIG_KEYS.map((k) => [k, TRUST_RULES[k].effect]));
  assertEquals(effects, {
    exemptGlobs: "loosen",
    fileGates: "mixed",
    destructiveShell: "tighten",
    routineShell: "mixed",
    fullDenials: "mixed",
    maxDenials: "loosen",
    destructiveCommands: "tighten",
    destructivePacks: "mixed",
    domainText: "tighten",
    allowDestructive: "loosen",
    destructiveDecision: "mixed",
  });
});

Deno.test("[project-config-trust] a file that only tightens applies whole, untrusted", () => {
  const config: ProjectConfig = {
    fileGates: true,
    destructiveShell: true,
    routineShell: true,
    fullDenials: 5,
    destructiveCommands: ["terraform destroy"],
    destructivePacks: ["+publish", "cloud"],
    domainText: "Run make check.",
    exemptGlobs: [],
    allowDestructive: [],
  };
  assertEquals(splitByTrust(config), { untrusted: config, looseningKeys: [] });
});

Deno.test("[project-config-trust] loosening keys, and a pack switched off among packs switched on, wait for trust", () => {
  const split = splitByTrust({
    exemptGlobs: ["**"],
    fileGates: false,
    routineShell: false,
    fullDenials: 0,
    maxDenials: 20,
    destructiveCommands: ["kubectl delete"],
    destructivePacks: ["+publish", "-cloud", " -core"],
    domainText: "note",
    allowDestructive: ["dist/**"],
  });
  assertEquals(split, {
    untrusted: {
      destructiveCommands: ["kubectl delete"],
      destructivePacks: ["+publish"],
      domainText: "note",
    },
    looseningKeys: [
      "exemptGlobs",
      "fileGates",
      "routineShell",
      "fullDenials",
      "maxDenials",
      "destructivePacks",
      "allowDestructive",
    ],
  });
  // The default number of full denials is no loosening; one fewer is.
  assertEquals(splitByTrust({ fullDenials: 3 }).looseningKeys, []);
  assertEquals(splitByTrust({ fullDenials: 2 }).looseningKeys, ["fullDenials"]);
  assertEquals(splitByTrust({ maxDenials: 1000 }).looseningKeys, ["maxDenials"]);
});

Deno.test("[project-config-trust] a store is read only in its exact shape; anything else trusts nothing", () => {
  const good = serializeTrustStore([entry("/p/.gateguard.jsonc")]);
  assertEquals(parseTrustStore(good), [entry("/p/.gateguard.jsonc")]);
  const malformed = [
    "",
    "not json",
    "[]",
    '{"version": 2, "trusted": []}',
    '{"version": 1}',
    '{"version": 1, "trusted": [], "extra": true}',
    `{"version": 1, "trusted": [{"path": "/p", "sha256": "${DIGEST.toUpperCase()}", "trustedAt": ""}]}`,
    `{"version": 1, "trusted": [{"path": "", "sha256": "${DIGEST}", "trustedAt": ""}]}`,
    `{"version": 1, "trusted": [{"path": "/p", "sha256": "${DIGEST}"}]}`,
    `{"version": 1, "trusted": [{"path": "/p", "sha256": "${DIGEST}", "trustedAt": "", "x": 1}]}`,
    `{"version": 1, "trusted": [{"path": "/p", "sha256": "${DIGEST}", "trustedAt": ""}, 7]}`,
    `{"version": 1, "trusted": [{"__proto__": {"path": "/p"}, "sha256": "${DIGEST}", "trustedAt": ""}]}`,
    serializeTrustStore(Array.from({ length: MAX_TRUSTED_FILES + 1 }, (_, i) => entry(`/p${i}`))),
  ];
  for (const text of malformed) assertEquals(parseTrustStore(text), null, text.slice(0, 120));
});

Deno.test("[project-config-trust] a file is trusted by its path and exact digest together", () => {
  const entries = [entry("/a/.gateguard.jsonc"), entry("/b/.gateguard.jsonc", "b".repeat(64))];
  assertEquals(trustOf(entries, "/a/.gateguard.jsonc", DIGEST), "trusted");
  assertEquals(trustOf(entries, "/b/.gateguard.jsonc", DIGEST), "changed");
  // The same content elsewhere (a copy into another project) is not trusted there.
  assertEquals(trustOf(entries, "/c/.gateguard.jsonc", DIGEST), "untrusted");
});

Deno.test("[project-config-trust] the digest is the SHA-256 of the text's exact UTF-8 bytes", async () => {
  assertEquals(
    await trustDigest("{}\n"),
    "ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356",
  );
  assertEquals(await trustDigest("{} \n") === await trustDigest("{}\n"), false);
});

/** A state dir on the real file system, removed after `fn`. */
async function withStateDir(fn: (dir: string) => void | Promise<void>): Promise<void> {
  const dir = Deno.makeTempDirSync({ prefix: "gg-trust-" });
  try {
    await fn(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("[project-config-trust] a symlinked, oversized, non-file or malformed store trusts nothing; a missing one is empty", async () => {
  await withStateDir((dir) => {
    assertEquals(readTrustStore(denoFs, dir), { ok: true, entries: [], exists: false });
    const store = trustStorePath(dir);
    const good = serializeTrustStore([entry("/p/.gateguard.jsonc")]);
    Deno.writeTextFileSync(store, good);
    assertEquals(readTrustStore(denoFs, dir), {
      ok: true,
      entries: [entry("/p/.gateguard.jsonc")],
      exists: true,
    });
    // A link to a well-formed store is still never followed.
    Deno.writeTextFileSync(`${dir}/elsewhere.json`, good);
    Deno.removeSync(store);
    Deno.symlinkSync(`${dir}/elsewhere.json`, store);
    assertEquals(readTrustStore(denoFs, dir), {
      ok: false,
      problem: "is a symlink, which GateGuard does not follow",
    });
    Deno.removeSync(store);
    Deno.writeTextFileSync(store, good + " ".repeat(TRUST_STORE_MAX_BYTES));
    assertEquals(readTrustStore(denoFs, dir), { ok: false, problem: "is larger than 256 KiB" });
    Deno.removeSync(store);
    Deno.mkdirSync(store);
    assertEquals(readTrustStore(denoFs, dir), { ok: false, problem: "is not a regular file" });
    Deno.removeSync(store);
    Deno.writeTextFileSync(store, good.replace("2026", "\u0000"));
    assertEquals(readTrustStore(denoFs, dir), { ok: false, problem: "is malformed" });
  });
});

/** One project file on a small fake file system, with an optional trust store. */
class ProjectFs implements FsPort {
  constructor(
    private files: Record<string, string>,
    private links: string[] = [],
    private resolved: Record<string, string> = {},
  ) {}
  stat(path: string): StatResult {
    const text = this.files[path];
    if (text === undefined) return { ok: false, code: "ENOENT" };
    return {
      ok: true,
      isFile: true,
      isDirectory: false,
      isSymlink: this.links.includes(path),
      nlink: 1,
      size: new TextEncoder().encode(text).length,
      mtimeMs: 0,
    };
  }
  lstat(path: string): StatResult {
    return this.stat(path);
  }
  realPath(path: string): { ok: true; path: string } {
    return { ok: true, path: this.resolved[path] ?? path };
  }
  readTextBounded(path: string): string | null {
    return this.files[path] ?? null;
  }
  readTextBoundedAsync(path: string): Promise<string | null> {
    return Promise.resolve(this.readTextBounded(path));
  }
  readRange(): null {
    return null;
  }
}

const ROOT = "/proj";
const FILE = "/proj/.gateguard.jsonc";
const ENV: EnvSnapshot = { HOME: "/home/u" };
const STORE = trustStorePath(stateDirFrom(ENV));
const LOOSE = `{
  "maxDenials": 0,
  "routineShell": false,
  "destructivePacks": ["-cloud", "+publish"],
  "destructiveCommands": ["make deploy"],
}`;

Deno.test("[project-config-trust] an untrusted file: its tightening keys apply, its loosening keys are ignored with one line", async () => {
  const s = await resolveSettings(ENV, ROOT, new ProjectFs({ [FILE]: LOOSE }));
  assertEquals([s.maxDenials, s.routineDisabled], [null, false]);
  assertEquals([s.destructiveCommands, s.destructivePacks], [["make deploy"], ["+publish"]]);
  assertEquals(s.sources.maxDenials, { kind: "default" });
  assertEquals(s.warnings, [
    "ignoring routineShell, maxDenials, destructivePacks of /proj/.gateguard.jsonc: the file is " +
    "not trusted; the user can run `gateguard trust /proj/.gateguard.jsonc` after reading it.",
  ]);
  assertEquals(s.projectFile?.state === "loaded" && s.projectFile.trust, {
    state: "untrusted",
    looseningKeys: ["routineShell", "maxDenials", "destructivePacks"],
    storeProblem: null,
  });
});

Deno.test("[project-config-trust] trusted content applies whole; one changed byte, or a linked store, is untrusted again", async () => {
  const store = serializeTrustStore([entry(FILE, await trustDigest(LOOSE))]);
  const trusted = await resolveSettings(
    ENV,
    ROOT,
    new ProjectFs({ [FILE]: LOOSE, [STORE]: store }),
  );
  assertEquals([trusted.maxDenials, trusted.routineDisabled], [0, true]);
  assertEquals(trusted.destructivePacks, ["-cloud", "+publish"]);
  assertEquals(trusted.warnings, []);

  const edited = LOOSE.replace('"maxDenials": 0', '"maxDenials": 9');
  const changed = await resolveSettings(
    ENV,
    ROOT,
    new ProjectFs({ [FILE]: edited, [STORE]: store }),
  );
  assertEquals([changed.maxDenials, changed.routineDisabled], [null, false]);
  assertEquals(changed.warnings, [
    "ignoring routineShell, maxDenials, destructivePacks of /proj/.gateguard.jsonc: the file is " +
    "changed since the user trusted it; the user can run `gateguard trust " +
    "/proj/.gateguard.jsonc` after reading it.",
  ]);

  const linked = await resolveSettings(
    ENV,
    ROOT,
    new ProjectFs({ [FILE]: LOOSE, [STORE]: store }, [STORE]),
  );
  assertEquals(linked.maxDenials, null);
  assertEquals(
    linked.projectFile?.state === "loaded" && linked.projectFile.trust.storeProblem,
    "is a symlink, which GateGuard does not follow",
  );
});

Deno.test("[project-config-trust] a project file linked to a file trusted in another project is not trusted here", async () => {
  const other = "/elsewhere/.gateguard.jsonc";
  const store = serializeTrustStore([entry(other, await trustDigest(LOOSE))]);
  const fs = new ProjectFs({ [FILE]: LOOSE, [STORE]: store }, [], { [FILE]: other });
  const s = await resolveSettings(ENV, ROOT, fs);
  assertEquals([s.maxDenials, s.routineDisabled], [null, false]);
  assertEquals(s.projectFile?.state === "loaded" && s.projectFile.trust.state, "untrusted");
  // Reached through a linked project directory, the file is its own and stays trusted.
  const viaDir = new ProjectFs({ [FILE]: LOOSE, [STORE]: store }, [], {
    [FILE]: other,
    [ROOT]: "/elsewhere",
  });
  assertEquals((await resolveSettings(ENV, ROOT, viaDir)).maxDenials, 0);
});

Deno.test("[project-config-trust] a file that needs no trust never reads the store", async () => {
  const reads: string[] = [];
  const fs = new ProjectFs({ [FILE]: '{"destructiveCommands": ["make deploy"]}' });
  const spy: FsPort = {
    ...fs,
    stat: (p) => fs.stat(p),
    lstat: (p) => {
      reads.push(p);
      return fs.lstat(p);
    },
    realPath: (p) => fs.realPath(p),
    readTextBounded: (p) => fs.readTextBounded(p),
    readTextBoundedAsync: (p) => fs.readTextBoundedAsync(p),
    readRange: () => null,
  };
  const s = await resolveSettings(ENV, ROOT, spy);
  assertEquals(reads, []);
  assertEquals(s.projectFile?.state === "loaded" && s.projectFile.trust.state, "not-needed");
});
