/**
 * `gateguard trust`: the user's say-so that a project file may loosen the
 * gates. It records the digest of the file's exact content in the trust
 * store in the state directory (`config/trust_store.ts`), so the hook
 * applies the file's loosening keys until the file changes. `--list` shows
 * what is trusted and whether each file still matches; `--revoke` takes a
 * file's trust back.
 *
 * Only this command writes the store; the hook reads it. The state
 * directory is found as the hook finds it, with the `env` blocks of Claude
 * Code's settings files layered over the shell's environment.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import {
  homeDir,
  PROJECT_CONFIG_MAX_BYTES,
  projectConfigPath,
  stateDirFrom,
} from "../config/settings.ts";
import { parseProjectConfig } from "../config/project_config.ts";
import { splitByTrust } from "../config/trust_rules.ts";
import {
  MAX_TRUSTED_FILES,
  readTrustStore,
  serializeTrustStore,
  trustDigest,
  trustedLocation,
  type TrustEntry,
  trustStorePath,
} from "../config/trust_store.ts";
import type { JsonValue } from "../config/jsonc.ts";
import { writeAtomic } from "../platform/atomic_write.ts";
import { denoFs } from "../platform/fs_port.ts";
import { printable } from "../platform/terminal_text.ts";
import { settingsFiles } from "../setup/claude_settings.ts";
import { hookEnvironment } from "../setup/claude_doctor.ts";
import { readSettingsFile } from "../setup/settings_io.ts";
import { fsErrorWords, prepareStateDir } from "../state/state_dir.ts";
import { cliProjectRoot } from "./project_root.ts";

/** Usage text of `gateguard trust`. */
export const TRUST_USAGE = `Usage: gateguard trust [path]
       gateguard trust --list
       gateguard trust --revoke [path]

Trusts the project file .gateguard.jsonc at path (the file, or the directory
holding it; default: the project root), so its keys that loosen GateGuard
(exemptGlobs, fileGates: false, routineShell: false, maxDenials, ...) apply.
Only that exact content is trusted: after any change the loosening keys are
ignored again until you run this once more. Read the file before you trust
it: the agent GateGuard gates can write it too.

  --list      list the trusted files and whether each still matches
  --revoke    take the trust of the file at path (default: the project root) back`;

const PREFIX = "gateguard trust: ";

/** One error line on stderr; returns exit code 1. */
function fail(line: string): number {
  console.error(printable(`${PREFIX}${line}`));
  return 1;
}

/** What the command line asked for. */
type Request = { kind: "trust" | "revoke"; path: string | null } | { kind: "list" };

function requestOf(args: readonly string[]): Request | { error: string } | "help" {
  let kind: "trust" | "revoke" | "list" = "trust";
  let path: string | null = null;
  for (const arg of args) {
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--list") kind = "list";
    else if (arg === "--revoke") kind = "revoke";
    else if (arg.startsWith("-")) return { error: `unknown option '${arg.slice(0, 80)}'` };
    else if (path !== null) return { error: "takes at most one path" };
    else path = arg;
  }
  if (kind === "list") return path === null ? { kind } : { error: "--list takes no path" };
  return { kind, path };
}

/** The environment a hook would see: the settings files' `env` blocks over the shell's. */
async function hookEnv(env: EnvSnapshot, projectRoot: string): Promise<EnvSnapshot> {
  const parsed: Array<[string, JsonValue]> = [];
  for (const f of settingsFiles(projectRoot, homeDir(env))) {
    const outcome = await readSettingsFile(denoFs, f.path);
    if (outcome.kind === "parsed") parsed.push([f.path, outcome.value]);
  }
  return hookEnvironment(env, parsed).env;
}

/** Where the command was typed: `deno task` runs in the repository and says so in INIT_CWD. */
function typedIn(env: EnvSnapshot): string {
  return env.INIT_CWD !== undefined && env.INIT_CWD.trim() !== "" ? env.INIT_CWD : Deno.cwd();
}

/** The project file a path argument names: the file itself, or the one in a directory. */
function configFileOf(path: string | null, env: EnvSnapshot): string {
  if (path === null) return projectConfigPath(cliProjectRoot(env));
  const absolute = /^([A-Za-z]:)?[\\/]/.test(path) ? path : `${typedIn(env)}/${path}`;
  const info = denoFs.stat(absolute);
  return info.ok && info.isDirectory ? projectConfigPath(absolute) : absolute;
}

/** The file's text when it is a regular file of plain UTF-8 without a byte-order mark. */
function readExact(path: string): { text: string } | { error: string } {
  const info = denoFs.stat(path);
  if (!info.ok && info.code === "ENOENT") {
    return { error: `no project file at ${path}; run this in the project root, or name the file` };
  }
  if (!info.ok) return { error: `${path} cannot be read (${info.code})` };
  if (!info.isFile) return { error: `${path} is not a regular file` };
  if (info.size > PROJECT_CONFIG_MAX_BYTES) {
    return { error: `${path} is larger than ${PROJECT_CONFIG_MAX_BYTES / 1024} KiB` };
  }
  const bytes = denoFs.readRange(path, 0, PROJECT_CONFIG_MAX_BYTES + 1);
  if (bytes === null) return { error: `${path} cannot be read (it must be readable and writable)` };
  if (bytes.length > PROJECT_CONFIG_MAX_BYTES) {
    return { error: `${path} is larger than ${PROJECT_CONFIG_MAX_BYTES / 1024} KiB` };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { error: `${path} is not valid UTF-8; save it as UTF-8 and run this again` };
  }
  // The hook drops a byte-order mark when it reads the file; trusting only
  // files without one keeps the digest that of the exact bytes.
  if (text.startsWith("\uFEFF")) {
    return { error: `${path} starts with a byte-order mark; save it without one and run again` };
  }
  return { text };
}

/** The store's entries for a change, or why the store cannot be written safely. */
function currentEntries(stateDir: string): { entries: TrustEntry[]; note: string | null } | {
  error: string;
} {
  const problem = prepareStateDir(stateDir);
  if (problem !== null) {
    return { error: `the state directory ${stateDir} cannot be used: ${problem}` };
  }
  const store = readTrustStore(denoFs, stateDir);
  if (store.ok) return { entries: store.entries, note: null };
  const path = trustStorePath(stateDir);
  // A store that trusts nothing loses nothing by being replaced; a link or
  // a non-file is left for the user to look at.
  if (store.problem === "is malformed" || store.problem.startsWith("is larger")) {
    return { entries: [], note: `the trust store ${path} ${store.problem}; it is started afresh` };
  }
  return { error: `the trust store ${path} ${store.problem}; remove it and run this again` };
}

function writeStore(stateDir: string, entries: readonly TrustEntry[]): string | null {
  const path = trustStorePath(stateDir);
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16))
    .join("");
  try {
    writeAtomic(path, serializeTrustStore(entries), {
      temp: `${path}.tmp-${Deno.pid}-${nonce}`,
      mode: 0o600,
    });
    return null;
  } catch (err) {
    return `cannot write the trust store ${path}: ${fsErrorWords(err)}`;
  }
}

async function trust(file: string, stateDir: string): Promise<number> {
  const read = readExact(file);
  if ("error" in read) return fail(read.error);
  const location = trustedLocation(denoFs, file);
  if (location === null) {
    return fail(`${file} is a symlink; only a project file that is a file of its own is trusted`);
  }
  const real = { path: location };
  const parsed = parseProjectConfig(read.text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.error;
    return fail(`${file}:${line}:${column}: ${message}; fix the file before trusting it`);
  }
  const { looseningKeys } = splitByTrust(parsed.config);
  if (looseningKeys.length === 0) {
    console.log(printable(
      `${real.path} needs no trust: every key in it only tightens GateGuard, so it applies as it is`,
    ));
    return 0;
  }
  const current = currentEntries(stateDir);
  if ("error" in current) return fail(current.error);
  if (current.note !== null) console.error(printable(`${PREFIX}${current.note}`));
  const entry: TrustEntry = {
    path: real.path,
    sha256: await trustDigest(read.text),
    trustedAt: new Date().toISOString(),
  };
  const entries = [...current.entries.filter((e) => e.path !== real.path), entry]
    .slice(-MAX_TRUSTED_FILES);
  const error = writeStore(stateDir, entries);
  if (error !== null) return fail(error);
  const lines = [`trusted ${real.path} (sha256 ${entry.sha256.slice(0, 16)}…); these now apply:`];
  for (const key of looseningKeys) {
    lines.push(`  ${key}: ${JSON.stringify(parsed.config[key]).slice(0, 200)}`);
  }
  lines.push(
    `Any change to the file needs \`gateguard trust\` again (store: ${trustStorePath(stateDir)}).`,
  );
  console.log(lines.map(printable).join("\n"));
  return 0;
}

function revoke(file: string, stateDir: string): number {
  const real = denoFs.realPath(file);
  const path = real.ok ? real.path : file;
  const store = readTrustStore(denoFs, stateDir);
  if (!store.ok) return fail(`the trust store ${trustStorePath(stateDir)} ${store.problem}`);
  const kept = store.entries.filter((e) => e.path !== path);
  if (kept.length === store.entries.length) {
    console.log(printable(`${path} was not trusted; nothing to revoke`));
    return 0;
  }
  const error = writeStore(stateDir, kept);
  if (error !== null) return fail(error);
  console.log(printable(`revoked the trust of ${path}; its loosening keys are ignored again`));
  return 0;
}

async function list(stateDir: string): Promise<number> {
  const store = readTrustStore(denoFs, stateDir);
  const where = trustStorePath(stateDir);
  if (!store.ok) return fail(`the trust store ${where} ${store.problem}, so it trusts nothing`);
  if (store.entries.length === 0) {
    console.log(printable(`no trusted project files (store: ${where})`));
    return 0;
  }
  const lines = [`trusted project files (store: ${where}):`];
  for (const entry of store.entries) {
    const read = readExact(entry.path);
    const state = "error" in read
      ? "missing or unreadable"
      : await trustDigest(read.text) === entry.sha256
      ? "matches"
      : "changed since, its loosening keys are ignored";
    lines.push(`  ${entry.path}  trusted ${entry.trustedAt}: ${state}`);
  }
  console.log(lines.map(printable).join("\n"));
  return 0;
}

/** Runs `gateguard trust`; returns the exit code. */
export async function main(args: string[], env: EnvSnapshot): Promise<number> {
  const request = requestOf(args);
  if (request === "help") {
    console.log(TRUST_USAGE);
    return 0;
  }
  if ("error" in request) {
    console.error(`${PREFIX}${request.error}\n${TRUST_USAGE}`);
    return 2;
  }
  const stateDir = stateDirFrom(await hookEnv(env, cliProjectRoot(env)));
  if (request.kind === "list") return await list(stateDir);
  const file = configFileOf(request.path, env);
  return request.kind === "trust" ? await trust(file, stateDir) : revoke(file, stateDir);
}
