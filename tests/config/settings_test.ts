/**
 * The settings layers: environment over project file over defaults, where
 * each value came from, and how a missing, broken or hostile project file
 * is handled.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import type { EnvSnapshot } from "../../src/config/env.ts";
import type { FsErrorCode, FsPort, StatResult } from "../../src/platform/fs_port.ts";
import {
  PROJECT_CONFIG_MAX_BYTES,
  projectConfigPath,
  resolveSettings,
  type Settings,
  settingsFrom,
  stateDirFrom,
} from "../../src/config/settings.ts";
import { serializeTrustStore, trustDigest, trustStorePath } from "../../src/config/trust_store.ts";

/** A filesystem holding at most a few files, recording every call. */
class FilesFs implements FsPort {
  calls: string[] = [];
  constructor(
    private files: Record<string, string>,
    private errors: Record<string, FsErrorCode> = {},
    private dirs: string[] = [],
  ) {}
  stat(path: string): StatResult {
    this.calls.push(`stat ${path}`);
    if (this.errors[path]) return { ok: false, code: this.errors[path] };
    const isDirectory = this.dirs.includes(path);
    if (!(path in this.files) && !isDirectory) return { ok: false, code: "ENOENT" };
    const size = new TextEncoder().encode(this.files[path] ?? "").length;
    return {
      ok: true,
      isFile: !isDirectory,
      isDirectory,
      isSymlink: false,
      nlink: 1,
      size,
      mtimeMs: 0,
    };
  }
  lstat(path: string): StatResult {
    return this.stat(path);
  }
  realPath(path: string): { ok: true; path: string } {
    return { ok: true, path };
  }
  readTextBounded(path: string, maxBytes: number): string | null {
    this.calls.push(`read ${path}`);
    const text = this.files[path];
    return text !== undefined && text.length <= maxBytes ? text : null;
  }
  readTextBoundedAsync(path: string, maxBytes: number): Promise<string | null> {
    return Promise.resolve(this.readTextBounded(path, maxBytes));
  }
  readRange(): null {
    return null;
  }
}

const ROOT = "/proj";
const FILE = "/proj/.gateguard.jsonc";

/** A trust store (at the state dir `env` names) that trusts `text` as the project file. */
async function storeTrusting(env: EnvSnapshot, text: string): Promise<Record<string, string>> {
  const entry = { path: FILE, sha256: await trustDigest(text), trustedAt: "2026-01-01T00:00:00Z" };
  return { [trustStorePath(stateDirFrom(env))]: serializeTrustStore([entry]) };
}

/** The settings with `text` as the project file, which the user trusted. */
async function resolved(env: EnvSnapshot, text: string | null): Promise<Settings> {
  if (text === null) return await resolveSettings(env, ROOT, new FilesFs({}));
  const fs = new FilesFs({ [FILE]: text, ...await storeTrusting(env, text) });
  return await resolveSettings(env, ROOT, fs);
}

Deno.test("[graduated-controls] defaults from an empty environment", () => {
  const s = settingsFrom({ HOME: "/home/u" });
  assertEquals(
    [s.disabled, s.routineDisabled, s.fullDenials, s.maxDenials, s.fileGates, s.destructiveShell],
    [false, false, 3, null, true, true],
  );
  assertEquals([s.stateDir, s.domainText, s.fileExemptGlobs, s.projectFile], [
    "/home/u/.gateguard",
    null,
    [],
    null,
  ]);
  assertEquals(s.sources.maxDenials, { kind: "default" });
  assertEquals(s.warnings, []);
});

Deno.test("[graduated-controls] a malformed denial cap is reported once and leaves no cap", () => {
  const s = settingsFrom({ GATEGUARD_FACT_FORCE_MAX_DENIALS: "3oops" });
  assertEquals(s.maxDenials, null);
  assertEquals(s.warnings, [
    "ignoring malformed GATEGUARD_FACT_FORCE_MAX_DENIALS=3oops; the denial cap is not active.",
  ]);
  assertEquals(s.sources.maxDenials, { kind: "env", variable: "GATEGUARD_FACT_FORCE_MAX_DENIALS" });
  assertEquals(settingsFrom({ GATEGUARD_FACT_FORCE_MAX_DENIALS: " 4 " }).maxDenials, 4);
});

Deno.test("[turning-the-gate-off-completely] off spellings and the hook ids are read from the environment", () => {
  for (const v of ["0", "false", " OFF ", "disabled", "disable"]) {
    const s = settingsFrom({ ECC_GATEGUARD: v });
    assertEquals([s.disabled, s.sources.disabled], [true, {
      kind: "env",
      variable: "ECC_GATEGUARD",
    }]);
  }
  assertEquals(settingsFrom({ GATEGUARD_DISABLED: "1" }).disabled, true);
  assertEquals(settingsFrom({ GATEGUARD_DISABLED: "true" }).disabled, false);
  assertEquals(
    [...settingsFrom({ ECC_DISABLED_HOOKS: " pre:bash:gateguard-fact-force, ,x" }).disabledHooks],
    ["pre:bash:gateguard-fact-force", "x"],
  );
});

Deno.test("[project-config] the state dir falls back to the plugin data dir before the home dir", () => {
  assertEquals(
    stateDirFrom({ GATEGUARD_STATE_DIR: "/s", CLAUDE_PLUGIN_DATA: "/p", HOME: "/h" }),
    "/s",
  );
  assertEquals(
    stateDirFrom({ GATEGUARD_STATE_DIR: " ", CLAUDE_PLUGIN_DATA: "/p", HOME: "/h" }),
    "/p",
  );
  assertEquals(stateDirFrom({ CLAUDE_PLUGIN_DATA: "", HOME: "/h/" }), "/h/.gateguard");
  assertEquals(stateDirFrom({ USERPROFILE: "C:\\Users\\u" }), "C:\\Users\\u/.gateguard");
  // A from-source hook command moves HOME into the checkout and passes the user's as GATEGUARD_HOME.
  assertEquals(stateDirFrom({ GATEGUARD_HOME: "/h", HOME: "/checkout" }), "/h/.gateguard");
  assertEquals(stateDirFrom({ GATEGUARD_HOME: "", HOME: "/h" }), "/h/.gateguard");
  assertEquals(stateDirFrom({}), ".gateguard");
  assertEquals(settingsFrom({ CLAUDE_PLUGIN_DATA: "/p" }).sources.stateDir, {
    kind: "env",
    variable: "CLAUDE_PLUGIN_DATA",
  });
});

Deno.test("[project-config] the file sits at the project root", () => {
  assertEquals(projectConfigPath("/proj/"), FILE);
  assertEquals(projectConfigPath("/"), "/.gateguard.jsonc");
  assertEquals(projectConfigPath(""), ".gateguard.jsonc");
});

Deno.test("[project-config] without a file one stat is the whole cost", async () => {
  const fs = new FilesFs({});
  const s = await resolveSettings({}, ROOT, fs);
  // The project file, then the user file in the state folder.
  assertEquals(fs.calls, [`stat ${FILE}`, "stat .gateguard/config.jsonc"]);
  assertEquals(s.projectFile, { state: "absent", path: FILE });
  const { projectFile: _a, ...withFileLayer } = s;
  const { projectFile: _b, ...envOnly } = settingsFrom({});
  assertEquals(withFileLayer, envOnly);
});

Deno.test("[project-config] file values apply under an empty environment, with their source", async () => {
  const s = await resolved(
    {},
    `{
    "exemptGlobs": ["gen/**"], "fileGates": false, "routineShell": false,
    "fullDenials": 1, "maxDenials": 5, "destructiveCommands": ["make deploy"],
    "domainText": "Run make check.",
  }`,
  );
  assertEquals(
    [s.fileExemptGlobs, s.fileGates, s.routineDisabled, s.fullDenials, s.maxDenials],
    [["gen/**"], false, true, 1, 5],
  );
  assertEquals([s.destructiveCommands, s.domainText, s.exemptGlobs], [
    ["make deploy"],
    "Project note (from .gateguard.jsonc, not from GateGuard):\n> Run make check.",
    undefined,
  ]);
  for (
    const key of [
      "fileExemptGlobs",
      "fileGates",
      "routineDisabled",
      "fullDenials",
      "maxDenials",
    ] as const
  ) {
    assertEquals(s.sources[key], { kind: "file" }, key);
  }
  assertEquals(s.projectFile, {
    state: "loaded",
    path: FILE,
    unknownKeys: [],
    invalid: [],
    trust: {
      state: "trusted",
      looseningKeys: ["exemptGlobs", "fileGates", "routineShell", "fullDenials", "maxDenials"],
      storeProblem: null,
    },
    config: {
      exemptGlobs: ["gen/**"],
      fileGates: false,
      routineShell: false,
      fullDenials: 1,
      maxDenials: 5,
      destructiveCommands: ["make deploy"],
      domainText: "Run make check.",
    },
  });
  assertEquals(s.warnings, []);
});

Deno.test("[project-config] any variable present in the environment beats the file", async () => {
  const file = '{"routineShell": false, "fullDenials": 1, "maxDenials": 5}';
  const s = await resolved({
    GATEGUARD_BASH_ROUTINE_DISABLED: "0",
    GATEGUARD_FACT_FORCE_FULL_DENIALS: "7",
    GATEGUARD_FACT_FORCE_MAX_DENIALS: "9",
  }, file);
  assertEquals([s.routineDisabled, s.fullDenials, s.maxDenials], [false, 7, 9]);
  assertEquals(s.sources.routineDisabled, {
    kind: "env",
    variable: "GATEGUARD_BASH_ROUTINE_DISABLED",
  });
  // A malformed operator cap still wins: the file cannot slip a cap in behind it.
  const typo = await resolved({ GATEGUARD_FACT_FORCE_MAX_DENIALS: "five" }, file);
  assertEquals(typo.maxDenials, null);
  assertEquals(typo.warnings.length, 1);
});

Deno.test("[graduated-controls] the file cannot switch off the destructive shell gate or the whole gate", async () => {
  const s = await resolved({}, '{"destructiveShell": false, "disabled": true}');
  assertEquals([s.destructiveShell, s.disabled], [true, false]);
  assertEquals(s.sources.destructiveShell, { kind: "default" });
  assertEquals(s.warnings, [
    `ignoring invalid entries of ${FILE}: destructiveShell (run gateguard doctor for details).`,
  ]);
  const loaded = s.projectFile;
  assertEquals(loaded?.state === "loaded" ? loaded.unknownKeys.map((i) => i.key) : null, [
    "disabled",
  ]);
});

Deno.test("[glob-semantics-for-gateguard_exempt_globs] file globs stay apart from the operator's env globs", async () => {
  const s = await resolved({ GATEGUARD_EXEMPT_GLOBS: "tests/**" }, '{"exemptGlobs": ["dist/**"]}');
  assertEquals([s.exemptGlobs, s.fileExemptGlobs], ["tests/**", ["dist/**"]]);
  assertEquals([s.sources.exemptGlobs.kind, s.sources.fileExemptGlobs.kind], ["env", "file"]);
});

Deno.test("[project-config] a broken file is ignored with one warning naming line and column", async () => {
  const s = await resolved(
    { GATEGUARD_METRICS: "1" },
    '{\n  "maxDenials": 5\n  "fileGates": false\n}',
  );
  assertEquals([s.maxDenials, s.fileGates, s.metrics], [null, true, true]);
  assertEquals(s.projectFile, {
    state: "broken",
    path: FILE,
    message: `expected ',' or '}', found character "\\""`,
    line: 3,
    column: 3,
  });
  assertEquals(s.warnings, [
    `ignoring ${FILE} (3:3: expected ',' or '}', found character "\\""); ` +
    "GateGuard uses its environment settings and defaults.",
  ]);
});

Deno.test("[project-config] an oversized, unreadable or non-file project file is ignored", async () => {
  const big = await resolved({}, `{"domainText": "${"x".repeat(PROJECT_CONFIG_MAX_BYTES)}"}`);
  assertEquals(big.projectFile?.state, "broken");
  assertEquals(big.domainText, null);
  const denied = await resolveSettings({}, ROOT, new FilesFs({}, { [FILE]: "EACCES" }));
  assertEquals(denied.warnings, [
    `ignoring ${FILE} (cannot be read (EACCES)); GateGuard uses its environment settings and defaults.`,
  ]);
  const dir = await resolveSettings({}, ROOT, new FilesFs({}, {}, [FILE]));
  assertEquals(
    dir.projectFile?.state === "broken" ? dir.projectFile.message : null,
    "is not a regular file",
  );
  const notDir = await resolveSettings({}, ROOT, new FilesFs({}, { [FILE]: "ENOTDIR" }));
  assertEquals(notDir.projectFile?.state, "absent");
});

Deno.test("[project-config] the settings module loads the JSONC parser only when a file exists", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL("../../src/config/settings.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "null",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout));
  const settings = info.modules.find((m: { specifier: string }) =>
    m.specifier.endsWith("/config/settings.ts")
  );
  const eager =
    (settings.dependencies as { specifier: string; code?: unknown; isDynamic?: boolean }[])
      .filter((d) => d.code && !d.isDynamic).map((d) => d.specifier).sort();
  // The escaper of printed text is one small module without imports of its own.
  assertEquals(eager, ["../platform/terminal_text.ts", "./env.ts"]);
  assert(
    info.modules.some((m: { specifier: string }) =>
      m.specifier.endsWith("/config/project_config.ts")
    ),
  );
});

Deno.test("[allow-destructive] the user file in the state folder adds allowDestructive and destructiveDecision, untrusted", async () => {
  const env = { GATEGUARD_STATE_DIR: "/state" };
  const user = `{
    // the user's own hatches
    "allowDestructive": ["dist/**", "/tmp/**"],
    "destructiveDecision": "ask",
    "fileGates": false,
  }`;
  const fs = new FilesFs({ "/state/config.jsonc": user });
  const s = await resolveSettings(env, ROOT, fs);
  assertEquals(s.allowDestructive, ["dist/**", "/tmp/**"]);
  assertEquals(s.destructiveDecision, "ask");
  // Only its two keys are read: a switch written there switches nothing.
  assertEquals(s.fileGates, true);
  assertEquals(s.warnings, [
    "ignoring fileGates in /state/config.jsonc: the user file holds only allowDestructive and destructiveDecision.",
  ]);
});

Deno.test("[allow-destructive] an untrusted project file's allowDestructive waits; the user file's entries still apply", async () => {
  const env = { GATEGUARD_STATE_DIR: "/state" };
  const fs = new FilesFs({
    [FILE]: '{"allowDestructive": ["src/**"], "destructiveDecision": "ask"}',
    "/state/config.jsonc": '{"allowDestructive": ["build/**"]}',
  });
  const s = await resolveSettings(env, ROOT, fs);
  assertEquals(s.allowDestructive, ["build/**"]);
  assertEquals(s.destructiveDecision, "deny");
});

Deno.test("[allow-destructive] a broken user file loosens nothing and says so", async () => {
  const env = { GATEGUARD_STATE_DIR: "/state" };
  const broken = await resolveSettings(
    env,
    ROOT,
    new FilesFs({ "/state/config.jsonc": '{"allowDestructive": ["dist/**"' }),
  );
  assertEquals(broken.allowDestructive, []);
  assertEquals(broken.warnings.length, 1);
  assert(broken.warnings[0].startsWith("ignoring /state/config.jsonc (1:"), broken.warnings[0]);
  assert(broken.warnings[0].endsWith("); it loosens nothing."), broken.warnings[0]);
  const bad = await resolveSettings(
    env,
    ROOT,
    new FilesFs({ "/state/config.jsonc": '{"destructiveDecision": "allow"}' }),
  );
  assertEquals(bad.destructiveDecision, "deny");
  assertEquals(bad.warnings, [
    "ignoring invalid entries of /state/config.jsonc: destructiveDecision.",
  ]);
});
